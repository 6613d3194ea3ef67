"""OCR in the script a page is written in (``convert.ocr_languages = "auto"``), with the real
Tesseract on scans made here (`sample_pdfs/make_samples.py`, `SCRIPT_SCANS`: a notice typeset
in a Debian font, kept only as a grey picture).

Under "auto" a Thai or Chinese scan reads back as its own characters; under ["eng"] it reads as
Latin letters; an English scan reads the same under both.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from pathlib import Path
from types import ModuleType

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.ocr import (
    SCRIPT_LANGUAGES,
    OcrWord,
    _groups,
    _missing_warnings,
    join_unspaced,
    render,
    script_readings,
    tesseract_words,
    unavailable,
)
from citechunk.evaluation.scans import make_scan

pytestmark = pytest.mark.heavy

THAI = re.compile(r"[\u0e00-\u0e7f]")
HAN = re.compile(r"[\u4e00-\u9fff]")


def _scan(samples: ModuleType, name: str, language: str, out: Path) -> tuple[Path, str]:
    """The named script scan written into `out` and its text; skipped when this machine has
    no font for it or no Tesseract data for its language."""
    scan = next(s for s in samples.SCRIPT_SCANS if s.name == name)
    if samples.font_of(scan) is None:
        pytest.skip(f"no font for {name} ({', '.join(scan.fonts)})")
    why = unavailable("tesseract", ["eng", language])
    if why:
        pytest.skip(why)
    return samples.script_scan(scan, out), scan.text


def _letters(text: str) -> str:
    """Text without Markdown marks and spaces, in NFKC (Tesseract writes Thai SARA AM as
    NIKHAHIT + SARA AA)."""
    text = re.sub(r"<!--.*?-->|^#+ ", "", text, flags=re.M)
    return "".join(unicodedata.normalize("NFKC", text).split())


def _similarity(found: str, truth: str) -> float:
    return difflib.SequenceMatcher(None, _letters(found), _letters(truth), autojunk=False).ratio()


@pytest.mark.parametrize(
    "name, language, script, floor",
    [("thai_notice_scan.pdf", "tha", THAI, 0.9), ("chinese_notice_scan.pdf", "chi_sim", HAN, 0.8)],
)
def test_auto_reads_a_scan_in_its_own_script_and_eng_does_not(
    make_samples: ModuleType,
    tmp_path: Path,
    name: str,
    language: str,
    script: re.Pattern[str],
    floor: float,
) -> None:
    pdf, truth = _scan(make_samples, name, language, tmp_path)
    auto = convert(pdf)
    assert auto.provenance.ocr_pages == (1,)
    assert _similarity(auto.markdown, truth) >= floor, auto.markdown
    english = convert(pdf, ConvertOptions(ocr_languages=("eng",)))
    assert not script.search(english.markdown), english.markdown
    assert _similarity(english.markdown, truth) < 0.2


def _marks(text: str) -> bool:
    """A line of stray marks: most of its tokens are one or two characters."""
    tokens = text.lstrip("# ").split()
    return sum(len(t) <= 2 for t in tokens) > len(tokens) / 2


def test_thai_words_are_whole_and_mark_lines_are_gone(
    make_samples: ModuleType, tmp_path: Path
) -> None:
    """Tesseract's TSV gives Thai a word per character and reads stacked tone marks as lines
    of their own; the Markdown has the words as the text output spaces them, and (almost) no
    line of marks where the engine's own reading has several."""
    pdf, _ = _scan(make_samples, "thai_notice_scan.pdf", "tha", tmp_path)
    markdown = convert(pdf).markdown
    paragraphs = [p for p in markdown.split("\n\n") if THAI.search(p)]
    assert any("บริษัทขอเชิญผู้ถือหุ้นทุกท่าน" in p for p in paragraphs), markdown
    with pymupdf.open(pdf) as doc:
        raw = tesseract_words([render(doc[0])], ["tha"])[0]
    raw_lines = [" ".join(w.text for w in line) for line in _groups(raw, "line")]
    assert sum(map(_marks, raw_lines)) >= 4, raw_lines
    assert sum(map(_marks, paragraphs)) <= 1, paragraphs


def test_an_english_scan_reads_the_same_under_auto(sample_pdfs: Path, tmp_path: Path) -> None:
    """Confidently read Latin pages are never detected again; a sideways page is (orientation)
    and stays Latin."""
    if unavailable("tesseract", ["eng"]):
        pytest.skip("Tesseract with English data not installed")
    scan = make_scan(
        sample_pdfs / "report_outline.pdf", tmp_path / "scan.pdf", skew=0.5, turns={2: 90}
    )
    auto = convert(scan, ConvertOptions(ocr_languages="auto"))
    english = convert(scan, ConvertOptions(ocr_languages=("eng",)))
    assert auto.provenance.ocr_pages == (1, 2, 3)
    assert auto.markdown == english.markdown
    assert auto.provenance.warnings == english.provenance.warnings


def test_script_readings_are_the_installed_ones() -> None:
    assert script_readings("Thai", frozenset({"eng", "tha"})) == (("tha",),)
    assert script_readings("Han", frozenset({"eng", "chi_tra"})) == (("chi_tra",),)
    assert script_readings("Japanese", frozenset({"chi_sim", "chi_tra"})) == (
        ("chi_sim",),
        ("chi_tra",),
    )
    assert script_readings("Thai", frozenset({"eng"})) == ()
    assert script_readings("Klingon", frozenset({"eng"})) == ()
    assert all(all(code.isascii() for r in rs for code in r) for rs in SCRIPT_LANGUAGES.values())


def test_a_script_without_data_is_named_with_its_package() -> None:
    (warning,) = _missing_warnings({"Thai": [1, 2, 3, 5]})
    assert "pages 1-3, 5 look Thai but were read as eng" in warning
    assert "apt-get install tesseract-ocr-tha" in warning


def _word(text: str, x: float, line: int = 1) -> OcrWord:
    return OcrWord(text, (x, 0.0, x + 10.0, 10.0), 90.0, 1, line)


def test_words_are_joined_where_the_text_output_has_no_space() -> None:
    pages = [[_word("ท", 0), _word("ี่", 10), _word("กค", 30), _word("ab", 0, 2)], [_word("c", 0)]]
    joined = join_unspaced(pages, "ที่ กค\nab\n\f c\n")
    assert [[w.text for w in page] for page in joined] == [["ที่", "กค", "ab"], ["c"]]
    assert joined[0][0].box == (0.0, 0.0, 20.0, 10.0)
    # outputs that do not align leave the words alone
    assert join_unspaced(pages, "something else") == pages
