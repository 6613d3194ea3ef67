"""The first item of a bold-numbered list read as a heading (conversion/lists.py)."""

from __future__ import annotations

from citechunk.chunking import chunk_markdown
from citechunk.conversion.repairs.lists import demote_list_heads

FIGURE = (
    "# Strategy\n\nIntro text.\n\nFigure 1. Five Pillars of the Strategy\n\n"
    "## 1 Defend critical infrastructure\n\n- 1.1: Establish requirements\n\n"
    "- **2 Disrupt threat actors** 2.1: Integrate activities\n\n"
    "- **3 Shape market forces** 3.1: Hold stewards accountable"
)


def test_first_item_of_a_bold_numbered_list_becomes_an_item_like_its_siblings() -> None:
    page2 = "### Office\n\nMore text.\n\n## Opportunities\n\nSome."
    out = demote_list_heads([(1, FIGURE), (2, page2)])
    item = "- **1 Defend critical infrastructure**"
    assert out == [(1, FIGURE.replace("## 1 Defend critical infrastructure", item)), (2, page2)]
    chunks = chunk_markdown("\n\n".join(text for _, text in out), pack_short=False)
    holder = next(c for c in chunks if "Establish requirements" in c.body)
    assert holder.heading_path == ("Strategy",)
    assert "Figure 1. Five Pillars" in holder.body
    before = next(
        c for c in chunk_markdown(FIGURE, pack_short=False) if "Establish requirements" in c.body
    )
    assert before.heading_path == ("Strategy", "1 Defend critical infrastructure")


def test_numbered_sections_and_other_successors_stay_headings() -> None:
    sections = "## 1. Background\n\nText.\n\n## 2. Questions\n\n- **2. not the next one** x"
    other_style = "## 1 Scope\n\n- **2. Methods** differs in style\n\n**3 Results**"
    plain_item = "## 1 Scope\n\n- 2 Methods, not bold"
    fenced = "## 1 Scope\n\n```\n**2 Methods**\n```"
    for text in (sections, other_style, plain_item, fenced):
        assert demote_list_heads([(1, text)]) == [(1, text)]
