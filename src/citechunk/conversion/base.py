"""The backend template: open the PDF once, extract page Markdown, then the shared finish.

`Backend.convert` is the same for every backend:

1. `open_pdf` (one opener, one error mapping): empty, non-PDF and unrepairable files raise
   `ConversionError` (a repaired file whose page tree is lost gets one rebuilt from its page
   objects first: `pagetree`); encrypted files need ``options.password``
   (`EncryptedPDFError` otherwise);
2. `read_facts`: the selected pages, the outline (the PDF's; without one, and without sections
   its running headers name, the contents list it prints: `printedcontents`), the document
   title, a cheap text-layer
   check per page (no text: ``pages_without_text``; mostly control characters: "garbled")
   and the running lines of the text layer (`runninglines.find_running`);
3. `ocr.recognise` reads the pages `convert.ocr` selects (no usable text layer, or every
   page under "force") as typed blocks (`PdfFacts.ocr`); when OCR read the page the label is
   read from, the label is read again from the legible OCR lines and kept only with more
   evidence (`relabelled`); then `Backend.extract`, the only backend-specific step: raw
   Markdown per selected page, every page rendered from blocks, an OCR'd page from OCR's;
4. `finish`: `pipeline.run_passes` (tidy, cross-page fixes, structure repairs, the self-check
   against the `TextLayer` read before the PDF closed; a pass that raises is skipped for the
   document, or the page, it raised on: `passguard`), page markers (`markers.render_pages`),
   provenance with the same fields and the same warnings for the same conditions whatever the
   backend (`recorded_options` never writes the password; ``word_coverage`` and
   ``restored_lines`` from `coverage`; ``pass_failures``, each also a warning).
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ..config import ConvertOptions
from ..errors import ConfigError, ConversionError, EncryptedPDFError
from ..fsutil import sha256_file
from ..markers import render_pages
from ..models import ConvertedDocument, PassFailure, Provenance
from ..timing import StageClock
from . import pagetree
from .blocks import Block
from .coverage import Coverage, body_lines, page_coverage
from .ocr import OcrOutcome, is_blank, is_garbled, recognise
from .outline import OutlineEntry, from_toc, lists_sections
from .pagelist import page_ranges
from .passcontext import PassContext
from .pipeline import run_passes
from .printedcontents import printed_outline
from .runninglines import RunningLines, find_running
from .runningsections import Section, find_sections, opening
from .textlayer import TextLayer
from .title import TITLE_PAGES, pdf_label, title_page


@dataclass(frozen=True)
class PdfFacts:
    """What every backend knows about the PDF before extracting (read with PyMuPDF)."""

    page_count: int
    pages: tuple[int, ...]
    outline: tuple[OutlineEntry, ...]
    title: str  # the document's label (`title.document_label`)
    empty: tuple[int, ...]  # selected pages without any text
    garbled: tuple[int, ...]  # selected pages whose text is mostly control characters
    repaired: bool  # MuPDF repaired the file while opening it
    running: RunningLines = field(default_factory=RunningLines)  # `find_running` of all pages
    #: Where the label came from (`title.LabelSource`; "... (ocr)" when read from OCR text).
    title_source: str = ""
    title_evidence: float = 0.0  # the label's evidence (`title.Label.evidence`)
    full_title: str = ""  # the whole title when the label is shortened (`title.Label.full`)
    blank: tuple[int, ...] = ()  # the `empty` pages on which nothing is drawn (`ocr.is_blank`)
    #: The document's text layer as read for these facts (pages of the open PDF, cached).
    layer: TextLayer | None = field(default=None, compare=False, repr=False)
    #: Sections the running headers name (`runningsections`; none with an outline).
    sections: tuple[Section, ...] = ()
    #: The blocks OCR read per page (`ocr.recognise`): a backend takes them in place of its
    #: own reading of those pages.
    ocr: Mapping[int, tuple[Block, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Extraction:
    """A backend's raw result: Markdown per selected page (in `PdfFacts.pages` order), its own
    warnings, facts about the run worth recording beside the options (``layout_active``), and
    measurements never saved: the pages a layout model ran on and its (wall, CPU) seconds,
    part of the extraction's time."""

    texts: tuple[str, ...]
    warnings: tuple[str, ...] = ()
    recorded: Mapping[str, Any] = field(default_factory=dict)
    model_pages: tuple[int, ...] = ()
    model_seconds: tuple[float, float] = (0.0, 0.0)
    #: Passes the backend ran (the layout passes, the block processors) that raised and were
    #: skipped (`passguard`).
    pass_failures: tuple[PassFailure, ...] = ()


