"""The default backend's extraction: pymupdf4llm (with the pymupdf-layout model when installed).

`PyMuPDFBackend.extract` is this backend's step of the `base.Backend` template (opening, the
text-layer check, the passes and the provenance are shared):

1. pymupdf4llm converts the pages (``page_chunks=True``): with ``use_layout`` the layout model
   path (``document_layout.parse_document``), otherwise the classic ``pymupdf_rag`` path,
   chosen per call. PyMuPDF keeps its layout model in one module global
   (``pymupdf._get_layout``), set as soon as ``pymupdf.layout`` is imported (``import pymupdf``
   does that when pymupdf-layout is installed); a host may clear it with
   ``pymupdf4llm.use_layout(False)``. The layout path then installs the model for the call
   only and puts the previous value back afterwards, under a lock (`_extract`), so citechunk
   leaves that global as it found it; the classic path leaves it alone (PyMuPDF's table finder
   consults the model whenever it is installed). On the layout path the parsed boxes are fixed
   before rendering
   (`tablecheck.replace_disagreeing_tables`, `split_columns`, `reading_order.read_columns`,
   `detach_margin_notes`, `spans.join_subscripts`, `glyphgaps.rebuild_code_spaces`);
2. with ``strip_headers_footers``, the running lines (`runninglines`) of the page-header /
   page-footer boxes found by the layout model are cut out (`_without_running_boxes`); the
   box's other lines stay.

Anything pymupdf4llm prints to stdout is captured and logged (stdout may carry Markdown).
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path
from typing import Any

from ..config import ConvertOptions
from ..errors import ConversionError
from .base import Backend, Extraction
from .geometry import ProseRule, gutters, prose_columns
from .glyphgaps import is_code_box, rebuild_code_spaces
from .outline import from_toc
from .reading_order import read_columns
from .runninglines import find_running, line_signature
from .spans import drop_unreadable, join_subscripts
from .tablecheck import replace_disagreeing_tables
from .textlayer import TextLayer

log = logging.getLogger(__name__)

# A page-header/-footer box longer than this is body text the layout model misclassified.
MAX_RUNNING_BOX_CHARS = 200
_RUNNING_CLASSES = ("page-header", "page-footer")
# Margin notes: spans this many points outside the body text edges; bullets/numbers excluded.
MARGIN_GAP = 4.0
# Two prose columns inside one layout box: a gutter at least this wide (points).
COLUMN_GAP = 10.0
_MARK_RE = re.compile(r"^[\W\d]+$|^\(?[a-zA-Z0-9]{1,3}[.)]$")


def _dist(name: str) -> str:
    try:
        return dist_version(name)
    except PackageNotFoundError:
        return ""


def layout_installed() -> bool:
    """True when the pymupdf-layout model package can be imported."""
    import importlib.util

    return importlib.util.find_spec("pymupdf.layout") is not None


_LAYOUT_GLOBAL_LOCK = threading.Lock()  # guards pymupdf._get_layout while _extract swaps it


@cache
def _layout_function() -> Any:
    """PyMuPDF's layout model function, made once without leaving it installed."""
    import pymupdf
    import pymupdf.layout

    previous, pymupdf._get_layout = pymupdf._get_layout, None
    try:
        pymupdf.layout.activate()
        return pymupdf._get_layout
    finally:
        pymupdf._get_layout = previous


