"""The layout passes: rules over the pymupdf layout model's boxes of one page, in the order
they run, before pymupdf4llm renders the page as Markdown (pymupdf backend, layout path).

Each `LayoutPass` is named like the Markdown passes (`pipeline.PASSES`): ``citechunk passes``
lists both, and ``--no-pass NAME`` (``convert.skip_passes``) turns one off. A rule takes the
page's boxes (pymupdf4llm ``LayoutBox`` objects, edited in place where that is simpler) and the
`LayoutPage`, and returns the boxes to render. A rule that raises is skipped for that page
(`passguard`): the page keeps its boxes as they were before the rule.
"""

from __future__ import annotations

import bisect
import copy
import functools
import logging
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..models import PassFailure
from .boxspans import read_once
from .captionheads import caption_heads
from .geometry import ProseRule, gutters, prose_columns
from .glyphgaps import drop_kerned_spaces, is_code_box, kerned_indexes, rebuild_code_spaces
from .letterless import letterless_heads
from .passguard import guarded
from .reading_order import read_columns
from .spans import drop_unreadable, join_subscripts
from .tables.ruled import ruled_table_boxes
from .tables.tablecheck import check_table_boxes

log = logging.getLogger(__name__)

# Margin notes: spans this many points outside the body text edges; bullets/numbers excluded.
MARGIN_GAP = 4.0
# Two prose columns inside one layout box: a gutter at least this wide (points).
COLUMN_GAP = 10.0
_MARK_RE = re.compile(r"^[\W\d]+$|^\(?[a-zA-Z0-9]{1,3}[.)]$")


@dataclass(frozen=True)
class LayoutPage:
    """What a layout pass may read besides the boxes: pymupdf4llm's parsed page (its
    ``width``, its text blocks ``fulltext``), the PyMuPDF page and pymupdf4llm's box type."""

    parsed: Any
    pdf_page: Any
    box_type: Any


BoxRule = Callable[[list[Any], LayoutPage], list[Any]]


@dataclass(frozen=True)
class LayoutPass:
    """One named rule over a page's layout boxes."""

    name: str
    rule: BoxRule