class Backend(ABC):
    """A conversion backend (the template in the module docstring).

    Subclasses set `name`, `extra` (the pip extra that installs their dependencies, "" for none)
    and `requires` (top-level modules that must import), and implement `version` and `extract`.
    They are registered under the entry-point group ``citechunk.backends`` and constructed once
    per process; `convert` may be called many times.
    """

    name: ClassVar[str]
    extra: ClassVar[str] = ""
    requires: ClassVar[tuple[str, ...]] = ()

    @classmethod
    @abstractmethod
    def version(cls) -> str:
        """Version string of the underlying library (part of the configuration fingerprint)."""

    @classmethod
    def devices(cls) -> str:
        """One phrase for ``citechunk backends``: where the backend's models can run ("" for
        nothing to say)."""
        return ""

    @classmethod
    def device(cls, options: ConvertOptions) -> str:
        """Where the backend's models run under `options` ("cpu" unless a backend says)."""
        return "cpu"

    @abstractmethod
    def extract(self, path: Path, pdf: Any, facts: PdfFacts, options: ConvertOptions) -> Extraction:
        """Raw Markdown of the selected pages (``facts.pages``, 1-based) of the open PyMuPDF
        document `pdf` at `path`; `facts` is what was read before (outline, running lines),
        so a backend need not read it again. Raises `ConversionError` naming the file when the
        library fails."""

    def convert(self, path: Path, options: ConvertOptions) -> ConvertedDocument:
        """Convert one PDF. Raises `ConversionError` (naming the file and cause) on bad input."""
        path = Path(path)
        clock = StageClock()
        pdf = open_pdf(path, options.password)
        try:
            layer = TextLayer.of_document(pdf)
            with clock.stage("text layer"):
                facts = read_facts(path, pdf, options, layer)
            with clock.stage("ocr"):
                recognised = recognise(path, pdf, facts.pages, options)
            with clock.stage("text layer"):
                facts = relabelled(path, pdf, facts, recognised)
            facts = dataclasses.replace(facts, ocr=recognised.blocks)
            with clock.stage("extract"):
                extraction = self.extract(path, pdf, facts, options)
            clock.carve("extract", "layout model", *extraction.model_seconds)
            with clock.stage("text layer"):
                layer.preload(facts.pages)
        finally:
            pdf.close()
        if len(extraction.texts) != len(facts.pages):
            raise ConversionError(
                path, f"{self.name} returned {len(extraction.texts)} pages for {len(facts.pages)}"
            )
        with clock.stage("passes"):
            doc = finish(self, path, facts, extraction, recognised, options, layer)
        for page in recognised.pages:
            layer = layer.with_page(page.words)
        return dataclasses.replace(
            doc,
            stages=clock.frozen(),
            stage_cpu=clock.frozen_cpu(),
            model_pages=len(extraction.model_pages),
            text_layer=layer,
        )


ENCRYPTED_HELP = (
    "encrypted PDF: give its password (--password PW or the CITECHUNK_PASSWORD environment "
    'variable; for ingest, per file: --passwords FILE, a TOML file of "glob" = "password" '
    "pairs; or convert.password in a --config file)"
)


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
            raise EncryptedPDFError(path, ENCRYPTED_HELP)
        if not doc.authenticate(password):
            doc.close()
            raise EncryptedPDFError(path, "encrypted PDF: the password given is wrong")
    if doc.page_count == 0 and not pagetree.rebuild(doc):
        doc.close()
        raise ConversionError(path, "damaged PDF: no pages found")
    return doc