def _extract(doc: Any, pages: Sequence[int], use_layout: bool) -> list[dict[str, Any]]:
    """pymupdf4llm page chunks (dicts with "text", "metadata", maybe "page_boxes").

    The layout path needs PyMuPDF's process-wide layout function (module docstring): when a
    host cleared it, it is installed for this call only and the host's value restored. The
    lock makes layout parses in one process run one at a time (citechunk's parallelism is
    processes; the layout inference itself is serialised inside pymupdf4llm anyway)."""
    zero_based = [p - 1 for p in pages]
    if not use_layout:
        from pymupdf4llm.helpers import pymupdf_rag

        chunks = pymupdf_rag.to_markdown(
            doc, pages=zero_based, page_chunks=True, show_progress=False
        )
        return list(chunks)
    import pymupdf
    from pymupdf4llm.helpers import document_layout

    with _LAYOUT_GLOBAL_LOCK:
        previous = pymupdf._get_layout
        if not callable(previous):
            pymupdf._get_layout = _layout_function()
        try:
            parsed = document_layout.parse_document(
                doc, pages=zero_based, use_ocr=False, force_text=True
            )
        finally:
            pymupdf._get_layout = previous
    for page in parsed.pages:
        page.boxes = drop_unreadable(page.boxes)
        page.boxes = replace_disagreeing_tables(page.boxes, page.fulltext or [])
        page.boxes = split_columns(page.boxes, document_layout.LayoutBox)
        page.boxes = read_columns(page.boxes, page.width)
        page.boxes = detach_margin_notes(page.boxes, document_layout.LayoutBox)
        page.boxes = join_subscripts(page.boxes)
        if any(is_code_box(box) for box in page.boxes):
            glyphs = _glyph_lookup(doc[page.page_number - 1])
            page.boxes = rebuild_code_spaces(page.boxes, glyphs)
    return list(parsed.to_markdown(header=True, footer=True, page_chunks=True))


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
    number. pymupdf4llm would otherwise splice it into the sentence next to it ("without an citeauthoryear
    optional parameter"). Boxes are pymupdf4llm `LayoutBox` objects (`box_type`).
    """
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

    pymupdf4llm joins spans at the same height into one line, so a box the layout model drew
    over two columns reads line by line across both ("Some women have abnormal this condition
    will not develop"). A box qualifies when it has >= 4 lines, a gutter >= COLUMN_GAP pt that
    no span crosses, at least half of its lines have text on each side, and both sides average
    >= 20 characters per line (prose, not a two-column list of short values).
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


def _without_running_boxes(page: Any, chunk: dict[str, Any], running: Mapping[str, int]) -> str:
    """The chunk's text with the running lines of its page-header/page-footer boxes cut out
    (layout path only).

    The layout model calls any short line in the top or bottom band a header or footer, so a
    box only goes when its lines really run: `running` holds the signatures of the page's
    running lines (`runninglines.RunningLines.on_page`). A short box with no running line is
    left as rendered. Otherwise the box is cut and the text of its other lines
    that no other box covers is kept, placed after the last box above it in the same column
    (a box over `MAX_RUNNING_BOX_CHARS` is body text the model misread: its rendering repeats
    text of the boxes it overlaps and sits at the top of the page).
    """
    text: str = chunk["text"]
    boxes = chunk.get("page_boxes") or []
    cuts: list[tuple[int, int]] = []
    inserts: list[tuple[int, str]] = []
    for box in boxes:
        start, stop = box.get("pos", (0, 0))
        if box.get("class") not in _RUNNING_CLASSES:
            continue
        long_box = len(text[start:stop].strip()) > MAX_RUNNING_BOX_CHARS
        lines, top = _box_lines(page, box, boxes if long_box else [box])
        if not long_box and not any(_is_running(line, running) for line in lines):
            continue
        cuts.append((start, stop))
        recovered = _paragraphs([ln for ln in lines if not _is_running(ln, running)])
        if recovered:
            inserts.append((_insert_pos(box, top, boxes, start), "\n\n" + recovered + "\n\n"))
    return _splice(text, cuts, inserts)


def _is_running(line: tuple[int, str], running: Mapping[str, int]) -> bool:
    return line_signature(line[1]) in running


def _paragraphs(lines: list[tuple[int, str]]) -> str:
    """(block, text) lines as plain paragraphs, one per PyMuPDF text block."""
    paragraphs: list[str] = []
    last = None
    for block, line in lines:
        if block == last:
            paragraphs[-1] += " " + line
        else:
            paragraphs.append(line)
        last = block
    return "\n\n".join(paragraphs)


def _splice(text: str, cuts: list[tuple[int, int]], inserts: list[tuple[int, str]]) -> str:
    """`text` without the `cuts` spans, with each insert's text added at its position."""
    out: list[str] = []
    pos = 0
    events = sorted([(c[0], 1, c) for c in cuts] + [(i[0], 0, i) for i in inserts])
    for at, kind, item in events:
        if at > pos:
            out.append(text[pos:at])
            pos = at
        if kind == 0:
            out.append(str(item[1]))
        else:
            pos = max(pos, int(item[1]))
    out.append(text[pos:])
    return "".join(out)


def _insert_pos(box: dict[str, Any], top: float, boxes: list[dict[str, Any]], default: int) -> int:
    """Text position after the last non-running box above `top` that overlaps `box`'s column."""
    x0, _, x1, _ = box["bbox"]
    best = default
    for other in boxes:
        bx0, _, bx1, by1 = other["bbox"]
        if other.get("class") in _RUNNING_CLASSES or bx1 <= x0 or bx0 >= x1 or by1 > top + 2:
            continue
        best = max(best if best != default else 0, other["pos"][1])
    return best


def _box_lines(
    page: Any, box: dict[str, Any], boxes: list[dict[str, Any]]
) -> tuple[list[tuple[int, str]], float]:
    """((block number, plain text) of `box`'s horizontal lines whose centre lies in no other
    non-running box of `boxes`, top y of those lines)."""
    import pymupdf

    others = [
        pymupdf.Rect(b["bbox"])
        for b in boxes
        if b is not box and b.get("class") not in _RUNNING_CLASSES
    ]
    kept: list[tuple[int, str]] = []
    top = float(box["bbox"][3])
    blocks = page.get_text("dict", clip=pymupdf.Rect(box["bbox"]))["blocks"]
    for number, block in enumerate(blocks):
        for line in block.get("lines", []):
            if abs(line["dir"][1]) > 0.01:
                continue  # vertical text: margin stamps such as arXiv identifiers
            rect = pymupdf.Rect(line["bbox"])
            centre = pymupdf.Point((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2)
            line_text = "".join(span["text"] for span in line["spans"]).strip()
            if line_text and not any(centre in other for other in others):
                kept.append((number, line_text))
                top = min(top, rect.y0)
    return kept, top


def _has_running_box(chunk: dict[str, Any]) -> bool:
    return any(b.get("class") in _RUNNING_CLASSES for b in chunk.get("page_boxes") or [])


class PyMuPDFBackend(Backend):
    """pymupdf4llm + pymupdf-layout, heading clean-up, running-line removal, outline repair."""

    name = "pymupdf"
    extra = ""
    requires = ("pymupdf", "pymupdf4llm")

    @classmethod
    @cache
    def version(cls) -> str:
        parts = [f"pymupdf4llm {_dist('pymupdf4llm')}", f"pymupdf {_dist('pymupdf')}"]
        # Package metadata only: importing pymupdf (and with it the layout model's onnxruntime)
        # costs seconds, and the ingest parent asks for the version on every (re)run.
        layout = _dist("pymupdf-layout")
        if layout:
            parts.append(f"pymupdf-layout {layout}")
        return "; ".join(parts)

    def extract(
        self, path: Path, pdf: Any, pages: Sequence[int], options: ConvertOptions
    ) -> Extraction:
        """pymupdf4llm Markdown per page, page-header/-footer boxes cut when stripping."""
        layout = options.use_layout and layout_installed()
        chunks = self._run(path, pdf, pages, layout)
        texts = tuple(c["text"] for c in chunks)
        if options.strip_headers_footers and any(_has_running_box(c) for c in chunks):
            running = find_running(TextLayer.of_document(pdf), from_toc(pdf.get_toc(simple=True)))
            texts = tuple(
                _without_running_boxes(pdf[p - 1], c, running.on_page(p))
                for p, c in zip(pages, chunks, strict=True)
            )
        return Extraction(texts, recorded={"layout_active": layout})

    @staticmethod
    def _run(path: Path, doc: Any, pages: Sequence[int], layout: bool) -> list[dict[str, Any]]:
        """pymupdf4llm with its stdout chatter captured and logged at debug level."""
        captured = io.StringIO()
        try:
            with contextlib.redirect_stdout(captured):
                chunks = _extract(doc, pages, layout)
        except Exception as exc:  # pymupdf4llm raises anything from IndexError to RuntimeError
            raise ConversionError(path, f"pymupdf4llm failed: {type(exc).__name__}: {exc}") from exc
        finally:
            if captured.getvalue().strip():
                log.debug("pymupdf4llm output for %s: %s", path, captured.getvalue().strip())
        if len(chunks) != len(pages):
            raise ConversionError(
                path, f"pymupdf4llm returned {len(chunks)} pages for {len(pages)}"
            )
        return chunks
