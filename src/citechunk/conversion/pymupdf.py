"""The default backend's extraction: pymupdf4llm (with the pymupdf-layout model when installed).

`PyMuPDFBackend.extract` is this backend's step of the `base.Backend` template (opening, the
text-layer check, the passes and the provenance are shared):

1. each page is read as typed blocks (`blocks.Block`) by one of two readers (`plain_pages`
   chooses, per ``convert.layout``): pymupdf4llm's layout model path
   (``document_layout.parse_document``), or the fast path (`plaintext.page_blocks`, no
   model): with ``layout = "auto"`` for the pages the text layer shows to be plain one-column
   text (`triage`), and for every page when the model is not in use (``use_layout = false``,
   ``layout = "never"`` or pymupdf-layout not installed; then with the tables PyMuPDF's finder
   sees drawn with rules, and two prose columns read in column order). The layout model
   is pymupdf-layout's analyzer for ``convert.layout_model`` ("text": the graph network on
   text-layer features; "text+image": also a CNN over a rendered page image), made once per
   process (`_analyzer`) on the CPU, or on CUDA with ``layout_gpu`` where onnxruntime has it,
   its fixed-shape sessions given the memory arena (`layoutsessions`).
   PyMuPDF keeps its layout function in one module global (``pymupdf._get_layout``), set as
   soon as ``pymupdf.layout`` is imported (``import pymupdf`` does that when pymupdf-layout is
   installed) and the only way pymupdf4llm reaches a model: the layout path installs the
   chosen analyzer for the call only, timed (`LayoutMeter`), and puts the previous value back
   afterwards, under a lock (`_parse`), so citechunk leaves that global as it found it; the
   fast path leaves it alone (PyMuPDF's table finder consults the model whenever it is
   installed; on plain pages of ``layout = "auto"`` no table is looked for). On the layout path the parsed boxes are
   fixed by the layout passes (`layoutpasses.LAYOUT_PASSES`, listed by ``citechunk passes``
   and skipped by name like the Markdown passes) and read once as typed blocks
   (`blocks.page_blocks`). The blocks of every page, fast path and model alike, go through
   the block processors (`processors`: running titles and sentence pieces made text) and
   have their heading levels set over the whole document (`headings.level_headings`), so a
   heading's level never depends on the reader or model of its page, and each page is
   rendered from its blocks (`render.render_page`);
2. with ``strip_headers_footers``, the page-header / page-footer blocks holding running lines
   (`runninglines`) go to the furniture layer and are not rendered (`layers.furniture_layer`);
   their other lines stay in the body.

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
from .blocks import Block, Box, page_blocks
from .furniture import NumberPlaces
from .headings import level_headings
from .layers import RUNNING_KINDS, furniture_layer
from .layoutpasses import LayoutPage, run_layout_passes
from .layoutsessions import with_arena
from .outline import from_toc
from .plaintext import body_size
from .plaintext import page_blocks as plain_blocks
from .processors import run as run_processors
from .rawlines import layer_reading
from .render import render_page
from .runninglines import RunningLines, find_running, line_numbers
from .runningsections import Section, open_sections
from .sidebars import candidate, page_rects, scope_document
from .textlayer import TextLayer
from .triage import IMAGE_REASONS, Reason, fixed_pitch, model_reason

log = logging.getLogger(__name__)


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


def plain_pages(
    pages: Sequence[int], reasons: Mapping[int, Reason | None], options: ConvertOptions
) -> tuple[int, ...]:
    """The pages the fast path reads (`plaintext`) instead of the layout model: with
    ``layout = "auto"`` those `triage.model_reason` found no reason for; every page when the
    model is not in use; none otherwise."""
    if not _model_in_use(options):
        return tuple(pages)
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


def _plain_blocks(
    doc: Any, facts: PdfFacts, pages: Sequence[int], tables: bool
) -> dict[int, tuple[Block, ...]]:
    """`plaintext.page_blocks` of `pages` (with `tables`: their ruled tables), the body size
    read from the whole document."""
    if not pages:
        return {}
    layer = facts.layer or TextLayer.of_document(doc)
    body = body_size(layer.page(n) for n in layer.numbers)
    places = facts.running.places
    return {
        n: plain_blocks(doc[n - 1], facts.running.on_page(n), body, places, tables) for n in pages
    }


def _extract(
    doc: Any,
    pages: Sequence[int],
    options: ConvertOptions,
    meter: LayoutMeter | None = None,
    plain: Mapping[int, tuple[Block, ...]] | None = None,
    reasons: Mapping[int, Reason | None] | None = None,
    failures: list[PassFailure] | None = None,
    layer: TextLayer | None = None,
    running: Callable[[], RunningLines] | None = None,
    places: NumberPlaces | None = None,
    named: Sequence[Section] = (),
) -> list[str]:
    """Markdown of `pages` in page order. The pages in `plain` (read already: the fast path's
    blocks, OCR's) and the others read as blocks by the layout model (`page_model` of each, one parse per model)
    have their heading levels set once over all of them
    (`headings.level_headings`) after the block processors (`processors.run`), with `running`
    (the document's running lines, read when needed) their running headers and footers put in
    the furniture layer (`layers.furniture_layer`), the sections `named` by running headers
    opened (`runningsections.open_sections`), the headings of drawn boxes scoped to their box
    (`sidebars.scope_document`), and are rendered (`render.render_page`). Both
    read the text without its line numbers (`furniture`, with the document's `places`).
    Layout passes that raised are added to `failures`."""
    plain = plain or {}
    rest = [p for p in pages if p not in plain]
    meter = meter or LayoutMeter()
    failures = [] if failures is None else failures
    read: dict[int, tuple[Block, ...]] = dict(plain)
    for model in FEATURE_SETS:
        group = [p for p in rest if page_model(p, reasons or {}, options, layer) == model]
        if group:
            done = _read_blocks(_parse(doc, group, model, options, meter, failures, places))
            read.update(zip(group, done, strict=True))
    ordered = {p: read[p] for p in pages if p in read}
    read = level_headings(run_processors(ordered, options.skip_passes, failures))
    if running and any(b.kind in RUNNING_KINDS for bs in read.values() for b in bs):
        lines = running()
        read = {p: furniture_layer(bs, lines.on_page(p)) for p, bs in read.items()}
    read = open_sections(read, named)
    read = scope_document(read, _drawn_rects(doc, read))
    return [render_page(read[p]).text for p in pages if p in read]


def _drawn_rects(doc: Any, read: Mapping[int, Sequence[Block]]) -> dict[int, tuple[Box, ...]]:
    """The drawn rectangles (`sidebars.page_rects`) of the upright pages that may hold a box
    (`sidebars.candidate`); other pages' drawings are not read."""
    return {
        n: page_rects(doc[n - 1])
        for n, blocks in read.items()
        if candidate(blocks) and not doc[n - 1].rotation
    }


def _read_blocks(parsed: Any) -> list[tuple[Block, ...]]:
    """The layout model path: the pages `_parse` gave read once as blocks
    (`blocks.page_blocks`), per page; their heading levels are set later, over the document
    (`headings.level_headings`)."""
    from pymupdf4llm.helpers.document_layout import create_list_item_levels

    return [page_blocks(page, create_list_item_levels(page.boxes)) for page in parsed.pages]


def _parse(
    doc: Any,
    pages: Sequence[int],
    model: Model,
    options: ConvertOptions,
    meter: LayoutMeter,
    failures: list[PassFailure],
    places: NumberPlaces | None = None,
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
            with layer_reading(places):
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
        """pymupdf4llm Markdown per page, running headers and footers left out when stripping.

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
        fast = [n for n in plain_pages(pages, reasons, options) if n not in facts.ocr]
        plain = {**_plain_blocks(pdf, facts, fast, not layout), **facts.ocr}
        layer = facts.layer if options.layout_model == "auto" else None
        running = None
        if options.strip_headers_footers:
            running = (lambda: facts.running) if upright else (lambda: _running_after_parse(pdf))
        places = facts.running.places if upright else None  # the parse may turn pages
        named = facts.sections if upright else ()
        read = (plain, reasons, failures, layer, running, places, named)
        texts = tuple(self._run(path, pdf, pages, options, meter, *read))
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
        *read: Any,
    ) -> list[str]:
        """`_extract` (`read`: its arguments after `meter`) with pymupdf4llm's stdout chatter
        captured and logged at debug level."""
        captured = io.StringIO()
        try:
            with contextlib.redirect_stdout(captured):
                texts = _extract(doc, pages, options, meter, *read)
        except Exception as exc:  # pymupdf4llm raises anything from IndexError to RuntimeError
            raise ConversionError(path, f"pymupdf4llm failed: {type(exc).__name__}: {exc}") from exc
        finally:
            if captured.getvalue().strip():
                log.debug("pymupdf4llm output for %s: %s", path, captured.getvalue().strip())
        if len(texts) != len(pages):
            raise ConversionError(path, f"pymupdf4llm returned {len(texts)} pages for {len(pages)}")
        return texts
