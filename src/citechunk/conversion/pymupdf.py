"""The default backend's extraction: pymupdf4llm (with the pymupdf-layout model when installed).

`PyMuPDFBackend.extract` is this backend's step of the `base.Backend` template (opening, the
text-layer check, the passes and the provenance are shared):

1. pymupdf4llm converts the pages (``page_chunks=True``), each page by one of two paths
   (`plain_pages` chooses, per ``convert.layout``): the layout model path
   (``document_layout.parse_document``) or the classic ``pymupdf_rag`` path (headings from
   font sizes; the outline repairs them later). ``layout = "auto"`` sends the pages the text
   layer shows to be plain one-column text (`triage`) down the classic path. The layout model
   is pymupdf-layout's analyzer for ``convert.layout_model`` ("text": the graph network on
   text-layer features; "text+image": also a CNN over a rendered page image), made once per
   process (`_analyzer`) on the CPU, or on CUDA with ``layout_gpu`` where onnxruntime has it,
   its fixed-shape sessions given the memory arena (`layoutsessions`).
   PyMuPDF keeps its layout function in one module global (``pymupdf._get_layout``), set as
   soon as ``pymupdf.layout`` is imported (``import pymupdf`` does that when pymupdf-layout is
   installed) and the only way pymupdf4llm reaches a model: the layout path installs the
   chosen analyzer for the call only, timed (`LayoutMeter`), and puts the previous value back
   afterwards, under a lock (`_layout`), so citechunk leaves that global as it found it; the
   classic path leaves it alone (PyMuPDF's table finder consults the model whenever it is
   installed; on plain pages no table is looked for). On the layout path the parsed boxes are
   fixed by the layout passes (`layoutpasses.LAYOUT_PASSES`, listed by ``citechunk passes``
   and skipped by name like the Markdown passes), read once as typed blocks
   (`blocks.page_blocks`), their heading levels set over the whole document whatever model
   read each page (`headings.level_headings`), and each page rendered from its blocks
   (`render.render_page`);
2. with ``strip_headers_footers``, the running lines (`runninglines`) of the page-header /
   page-footer boxes found by the layout model are cut out (`_without_running_boxes`); the
   box's other lines stay.

Anything pymupdf4llm prints to stdout is captured and logged (stdout may carry Markdown).
"""

from __future__ import annotations

import contextlib
import io
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path
from typing import Any, Literal

from ..config import ConvertOptions
from ..errors import ConversionError
from ..models import PassFailure
from .base import Backend, Extraction, PdfFacts
from .blocks import Block, page_blocks
from .headings import level_headings
from .layoutpasses import LayoutPage, run_layout_passes
from .layoutsessions import with_arena
from .outline import from_toc
from .plaintext import BodyFont, page_markdown
from .rawlines import layer_reading
from .render import RenderedPage, render_page
from .runninglines import RunningLines, find_running, line_numbers, line_signature
from .textlayer import TextLayer
from .triage import IMAGE_REASONS, Reason, fixed_pitch, model_reason

log = logging.getLogger(__name__)

# A page-header/-footer box longer than this is body text the layout model misclassified.
MAX_RUNNING_BOX_CHARS = 200
_RUNNING_CLASSES = ("page-header", "page-footer")


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

#: pymupdf-layout's feature set per `ConvertOptions.layout_model`: "rf" is the graph network on
#: the text layer's features alone; "imf+rf" (the library's default) adds a CNN over a
#: rendered image of the page.
Model = Literal["text", "text+image"]
FEATURE_SETS: dict[Model, str] = {"text": "rf", "text+image": "imf+rf"}

_CUDA = "CUDAExecutionProvider"


def layout_device(want_gpu: bool) -> Literal["cpu", "cuda"]:
    """ "cuda" when `want_gpu` and onnxruntime offers its CUDA execution provider, else "cpu"."""
    return "cuda" if want_gpu and _CUDA in onnx_providers() else "cpu"


def onnx_providers() -> tuple[str, ...]:
    """onnxruntime's available execution providers (empty when onnxruntime is missing)."""
    try:
        import onnxruntime
    except ImportError:
        return ()
    return tuple(onnxruntime.get_available_providers())


