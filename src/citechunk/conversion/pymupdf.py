"""The default backend: pymupdf4llm (with the pymupdf-layout model when installed) + clean-up.

Pipeline for one PDF (one parse, everything after it is linear-time text work):

1. open with PyMuPDF (`open_pdf`): empty, non-PDF and unrepairable files raise
   `ConversionError`; encrypted files need ``options.password`` (`EncryptedPDFError` otherwise);
2. per selected page, a cheap text-layer check: pages with no text are reported in
   ``pages_without_text``, pages whose text is mostly control characters (broken font
   encoding) get a warning;
3. pymupdf4llm converts the pages (``page_chunks=True``): with ``use_layout`` the layout model
   path (``document_layout.parse_document``), otherwise the classic ``pymupdf_rag`` path; the
   choice is made per call, no process-wide switch is flipped; on the layout path the parsed
   boxes are fixed before rendering (`split_columns`, `reading_order.read_columns`,
   `detach_margin_notes`);
3b. `ocr.recognise` reads the pages ``options.ocr`` selects (see `conversion.ocr`); their
   Markdown replaces the page chunk's text (`ocr.with_ocr_text`), so every later step treats
   it like extracted text; pages left without text get a warning;
4. page-header / page-footer boxes found by the layout model are cut out (short ones only: a
   long "header" box is body text the model misread), then repeated top/bottom lines
   (`cleanup.strip_running_lines`), both only with ``strip_headers_footers``;
5. `cleanup.tidy_pages` (per page, then words and tables across page breaks), then
   `outline.repair_structure` with ``doc.get_toc()`` (outline, else section numbers; run-in
   labels);
6. `markers.render_pages` writes the page markers.

Anything pymupdf4llm prints to stdout is captured and logged (stdout may carry Markdown).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import logging
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path
from typing import Any

from ..config import ConvertOptions
from ..errors import ConversionError, EncryptedPDFError
from ..markers import render_pages
from ..models import ConvertedDocument, Provenance
from .base import Backend, parse_pages, sha256_file
from .cleanup import tidy_pages
from .ocr import recognise, with_ocr_text
from .outline import from_toc, repair_structure
from .reading_order import read_columns
from .spans import join_subscripts
from .title import pdf_title

log = logging.getLogger(__name__)

# A page-header/-footer box longer than this is body text the layout model misclassified.
MAX_RUNNING_BOX_CHARS = 200
# A page is "garbled" when this share of its non-blank characters are control characters.
GARBLED_SHARE = 0.2
_RUNNING_CLASSES = ("page-header", "page-footer")
# Margin notes: spans this many points outside the body text edges; bullets/numbers excluded.
MARGIN_GAP = 4.0
# Two prose columns inside one layout box: a gutter at least this wide (points).
COLUMN_GAP = 10.0
_MARK_RE = re.compile(r"^[\W\d]+$|^\(?[a-zA-Z0-9]{1,3}[.)]$")
_GARBAGE_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffd]")
_BLANK_RE = re.compile(r"\s")
_BLANK_GARBAGE_RE = re.compile(r"[\x0b\x0c\x1c-\x1f\x85]")  # control chars str.isspace() accepts


def _dist(name: str) -> str:
    try:
        return dist_version(name)
    except PackageNotFoundError:
        return ""


def layout_installed() -> bool:
    """True when the pymupdf-layout model package can be imported."""
    import importlib.util

    return importlib.util.find_spec("pymupdf.layout") is not None


def open_pdf(path: Path, password: str = "") -> Any:
    """Open `path` as a PDF; raise `ConversionError` / `EncryptedPDFError` naming file and cause."""
    import pymupdf

    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(1024)
    except OSError as exc:
        raise ConversionError(path, f"cannot read file: {exc.strerror or exc}") from exc
    if size == 0:
        raise ConversionError(path, "empty file (0 bytes), not a PDF")
    if b"%PDF" not in head:
        raise ConversionError(path, "not a PDF (no %PDF header in the first 1024 bytes)")
    try:
        doc = pymupdf.open(str(path), filetype="pdf")
    except (RuntimeError, ValueError) as exc:  # pymupdf.FileDataError is a RuntimeError
        raise ConversionError(path, f"damaged PDF that MuPDF cannot repair: {exc}") from exc
    if doc.needs_pass:
        if not password:
            doc.close()
            raise EncryptedPDFError(path, "encrypted PDF: give its password (--password)")
        if not doc.authenticate(password):
            doc.close()
            raise EncryptedPDFError(path, "encrypted PDF: the password given is wrong")
    if doc.page_count == 0:
        doc.close()
        raise ConversionError(path, "damaged PDF: no pages found")
    return doc


def _bad_share(text: str) -> tuple[int, float]:
    """(count, share) of control/replacement characters among the non-blank characters."""
    bad = len(_GARBAGE_RE.findall(text))
    visible = len(text) - len(_BLANK_RE.findall(text)) + len(_BLANK_GARBAGE_RE.findall(text))
    return bad, bad / visible if visible else 0.0


def text_layer_report(doc: Any, pages: Sequence[int]) -> tuple[list[int], list[int]]:
    """(pages without any text, pages whose text looks garbled), both 1-based."""
    empty, garbled = [], []
    for number in pages:
        text = doc[number - 1].get_text("text")
        if not any(ch.isalnum() for ch in text):
            empty.append(number)
            continue
        bad, share = _bad_share(text)
        if bad >= 20 and share >= GARBLED_SHARE:
            garbled.append(number)
    return empty, garbled


def _extract(doc: Any, pages: Sequence[int], use_layout: bool) -> list[dict[str, Any]]:
    """pymupdf4llm page chunks (dicts with "text", "metadata", maybe "page_boxes")."""
    zero_based = [p - 1 for p in pages]
    if use_layout:
        import pymupdf
        import pymupdf.layout
        from pymupdf4llm.helpers import document_layout

        if not callable(getattr(pymupdf, "_get_layout", None)):
            pymupdf.layout.activate()  # someone called pymupdf4llm.use_layout(False)
        parsed = document_layout.parse_document(
            doc, pages=zero_based, use_ocr=False, force_text=True
        )
        for page in parsed.pages:
            page.boxes = split_columns(page.boxes, document_layout.LayoutBox)
            page.boxes = read_columns(page.boxes, page.width)
            page.boxes = detach_margin_notes(page.boxes, document_layout.LayoutBox)
            page.boxes = join_subscripts(page.boxes)
        chunks = parsed.to_markdown(header=True, footer=True, page_chunks=True)
    else:
        from pymupdf4llm.helpers import pymupdf_rag

        chunks = pymupdf_rag.to_markdown(
            doc, pages=zero_based, page_chunks=True, show_progress=False
        )
    return list(chunks)


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


def _is_margin(span: dict[str, Any], left: float, right: float) -> bool:
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
            margin = [s for s in line["spans"] if _is_margin(s, left, right)]
            if margin and any(_is_body(s, left, right) for s in line["spans"]):
                line["spans"] = [s for s in line["spans"] if not _is_margin(s, left, right)]
                notes.append({"bbox": margin[0]["bbox"], "spans": margin})
        box.textlines = [line for line in box.textlines if line["spans"]]
        for note in notes:
            log.debug("margin note detached: %s", " ".join(s["text"] for s in note["spans"]))
            x0, y0, x1, y1 = note["bbox"]
            out.append(box_type(x0, y0, x1, y1, "text", textlines=[note]))
    return out


def _gutter(lines: list[dict[str, Any]]) -> tuple[float, float] | None:
    """The widest vertical strip (>= COLUMN_GAP pt) that no span of any line crosses."""
    spans = sorted((sp["bbox"][0], sp["bbox"][2]) for line in lines for sp in line["spans"])
    best: tuple[float, float] | None = None
    reach = spans[0][1]
    for x0, x1 in spans[1:]:
        if x0 - reach >= COLUMN_GAP and (best is None or x0 - reach > best[1] - best[0]):
            best = (reach, x0)
        reach = max(reach, x1)
    return best


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
    def avg_chars(side: list[dict[str, Any]]) -> float:
        return sum(len(sp["text"].strip()) for ln in side for sp in ln["spans"]) / len(side)

    if len(left) < max(2, total / 2) or len(right) < max(2, total / 2):
        return False
    return avg_chars(left) >= 20 and avg_chars(right) >= 20


def _without_running_boxes(page: Any, chunk: dict[str, Any]) -> str:
    """The chunk's text with page-header/page-footer boxes cut out (layout path only).

    A short box is a running header/footer and is dropped. A long one is body text the model
    misread: the text of its lines that no other box covers is kept, placed after the last
    box above it in the same column (the model's own rendering of such a box repeats text of
    the boxes it overlaps and sits at the top of the page).
    """
    text: str = chunk["text"]
    boxes = chunk.get("page_boxes") or []
    cuts: list[tuple[int, int]] = []
    inserts: list[tuple[int, str]] = []
    for box in boxes:
        start, stop = box.get("pos", (0, 0))
        if box.get("class") not in _RUNNING_CLASSES:
            continue
        cuts.append((start, stop))
        if len(text[start:stop].strip()) > MAX_RUNNING_BOX_CHARS:
            recovered, top = _uncovered_text(page, box, boxes)
            if recovered:
                inserts.append((_insert_pos(box, top, boxes, start), "\n\n" + recovered + "\n\n"))
    return _splice(text, cuts, inserts)


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


def _uncovered_text(
    page: Any, box: dict[str, Any], boxes: list[dict[str, Any]]
) -> tuple[str, float]:
    """(plain text, top y) of `box`'s horizontal lines whose centre lies in no other
    non-running box; one paragraph per PyMuPDF text block."""
    import pymupdf

    others = [
        pymupdf.Rect(b["bbox"])
        for b in boxes
        if b is not box and b.get("class") not in _RUNNING_CLASSES
    ]
    paragraphs = []
    top = float(box["bbox"][3])
    for block in page.get_text("dict", clip=pymupdf.Rect(box["bbox"]))["blocks"]:
        kept = []
        for line in block.get("lines", []):
            if abs(line["dir"][1]) > 0.01:
                continue  # vertical text: margin stamps such as arXiv identifiers
            rect = pymupdf.Rect(line["bbox"])
            centre = pymupdf.Point((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2)
            line_text = "".join(span["text"] for span in line["spans"]).strip()
            if line_text and not any(centre in other for other in others):
                kept.append(line_text)
                top = min(top, rect.y0)
        if kept:
            paragraphs.append(" ".join(kept))
    return "\n\n".join(paragraphs), top


def _provenance_options(options: ConvertOptions, layout: bool) -> dict[str, Any]:
    """The options as recorded (never the password) plus what was actually used."""
    recorded = dataclasses.asdict(options)
    recorded.pop("password", None)
    recorded["password_given"] = bool(options.password)
    recorded["layout_active"] = layout
    return recorded


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

    def convert(self, path: Path, options: ConvertOptions) -> ConvertedDocument:
        """Convert `path`; see the module docstring for the steps and their contracts."""
        path = Path(path)
        doc = open_pdf(path, options.password)
        try:
            page_count = doc.page_count
            pages = parse_pages(options.pages, doc.page_count)
            empty, garbled = text_layer_report(doc, pages)
            layout = options.use_layout and layout_installed()
            toc = from_toc(doc.get_toc(simple=True)) if options.outline_repair else []
            chunks = self._run(path, doc, pages, layout)
            recognised = recognise(path, doc, pages, options)
            chunks = with_ocr_text(chunks, pages, recognised)
            unread = [p for p in empty if p not in recognised.attempted]
            warnings = self._warnings(doc, unread, garbled) + list(recognised.warnings)
            texts = self._page_texts(doc, chunks, pages, options.strip_headers_footers)
            title = pdf_title(doc, path)
        finally:
            doc.close()
        lost = [
            p
            for p, t in zip(pages, texts, strict=True)
            if p not in empty and p not in recognised.numbers and not t.strip()
        ]
        if lost:
            warnings.append(
                f"pages whose text (e.g. inside images) gave no Markdown: {_ranges(lost)}"
            )
        page_md, stats = repair_structure(
            list(zip(pages, texts, strict=True)), toc, options.outline_repair
        )
        if stats.missing:
            log.info("%s: outline entries not found: %s", path, "; ".join(stats.missing))
        provenance = Provenance(
            source=str(path),
            source_sha256=sha256_file(path),
            backend=self.name,
            backend_version=self.version(),
            page_count=page_count,
            pages=tuple(pages),
            options=_provenance_options(options, layout),
            pages_without_text=tuple(empty),
            warnings=tuple(warnings),
            title=title,
            ocr_pages=recognised.numbers,
        )
        return ConvertedDocument(render_pages(page_md), provenance, recognised.seconds)

    @staticmethod
    def _warnings(doc: Any, empty: list[int], garbled: list[int]) -> list[str]:
        warnings = []
        if getattr(doc, "is_repaired", False):
            warnings.append("the PDF was damaged; MuPDF repaired it while opening")
        if empty:
            warnings.append(f"pages without a text layer (no OCR done): {_ranges(empty)}")
        if garbled:
            warnings.append(f"pages with garbled text (broken font encoding?): {_ranges(garbled)}")
        return warnings

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

    @staticmethod
    def _page_texts(
        doc: Any, chunks: list[dict[str, Any]], pages: Sequence[int], strip: bool
    ) -> list[str]:
        """Clean Markdown per page, in `pages` order."""
        raw = [
            _without_running_boxes(doc[p - 1], c) if strip else c["text"]
            for p, c in zip(pages, chunks, strict=True)
        ]
        return tidy_pages(raw, strip)


def _ranges(pages: Sequence[int]) -> str:
    """[1, 2, 3, 5] -> "1-3, 5"."""
    out: list[str] = []
    start = prev = pages[0]
    for p in [*pages[1:], -1]:
        if p == prev + 1:
            prev = p
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = p
    return ", ".join(out)
