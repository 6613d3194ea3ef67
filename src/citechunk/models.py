"""Records that flow between the stages. All frozen: a stage never mutates another's output."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .conversion.textlayer import TextLayer


@dataclass(frozen=True)
class PassFailure:
    """A conversion pass that raised on a document and was skipped for it (the contract in
    `conversion.passguard`): the pass's name, the page it left untouched (0: a pass over the
    whole document, which left every page as it was before it) and the exception."""

    name: str
    page: int
    error: str

    def describe(self) -> str:
        """The warning: "pass table-words failed on page 3 (IndexError: ...); skipped there"."""
        where = f"on page {self.page}" if self.page else "on the document"
        return f"pass {self.name} failed {where} ({self.error}); converted without it"

    def to_dict(self) -> dict[str, Any]:
        return {"pass": self.name, "page": self.page, "error": self.error}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PassFailure:
        return cls(str(d["pass"]), int(d["page"]), str(d["error"]))


@dataclass(frozen=True)
class Provenance:
    """What produced a Markdown file. Saved beside it (``<name>.md.json``), never inside it."""

    source: str
    source_sha256: str
    backend: str
    backend_version: str
    page_count: int
    pages: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)
    pages_without_text: tuple[int, ...] = ()
    warnings: tuple[str, ...] = ()
    #: The document's label (`conversion.title.document_label`): the head of every chunk's
    #: path line; "" only in provenance written before labels (or by a caller that gives none).
    title: str = ""
    #: Pages whose text came from OCR (`conversion.ocr`), 1-based, ascending.
    ocr_pages: tuple[int, ...] = ()
    #: Share of the text layer's words (running lines excluded) the Markdown holds
    #: (`conversion.coverage`); None when not measured.
    word_coverage: float | None = None
    #: (page, lines) the text-layer self-check put back, for pages where it restored any.
    restored_lines: tuple[tuple[int, int], ...] = ()
    #: Where `title` came from: "display title", "outline", "metadata", "cover facts" or
    #: "file name" (`conversion.title.LabelSource`), followed by " (ocr)" when read from the
    #: OCR'd text of the first pages (`conversion.base.relabelled`); "" when not recorded.
    title_source: str = ""
    #: Passes that raised and were skipped (`PassFailure`), in the order they ran.
    pass_failures: tuple[PassFailure, ...] = ()
    #: The whole title when `title` is shortened to the label's word limit
    #: (`conversion.title.Label.full`); "" when the label is the whole title.
    full_title: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "source_sha256": self.source_sha256,
            "backend": self.backend,
            "backend_version": self.backend_version,
            "page_count": self.page_count,
            "pages": list(self.pages),
            "options": dict(self.options),
            "pages_without_text": list(self.pages_without_text),
            "warnings": list(self.warnings),
            "title": self.title,
            "ocr_pages": list(self.ocr_pages),
            "word_coverage": self.word_coverage,
            "restored_lines": [list(p) for p in self.restored_lines],
            "title_source": self.title_source,
            "pass_failures": [f.to_dict() for f in self.pass_failures],
            "full_title": self.full_title,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Provenance:
        return cls(
            source=d["source"],
            source_sha256=d["source_sha256"],
            backend=d["backend"],
            backend_version=d["backend_version"],
            page_count=int(d["page_count"]),
            pages=tuple(d["pages"]),
            options=dict(d.get("options", {})),
            pages_without_text=tuple(d.get("pages_without_text", ())),
            warnings=tuple(d.get("warnings", ())),
            title=str(d.get("title", "")),
            ocr_pages=tuple(int(p) for p in d.get("ocr_pages", ())),
            word_coverage=d.get("word_coverage"),
            restored_lines=tuple((int(p), int(n)) for p, n in d.get("restored_lines", ())),
            title_source=str(d.get("title_source", "")),
            pass_failures=tuple(PassFailure.from_dict(f) for f in d.get("pass_failures", ())),
            full_title=str(d.get("full_title", "")),
        )


@dataclass(frozen=True)
class ConvertedDocument:
    """Markdown with a ``<!-- page N -->`` line before each page (see `citechunk.markers`)."""

    markdown: str
    provenance: Provenance
    #: Seconds spent in OCR (a measurement for the run report; never saved with the Markdown).
    ocr_seconds: float = 0.0
    #: Seconds per conversion stage (`timing.StageClock.frozen`; a measurement, never saved).
    stages: tuple[tuple[str, float], ...] = ()
    #: CPU seconds of this process per conversion stage (`timing.StageClock.frozen_cpu`).
    stage_cpu: tuple[tuple[str, float], ...] = ()
    #: Pages the backend's layout model ran on (a measurement, never saved).
    model_pages: int = 0
    #: The text layer read while converting, the words an OCR engine read in place of the
    #: recognised pages' own: what the source map aligns the Markdown to (never saved).
    text_layer: TextLayer | None = field(default=None, compare=False, repr=False)


#: What a chunk holds (`chunking.kinds.chunk_kind`): prose, a whole table, some row groups of a
#: longer table, a list, or navigation (a contents page, an index).
ChunkKind = Literal["text", "table", "table-rows", "list", "navigation"]
CHUNK_KINDS: tuple[ChunkKind, ...] = ("text", "table", "table-rows", "list", "navigation")


@dataclass(frozen=True)
class Chunk:
    """One heading-first chunk of a Markdown document.

    Invariant: ``markdown[char_start:char_end]`` with page-marker lines removed and outer
    whitespace trimmed equals ``body`` (for a split table, after the repeated header rows, which
    are prepended to ``body``). ``text`` is what to embed: the heading path joined by " > ", a
    blank line, then ``body`` (just ``body`` when the path is empty).
    """

    chunk_index: int
    text: str
    body: str
    heading_path: tuple[str, ...]
    first_page: int
    last_page: int
    char_start: int
    char_end: int
    token_count: int
    #: The span of the section the chunk belongs to (its heading line through its last piece,
    #: or the run of merged sections), -1 when the chunker has no sections (the chunk itself).
    section_start: int = -1
    section_end: int = -1
    #: What the chunk holds (`ChunkKind`).
    kind: ChunkKind = "text"

    @property
    def section_span(self) -> tuple[int, int]:
        """The section's character span in the Markdown (the chunk's own when it has none)."""
        if self.section_start < 0:
            return self.char_start, self.char_end
        return self.section_start, self.section_end
