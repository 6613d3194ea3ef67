"""Leaders become three dots: contents entries stay entries, words stay, the dots go."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citechunk.chunking import chunk_markdown
from citechunk.chunking.navigation import chunk_role
from citechunk.config import ChunkOptions, ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.repairs.leaders import shorten_leaders
from citechunk.evaluation.match import words


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("|**1.4.**WMD..............................11 |", "|**1.4.**WMD ... 11 |"),
        ("Introduction . . . . . . . . 3", "Introduction ... 3"),
        ("Scope ·········· 4", "Scope ... 4"),
        ("Terms……… 5", "Terms ... 5"),
        ("|Item 1 ....| 12|", "|Item 1 ...| 12|"),
        ("Total.....", "Total ..."),
    ],
)
def test_a_leader_becomes_three_dots(line: str, expected: str) -> None:
    assert shorten_leaders(line) == expected
    assert words(shorten_leaders(line)) == words(line)


@pytest.mark.parametrize(
    "text", ["Wait... what?", "version 1.2.3.4", "```\nx = y........\n```", "a . . b"]
)
def test_text_that_is_no_leader_stays(text: str) -> None:
    assert shorten_leaders(text) == text


def test_a_contents_page_with_leaders_stays_navigation(sample_pdfs: Path) -> None:
    md = convert(sample_pdfs / "printed_spec.pdf", ConvertOptions(backend="pymupdf")).markdown
    assert not re.search(r"(?:\. ?){4}", md)
    contents = [
        c for c in chunk_markdown(md, ChunkOptions()) if c.heading_path[-1] == "Table of Contents"
    ]
    assert contents and all(chunk_role(c.body) == "navigation" for c in contents)
    assert " ... " in contents[0].body