def read_facts(
    path: Path, pdf: Any, options: ConvertOptions, layer: TextLayer | None = None
) -> PdfFacts:
    """Pages, outline, title, the text-layer check and the running lines of an open PDF
    (module docstring); `layer` is the document's `TextLayer` when the caller has one."""
    layer = layer or TextLayer.of_document(pdf)
    pages = parse_pages(options.pages, pdf.page_count)
    empty, garbled = text_layer_report(pdf, pages)
    toc = from_toc(pdf.get_toc(simple=True))
    outline = toc if options.outline_repair and lists_sections(toc) else []
    label = pdf_label(pdf, path, layer, skip=frozenset(garbled))
    running = find_running(layer, toc)
    named = () if outline else find_sections(layer, running, pages, label.text)
    if options.outline_repair and not outline and not named:
        outline = list(printed_outline(layer, pages))
    return PdfFacts(
        page_count=pdf.page_count,
        pages=tuple(pages),
        outline=tuple(outline),
        title=label.text,
        empty=tuple(empty),
        garbled=tuple(garbled),
        repaired=bool(getattr(pdf, "is_repaired", False)),
        running=opening(running, named),
        title_source=label.source,
        title_evidence=label.evidence,
        full_title=label.full,
        blank=tuple(n for n in empty if is_blank(pdf[n - 1])),
        layer=layer,
        sections=named,
    )


def relabelled(path: Path, pdf: Any, facts: PdfFacts, recognised: OcrOutcome) -> PdfFacts:
    """`facts` with the label read again (`title.pdf_label`, the same rule) from the text
    layer with the OCR'd pages' legible lines (`ocr.legible_text`) in place of their own,
    when OCR read one of the first `title.TITLE_PAGES` pages and the page the text layer's
    label was read from (`title.title_page`), if any, is one of them or comes after one of
    them (a cover only OCR reads, in front of it). The new label replaces
    the text layer's only with more evidence (`title.Label.evidence`; so never a file name)
    and its source says so ("display title (ocr)"); else `facts` come back unchanged."""
    legible = {p.number: p.legible for p in recognised.pages if p.legible is not None}
    if facts.layer is None or not legible.keys() & set(range(1, TITLE_PAGES + 1)):
        return facts
    read = title_page(facts.layer, facts.garbled)
    if read is not None and not any(number <= read for number in legible):
        return facts
    layer = facts.layer
    for page in legible.values():
        layer = layer.with_page(page)
    skip = frozenset(n for n in facts.garbled if n not in legible)
    label = pdf_label(pdf, path, layer, skip=skip)
    if label.evidence <= facts.title_evidence:
        return facts
    return dataclasses.replace(
        facts,
        title=label.text,
        title_source=f"{label.source} (ocr)",
        title_evidence=label.evidence,
        full_title=label.full,
    )


def text_layer_report(doc: Any, pages: Sequence[int]) -> tuple[list[int], list[int]]:
    """(pages without any text, pages whose text looks garbled), both 1-based."""
    empty, garbled = [], []
    for number in pages:
        text = doc[number - 1].get_text("text")
        if not any(ch.isalnum() for ch in text):
            empty.append(number)
            continue
        if is_garbled(text):
            garbled.append(number)
    return empty, garbled


