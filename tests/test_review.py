"""The review page: written by `citechunk review`, checked in a real headless Chromium.

The browser test drives Debian's Chromium (``/usr/bin/chromium``, installed by ``.ci/run``)
through Playwright for Python; it is skipped when either is missing on a developer machine.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from click.testing import CliRunner

from citechunk import ingest, review
from citechunk.cli import main
from citechunk.errors import ConfigError
from citechunk.export import iter_records

pytestmark = pytest.mark.heavy

SAMPLES = Path(__file__).resolve().parents[1] / "sample_pdfs"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
HEDGING_FIRST = "The Board-approved hedging policy requires the Group to hedge"
HEDGING_LAST = "the thirteen-to-twenty-four-month ratio was 46%."


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("in")
    for name in ("report_outline.pdf", "refund_policy.pdf"):
        shutil.copy(SAMPLES / name, src / name)
    out = tmp_path_factory.mktemp("out")
    assert ingest(src, out).ok
    return out


def test_review_writes_one_page_per_document_and_refuses_ambiguous_output(
    out: Path, tmp_path: Path
) -> None:
    paths = review(out)
    assert sorted(p.name.split(".pdf")[0] for p in paths) == ["refund_policy", "report_outline"]
    assert all(p.parent == out / "review" for p in paths)
    with pytest.raises(ConfigError, match="pass --doc"):
        review(out, output=tmp_path / "x.html")
    result = CliRunner().invoke(
        main, ["review", str(out), "--doc", "refund_policy.pdf", "-o", str(tmp_path / "r.html")]
    )
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(tmp_path / "r.html")
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text  # nothing fetched from outside
    assert text.count('class="page"') == 1


def test_review_refuses_a_changed_pdf(out: Path, tmp_path: Path) -> None:
    other = tmp_path / "in"
    other.mkdir()
    shutil.copy(SAMPLES / "retry_settings.pdf", other / "report_outline.pdf")
    with pytest.raises(Exception, match="changed since it was ingested"):
        review(out, doc="report_outline.pdf", input=other)


def _paragraph_rect(pdf: Path) -> tuple[pymupdf.Rect, pymupdf.Rect]:
    """PyMuPDF's rectangle of the hedging-policy text (its blocks, first to last sentence) and
    the page rectangle."""
    with pymupdf.open(pdf) as doc:
        page = doc[0]
        blocks = [
            (pymupdf.Rect(b[:4]), " ".join(str(b[4]).split())) for b in page.get_text("blocks")
        ]
        first = next(i for i, (_, t) in enumerate(blocks) if HEDGING_FIRST in t)
        last = next(i for i, (_, t) in enumerate(blocks) if HEDGING_LAST in t)
        rect = pymupdf.Rect(blocks[first][0])
        for r, _ in blocks[first : last + 1]:
            rect |= r
        return rect, page.rect


def _browser() -> Any:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium)")
    return sync_api.sync_playwright()


def test_review_page_in_headless_chromium(out: Path, tmp_path: Path) -> None:
    (html_path,) = review(out, doc="report_outline.pdf")
    records = [r for r in iter_records(out) if r.source_file == "report_outline.pdf"]
    with pymupdf.open(SAMPLES / "report_outline.pdf") as doc:
        pages = doc.page_count
    with _browser() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on(
            "request",
            lambda r: None if r.url.startswith(("file:", "data:")) else problems.append(r.url),
        )
        page.goto(html_path.as_uri())
        page.wait_for_load_state("load")
        assert page.locator("section.page").count() == pages
        loaded = "n => { const i = document.images[n]; return i.complete && i.naturalWidth > 0; }"
        for n in range(pages):  # lazy images: each is decoded once scrolled into view
            page.locator("section.page img").nth(n).scroll_into_view_if_needed()
            page.wait_for_function(loaded, arg=n, timeout=10_000)
        page.locator("section.page").first.scroll_into_view_if_needed()
        for r in records:
            boxes = page.locator(f'.box[data-chunk="{r.chunk_index}"]')
            assert boxes.count() == len(r.boxes) > 0
            shown = {int(b.get_attribute("id").split("-")[1]) for b in boxes.all()}
            assert shown == set(range(r.first_page, r.last_page + 1))  # crossing chunks: both pages
            assert all((b.bounding_box() or {}).get("width", 0) > 0 for b in boxes.all())
        hedging = next(r for r in records if "Board-approved hedging" in r.text)
        # the boxes of the hedging chunk sit where PyMuPDF finds that paragraph, scaled to the
        # image (a short last line is a box of its own: their union is the paragraph)
        box_els = page.locator(f'#page-1 .box[data-chunk="{hedging.chunk_index}"]')
        box_el = box_els.first
        box_el.scroll_into_view_if_needed()
        image = page.locator("#page-1 img").bounding_box()
        rects = [b.bounding_box() or {} for b in box_els.all()]
        got = {
            "x": min(r["x"] for r in rects),
            "y": min(r["y"] for r in rects),
            "width": max(r["x"] + r["width"] for r in rects) - min(r["x"] for r in rects),
            "height": max(r["y"] + r["height"] for r in rects) - min(r["y"] for r in rects),
        }
        para, page_rect = _paragraph_rect(SAMPLES / "report_outline.pdf")
        scale = image["width"] / page_rect.width
        want = (image["x"] + para.x0 * scale, image["y"] + para.y0 * scale,
                image["x"] + para.x1 * scale, image["y"] + para.y1 * scale)  # fmt: skip
        edges = (got["x"], got["y"], got["x"] + got["width"], got["y"] + got["height"])
        assert all(abs(g - w) <= 3 * scale for g, w in zip(edges, want, strict=True)), (edges, want)
        # hovering the box shows the chunk's index, pages, tokens and text
        box_el.hover()
        info = page.locator("#info").inner_text()
        assert f"chunk #{hedging.chunk_index}" in info and f"{hedging.token_count} tokens" in info
        assert HEDGING_FIRST in info and hedging.pages in info
        page.screenshot(path=str(tmp_path / "review.png"))
        # the list links to the chunk's first box and highlights all its boxes
        page.locator(f'#list a[data-chunk="{records[-1].chunk_index}"]').click()
        on = page.locator(f'.box.on[data-chunk="{records[-1].chunk_index}"]').count()
        assert on == len(records[-1].boxes)
        browser.close()
    assert problems == []
    assert (tmp_path / "review.png").stat().st_size > 10_000