def _glyph_lookup(page: Any) -> Callable[[dict[str, Any]], list[tuple[float, float, str]]]:
    """span -> its glyphs (x0, x1, character) from the page's ``rawdict``, matched by the
    span's origin (empty when no span of the page starts there)."""
    by_origin: dict[tuple[float, float], list[tuple[float, float, str]]] = {}
    for block in page.get_text("rawdict")["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                key = (round(span["bbox"][0], 1), round(span["bbox"][1], 1))
                by_origin[key] = [(c["bbox"][0], c["bbox"][2], c["c"]) for c in span["chars"]]

    def glyphs(span: dict[str, Any]) -> list[tuple[float, float, str]]:
        return by_origin.get((round(span["bbox"][0], 1), round(span["bbox"][1], 1)), [])

    return glyphs


def _span_glyphs(page: Any) -> Callable[[dict[str, Any]], list[dict[str, Any]]]:
    """span -> the ``rawdict`` characters of the page's spans whose middle lies in the span's
    box, left to right (a span the layout path joined from pieces gets all of theirs), the
    kerned spaces of each text-layer line marked ``kerned`` (`glyphgaps.kerned_indexes`). The
    page is read with the layout path's text flags but its vector and image collection."""
    import pymupdf

    flags = pymupdf.TEXT_ACCURATE_BBOXES | pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_COLLECT_STYLES
    pieces: list[tuple[float, float, list[dict[str, Any]]]] = []
    for block in page.get_text("rawdict", flags=flags)["blocks"]:
        for line in block.get("lines", ()):
            sized = [dict(c, size=s["size"]) for s in line["spans"] for c in s["chars"]]
            for i in kerned_indexes(sized):
                sized[i]["kerned"] = True
            at = 0
            for span in line["spans"]:
                x0, y0, x1, y1 = span["bbox"]
                n = len(span["chars"])
                pieces.append(((y0 + y1) / 2, (x0 + x1) / 2, sized[at : at + n]))
                at += n
    pieces.sort(key=lambda p: (p[0], p[1]))
    heights = [p[0] for p in pieces]

    def glyphs(span: dict[str, Any]) -> list[dict[str, Any]]:
        x0, y0, x1, y1 = span["bbox"]
        band = pieces[bisect.bisect_left(heights, y0) : bisect.bisect_right(heights, y1)]
        inside = sorted((p for p in band if x0 <= p[1] <= x1), key=lambda p: p[1])
        return [g for p in inside for g in p[2]]

    return glyphs


def _body_edges(boxes: list[Any]) -> tuple[float, float] | None:
    """(left, right) edge of the page's body text: the leftmost line start and the rightmost
    line end shared by at least 3 lines and 20% of the lines of "text" boxes (so on a
    multi-column page, the outer edges of the outer columns); None without such edges."""
    starts: Counter[int] = Counter()
    ends: Counter[int] = Counter()
    for box in boxes:
        if box.boxclass == "text" and box.textlines:
            for line in box.textlines:
                starts[round(line["bbox"][0])] += 1
                ends[round(line["bbox"][2])] += 1
    need = max(3.0, 0.2 * sum(starts.values()))
    lefts = [x for x, n in starts.items() if n >= need]
    rights = [x for x, n in ends.items() if n >= need]
    return (float(min(lefts)), float(max(rights))) if lefts and rights else None


def _is_margin(span: dict[str, Any], left: float) -> bool:
    """Left margin only: ragged-right text makes any right edge unreliable."""
    text = span["text"].strip()
    return span["bbox"][2] < left - MARGIN_GAP and len(text) > 1 and not _MARK_RE.match(text)


def _is_body(span: dict[str, Any], left: float, right: float) -> bool:
    return span["bbox"][0] >= left - 1 and span["bbox"][2] <= right + 1


def detach_margin_notes(boxes: list[Any], box_type: Any) -> list[Any]:
    """Move margin notes out of body paragraphs into their own "text" box after the paragraph.

    A margin note is a span of a "text" box's line lying wholly left of the page's body text
    (see `_body_edges`) while the same line also has spans inside it, and not a bullet or
    number (pymupdf4llm would splice it into the sentence next to it)."""
    edges = _body_edges(boxes)
    if edges is None:
        return boxes
    left, right = edges
    out = []
    for box in boxes:
        out.append(box)
        if box.boxclass != "text" or not box.textlines:
            continue
        notes: list[dict[str, Any]] = []
        for line in box.textlines:
            margin = [s for s in line["spans"] if _is_margin(s, left)]
            if margin and any(_is_body(s, left, right) for s in line["spans"]):
                line["spans"] = [s for s in line["spans"] if not _is_margin(s, left)]
                notes.append({"bbox": margin[0]["bbox"], "spans": margin})
        box.textlines = [line for line in box.textlines if line["spans"]]
        for note in notes:
            log.debug("margin note detached: %s", " ".join(s["text"] for s in note["spans"]))
            x0, y0, x1, y1 = note["bbox"]
            out.append(box_type(x0, y0, x1, y1, "text", textlines=[note]))
    return out


def _gutter(lines: list[dict[str, Any]]) -> tuple[float, float] | None:
    """The widest vertical strip (>= COLUMN_GAP pt) that no span of any line crosses (the
    leftmost of equally wide ones)."""
    spans = [[(sp["bbox"][0], sp["bbox"][2])] for line in lines for sp in line["spans"]]
    return max(gutters(spans, COLUMN_GAP), key=lambda g: g[1] - g[0], default=None)


def _side(line: dict[str, Any], lo: float, hi: float) -> dict[str, Any] | None:
    """The part of `line` whose spans lie within [lo, hi] (None when empty)."""
    spans = [sp for sp in line["spans"] if sp["bbox"][0] >= lo and sp["bbox"][2] <= hi]
    if not spans:
        return None
    x0 = min(sp["bbox"][0] for sp in spans)
    x1 = max(sp["bbox"][2] for sp in spans)
    return {"bbox": (x0, line["bbox"][1], x1, line["bbox"][3]), "spans": spans}


def split_columns(boxes: list[Any], box_type: Any) -> list[Any]:
    """Split "text" boxes that hold two prose columns side by side into two boxes, left first.

    pymupdf4llm joins spans at the same height into one line, so a box drawn over two columns
    reads across both. A box qualifies when it has >= 4 lines, a gutter >= COLUMN_GAP pt that
    no span crosses, and both sides hold prose (`_prose_columns`).
    """
    out = []
    for box in boxes:
        lines = box.textlines or []
        gutter = _gutter(lines) if box.boxclass == "text" and len(lines) >= 4 else None
        if gutter is None:
            out.append(box)
            continue
        left = [x for x in (_side(ln, -1e9, gutter[0]) for ln in lines) if x]
        right = [x for x in (_side(ln, gutter[1], 1e9) for ln in lines) if x]
        if not _prose_columns(left, right, len(lines)):
            out.append(box)
            continue
        log.debug("two-column text box split at x=%.0f-%.0f", *gutter)
        for part in (left, right):
            x0 = min(ln["bbox"][0] for ln in part)
            x1 = max(ln["bbox"][2] for ln in part)
            out.append(
                box_type(x0, part[0]["bbox"][1], x1, part[-1]["bbox"][3], "text", textlines=part)
            )
    return out


def _prose_columns(left: list[dict[str, Any]], right: list[dict[str, Any]], total: int) -> bool:
    """Both sides hold at least half of the `total` lines (and 2) averaging >= 20 characters."""
    rule = ProseRule(min_pieces=max(2, total / 2), min_mean_chars=20)
    sides = [[[sp["text"] for sp in ln["spans"]] for ln in side] for side in (left, right)]
    return prose_columns(sides, rule)


def _boxes_only(rule: Callable[[list[Any]], list[Any]]) -> BoxRule:
    @functools.wraps(rule)
    def run(boxes: list[Any], page: LayoutPage) -> list[Any]:
        return rule(boxes)

    return run


def _with_box_type(rule: Callable[[list[Any], Any], list[Any]]) -> BoxRule:
    @functools.wraps(rule)
    def run(boxes: list[Any], page: LayoutPage) -> list[Any]:
        return rule(boxes, page.box_type)

    return run


def check_tables(boxes: list[Any], page: LayoutPage) -> list[Any]:
    """Each table box is checked against the page's text layer: a column line cutting a word
    the text layer has whole is mended, and only a grid that contradicts the text layer is
    replaced by its lines (`tablecheck.check_table_boxes`, the rule: `tables.grid`)."""
    number = int(getattr(page.parsed, "page_number", 0) or 0)
    return check_table_boxes(boxes, page.parsed.fulltext or [], number, page.pdf_page)


def ruled_tables(boxes: list[Any], page: LayoutPage) -> list[Any]:
    """A grid drawn with rules that the layout model read as other boxes is one table box
    whose cells hold the text-layer words inside them (`tables.ruled.ruled_table_boxes`)."""
    return ruled_table_boxes(boxes, page.pdf_page, page.box_type)


def order_columns(boxes: list[Any], page: LayoutPage) -> list[Any]:
    """The boxes in column order, left column before right (`reading_order.read_columns`)."""
    return read_columns(boxes, page.parsed.width)


def code_spaces(boxes: list[Any], page: LayoutPage) -> list[Any]:
    """Code boxes get the spaces between their glyphs back (`glyphgaps.rebuild_code_spaces`)."""
    if not any(is_code_box(box) for box in boxes):
        return boxes
    return rebuild_code_spaces(boxes, _glyph_lookup(page.pdf_page))


def kerned_spaces(boxes: list[Any], page: LayoutPage) -> list[Any]:
    """Space glyphs that take no room between two letters are no word breaks
    (`glyphgaps.drop_kerned_spaces`)."""
    return drop_kerned_spaces(boxes, _span_glyphs(page.pdf_page))


LAYOUT_PASSES: tuple[LayoutPass, ...] = (
    LayoutPass("unreadable-text", _boxes_only(drop_unreadable)),
    LayoutPass("kerned-spaces", kerned_spaces),
    LayoutPass("read-once", _boxes_only(read_once)),
    LayoutPass("ruled-tables", ruled_tables),
    LayoutPass("table-check", check_tables),
    LayoutPass("split-columns", _with_box_type(split_columns)),
    LayoutPass("column-order", order_columns),
    LayoutPass("margin-notes", _with_box_type(detach_margin_notes)),
    LayoutPass("subscripts", _boxes_only(join_subscripts)),
    LayoutPass("code-spaces", code_spaces),
    LayoutPass("caption-heads", _boxes_only(caption_heads)),
    LayoutPass("letterless-heads", _boxes_only(letterless_heads)),
)


def _snapshot(boxes: list[Any]) -> list[Any]:
    """A deep copy of `boxes` (plain data); a shallow one if something in them cannot be
    copied, so taking the snapshot never fails the page."""
    try:
        return copy.deepcopy(boxes)
    except Exception:  # noqa: BLE001 -- whatever pymupdf4llm put in a box
        log.debug("layout boxes not deep-copied", exc_info=True)
        return list(boxes)


def run_layout_passes(
    boxes: list[Any],
    page: LayoutPage,
    skip: Sequence[str] = (),
    failures: list[PassFailure] | None = None,
) -> list[Any]:
    """Every `LAYOUT_PASSES` rule not named in `skip`, in order, over one page's boxes. A rule
    that raises is recorded in `failures` (`passguard.guarded`) and the page's passes run again
    without it from a copy of the boxes taken before the first (rules may edit boxes in place),
    so the result is the boxes as though that rule had not been listed."""
    failures = [] if failures is None else failures
    number = int(getattr(page.parsed, "page_number", 0) or 0)
    before = _snapshot(boxes)
    for step in LAYOUT_PASSES:
        if step.name not in skip:
            run = functools.partial(step.rule, boxes, page)
            boxes = guarded(step.name, number, run, _RAISED, failures)
            if boxes is _RAISED:
                return run_layout_passes(before, page, (*skip, step.name), failures)
    return boxes


_RAISED: list[Any] = []
"""What `guarded` returns for a rule that raised (compared by identity)."""
