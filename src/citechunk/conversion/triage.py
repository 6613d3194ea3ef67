"""Which pages need the layout model, decided from what the text layer and the drawing list show.

A page is plain running text, and takes the fast path (no layout model), when none of these
holds; `model_reason` names the first that does:

- "image": an image is placed on the page (figures, logos, scanned pages);
- "drawings": the vector paths could draw a table or a figure (`drawn_grid`): at least
  `MAX_RULES` + 1 horizontal rules, two vertical rules, or `MAX_SHAPES` + 1 other shapes
  (filled cells, charts, diagrams). A footnote separator, a header underline and a band
  behind the running header are allowed; so is a background filling the page;
- "side by side": two text lines sit side by side, overlapping vertically by more than half
  the lower one's height without overlapping horizontally (columns, sidebars, author blocks,
  tables without rules, aligned numeric columns split into lines);
- "gap": one text line's words are split by a gap wider than `GAP_EMS` times its font size
  (aligned columns and tab stops inside one line);
- "leaders": `MIN_LEADER_LINES` or more lines end in dot leaders and a number (a table of
  contents: page numbers aligned in a column).

Running lines (page headers and footers, `runninglines`) and sideways text (margin stamps)
are left out of the text checks: a page number beside a footer does not make a page tabular.
A page with no text and no image takes the fast path (there is nothing to lay out).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from .furniture import shares_row
from .runninglines import line_signature
from .textlayer import Line, PageText

Reason = Literal["image", "drawings", "side by side", "gap", "leaders"]
#: Reasons for which the image model reads the page better than the text model: pictures,
#: drawn grids and charts, and lines side by side (columns, sidebars, author blocks), where the
#: text-only model joins or splits blocks the image separates.
IMAGE_REASONS: frozenset[Reason | None] = frozenset({"image", "drawings", "side by side"})

#: Horizontal rules a plain-text page may draw (a footnote separator, a header underline).
MAX_RULES = 2
#: Vertical rules a plain-text page may draw (a margin bar).
MAX_VERTICAL = 1
#: Other shapes (neither a rule nor a dot) a plain-text page may draw (a header band).
MAX_SHAPES = 2
#: A path thinner than this (points) is a rule; a path this small both ways is a dot.
THIN = 3.0
#: A gap between two words of one line wider than this many font sizes is a column gap.
GAP_EMS = 2.0
#: Lines ending in dot leaders and a number that make a page a table of contents.
MIN_LEADER_LINES = 3
_LEADER_LINE = re.compile(r"(\.\s?){4,}\s*[\divxlcIVXLC]+$")
#: Lines in a fixed-pitch font that make a page fixed-pitch (`fixed_pitch`).
MIN_FIXED_LINES = 3


def model_reason(page: Any, text: PageText, running: Mapping[str, int]) -> Reason | None:
    """Why PyMuPDF page `page` (read as `text`) needs the layout model, or None (module
    docstring); `running` holds the signatures of the page's running lines."""
    if page.get_image_info():
        return "image"
    if drawn_grid(page):
        return "drawings"
    lines = [
        ln
        for ln in text.lines
        if not ln.vertical and line_signature(ln.text) not in running and ln.text.strip()
    ]
    if _side_by_side(lines):
        return "side by side"
    if _wide_gap(text, lines):
        return "gap"
    if sum(1 for ln in lines if _LEADER_LINE.search(ln.text)) >= MIN_LEADER_LINES:
        return "leaders"
    return None


def drawn_grid(page: Any) -> bool:
    """The page's vector paths exceed the rules and shapes plain text may draw (module
    docstring); a path covering 90% of the page is a background and does not count."""
    area = page.rect.width * page.rect.height
    across = down = shapes = 0
    for kind, box in page.get_bboxlog():
        if "path" not in kind:
            continue
        width, height = box[2] - box[0], box[3] - box[1]
        if width * height >= 0.9 * area or (width < THIN and height < THIN):
            continue
        if height < THIN:
            across += 1
        elif width < THIN:
            down += 1
        else:
            shapes += 1
    return across > MAX_RULES or down > MAX_VERTICAL or shapes > MAX_SHAPES


def _side_by_side(lines: list[Line]) -> bool:
    """Two of `lines` share a row (`furniture.shares_row`) without overlapping horizontally."""
    ordered = sorted(lines, key=lambda ln: ln.box[1])
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.box[1] >= a.box[3]:
                break  # every later line starts below a
            apart = a.box[2] <= b.box[0] or b.box[2] <= a.box[0]
            if apart and shares_row(a.box, b.box):
                return True
    return False


def _wide_gap(text: PageText, lines: list[Line]) -> bool:
    """A line of a kept block whose consecutive words are further apart than `GAP_EMS` times
    the block's largest font size."""
    size: dict[int, float] = {}
    for ln in lines:
        size[ln.block] = max(ln.size, size.get(ln.block, 0.0))
    rows: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for word in text.words:
        if word.block in size:
            rows.setdefault((word.block, word.line), []).append((word.box[0], word.box[2]))
    for (block, _), spans in rows.items():
        spans.sort()
        limit = GAP_EMS * max(size[block], 1.0)
        if any(nxt[0] - cur[1] > limit for cur, nxt in zip(spans, spans[1:], strict=False)):
            return True
    return False


def fixed_pitch(text: PageText) -> bool:
    """True when `MIN_FIXED_LINES` or more of the page's lines are set in a fixed-pitch font
    (code listings, documents typed as plain text): the text-only layout model reads the
    spaces that align such lines as column gaps (a listing becomes a table, its comment lines
    list items), so ``layout_model = "auto"`` gives these pages the image model."""
    return sum(line.mono for line in text.lines) >= MIN_FIXED_LINES