def device_report() -> str:
    """For ``citechunk backends``: the layout model's device without and with
    ``--layout-gpu``, from onnxruntime's providers."""
    providers = onnx_providers()
    if not providers:
        return "layout model on cpu (onnxruntime not installed)"
    cuda = "CUDA available" if _CUDA in providers else "CUDA not available"
    return f"layout model on cpu, with --layout-gpu on {layout_device(True)} ({cuda})"


@cache
def _analyzer(model: Model, device: Literal["cpu", "cuda"]) -> Any:
    """pymupdf-layout's analyzer for `model` on `device`, made once per process: its ONNX
    sessions (thread counts as `runner.threads` set them in a worker; fixed-shape models with
    the memory arena, `layoutsessions.with_arena`) serve every conversion."""
    from pymupdf.layout import DocumentLayoutAnalyzer

    return with_arena(
        DocumentLayoutAnalyzer.get_model(
            feature_set_name=FEATURE_SETS[model], use_gpu=device == "cuda"
        )
    )


@dataclass
class LayoutMeter:
    """Seconds (wall and CPU of this process) spent in the layout model, and the pages it ran
    on, over one conversion."""

    seconds: float = 0.0
    cpu_seconds: float = 0.0
    pages: set[int] = field(default_factory=set)

    def timed(self, analyzer: Any) -> Callable[..., Any]:
        """PyMuPDF's layout function form of `analyzer`, adding each call to this meter."""

        def layout(page: Any, **kwargs: Any) -> Any:
            start, cpu = time.perf_counter(), time.process_time()
            try:
                return analyzer.predict(page, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start
                self.cpu_seconds += time.process_time() - cpu
                self.pages.add(int(page.number) + 1)

        return layout


def page_reasons(doc: Any, facts: PdfFacts, options: ConvertOptions) -> dict[int, Reason | None]:
    """`triage.model_reason` of each selected page, read only when ``layout`` or
    ``layout_model`` is "auto" (and the model in use); {} otherwise."""
    if not _model_in_use(options) or "auto" not in (options.layout, options.layout_model):
        return {}
    layer = facts.layer or TextLayer.of_document(doc)
    return {
        n: model_reason(doc[n - 1], layer.page(n), facts.running.on_page(n)) for n in facts.pages
    }


def plain_pages(reasons: Mapping[int, Reason | None], options: ConvertOptions) -> tuple[int, ...]:
    """The pages the fast path writes (`plaintext`) instead of the layout model: with
    ``layout = "auto"`` those `triage.model_reason` found no reason for; none otherwise."""
    if options.layout != "auto":
        return ()
    return tuple(n for n, reason in reasons.items() if reason is None)


def page_model(
    page: int,
    reasons: Mapping[int, Reason | None],
    options: ConvertOptions,
    layer: TextLayer | None = None,
) -> Model:
    """The layout model for `page`: ``layout_model``, or with "auto" the image model where the
    page shows what the image carries best (`triage.IMAGE_REASONS`: placed images, drawn grids
    and figures, lines side by side) or is set in fixed pitch (`triage.fixed_pitch`) or has its
    lines numbered in the margin (`runninglines.line_numbers`: the text model reads the number
    column as a table column), both read from `layer` when given, and the text model elsewhere."""
    if options.layout_model != "auto":
        return options.layout_model
    if reasons.get(page) in IMAGE_REASONS:
        return "text+image"
    text = layer.page(page) if layer else None
    if text and (fixed_pitch(text) or line_numbers(text)):
        return "text+image"
    return "text"


def _model_in_use(options: ConvertOptions) -> bool:
    return options.use_layout and options.layout != "never" and layout_installed()


def _plain_markdown(doc: Any, facts: PdfFacts, pages: Sequence[int]) -> dict[int, str]:
    """`plaintext.page_markdown` of `pages`, the body font read from the whole document."""
    if not pages:
        return {}
    layer = facts.layer or TextLayer.of_document(doc)
    font = BodyFont.of(layer.page(n) for n in layer.numbers)
    return {n: page_markdown(doc[n - 1], facts.running.on_page(n), font) for n in pages}


def _extract(
    doc: Any,
    pages: Sequence[int],
    options: ConvertOptions,
    meter: LayoutMeter | None = None,
    written: Mapping[int, str] | None = None,
    reasons: Mapping[int, Reason | None] | None = None,
    failures: list[PassFailure] | None = None,
    layer: TextLayer | None = None,
) -> list[dict[str, Any]]:
    """Page chunks (dicts with "text", maybe "page_boxes") of `pages` in page order: those in
    `written` (Markdown of the fast path) as given, the others read as blocks by the layout
    model (`page_model` of each, one parse per model), their heading levels set once over all
    of them (`headings.level_headings`) and rendered (`render.render_page`), when the model
    is in use, else by pymupdf4llm's classic path. Layout passes that raised are added to
    `failures`."""
    written = written or {}
    rest = [p for p in pages if p not in written]
    chunks: dict[int, dict[str, Any]] = {p: {"text": written[p]} for p in pages if p in written}
    if rest and _model_in_use(options):
        meter = meter or LayoutMeter()
        failures = [] if failures is None else failures
        read: dict[int, tuple[Block, ...]] = {}
        for model in FEATURE_SETS:
            group = [p for p in rest if page_model(p, reasons or {}, options, layer) == model]
            if group:
                done = _layout(doc, group, model, options, meter, failures)
                read.update(zip(group, done, strict=True))
        for page, blocks in level_headings(read).items():
            chunks[page] = _chunk(blocks, render_page(blocks))
    elif rest:
        chunks.update(zip(rest, _classic(doc, rest), strict=True))
    return [chunks[p] for p in pages if p in chunks]


def _classic(doc: Any, pages: Sequence[int]) -> list[dict[str, Any]]:
    """pymupdf4llm's classic path (``pymupdf_rag``): headings from font sizes."""
    from pymupdf4llm.helpers import pymupdf_rag

    chunks = pymupdf_rag.to_markdown(
        doc, pages=[p - 1 for p in pages], page_chunks=True, show_progress=False
    )
    return list(chunks)


def _layout(
    doc: Any,
    pages: Sequence[int],
    model: Model,
    options: ConvertOptions,
    meter: LayoutMeter,
    failures: list[PassFailure],
) -> list[tuple[Block, ...]]:
    """The layout model path: the pages parsed (`_parse`) and read once as blocks
    (`blocks.page_blocks`), per page; their heading levels are set later, over the document
    (`headings.level_headings`)."""
    from pymupdf4llm.helpers.document_layout import create_list_item_levels

    parsed = _parse(doc, pages, model, options, meter, failures)
    return [page_blocks(page, create_list_item_levels(page.boxes)) for page in parsed.pages]


def _chunk(blocks: Sequence[Block], rendered: RenderedPage) -> dict[str, Any]:
    """A page chunk in pymupdf4llm's form: "text" and "page_boxes" (class, whole-point box,
    [start, stop) of each block's text)."""
    import pymupdf

    boxes: list[dict[str, Any]] = [
        {"class": b.kind, "bbox": tuple(pymupdf.IRect(b.bbox)), "pos": pos}  # type: ignore[arg-type]
        for b, pos in zip(blocks, rendered.spans, strict=True)
    ]
    return {"text": rendered.text, "page_boxes": boxes}


def _parse(
    doc: Any,
    pages: Sequence[int],
    model: Model,
    options: ConvertOptions,
    meter: LayoutMeter,
    failures: list[PassFailure],
) -> Any:
    """pymupdf4llm's parse of `pages` by the layout model, its boxes fixed by the layout passes.

    It needs PyMuPDF's process-wide layout function (``pymupdf._get_layout``, the only way
    pymupdf4llm reaches the model): the analyzer of ``options.layout_model`` is installed for
    this call only and the previous value (the host's, or the default model ``import
    pymupdf`` activated) put back afterwards. The lock makes layout parses in one process run
    one at a time (citechunk's parallelism is processes; the layout inference itself is
    serialised inside pymupdf4llm anyway). The text layer is read as PyMuPDF gives it
    (`rawlines.layer_reading`: replacement text honoured, a line two boxes share read the same
    in both). The parsed boxes then go through `layoutpasses.LAYOUT_PASSES` but those named in
    ``options.skip_passes`` (one that raises on a page is skipped there and added to
    `failures`)."""
    import pymupdf
    from pymupdf4llm.helpers import document_layout

    analyzer = _analyzer(model, layout_device(options.layout_gpu))
    with _LAYOUT_GLOBAL_LOCK:
        previous = pymupdf._get_layout
        pymupdf._get_layout = meter.timed(analyzer)
        try:
            with layer_reading():
                parsed = document_layout.parse_document(
                    doc, pages=[p - 1 for p in pages], use_ocr=False, force_text=True
                )
        finally:
            pymupdf._get_layout = previous
    for page in parsed.pages:
        layout_page = LayoutPage(page, doc[page.page_number - 1], document_layout.LayoutBox)
        page.boxes = run_layout_passes(page.boxes, layout_page, options.skip_passes, failures)
    return parsed


def _running_after_parse(doc: Any) -> RunningLines:
    """The running lines read again from `doc` after the parse turned its pages upright."""
    return find_running(TextLayer.of_document(doc), from_toc(doc.get_toc(simple=True)))


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

    @classmethod
    def devices(cls) -> str:
        return device_report() if layout_installed() else ""

    @classmethod
    def device(cls, options: ConvertOptions) -> str:
        """The layout model's device: "cuda" only with ``layout_gpu`` and onnxruntime's CUDA
        provider present (`layout_device`)."""
        return layout_device(options.layout_gpu) if options.use_layout else "cpu"

    def extract(self, path: Path, pdf: Any, facts: PdfFacts, options: ConvertOptions) -> Extraction:
        """pymupdf4llm Markdown per page, page-header/-footer boxes cut when stripping.

        The parse turns rotated pages upright in the open document (rotation 0), and the boxes
        are in that geometry: where a selected page was rotated, the running lines are read
        again after it (`facts.running` was read before, on the rotated pages); otherwise the
        text layer is the same and `facts.running` serves (each page read once)."""
        pages = facts.pages
        layout = _model_in_use(options)
        meter = LayoutMeter()
        failures: list[PassFailure] = []
        reasons = page_reasons(pdf, facts, options)
        upright = not any(pdf[p - 1].rotation for p in pages)
        written = _plain_markdown(pdf, facts, plain_pages(reasons, options))
        layer = facts.layer if options.layout_model == "auto" else None
        chunks = self._run(path, pdf, pages, options, meter, written, reasons, failures, layer)
        texts = tuple(c["text"] for c in chunks)
        if options.strip_headers_footers and any(_has_running_box(c) for c in chunks):
            running = facts.running if upright else _running_after_parse(pdf)
            texts = tuple(
                _without_running_boxes(pdf[p - 1], c, running.on_page(p))
                for p, c in zip(pages, chunks, strict=True)
            )
        recorded: dict[str, Any] = {"layout_active": layout}
        if layout:
            recorded["layout_device"] = layout_device(options.layout_gpu)
        return Extraction(
            texts,
            recorded=recorded,
            model_pages=tuple(sorted(meter.pages)),
            model_seconds=(meter.seconds, meter.cpu_seconds),
            pass_failures=tuple(failures),
        )

    @staticmethod
    def _run(
        path: Path,
        doc: Any,
        pages: Sequence[int],
        options: ConvertOptions,
        meter: LayoutMeter,
        written: Mapping[int, str],
        reasons: Mapping[int, Reason | None],
        failures: list[PassFailure],
        layer: TextLayer | None = None,
    ) -> list[dict[str, Any]]:
        """pymupdf4llm with its stdout chatter captured and logged at debug level."""
        captured = io.StringIO()
        try:
            with contextlib.redirect_stdout(captured):
                chunks = _extract(doc, pages, options, meter, written, reasons, failures, layer)
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
