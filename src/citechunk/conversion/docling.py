"""The `docling` backend: docling's standard PDF pipeline, page-marked Markdown out.

Install with ``pip install 'citechunk[docling]'`` (torch 2.13.0 CPU first; see the README).
docling is imported lazily, so this module imports without it and the registry can report the
missing extra.

Layout modes (`ConvertOptions.docling_layout`):

* ``offline`` (default): `docling_layout.OfflineLayoutModel`, a layout stage without weights that
  labels text lines as heading / list item / text / table / page header+footer from fonts and
  geometry. docling's own assembly, reading order, heading hierarchy (bookmarks, numbering, font
  style) and page provenance run unchanged after it.
* ``model``: docling's own layout model. Its weights must already be on disk (docling's cache or
  `docling_artifacts_path`); otherwise a `BackendError` says how to fetch them.

Tables are structured by `docling_layout.GridTableModel` in both modes (TableFormer's weights
are not available offline either).

`DoclingBackend.extract` is this backend's step of the `base.Backend` template (opening, the
text-layer check, the passes, page markers and provenance are shared). docling's document is
read once as typed blocks (`docling_blocks.document_blocks`), the block processors run over
them (`processors.run`), their heading levels set over the document by the heading stage the
pymupdf layout path uses (`headings.level_headings`), and
each page rendered from its blocks (`render.render_page`); docling's own Markdown export is not
used.
"""

from __future__ import annotations

import logging
import re
import threading
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path
from typing import Any, ClassVar

from ..config import ConvertOptions
from ..errors import BackendError, ConversionError
from ..models import PassFailure
from .base import Backend, Extraction, PdfFacts
from .docling_blocks import document_blocks, parsed_pages
from .headings import level_headings
from .processors import run as run_processors
from .render import render_page
from .runningsections import open_sections

log = logging.getLogger(__name__)

DISTRIBUTIONS = ("docling-slim", "docling-core", "docling-parse")
FETCH_HINT = (
    "docling's layout model weights are not available here. On a machine with internet run "
    "`docling-tools models download` (or `docling-tools models download layout`), copy the "
    "folder it prints to this machine and set convert.docling_artifacts_path to it; "
    "or use convert.docling_layout = 'offline', which needs no weights"
)


def _versions() -> dict[str, str]:
    found = {}
    for dist in DISTRIBUTIONS:
        try:
            found[dist] = dist_version(dist)
        except PackageNotFoundError:
            found[dist] = "missing"
    return found


class DoclingBackend(Backend):
    """PDF -> Markdown through docling (see the module docstring). One converter per setting."""

    name: ClassVar[str] = "docling"
    extra: ClassVar[str] = "docling"
    requires: ClassVar[tuple[str, ...]] = ("docling", "docling_core", "docling_parse", "torch")

    def __init__(self) -> None:
        self._converters: dict[tuple[str, str, bool, bool, str], Any] = {}
        self._lock = threading.Lock()

    @classmethod
    def version(cls) -> str:
        return " ".join(f"{d}=={v}" for d, v in _versions().items())

    def extract(self, path: Path, pdf: Any, facts: PdfFacts, options: ConvertOptions) -> Extraction:
        """docling on the span from the first to the last selected page; the selected pages'
        Markdown rendered from blocks (module docstring)."""
        pages = facts.pages
        result = self._run(path, options, (min(pages), max(pages)))
        read = document_blocks(result.document, parsed_pages(result.pages))
        failures: list[PassFailure] = []
        read = {p: facts.ocr[p] if p in facts.ocr else read.get(p, ()) for p in pages}
        processed = run_processors(read, options.skip_passes, failures, str(path))
        leveled = open_sections(level_headings(processed), facts.sections)
        texts = tuple(render_page(leveled[p]).text for p in pages)
        return Extraction(
            texts,
            warnings=tuple(self._docling_warnings(result)),
            pass_failures=tuple(failures),
        )

    def _run(self, path: Path, options: ConvertOptions, span: tuple[int, int]) -> Any:
        from docling.datamodel.base_models import ConversionStatus

        converter = self._converter(options)
        result = converter.convert(path, raises_on_error=False, page_range=span)
        if result.status not in (ConversionStatus.SUCCESS, ConversionStatus.PARTIAL_SUCCESS):
            causes = "; ".join(e.error_message for e in result.errors[:3]) or str(
                result.status.value
            )
            raise ConversionError(path, f"docling could not convert the file: {causes}")
        return result

    @staticmethod
    def _docling_warnings(result: Any) -> list[str]:
        failed = sorted({e.page_no for e in result.errors if getattr(e, "page_no", None)})
        return [f"docling failed on pages: {', '.join(map(str, failed))}"] if failed else []

    def _converter(self, options: ConvertOptions) -> Any:
        key = (
            options.docling_layout,
            options.docling_artifacts_path,
            options.strip_headers_footers,
            options.outline_repair,
            options.password,
        )
        with self._lock:
            if key not in self._converters:
                self._converters[key] = build_converter(options)
            return self._converters[key]


def build_converter(options: ConvertOptions) -> Any:
    """A docling DocumentConverter for `options`, its PDF pipeline initialised (weights loaded).

    The pipeline is `docling_layout.CitechunkPdfPipeline`: citechunk's layout and table stages
    are known to this converter only, docling's factories stay as they are.

    Raises `BackendError` with `FETCH_HINT` when the layout model's weights are not on disk.
    """
    from docling.datamodel.backend_options import ThreadedDoclingParseBackendOptions
    from docling.datamodel.base_models import InputFormat
    from docling.datamodel.pipeline_options import (
        HeadingHierarchyOptions,
        LayoutObjectDetectionOptions,
        ThreadedPdfPipelineOptions,
    )
    from docling.document_converter import DocumentConverter, PdfFormatOption
    from pydantic import SecretStr

    from . import docling_layout

    layout: Any = (
        LayoutObjectDetectionOptions()
        if options.docling_layout == "model"
        else docling_layout.OfflineLayoutOptions(
            strip_headers_footers=options.strip_headers_footers
        )
    )
    pipeline = ThreadedPdfPipelineOptions(
        do_ocr=False,
        do_table_structure=True,
        table_structure_options=docling_layout.GridTableOptions(),
        layout_options=layout,
        generate_parsed_pages=True,
        heading_hierarchy_options=HeadingHierarchyOptions(
            enabled=True, use_bookmarks=options.outline_repair
        ),
        artifacts_path=options.docling_artifacts_path or None,
    )
    # One parser thread: pages reach the layout stage in page order, so its running body-size
    # estimate (pages 1..p) and hence the output are the same from run to run. Not slower on
    # 2 cores; a run's parallelism comes from one worker process per file.
    backend_options = ThreadedDoclingParseBackendOptions.model_validate(
        {"password": SecretStr(options.password) if options.password else None, "parser_threads": 1}
    )
    converter = DocumentConverter(
        format_options={
            InputFormat.PDF: PdfFormatOption(
                pipeline_cls=docling_layout.CitechunkPdfPipeline,
                pipeline_options=pipeline,
                backend_options=backend_options,
            )
        }
    )
    try:
        converter.initialize_pipeline(InputFormat.PDF)
    except (OSError, RuntimeError, ValueError, ImportError) as exc:
        if options.docling_layout != "model":
            raise
        raise BackendError(f"{FETCH_HINT} (docling said: {_first_line(exc)})") from exc
    return converter


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return re.split(r"\n", text, maxsplit=1)[0][:300]
