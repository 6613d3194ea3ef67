"""Strike-through marks around less than a struck phrase are not invented."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.repairs.strikethrough import drop_unshown_strikes


def test_marks_around_a_letter_a_symbol_or_an_identifier_go() -> None:
    assert drop_unshown_strikes("the sale of th ~~e~~ collateral") == "the sale of th e collateral"
    assert drop_unshown_strikes("Inverses [ _~~γ~~_ ~~]~~ = x") == "Inverses [ _γ_ ] = x"
    assert drop_unshown_strikes("run ~~GSTP1_RAT~~ then ~~expand_script.sh~~") == (
        "run GSTP1_RAT then expand_script.sh"
    )


def test_a_struck_phrase_keeps_its_marks_and_code_is_left_alone() -> None:
    assert drop_unshown_strikes("we ~~shall not~~ may") == "we ~~shall not~~ may"
    assert drop_unshown_strikes("`~~x~~` and ~~y~~") == "`~~x~~` and y"
    fenced = "```\n~~x~~\n```\n~~y~~"
    assert drop_unshown_strikes(fenced) == "```\n~~x~~\n```\ny"


@pytest.mark.heavy
def test_a_line_through_one_identifier_is_no_strike_through(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Run GSTP1RAT with the default settings.", fontsize=10)
    page.draw_line((95, 97), (140, 97))  # a rule through the identifier only
    page.insert_text((72, 140), "The old wording is withdrawn here.", fontsize=10)
    page.draw_line((72, 137), (175, 137))  # a line through a phrase
    doc.save(tmp_path / "rules.pdf")
    markdown = convert(tmp_path / "rules.pdf").markdown
    assert "~~GSTP1RAT~~" not in markdown and "GSTP1RAT" in markdown
    assert "~~The old wording" in markdown
    skipped = ConvertOptions(skip_passes=("strikethrough",))
    assert "~~GSTP1RAT~~" in convert(tmp_path / "rules.pdf", skipped).markdown
