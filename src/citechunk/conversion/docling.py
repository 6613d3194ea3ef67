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

OCR (`convert.ocr`): `ocr.recognise_file` reads the pages it selects with the configured engine
and their Markdown replaces docling's (empty) text for those pages before the clean-up, as in the
pymupdf backend; docling's own OCR stage stays off (the offline layout stage reads
docling-parse's cells, and docling's RapidOCR option needs models fetched at run time).

Output contract (same as every backend): Markdown with a ``<!-- page N -->`` line before each
converted page (`markers.render_pages`), pages without text included; headings cleaned like the
pymupdf backend (`cleanup.tidy_pages`). Heading levels: docling writes a section of level L as
L+1 ``#`` (one ``#`` is kept for a TITLE item); this backend writes level L as L ``#`` so the
shallowest section heading is ``#``, as with the pymupdf backend. Then the same heading
repair as the pymupdf backend (`outline.repair_structure`).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path
from typing import Any, ClassVar

from ..config import ConvertOptions
from ..errors import BackendError, ConversionError, EncryptedPDFError
from ..markers import render_pages
from ..models import ConvertedDocument, Provenance
from .base import Backend, parse_pages, sha256_file
from .cleanup import HEADING_RE, tidy_pages
from .ocr import recognise_file
from .outline import from_toc, repair_structure
from .title import pdf_title

log = logging.getLogger(__name__)

DISTRIBUTIONS = ("docling-slim", "docling-core", "docling-parse")
FETCH_HINT = (
    "docling's layout model weights are not available here. On a machine with internet run "
    "`docling-tools models download` (or `docling-tools models download layout`), copy the "
    "folder it prints to this machine and set convert.docling_artifacts_path to it; "
    "or use convert.docling_layout = 'offline', which needs no weights"
)


@dataclasses.dataclass(frozen=True)
class PdfFacts:
    """What is read from the PDF before docling runs (PyMuPDF, a core dependency)."""

    page_count: int
    toc: tuple[tuple[int, str, int], ...]
    title: str = ""


def inspect_pdf(path: Path, password: str) -> PdfFacts:
    """Page count and outline; raises `ConversionError` / `EncryptedPDFError` on bad input."""
    import pymupdf

    if path.stat().st_size == 0:
        raise ConversionError(path, "empty file (0 bytes)")
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as exc:
        raise ConversionError(path, f"not a readable PDF ({exc})") from exc
    with doc:
        if doc.needs_pass:
            if not password:
                raise EncryptedPDFError(path, "encrypted PDF: a password is required (--password)")
            if not doc.authenticate(password):
                raise EncryptedPDFError(path, "encrypted PDF: the password is wrong")
        if doc.page_count < 1:
            raise ConversionError(path, "the PDF has no pages")
        toc = tuple((int(r[0]), str(r[1]), int(r[2])) for r in doc.get_toc(simple=True))
        return PdfFacts(doc.page_count, toc, pdf_title(doc, path))


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
    one block, the whole paragraph (in the mdpi paper, all of page 4) landed on its first page.
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


def finish_pages(
    raw: dict[int, str], pages: Sequence[int], facts: PdfFacts, options: ConvertOptions
) -> tuple[list[tuple[int, str]], list[str]]:
    """Heading levels shifted, pages tidied, running lines stripped, outline repair applied."""
    texts = ["\n".join(shift_heading(x) for x in raw.get(p, "").split("\n")) for p in pages]
    texts = tidy_pages(texts, options.strip_headers_footers)
    outline = from_toc(facts.toc) if options.outline_repair else []
    result, stats = repair_structure(
        list(zip(pages, texts, strict=True)), outline, options.outline_repair
    )
    warnings: list[str] = []
    if stats.missing:
        warnings.append(f"outline entries not found on their pages: {len(stats.missing)}")
    return result, warnings


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

    def convert(self, path: Path, options: ConvertOptions) -> ConvertedDocument:
        """Convert the selected pages (docling runs on the span from the first to the last one;
        only the selected pages are written, each with its marker, empty ones included)."""
        facts = inspect_pdf(path, options.password)
        pages = parse_pages(options.pages, facts.page_count)
        result = self._run(path, options, (min(pages), max(pages)))
        recognised = recognise_file(path, pages, options)
        raw = {**document_pages(result.document), **recognised.markdown}
        empty = self._pages_without_text(result, pages)
        marked, warnings = finish_pages(raw, pages, facts, options)
        warnings += self._docling_warnings(result) + list(recognised.warnings)
        unread = [p for p in empty if p not in recognised.attempted]
        if unread:
            warnings.insert(
                0, f"pages without a text layer (no OCR): {', '.join(map(str, unread))}"
            )
        for w in warnings:
            log.warning("%s: %s", path, w)
        return ConvertedDocument(
            markdown=render_pages(marked),
            provenance=Provenance(
                source=str(path),
                source_sha256=sha256_file(path),
                backend=self.name,
                backend_version=self.version(),
                page_count=facts.page_count,
                pages=tuple(pages),
                options=_public_options(options),
                pages_without_text=tuple(empty),
                warnings=tuple(warnings),
                title=facts.title,
                ocr_pages=recognised.numbers,
            ),
            ocr_seconds=recognised.seconds,
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
    def _pages_without_text(result: Any, pages: Sequence[int]) -> list[int]:
        with_text = {
            p.page_no
            for p in result.pages
            if p.parsed_page is not None
            and any(c.text.strip() for c in p.parsed_page.textline_cells)
        }
        return [p for p in pages if p not in with_text]

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


def _public_options(options: ConvertOptions) -> dict[str, Any]:
    """The options as recorded in provenance (the password is never written)."""
    data = dataclasses.asdict(options)
    data["password"] = "***" if options.password else ""
    return data


def build_converter(options: ConvertOptions) -> Any:
    """A docling DocumentConverter for `options`, its PDF pipeline initialised (weights loaded).

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

    docling_layout.register()
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
                pipeline_options=pipeline, backend_options=backend_options
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
