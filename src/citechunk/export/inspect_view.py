"""The `citechunk inspect` reports and how they print: the records `export.inspect` fills
(`InspectReport`, `ChunkView`, ...) and their rich tables, shared by the CLI and the records'
`render()`. Percentiles use the nearest-rank method, so every statistic is a real chunk's
token count.

On a terminal the tables fit the screen (long cells fold); written to a file or a pipe (and in
`render()`), each table or panel is as wide as its content (`rendering.show`), so no file name,
heading path or text is cut or folded.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..rendering import plain_text
from ..rendering import show as _show
from .layout import Format
from .schema import ChunkRecord


@dataclass(frozen=True)
class ChunkSummary:
    """One chunk, short: enough to find it again with ``inspect --doc --chunk``."""

    source_file: str
    chunk_index: int
    token_count: int
    first_page: int
    last_page: int
    heading_path: tuple[str, ...]
    preview: str

    @classmethod
    def of(cls, r: ChunkRecord, width: int = 48) -> ChunkSummary:
        body = r.text.split("\n\n", 1)[1] if r.heading_path and "\n\n" in r.text else r.text
        flat = " ".join(body.split())
        preview = flat if len(flat) <= width else flat[: width - 1] + "…"
        return cls(
            r.source_file, r.chunk_index, r.token_count, r.first_page, r.last_page,
            r.heading_path, preview,
        )  # fmt: skip


@dataclass(frozen=True)
class DocumentSummary:
    """One document of the dataset. `page_count` is None when its provenance file is missing;
    `word_coverage` (share of the text layer's words its Markdown holds) is None when the
    provenance does not record it; `restored_lines` counts lines the self-check put back;
    `navigation` counts its chunks whose ``role`` is "navigation" (contents pages, indexes)."""

    source_file: str
    doc_id: str
    chunk_file: str
    chunks: int
    tokens: int
    page_count: int | None
    pages_without_chunk: tuple[int, ...]
    pages_without_text: tuple[int, ...]
    word_coverage: float | None = None
    restored_lines: int = 0
    #: The document's label (every chunk's path line starts with it) and where it came from
    #: (`Provenance.title_source`); "" when the provenance does not record them.
    label: str = ""
    label_source: str = ""
    navigation: int = 0


def nearest_rank(sorted_values: Sequence[int], q: float) -> int:
    """The q-quantile (0 < q <= 1) by the nearest-rank method: always one of the values."""
    return sorted_values[max(0, math.ceil(q * len(sorted_values)) - 1)]


@dataclass(frozen=True)
class TokenStats:
    count: int
    total: int
    min: int
    median: int
    p90: int
    max: int

    @classmethod
    def of(cls, counts: Sequence[int]) -> TokenStats | None:
        if not counts:
            return None
        s = sorted(counts)
        return cls(len(s), sum(s), s[0], nearest_rank(s, 0.5), nearest_rank(s, 0.9), s[-1])


@dataclass(frozen=True)
class InspectReport:
    out_dir: str
    format: Format
    schema_versions: tuple[str, ...]
    documents: tuple[DocumentSummary, ...]
    tokens: TokenStats | None
    smallest: tuple[ChunkSummary, ...]
    largest: tuple[ChunkSummary, ...]
    empty_heading: tuple[ChunkSummary, ...]  # at most `top`...
    empty_heading_count: int  # ...of this many

    @property
    def chunks(self) -> int:
        return sum(d.chunks for d in self.documents)

    @property
    def pages_without_chunk(self) -> int:
        return sum(len(d.pages_without_chunk) for d in self.documents)

    @property
    def navigation(self) -> int:
        return sum(d.navigation for d in self.documents)

    def render(self) -> str:
        """The report as `citechunk inspect OUT` prints it into a file or a pipe (`str()` too)."""
        return plain_text(lambda console: render_report(console, self))

    __str__ = render


@dataclass(frozen=True)
class ChunkView:
    """One chunk with its citation and the Markdown span it was cut from.

    `markdown_span` is ``OUT/<markdown_file>[char_start:char_end]`` (None when that file is
    missing); `problems` lists offset-invariant violations (empty when the citation is exact).
    """

    record: ChunkRecord
    markdown_path: str
    markdown_span: str | None
    problems: tuple[str, ...]
    document_chunks: int

    def render(self) -> str:
        """The chunk as `citechunk inspect OUT --doc D --chunk N` prints it (`str()` too)."""
        return plain_text(lambda console: render_chunk(console, self))

    __str__ = render


def _row(table: Table, *cells: str) -> None:
    """Add a row of plain text: file names and chunk text are never parsed as rich markup."""
    table.add_row(*(Text(c) for c in cells))


def _overview(report: InspectReport) -> Table:
    t = Table(title=escape(f"citechunk dataset: {report.out_dir}"), show_header=False)
    t.add_column(style="bold")
    t.add_column()
    _row(t, "format", report.format)
    _row(t, "schema version", ", ".join(report.schema_versions) or "-")
    _row(t, "documents", str(len(report.documents)))
    _row(t, "chunks", str(report.chunks))
    _row(t, "navigation chunks (contents, indexes)", str(report.navigation))
    s = report.tokens
    if s is not None:
        _row(t, "tokens total", str(s.total))
        _row(t, "tokens min / median / p90 / max", f"{s.min} / {s.median} / {s.p90} / {s.max}")
    _row(t, "chunks with empty heading path", str(report.empty_heading_count))
    _row(t, "pages with no chunk", str(report.pages_without_chunk))
    return t


def _pages_text(pages: tuple[int, ...], no_text: tuple[int, ...]) -> str:
    if not pages:
        return "-"
    shown = [f"{p}*" if p in no_text else str(p) for p in pages[:12]]
    return ", ".join(shown) + (f" … (+{len(pages) - 12})" if len(pages) > 12 else "")


def _documents(report: InspectReport) -> Table:
    t = Table(
        title="Documents (* = page without text; coverage: share of the text layer's words "
        "in the Markdown; restored: lines the self-check put back; navigation: chunks of "
        "contents pages and indexes)"
    )
    for name, justify in [("source file", "left"), ("chunks", "right"), ("pages", "right")]:
        t.add_column(name, justify=justify)  # type: ignore[arg-type]
    t.add_column("tokens", justify="right")
    t.add_column("coverage", justify="right", no_wrap=True)
    t.add_column("restored", justify="right", no_wrap=True)
    t.add_column("navigation", justify="right", no_wrap=True)
    t.add_column("pages with no chunk")
    t.add_column("label (from)")
    for d in report.documents:
        pages = "?" if d.page_count is None else str(d.page_count)
        gaps = _pages_text(d.pages_without_chunk, d.pages_without_text)
        cover = "-" if d.word_coverage is None else f"{d.word_coverage:.3f}"
        _row(
            t,
            d.source_file,
            str(d.chunks),
            pages,
            str(d.tokens),
            cover,
            str(d.restored_lines),
            str(d.navigation),
            gaps,
            f"{d.label} ({d.label_source or '?'})" if d.label else "-",
        )
    return t


def chunk_table(title: str, chunks: tuple[ChunkSummary, ...], fit: bool) -> Table:
    """The chunk list; `fit` (a terminal) caps the document and heading path columns."""
    t = Table(title=escape(title))
    t.add_column("document", overflow="fold", max_width=24 if fit else None)
    t.add_column("#", justify="right", no_wrap=True)
    t.add_column("tokens", justify="right", no_wrap=True)
    t.add_column("pages", justify="right", no_wrap=True)
    t.add_column("heading path", overflow="fold", max_width=30 if fit else None)
    t.add_column("text", overflow="fold", ratio=1)
    for c in chunks:
        pages = (
            str(c.first_page) if c.first_page == c.last_page else f"{c.first_page}-{c.last_page}"
        )
        path = " > ".join(c.heading_path) or "-"
        _row(t, c.source_file, str(c.chunk_index), str(c.token_count), pages, path, c.preview)
    return t


def render_report(console: Console, report: InspectReport) -> None:
    _show(console, _overview(report))
    _show(console, _documents(report))
    if report.tokens is None:
        return
    fit = console.is_terminal
    _show(console, chunk_table("Smallest chunks", report.smallest, fit))
    _show(console, chunk_table("Largest chunks", report.largest, fit))
    if report.empty_heading:
        title = f"Chunks with an empty heading path ({report.empty_heading_count} in all)"
        _show(console, chunk_table(title, report.empty_heading, fit))


def render_chunk(console: Console, view: ChunkView) -> None:
    r = view.record
    t = Table(
        title=f"Chunk {r.chunk_index} (0-{view.document_chunks - 1}): {r.citation}",
        show_header=False,
    )
    t.add_column(style="bold")
    t.add_column(overflow="fold")
    rows = [
        ("source file", r.source_file),
        ("pages", r.pages),
        ("heading path", " > ".join(r.heading_path) or "(none)"),
        ("role", r.role),
        ("markdown", f"{r.markdown_file} chars {r.char_start}-{r.char_end}"),
        ("tokens", f"{r.token_count} ({r.tokenizer})"),
        ("backend", r.backend),
        ("chunk_id", r.chunk_id),
        ("doc_id", r.doc_id),
        ("source sha256", r.source_sha256),
    ]
    for key, value in rows:
        _row(t, key, value)
    _show(console, t)
    _show(console, Panel(Text(r.text), title="text (what is embedded)"))
    if view.markdown_span is not None:
        span = Panel(Text(view.markdown_span), title="Markdown span (char_start:char_end)")
        _show(console, span)
    for problem in view.problems:
        _show(console, Text(f"Citation problem: {problem}", style="bold red"))
