"""Unit lines and period lines label a table; they are never headings (`tables.labels`)."""

from __future__ import annotations

import pytest

from citechunk.conversion.tables.labels import (
    demote_table_labels,
    is_figure_row,
    is_period_line,
    is_unit_line,
)

UNITS = [
    "(in thousands, except share and per share data)",
    "$ in millions",
    "in millions of dollars",
    "(Dollars in millions, except per share amounts)",
    "**(In millions)**",
    "Amounts in thousands",
    "(in millions, except per share data) (unaudited)",
    "Millions of Dollars",
    "(€ in millions)",
]
PERIODS = [
    "December 31, 2017",
    "2017",
    "Year Ended December 31,",
    "Three Months Ended March 31, 2023 and 2022",
    "2022 2021 2020",
    "As of December 31,",
    "Fiscal Year 2022",
]
NEITHER = [
    "CONSOLIDATED BALANCE SHEETS",
    "Item 7. Management's Discussion and Analysis",
    "1. Introduction",
    "Revenue in millions grew by a third",
    "Table 5 - Read-out command codes",
    "2.3",
    "Section 12",
    "Results of Operations",
    "The 2017 Plan",
]


@pytest.mark.parametrize("text", UNITS)
def test_unit_lines(text: str) -> None:
    assert is_unit_line(text) and not is_period_line(text)


@pytest.mark.parametrize("text", PERIODS)
def test_period_lines(text: str) -> None:
    assert is_period_line(text) and not is_unit_line(text)


@pytest.mark.parametrize("text", NEITHER)
def test_titles_are_neither(text: str) -> None:
    assert not is_unit_line(text) and not is_period_line(text)


def test_label_headings_become_bold_lines_and_the_statement_keeps_its_heading() -> None:
    page = (
        "## CONSOLIDATED BALANCE SHEETS\n\n### (in thousands, except per share data)\n\n"
        "### December 31, 2017\n\n| | 2017 |\n|---|---|\n| Cash | 5 |\n\n"
        "```\n# 2017\n```\n\n## Notes"
    )
    [(n, out)] = demote_table_labels([(3, page)])
    assert n == 3
    assert out.split("\n\n")[:3] == [
        "## CONSOLIDATED BALANCE SHEETS",
        "**(in thousands, except per share data)**",
        "**December 31, 2017**",
    ]
    assert "# 2017\n```" in out and out.endswith("## Notes")


def test_a_row_of_figures_set_as_a_heading_becomes_a_plain_line() -> None:
    pages = [(1, "## 5.1 Core capabilities\n\n## Params 52B 47B 32B 34B 57B\n\nMMLU 70.7 73.9")]
    out = demote_table_labels(pages)[0][1]
    assert out.splitlines()[2] == "Params 52B 47B 32B 34B 57B"
    assert out.startswith("## 5.1 Core capabilities")
    assert not is_figure_row("Highlights of Q1 FY’21 and Q4 FY’20")  # periods, not figures
    assert not is_figure_row("2.1 Data")
