"""The source map: Markdown character ranges -> text-layer lines -> boxes on the page."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pymupdf
import pytest

from citechunk import Box, chunk_markdown, convert, ingest, markdown_boxes, read_chunks
from citechunk.conversion.textlayer import PageText, TextLayer, Word
from citechunk.evaluation.boxes import Span, answer_cover, overlaps
from citechunk.export import iter_records, sourcemap

pytestmark = pytest.mark.heavy

SAMPLES = Path(__file__).resolve().parents[1] / "sample_pdfs"


def _page(number: int, lines: list[tuple[int, float, float, list[str]]]) -> PageText:
    """A page from (block, x0, y0, words) lines: words 30 pt wide, lines 10 pt high."""
    words = []
    for n, (block, x0, y0, texts) in enumerate(lines):
        for k, text in enumerate(texts):
            x = x0 + 35 * k
            words.append(Word(text, (x, y0, x + 30, y0 + 10), block, n))
    return PageText(number, tuple(words), ())


def _mapped(smap: sourcemap.SourceMap, md: str) -> list[str]:
    return [md[p.start : p.end] for p in smap.pieces]


def test_converter_syntax_has_no_box_and_words_map_in_order() -> None:
    page = _page(1, [(0, 50, 100, ["Results"]), (1, 50, 130, ["Cash", "rose", "sharply."])])
    page = PageText(1, page.words + _page(1, [(2, 50, 160, ["EUR", "12"])]).words, ())
    md = "<!-- page 1 -->\n\n## 2.1 Results\n\n- **Cash** rose _sharply_.\n\n| EUR | 12 |\n|---|---|\n"
    smap = sourcemap.build(md, TextLayer.from_pages([page]))
    assert _mapped(smap, md) == ["Results", "**Cash**", "rose", "_sharply_.", "EUR", "12"]
    assert smap.boxes(0, md.index("##")) == []  # the marker line
    assert (
        smap.boxes(md.index("##"), md.index("2.1") + 3) == []
    )  # "## 2.1": written by the converter
    head = md.index("- **Cash**")
    assert smap.boxes(head, md.index("\n\n|")) == [Box(1, 50, 130, 150, 140)]


def test_hyphenated_word_gets_both_lines_and_reordered_columns_re_anchor() -> None:
    left = [(0, 50, 100, ["alpha", "beta", "infor-"]), (0, 50, 112, ["mation", "gamma"])]
    right = [(1, 300, 100, ["delta", "epsilon", "zeta"]), (1, 300, 112, ["eta", "theta"])]
    page = _page(1, left + right)
    md = "<!-- page 1 -->\n\ndelta epsilon zeta eta theta\n\nalpha beta information gamma\n"
    smap = sourcemap.build(md, TextLayer.from_pages([page]))
    assert len(smap.pieces) == 10  # every word mapped, "information" to two page words
    start = md.index("information")
    boxes = smap.boxes(start, start + len("information"))
    assert [(b.y0, b.x0) for b in boxes] == [(100.0, 120.0), (112.0, 50.0)]
    # per column (the right one first: Markdown order), its short last line kept apart
    assert smap.boxes(0, len(md)) == [
        Box(1, 300, 100, 400, 110),
        Box(1, 300, 112, 365, 122),
        Box(1, 50, 100, 150, 110),
        Box(1, 50, 112, 115, 122),
    ]


def test_partial_first_and_last_lines_stay_apart() -> None:
    lines = [(0, 50, 100 + 12 * n, [f"w{n}a", f"w{n}b", f"w{n}c"]) for n in range(4)]
    md = "<!-- page 1 -->\n\n" + " ".join(w for _, _, _, ws in lines for w in ws) + "\n"
    smap = sourcemap.build(md, TextLayer.from_pages([_page(1, lines)]))
    start, end = md.index("w0c"), md.index("w3a") + 3
    assert smap.boxes(start, end) == [
        Box(1, 120, 100, 150, 110),
        Box(1, 50, 112, 150, 134),
        Box(1, 50, 136, 80, 146),
    ]
    rest = smap.boxes(end + 1, len(md))
    assert rest == [Box(1, 85, 136, 150, 146)]  # the neighbour's boxes do not overlap these


def test_save_load_and_markdown_boxes(tmp_path: Path) -> None:
    page = _page(1, [(0, 10, 10, ["one", "two"])])
    md = "<!-- page 1 -->\n\none two\n"
    smap = sourcemap.build(md, TextLayer.from_pages([page]))
    md_path = tmp_path / "doc.md"
    md_path.write_text(md, encoding="utf-8")
    assert markdown_boxes(md_path, 0, len(md)) == []  # no map saved yet
    assert sourcemap.save(smap, md_path) == tmp_path / "doc.md.map.json"
    assert sourcemap.load(md_path) == smap
    assert markdown_boxes(md_path, md.index("two"), len(md)) == [Box(1, 45, 10, 75, 20)]
    (tmp_path / "doc.md.map.json").write_text('{"format": "other"}', encoding="utf-8")
    with pytest.raises(ValueError, match="doc.md.map.json"):
        sourcemap.load(md_path)


def test_sample_pdf_every_word_maps_and_the_hedging_chunk_covers_its_paragraph() -> None:
    pdf = SAMPLES / "report_outline.pdf"
    doc = convert(pdf)
    smap = sourcemap.of_pdf(pdf, doc.markdown)
    tokens = sourcemap.markdown_tokens(doc.markdown, 0, len(doc.markdown))
    assert {t[1] for t in tokens} == {p.start for p in smap.pieces}
    chunks = chunk_markdown(doc.markdown)
    spans = [
        Span(c.char_start, c.char_end, tuple(smap.boxes(c.char_start, c.char_end))) for c in chunks
    ]
    for c, s in zip(chunks, spans, strict=True):
        assert {b.page for b in s.boxes} == set(range(c.first_page, c.last_page + 1))
    assert max(overlaps(spans)) < 0.02
    hedging = next(s for c, s in zip(chunks, spans, strict=True) if "Board-approved" in c.body)
    sentence = "The Board-approved hedging policy requires the Group to hedge"
    with pymupdf.open(pdf) as pdf_doc:
        assert answer_cover(pdf_doc[0], sentence, hedging.boxes) == pytest.approx(1.0)
        assert answer_cover(pdf_doc[0], "Group liquidity remained strong", hedging.boxes) == 0.0


def test_ingest_writes_the_map_and_boxes_that_re_chunking_reproduces(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert ingest(SAMPLES / "refund_policy.pdf", out).ok
    records = list(iter_records(out))
    md_path = out / records[0].markdown_file
    assert sourcemap.map_path(md_path).is_file()
    assert all(r.boxes for r in records)
    for r in records:
        assert markdown_boxes(md_path, r.char_start, r.char_end) == list(r.boxes)
    table = read_chunks(out)
    assert table.column("boxes").to_pylist()[0][0] == records[0].boxes[0].to_dict()


def test_files_written_before_boxes_read_as_empty(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert ingest(SAMPLES / "refund_policy.pdf", out).ok
    chunk_file = next((out / "chunks").glob("*.parquet"))
    table = pq.read_table(chunk_file)
    old = tmp_path / "old" / "chunks"
    old.mkdir(parents=True)
    pq.write_table(table.drop(["boxes"]), old / "a.parquet")
    assert {len(b) for b in read_chunks(old.parent).column("boxes").to_pylist()} == {0}
    assert all(r.boxes == () for r in iter_records(old.parent))
    legacy = tmp_path / "legacy" / "chunks"
    legacy.mkdir(parents=True)
    rows = [{k: v for k, v in r.items() if k != "boxes"} for r in table.to_pylist()]
    (legacy / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert all(r.boxes == () for r in iter_records(legacy.parent))
