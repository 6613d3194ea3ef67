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
text-layer check, the passes, page markers and provenance are shared). Heading levels: docling
writes a section of level L as L+1 ``#`` (one ``#`` is kept for a TITLE item); this backend
writes level L as L ``#`` so the shallowest section heading is ``#``, as with the pymupdf
backend.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path
from typing import Any, ClassVar

from ..config import ConvertOptions
from ..errors import BackendError, ConversionError
from .base import Backend, Extraction, PdfFacts
from .mdlines import HEADING_RE

log = logging.getLogger(__name__)

DISTRIBUTIONS = ("docling-slim", "docling-core", "docling-parse")
FETCH_HINT = (
    "docling's layout model weights are not available here. On a machine with internet run "
    "`docling-tools models download` (or `docling-tools models download layout`), copy the "
    "folder it prints to this machine and set convert.docling_artifacts_path to it; "
    "or use convert.docling_layout = 'offline', which needs no weights"
)


def shift_heading(line: str) -> str:
    """``## x`` -> ``# x`` (docling's section level L+1 -> L); ``# x`` and body lines unchanged."""
    m = HEADING_RE.match(line)
    if not m or len(m.group(1)) < 2:
        return line
    return line[1:]


# Where a paragraph docling merged across a page break goes on: `mark_continuations` puts it in
# the item's text, `split_pages` cuts there (private-use characters: docling leaves them alone).
_CONTINUES = "\ue000citechunk-page-{}\ue000"
_CONTINUES_RE = re.compile("\ue000citechunk-page-(\\d+)\ue000[ \t]*")


def mark_continuations(doc: Any) -> None:
    """Mark where each page's part of a cross-page text item starts.

    docling's reading order joins a paragraph that runs over a page break into one item whose
    `prov` list has one entry per page, each with the character span of its part; exported as
    one block, the whole paragraph (up to a whole page of text) would land on its first page.
    The mark goes at the start of each later part, moved on to the next blank when the span
    starts inside a word (a word hyphenated over the break stays on its first page, as in the
    pymupdf backend)."""
    for item in doc.texts:
        provs = getattr(item, "prov", None) or []
        if len(provs) < 2:
            continue
        text, cuts = item.text, []
        for before, prov in zip(provs, provs[1:], strict=False):
            if prov.page_no == before.page_no:
                continue
            cut = min(max(prov.charspan[0], 0), len(text))
            while 0 < cut < len(text) and not text[cut - 1].isspace() and not text[cut].isspace():
                cut += 1
            cuts.append((cut, prov.page_no))
        for cut, page in sorted(cuts, reverse=True):
            text = text[:cut] + _CONTINUES.format(page) + text[cut:]
        item.text = text


def split_pages(
    text: str, breaks: Sequence[tuple[str, int, int]], first_page: int
) -> dict[int, str]:
    """Page -> Markdown from serialized text holding docling's raw page-break tokens and
    `mark_continuations` marks.

    Each token (a -> b) means "from here on, page b"; a token may repeat (docling emits one
    before a list group and one before its first item), so pieces are keyed by page and joined.
    A continuation mark means the same inside a paragraph.
    """
    cuts: list[tuple[int, int, int]] = []  # (start, end, page from here on)
    pos = 0
    for token, _prev, nxt in breaks:
        at = text.find(token, pos)
        if at >= 0:
            cuts.append((at, at + len(token), nxt))
            pos = at + len(token)
    cuts += [(m.start(), m.end(), int(m.group(1))) for m in _CONTINUES_RE.finditer(text)]
    pages: dict[int, list[str]] = {}
    page, pos = first_page, 0
    for at, end, nxt in sorted(cuts):
        pages.setdefault(page, []).append(text[pos:at])
        page, pos = nxt, end
    pages.setdefault(page, []).append(text[pos:])
    return {p: "\n\n".join(s.strip("\n") for s in parts if s.strip()) for p, parts in pages.items()}


def document_pages(doc: Any) -> dict[int, str]:
    """One export of a DoclingDocument, split into pages by the items' `prov` page numbers."""
    from docling_core.transforms.serializer.base import SerializationResult
    from docling_core.transforms.serializer.common import create_ser_result
    from docling_core.transforms.serializer.markdown import MarkdownDocSerializer, MarkdownParams

    class _KeepBreaks(MarkdownDocSerializer):
        """Leaves docling's page-break tokens (which carry page numbers) in the text."""

        def serialize_doc(
            self, *, parts: list[SerializationResult], **kwargs: Any
        ) -> SerializationResult:
            return create_ser_result(
                text="\n\n".join(p.text for p in parts if p.text), span_source=parts
            )

    escape_hashes(doc)
    mark_continuations(doc)
    first = next(
        (it.prov[0].page_no for it, _ in doc.iterate_items() if getattr(it, "prov", None)), 1
    )
    serializer = _KeepBreaks(doc=doc, params=MarkdownParams(page_break_placeholder=""))
    text = serializer.serialize().text
    return split_pages(text, list(serializer._get_page_breaks(text)), first)


def escape_hashes(doc: Any) -> None:
    """Body text that starts with ``#`` gets a backslash, so Markdown does not read it as a
    heading (docling's serializer leaves it as is). Headings and code are left alone."""
    from docling_core.types.doc.document import CodeItem, SectionHeaderItem, TitleItem

    for item in doc.texts:
        if not isinstance(item, SectionHeaderItem | TitleItem | CodeItem) and item.text.startswith(
            "#"
        ):
            item.text = "\\" + item.text


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
        Markdown, heading levels shifted so the shallowest section is ``#``."""
        pages = facts.pages
        result = self._run(path, options, (min(pages), max(pages)))
        raw = document_pages(result.document)
        texts = tuple("\n".join(map(shift_heading, raw.get(p, "").split("\n"))) for p in pages)
        return Extraction(texts, warnings=tuple(self._docling_warnings(result)))

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
