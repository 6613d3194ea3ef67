"""Pass `glyphs`: accents joined, boxes and bullets as Markdown, glyphs without text dropped."""

from __future__ import annotations

import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion.passcontext import PassContext
from citechunk.conversion.repairs.glyphs import repair_glyphs, repair_line


@pytest.mark.parametrize(
    ("line", "fixed"),
    [
        ("Heinrich K¨uttler and Barlas O˘guz", "Heinrich Küttler and Barlas Oğuz"),  # TeX: before
        ("Ageˆncia Nacional", "Agência Nacional"),  # accent after its letter
        ("a na¨ıve tracer", "a naïve tracer"),  # dotless i under an accent
        ("T˝okés, ˇCech, Franc¸ois, Pe˜na", "Tőkés, Čech, François, Peña"),
        ("Jos´e said", "José said"),
        ("the Ministry´s view", "the Ministry´s view"),  # acute as apostrophe: left alone
        ("x¯ and a lone ˆ", "x¯ and a lone ˆ"),  # nothing composes
        ("Cafe\u0301 decomposed", "Café decomposed"),  # NFC
        ("Yes ☒ No ☐ and Yes ¨ No", "Yes [x] No [ ] and Yes [ ] No"),
        ("• Interest rate hedges", "- Interest rate hedges"),
        ("  ■ 1. The authority citation", "  - 1. The authority citation"),
        ("◦ ◦ z = a", "◦ ◦ z = a"),  # a symbol, not a bullet before text
        ("Rate • 5%", "Rate • 5%"),  # not opening the line
    ],
)
def test_repair_line(line: str, fixed: str) -> None:
    assert repair_line(line) == fixed


def test_glyphs_without_text_are_dropped_and_their_pages_named() -> None:
    ctx = PassContext(ConvertOptions())
    pages = [
        (1, "so ist \ufffd Ui offen\ufffd\ufffd. habibi\ufffd\ufffdحَبيبي"),
        (2, "K¨uttler\n\n```\nK¨uttler ☐\n```"),
        (3, "\ufffd"),
    ]
    out = repair_glyphs(pages, ctx)
    assert out == [
        (1, "so ist Ui offen. habibi حَبيبي"),
        (2, "Küttler\n\n```\nK¨uttler ☐\n```"),
        (3, ""),
    ]
    assert ctx.warnings == ["glyphs without text dropped on pages: 1, 3"]
    clean = PassContext(ConvertOptions())
    repair_glyphs([(1, "plain")], clean)
    assert clean.warnings == []


def test_warning_names_the_words_that_lost_letters() -> None:
    """A ligature glyph without text inside words: the warning names each damaged word once."""
    ctx = PassContext(ConvertOptions())
    pages = [(1, "a di\ufffderent provision, e\ufffdective and di\ufffderent"), (2, "\ufffdnal")]
    out = repair_glyphs(pages, ctx)
    assert out == [(1, "a di erent provision, e ective and di erent"), (2, "nal")]
    assert ctx.warnings == [
        "glyphs without text dropped on pages: 1-2; words that lost letters: di?erent, e?ective"
    ]
    many = PassContext(ConvertOptions())
    repair_glyphs([(1, " ".join(f"w{chr(97 + i)}\ufffdx" for i in range(10)))], many)
    assert many.warnings[0].endswith("and 2 more")