def finish(
    backend: Backend,
    path: Path,
    facts: PdfFacts,
    extraction: Extraction,
    recognised: OcrOutcome,
    options: ConvertOptions,
    layer: TextLayer | None = None,
) -> ConvertedDocument:
    """The shared end of every conversion: passes (with the text-layer self-check when `layer` is given), page markers, provenance
    (with the word coverage against `layer`; a garbled page read by OCR is checked against
    the words the engine read, not against its garbage text layer)."""
    for page in recognised.pages:
        if layer is not None and page.number in facts.garbled:
            layer = layer.with_page(page.words)
    ctx = PassContext(
        options=options,
        outline=facts.outline,
        source=str(path),
        title=facts.full_title or facts.title,
        text_layer=layer,
        running=facts.running,
    )
    ocr = recognised.numbers
    pages = run_passes(list(zip(facts.pages, extraction.texts, strict=True)), ctx)
    failures = (*extraction.pass_failures, *ctx.failures)
    lost = [n for n, text in pages if n not in facts.empty and n not in ocr and not text.strip()]
    unread = tuple(n for n in facts.empty if n not in recognised.attempted and n not in facts.blank)
    provenance = Provenance(
        source=str(path),
        source_sha256=sha256_file(path),
        backend=backend.name,
        backend_version=backend.version(),
        page_count=facts.page_count,
        pages=facts.pages,
        options={**recorded_options(options), **extraction.recorded},
        pages_without_text=facts.empty,
        warnings=(
            *_fact_warnings(facts, unread, lost, recognised.attempted),
            *recognised.warnings,
            *extraction.warnings,
            *ctx.warnings,
            *(f.describe() for f in failures),
        ),
        title=facts.title,
        title_source=facts.title_source,
        full_title=facts.full_title,
        ocr_pages=recognised.numbers,
        word_coverage=None if layer is None else _word_coverage(pages, layer, facts.running),
        restored_lines=tuple(sorted(ctx.restored.items())),
        pass_failures=failures,
    )
    markdown = render_pages(pages, continued=ctx.continued)
    return ConvertedDocument(markdown, provenance, recognised.seconds)


def _word_coverage(
    pages: Sequence[tuple[int, str]], layer: TextLayer, running: RunningLines
) -> float:
    """Pooled `coverage.page_coverage` of the final pages, rounded to 4 places."""
    total = Coverage(0, 0)
    for number, text in pages:
        lines = body_lines(layer.page(number).lines, running.on_page(number))
        total += page_coverage(lines, text)
    return round(total.share, 4)


def _fact_warnings(
    facts: PdfFacts, unread: Sequence[int], lost: Sequence[int], ocr: Sequence[int]
) -> list[str]:
    warnings = []
    if facts.repaired:
        warnings.append("the PDF was damaged; MuPDF repaired it while opening")
    if unread:
        warnings.append(f"pages without a text layer (no OCR done): {page_ranges(unread)}")
    unreadable = [n for n in facts.garbled if n not in ocr]
    if unreadable:
        warnings.append(
            f"pages with garbled text (broken font encoding?): {page_ranges(unreadable)}"
        )
    read = [n for n in facts.garbled if n in ocr]
    if read:
        warnings.append(f"pages with garbled text, read by OCR instead: {page_ranges(read)}")
    if lost:
        warnings.append(
            f"pages whose text (e.g. inside images) gave no Markdown: {page_ranges(lost)}"
        )
    warnings.extend(facts.running.warnings(facts.pages))  # line numbers left out (furniture)
    return warnings


def recorded_options(options: ConvertOptions) -> dict[str, Any]:
    """The options as recorded in provenance: never the password, only whether one was given."""
    return {**options.redacted(), "password_given": bool(options.password)}


def parse_pages(spec: str, page_count: int) -> list[int]:
    """1-based page numbers selected by `spec` ("" = all; "3-7"; "1,3,5-6"; "4-" to the end).

    The result is normalised: ascending and without repeats, whatever the written order
    ("5-6,1,5" -> [1, 5, 6]), so pages, markers and chunk page ranges always run forward.
    A malformed part or a page outside the document is an error naming the spec.
    """
    if not spec.strip():
        return list(range(1, page_count + 1))
    pages: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo_s, hi_s = part.split("-", 1)
                lo, hi = int(lo_s), int(hi_s) if hi_s.strip() else page_count
            else:
                lo = hi = int(part)
        except ValueError:
            raise ConfigError(f"pages {spec!r}: '{part}' is not a page or range like 3-7") from None
        if lo < 1 or hi < lo or hi > page_count:
            raise ConfigError(f"pages {spec!r}: '{part}' is outside 1-{page_count}")
        pages.update(range(lo, hi + 1))
    return sorted(pages)
