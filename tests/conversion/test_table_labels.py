"""Unit lines and period lines label a table; they are never headings (`tables.labels`)."""

from __future__ import annotations

import pytest

from citechunk.conversion.tables.labels import (
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


def test_a_row_of_figures_is_no_period_and_no_title() -> None:
    assert is_figure_row("Params 52B 47B 32B 34B 57B")
    assert not is_figure_row("Highlights of Q1 FY’21 and Q4 FY’20")  # periods, not figures
    assert not is_figure_row("2.1 Data")
