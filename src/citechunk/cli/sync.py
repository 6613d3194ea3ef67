"""`citechunk sync` and `citechunk query`: thin layers over `citechunk.stores.sync` / `query`.

`sync` shows a progress bar over the rows to embed on stderr when it is a terminal, prints the
per-document plan with `--dry-run`, then the summary; exit 1 when a document failed."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..stores import DEFAULT_MODEL, DEFAULT_TABLE, Hit, SyncReport, query, sync
from ..stores.plan import DocPlan
from . import main
from .console import closed_pipe_ok

STORE_HELP = "lancedb:PATH, chroma:http://HOST:PORT or chroma:PATH."


class _Bar:
    """A click progress bar over the rows to insert (stderr, only on a terminal)."""

    def __init__(self) -> None:
        self.bar: Any = None

    def planned(self, rows: int) -> None:
        if rows and sys.stderr.isatty():
            self.bar = click.progressbar(length=rows, label="embedding", file=sys.stderr)
            self.bar.__enter__()

    def written(self, plan: DocPlan) -> None:
        if self.bar is not None:
            self.bar.update(len(plan.insert))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def show_report(report: SyncReport) -> None:
    click.echo(report.render())


def sync_options(f: Any) -> Any:
    """The options `sync` and `ingest --sync` share."""
    for option in reversed(
        [
            click.option(
                "--table",
                default=DEFAULT_TABLE,
                show_default=True,
                help="Table or collection name.",
            ),
            click.option(
                "--embed",
                default=DEFAULT_MODEL,
                show_default=True,
                help="Embedding model: all-MiniLM-L6-v2 (shipped), a sentence-transformers folder, or none.",
            ),
            click.option(
                "--batch",
                default=64,
                show_default=True,
                type=click.IntRange(1),
                help="Texts embedded per batch.",
            ),
            click.option(
                "--rebuild",
                is_flag=True,
                help="Empty the table and re-embed everything (another model).",
            ),
            click.option(
                "--with-navigation",
                is_flag=True,
                help="Also store chunks marked navigation (contents pages, indexes).",
            ),
        ]
    ):
        f = option(f)
    return f


@main.command("sync")
@click.argument("out", type=click.Path(exists=True, file_okay=False))
@click.option("--to", "to", required=True, help=STORE_HELP)
@sync_options
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print what would be inserted and deleted per document; write nothing.",
)
def sync_cmd(
    out: str,
    to: str,
    table: str,
    embed: str,
    batch: int,
    rebuild: bool,
    with_navigation: bool,
    dry_run: bool,
) -> None:
    """Make a vector store hold exactly OUT's chunks (insert missing, delete stale).

    \b
    Install the store's extra, which brings the embedder too, after torch's CPU build:
      pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
      pip install 'citechunk[lancedb]'   (or 'citechunk[chroma]')"""
    bar = _Bar()
    try:
        report = sync(
            out,
            to,
            table=table,
            embed=embed,
            batch=batch,
            dry_run=dry_run,
            rebuild=rebuild,
            progress=bar,
            with_navigation=with_navigation,
        )
    finally:
        bar.close()
    with closed_pipe_ok():
        show_report(report)
    raise click.exceptions.Exit(report.exit_code)


@main.command("query")
@click.argument("store")
@click.argument("question")
@click.option(
    "-k", "--k", "k", default=5, show_default=True, type=click.IntRange(1), help="Chunks to show."
)
@click.option("--table", default=DEFAULT_TABLE, show_default=True, help="Table or collection name.")
def query_cmd(store: str, question: str, k: int, table: str) -> None:
    """The chunks of a synced STORE nearest to QUESTION, with file, pages and heading path."""
    hits = query(store, question, k=k, table=table)
    with closed_pipe_ok():
        _show_hits(hits)


def _show_hits(hits: list[Hit]) -> None:
    for n, hit in enumerate(hits, 1):
        r = hit.record
        pages = (
            f"p. {r['first_page']}"
            if r["first_page"] == r["last_page"]
            else f"pp. {r['first_page']}-{r['last_page']}"
        )
        path, body = _path_and_body(str(r["text"]), bool(r["heading_path"]))
        click.echo(f"{n}. {r['source_file']}, {pages}  [{hit.distance:.3f}]")
        if path:
            click.echo(f"   § {path}")
        click.echo(f"   {body[:300]}{'...' if len(body) > 300 else ''}")


def _path_and_body(text: str, has_path: bool) -> tuple[str, str]:
    """A chunk's path line and its body, whitespace collapsed: the text opens with the path
    line and a blank line when the chunk has a heading path or a document label (a one-line
    first paragraph), so the path line is printed once, on its own line, and the body after it."""
    head, sep, rest = text.partition("\n\n")
    labelled = "\n" not in head  # every document has a label: a one-line first paragraph
    path, body = (head, rest) if sep and (has_path or labelled) else ("", text)
    return " ".join(path.split()), " ".join(body.split())
