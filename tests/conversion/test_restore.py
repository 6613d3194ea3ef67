"""The text-layer self-check: lines the Markdown lost come back, in reading order, once."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.coverage import dropped_lines, page_coverage, words
from citechunk.conversion.passcontext import PassContext
from citechunk.conversion.repairs.restore import restore_dropped_lines, restore_lines
from citechunk.conversion.runninglines import RunningLines
from citechunk.conversion.textlayer import Line, PageText, TextLayer
from citechunk.markers import page_spans

ODD = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "odd"


def lines(*texts: str, blocks: tuple[int, ...] = ()) -> list[Line]:
    return [
        Line(t, (0.0, 10.0 * i, 100.0, 10.0 * i + 9), blocks[i] if blocks else i, 10.0, False)
        for i, t in enumerate(texts)
    ]


def test_words_fold_ligatures_case_and_markup() -> None:
    assert words("The <sup>1</sup> **Oﬃcial** ﬁle") == ["the", "1", "official", "file"]


def test_a_word_hyphenated_at_a_line_end_counts_whole_when_joined() -> None:
    layer = lines("the adip-", "iscing elit")
    assert page_coverage(layer, "the adipiscing elit").share == 1.0
    assert page_coverage(layer, "the adip- iscing elit").share == 1.0
    assert page_coverage(layer, "the elit").found == 2


def test_dropped_lines_blames_a_common_word_on_one_line_only() -> None:
    layer = lines("Introduction to the method", "of the", "the end of the story")
    md = "Introduction to the method\n\nthe end of the story"
    assert dropped_lines(layer, md) == [1]
    assert dropped_lines(layer, md + "\n\nof the") == []


def test_restored_lines_follow_the_line_read_before_them() -> None:
    layer = lines(
        "First paragraph here.", "Lost line one", "lost line two", "Third one.", blocks=(0, 1, 1, 2)
    )
    md = "# Title\n\nFirst paragraph here.\n\nThird one."
    out = restore_lines(md, layer, dropped_lines(layer, md))
    assert out == "# Title\n\nFirst paragraph here.\n\nLost line one lost line two\n\nThird one."


def test_a_dropped_first_line_goes_before_the_block_of_the_next_one() -> None:
    layer = lines("Part 3: Ethics", "Describe the risks in detail.")
    out = restore_lines("Describe the risks in detail.", layer, [0])
    assert out == "Part 3: Ethics\n\nDescribe the risks in detail."


def test_restored_text_never_becomes_markdown_syntax() -> None:
    layer = lines("# not a heading", "| not a table |", "Body text stays.")
    out = restore_lines("Body text stays.", layer, [0, 1])
    assert out.startswith("\\# not a heading")
    assert "\n\\| not a table |" in out


def _layer(page_lines: list[Line]) -> TextLayer:
    return TextLayer.from_pages([PageText(1, (), tuple(page_lines))])


def test_pass_counts_restored_lines_per_page_and_never_leaves_a_page_empty() -> None:
    ctx = PassContext(options=ConvertOptions(), text_layer=_layer(lines("Hello, World!")))
    assert restore_dropped_lines([(1, "")], ctx) == [(1, "Hello, World!")]
    assert ctx.restored == {1: 1}


def test_running_lines_are_not_restored() -> None:
    layer = _layer(lines("Acme Report 2024", "Body text."))
    running = RunningLines({1: {"acme report #": 1}})
    ctx = PassContext(options=ConvertOptions(), text_layer=layer, running=running)
    assert restore_dropped_lines([(1, "Body text.")], ctx) == [(1, "Body text.")]
    assert ctx.restored == {}


def test_a_page_whose_only_text_is_the_document_s_running_footer_stays_empty() -> None:
    pages = [
        PageText(1, (), tuple(lines("Body text.", "Acme Report 2024"))),
        PageText(2, (), tuple(lines("Acme Report 2024"))),
    ]
    running = RunningLines({1: {"acme report #": 1}, 2: {"acme report #": 1}})
    layer = TextLayer.from_pages(pages)
    ctx = PassContext(options=ConvertOptions(), text_layer=layer, running=running)
    assert restore_dropped_lines([(1, "Body text."), (2, "")], ctx) == [(1, "Body text."), (2, "")]
    assert ctx.restored == {}
    alone = RunningLines({2: {"acme report #": 1}})  # its only text, running on no other page
    ctx = PassContext(options=ConvertOptions(), text_layer=layer, running=alone)
    assert restore_dropped_lines([(2, "")], ctx) == [(2, "Acme Report 2024")]


def test_pass_is_off_without_a_text_layer() -> None:
    ctx = PassContext(options=ConvertOptions())
    assert restore_dropped_lines([(1, "")], ctx) == [(1, "")]


def _page_text(markdown: str, page: int) -> str:
    spans = page_spans(markdown)
    starts = [(off, p) for off, p in spans]
    for i, (off, p) in enumerate(starts):
        if p == page:
            end = starts[i + 1][0] if i + 1 < len(starts) else len(markdown)
            return markdown[off:end]
    return ""


def odd(name: str) -> Path:
    path = ODD / name
    if not path.exists():
        pytest.skip(f"{path} not available (the shared corpus sits beside the repository)")
    return path


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("016-libre-office-link_libre-office-link.pdf", "This is a link to an awesome blog."),
        ("013-reportlab-overlay_reportlab-overlay.pdf", "Fingerprint: asdfSa2123"),
        ("013-reportlab-overlay_reportlab-overlay.pdf", "Name: Foo Bar"),
        ("018-base64-image_base64image.pdf", "Produced with a Trial Version of PDF Annotator"),
        ("022-pdfkit_pdfkit.pdf", "Header"),
        ("024-annotations_annotated_pdf.pdf", "Some text."),
    ],
)
def test_a_line_found_once_in_the_top_or_bottom_band_stays(name: str, text: str) -> None:
    doc = convert(odd(name))
    assert text in doc.markdown
    assert doc.provenance.word_coverage is not None and doc.provenance.word_coverage >= 0.99


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["015-arabic_habibi.pdf", "015-arabic_habibi-oneline-cmap.pdf"])
def test_right_to_left_text_beside_latin_is_kept_in_logical_order(name: str) -> None:
    doc = convert(odd(name))
    assert "حَبيبي habibi" in doc.markdown
    # the only warning: the glyphs with no text beside it (the `glyphs` pass drops them)
    assert doc.provenance.warnings == ("glyphs without text dropped on pages: 1",)
    assert "\ufffd" not in doc.markdown


@pytest.mark.corpus
def test_rotated_pages_with_text_are_never_empty() -> None:
    path = odd("015-arabic_habibi-rotated.pdf")
    doc = convert(path)
    with pymupdf.open(path) as pdf:
        assert pdf.page_count == 4
    for page in range(1, 5):
        assert "habibi" in _page_text(doc.markdown, page)
    # the one line of each page is no running line (it is all of its page, away from the
    # edges); pages 1-3 are rotated and their layout boxes have no text: the self-check
    # brings the line back there
    assert dict(doc.provenance.restored_lines) == {1: 1, 2: 1, 3: 1}
    assert not any("gave no Markdown" in w for w in doc.provenance.warnings)


def test_formula_fragments_are_not_restored() -> None:
    layer = _layer(lines("The loss is defined below.", "(1)", "i , p−"))
    ctx = PassContext(options=ConvertOptions(), text_layer=layer)
    assert restore_dropped_lines([(1, "The loss is defined below.")], ctx)[0][1] == (
        "The loss is defined below."
    )


def test_a_line_whose_words_a_table_cell_glued_is_not_restored_after_the_table() -> None:
    layer = _layer(lines("Organic net sales growth", "53rd week", "Net sales growth"))
    md = "|Organic net sales growth|6 pts|\n|---|---|\n|53rdweek|2 pts|\n|Net salesgrowth|8 pts|"
    ctx = PassContext(options=ConvertOptions(), text_layer=layer)
    assert restore_dropped_lines([(1, md)], ctx) == [(1, md)]
    assert ctx.restored == {}
