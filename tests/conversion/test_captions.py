"""Table titles repeated with "—Continued" are not sections (conversion/captions.py)."""

from __future__ import annotations

from citechunk.chunking import chunk_markdown
from citechunk.conversion.mdlines import continued_title
from citechunk.conversion.tables.captions import demote_table_titles

TABLE = "|Action|Cost|\n|---|---|\n|Install|$85|"


def test_continued_title() -> None:
    assert continued_title("ESTIMATED COSTS—Continued") == "ESTIMATED COSTS"
    assert continued_title("**Table 2 (cont.)**") == "Table 2"
    assert continued_title("Continued Education") is None


def test_a_continued_table_title_becomes_a_bold_line() -> None:
    pages = [
        (5, f"# Rules\n\n### Costs of Compliance\n\ntext\n\n## ESTIMATED COSTS\n\n{TABLE}"),
        (6, f"**ESTIMATED COSTS—Continued**\n\n{TABLE}\n\nnote\n\n### Authority\n\nbody"),
    ]
    out = demote_table_titles(pages)
    assert out[0] == (5, pages[0][1].replace("## ESTIMATED COSTS", "**ESTIMATED COSTS**"))
    assert out[1] == pages[1]
    paths = {
        c.heading_path for c in chunk_markdown("\n\n".join(t for _, t in out), pack_short=False)
    }
    assert ("Rules", "Authority") in paths
    before = {
        c.heading_path for c in chunk_markdown("\n\n".join(t for _, t in pages), pack_short=False)
    }
    assert ("Rules", "ESTIMATED COSTS", "Authority") in before  # the defect the rule removes


def test_headings_not_continued_or_not_opening_a_table_stay() -> None:
    never_continued = [(1, f"## Results\n\n{TABLE}\n\n## Results 2\n\ntext")]
    assert demote_table_titles(never_continued) == never_continued
    prose_section = [(1, "## Background\n\ntext\n\n```\n## Background (cont.)\n```")]
    assert demote_table_titles(prose_section) == prose_section
    continued_prose = [(1, "## Background\n\ntext"), (2, "**Background—Continued**\n\ntext")]
    assert demote_table_titles(continued_prose) == continued_prose
