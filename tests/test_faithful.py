"""The wide check's text measures (`evaluation.faithful`) against a PDF's own text layer."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citechunk.evaluation.faithful import check_text, label_f1, words

LINES = [
    "The committee reviewed the quarterly budget and approved it.",
    "Loss of keys is covered by the policy once each year.",
    "We are indebted to our colleagues for their careful reading.",
]


@pytest.fixture(scope="module")
def layer(tmp_path_factory: pytest.TempPathFactory) -> dict[int, str]:
    path = Path(tmp_path_factory.mktemp("faithful")) / "doc.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(LINES):
        page.insert_text((72, 100 + 20 * i), line, fontsize=11)
    doc.save(path)
    with pymupdf.open(path) as pdf:
        return {p.number + 1: p.get_text("text") for p in pdf}


def _md(*lines: str) -> str:
    return "<!-- page 1 -->\n\n" + "\n\n".join(lines) + "\n"


def test_faithful_markdown_scores_clean(layer: dict[int, str]) -> None:
    r = check_text(layer, _md(*LINES))
    assert (r.invented, r.glued, r.cut, r.reversed) == (0, 0, 0, 0)
    assert r.coverage == 1.0


def test_each_defect_is_counted(layer: dict[int, str]) -> None:
    md = _md(
        LINES[0] + " " + LINES[0],  # repeated
        "Loss ofkeys is covered by the policy once each year.",  # glued
        "We are indebte d to our colleagues for their careful reading.",  # cut
    )
    r = check_text(layer, md)
    assert r.invented > 0 and "the +2" in r.examples["invented"]
    assert r.examples["glued"] == ("ofkeys",)
    assert r.examples["cut"] == ("indebte d",)
    assert r.reversed == 0


def test_reversed_words_and_lost_lines(layer: dict[int, str]) -> None:
    md = _md(LINES[0], "eettimmoc ylretrauq")
    r = check_text(layer, md)
    assert set(r.examples["reversed"]) == {"eettimmoc", "ylretrauq"}
    assert r.coverage < 0.5


def test_ocr_pages_are_left_out(layer: dict[int, str]) -> None:
    r = check_text(layer, _md("nothing from this page"), skip=[1])
    assert r.words == 0 and r.coverage == 1.0


def test_cjk_is_a_word_per_character_and_spaces_inside_count() -> None:
    assert words("中文 text") == ["中", "文", "text"]
    r = check_text({1: "数值计算方法\n"}, _md("数值 计算方法"))
    assert r.examples["cjk_spaces"] == ("值 计",)
    assert r.invented == 0


def test_label_f1_ignores_a_parenthesised_suffix() -> None:
    assert (
        label_f1("NTT DATA CSR Report 2014", "NTT DATA CSR Report 2014 (Highlight Version)") == 1.0
    )
    assert label_f1("The bank at your side", "Canadian Banc Corp. 2022 Annual Report") == 0.0
