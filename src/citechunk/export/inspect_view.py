"""The `citechunk inspect` tables (rich), shared by the CLI and the report objects' `render()`.

On a terminal the tables fit the screen (long cells fold); written to a file or a pipe (and in
`render()`), each table or panel is as wide as its content (`rendering.show`), so no file name,
heading path or text is cut or folded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..rendering import show as _show

if TYPE_CHECKING:
    from .inspect import ChunkSummary, ChunkView, InspectReport


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
