"""The repairs (`conversion.mdlines`) and the chunker (`chunking.sections`) read headings and
fences by one vocabulary (`citechunk.mdsyntax`): on any document they agree line by line."""

from __future__ import annotations

import random

import pytest

from citechunk.chunking.sections import parse_sections
from citechunk.conversion.mdlines import heading_level, iter_unfenced
from citechunk.mdsyntax import fenced_lines

_LINES = [
    "# Title",
    "   ## Indented three",
    "    # four spaces: code, not a heading",
    "##no space",
    "```",
    "```python",
    "````",
    "~~~",
    "~~~~ info",
    "``` ``inline`` ```",
    "  ```",
    "body text with ``` inside",
    "### Deep",
    "",
    "plain",
]


def _doc(rng: random.Random) -> list[str]:
    return [rng.choice(_LINES) for _ in range(rng.randrange(1, 30))]


def _chunker_view(lines: list[str]) -> tuple[set[int], set[int]]:
    """(lines inside fences, heading lines) as the chunker sees them."""
    md = "\n".join(lines)
    starts, pos = [], 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    outline = parse_sections(md)
    end = len(md)  # an unclosed fence runs to the end, an empty last line included
    fenced = {
        i for i, s in enumerate(starts) for a, b in outline.fences if a <= s < b or s == b == end
    }
    heads = {starts.index(sec.heading_start) for sec in outline.sections if sec.level}
    return fenced, heads


@pytest.mark.parametrize("seed", range(300))
def test_repairs_and_chunker_agree_on_fences_and_headings(seed: int) -> None:
    lines = _doc(random.Random(seed))
    fenced, heads = _chunker_view(lines)
    inside = {i for i, flag in iter_unfenced(lines) if flag}
    assert inside == fenced
    mine = {i for i, flag in iter_unfenced(lines) if not flag and heading_level(lines[i])}
    assert mine == heads


def test_fence_rules() -> None:
    lines = ["```", "```python", "# not a heading", "````", "# heading"]
    assert [flag for _, flag in fenced_lines(lines)] == [True, True, True, True, False]
    assert [flag for _, flag in fenced_lines(["``` ``x`` ```", "# h"])] == [False, False]
    assert [flag for _, flag in fenced_lines(["~~~", "```", "~~~", "x"])] == [True] * 3 + [False]
