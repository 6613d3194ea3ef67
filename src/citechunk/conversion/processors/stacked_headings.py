"""Stacked headings: a heading block that holds a heading and, under it, a second heading or the
first words of the text.

The rule: a heading block whose lines fall into two runs, each set in one style (`line_style`:
whole-point size and weight), the later run no larger than the earlier, each holding two or
more letters, and the earlier not ending mid-phrase (`_GOES_ON_RE`: "... RANKING IN A"), is cut
where the style changes when the later run's style is

- the body style, the style of most of the characters of the document's text blocks (the later
  run is text), or else
- the style of another heading block of the document that is set in one style (the later run is
  a heading of its own, and takes its place in the heading scale).

Any other heading block stays whole: a title over a subtitle set in no other heading's style, a
number set apart from its words, a block of three styles.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from ..blocks import Block, Kind, Line
from .common import Pages, part

Style = tuple[int, bool]  # (size in whole points, bold)
#: A run ends mid-phrase: on a comma, semicolon, hyphen or opening bracket, or on a short word
#: in one case that is no Roman numeral ("IN A", "of the", "AND"): its next line goes on.
_GOES_ON_RE = re.compile(r"(?:[,;\-–(\[]|(?<!\w)(?![IVXLC]+$)(?:[a-z]{1,3}|[A-Z]{1,3}))$")


def line_style(line: Line) -> Style | None:
    """The line's largest span size in whole points and whether every span showing text is bold
    (None: the line shows no text)."""
    spans = [s for s in line.spans if s.text.strip()]
    if not spans:
        return None
    return round(max(s.size for s in spans)), all(s.bold for s in spans)


def _styles(lines: Iterable[Line]) -> set[Style]:
    return {style for style in map(line_style, lines) if style is not None}


def _runs(block: Block) -> tuple[tuple[Line, ...], tuple[Line, ...], Style, Style] | None:
    """The block's lines cut at its one change of style, with the two runs' styles (None: the
    lines show one style, or more than two runs). A line showing no text joins the run before."""
    cut = None
    styles = [line_style(line) for line in block.lines]
    current = styles[0] if styles else None
    for i, style in enumerate(styles):
        if style is None or style == current:
            continue
        if cut is not None or current is None:
            return None
        cut, current = i, style
    if cut is None or styles[0] is None or current is None:
        return None
    return block.lines[:cut], block.lines[cut:], styles[0], current


def _goes_on(lines: Sequence[Line]) -> bool:
    """The run's last line ends mid-phrase (`_GOES_ON_RE`)."""
    return bool(_GOES_ON_RE.search(lines[-1].text.strip()))


def _letters(lines: Sequence[Line]) -> int:
    return sum(c.isalpha() for line in lines for c in line.text)


def _heading_styles(pages: Pages) -> set[Style]:
    """The styles of the heading blocks set in one style."""
    found: set[Style] = set()
    for blocks in pages.values():
        for block in blocks:
            styles = _styles(block.lines) if block.is_heading else set()
            if len(styles) == 1:
                found |= styles
    return found


def _body_style(pages: Pages) -> Style | None:
    """The style of most characters of the text blocks (None: no text block shows text)."""
    counts: Counter[Style] = Counter()
    for blocks in pages.values():
        for block in blocks:
            for line in block.lines if block.kind == "text" else ():
                style = line_style(line)
                if style is not None:
                    counts[style] += len(line.text.strip())
    return counts.most_common(1)[0][0] if counts else None


def _split(block: Block, headings: set[Style], body: Style | None) -> tuple[Block, ...]:
    """`block` as one or two blocks (module docstring)."""
    runs = _runs(block) if block.is_heading else None
    if runs is None:
        return (block,)
    upper, lower, above, below = runs
    if below[0] > above[0] or _letters(upper) < 2 or _letters(lower) < 2 or _goes_on(upper):
        return (block,)
    if below == body:
        kind: Kind = "text"
        why = "stacked heading: lines set in the body style are text"
    elif below in headings:
        kind = "section-header"
        why = f"stacked heading: lines set as {below[0]} pt{' bold' * below[1]}, a heading style"
    else:
        return (block,)
    return (part(block, upper, block.kind, why), part(block, lower, kind, why))


def split_stacked_headings(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """A heading block holding a second heading, or the first words of its text, in a style of its
    own is cut in two where its style changes (module docstring)."""
    headings, body = _heading_styles(pages), _body_style(pages)
    return {
        number: tuple(part for block in blocks for part in _split(block, headings, body))
        for number, blocks in pages.items()
    }
