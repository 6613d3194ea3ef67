"""A table's cells read from the page's words by position (`tablecheck` re-reads a layout grid
that cuts words, `ruled` reads a ruled grid the layout model missed).

`read_cells(cells, words)`: the page's words are read as phrases, runs of neighbouring words
of one text-layer line, each with a letter and at most `WORD_GAP` of their height apart, and
each cell box holds the phrases whose middle lies inside it, in the text layer's order (a
merged-away cell, None, is empty): no column line cuts a word or a phrase.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...textkeys import LETTER_RE

Box = tuple[float, float, float, float]
#: A PyMuPDF "words" entry: x0, y0, x1, y1, text, block, line, word number.
PageWord = tuple[Any, ...]
#: Neighbouring words of a line at most this many times their height apart are one phrase.
WORD_GAP = 0.6


def _cell_of(word: PageWord, cells: Sequence[Sequence[Box | None]]) -> tuple[int, int] | None:
    cx, cy = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
    for i, row in enumerate(cells):
        for j, cell in enumerate(row):
            if cell is not None and cell[0] <= cx <= cell[2] and cell[1] <= cy <= cell[3]:
                return i, j
    return None


def phrases(words: Sequence[PageWord]) -> list[PageWord]:
    """`words` joined into phrases (module docstring), each as one word entry: its box, its
    text and the block, line and word number of its first word."""
    out: list[PageWord] = []
    for word in sorted(words, key=lambda w: (w[5], w[6], w[7])):
        last = out[-1] if out else None
        if last is not None and (last[5], last[6]) == (word[5], word[6]) and _close(last, word):
            box = (min(last[0], word[0]), min(last[1], word[1]), word[2], max(last[3], word[3]))
            out[-1] = (*box, f"{last[4]} {word[4]}", *last[5:8])
        else:
            out.append(tuple(word[:8]))
    return out


def _close(a: PageWord, b: PageWord) -> bool:
    """`b` follows `a` on its line a word space apart, both with a letter."""
    height = max(a[3] - a[1], b[3] - b[1])
    lettered = LETTER_RE.search(str(a[4])) and LETTER_RE.search(str(b[4]))
    return bool(lettered) and 0 <= b[0] - a[2] <= WORD_GAP * height


def read_cells(cells: Sequence[Sequence[Box | None]], words: Sequence[PageWord]) -> list[list[str]]:
    """The text of each cell (module docstring)."""
    texts: list[list[list[str]]] = [[[] for _ in row] for row in cells]
    for phrase in phrases(words):
        at = _cell_of(phrase, cells)
        if at is not None:
            texts[at[0]][at[1]].append(str(phrase[4]))
    return [[" ".join(t) for t in row] for row in texts]
