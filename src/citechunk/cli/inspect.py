"""`citechunk inspect OUT [--doc NAME --chunk N]`: rich tables over `citechunk.export.inspect`.

The tables are `export.inspect_view`'s (the report objects' `render()` prints the same): on a
terminal they fit the screen (long cells fold); written to a file or a pipe, each table or
panel is as wide as its content, so no file name, heading path or text is cut or folded (one
row per line, ready for grep).
"""

from __future__ import annotations

import dataclasses
import json

import click

from ..errors import ConfigError
from ..export.inspect import (
    SampledChunk,
    document_chunks,
    inspect,
    sample_chunks,
    show_chunk,
)
from ..export.inspect_view import chunk_table, render_chunk, render_report
from ..rendering import show
from . import main
from .console import StdoutConsole


def render_sample(sample: tuple[SampledChunk, ...]) -> str:
    """Each sampled chunk as a reader gets it (`SampledChunk.render`), a blank line between."""
    return "\n".join(c.render() for c in sample)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=dataclasses.asdict)


@main.command("inspect")
@click.argument("out", type=click.Path(file_okay=False))
@click.option(
    "--doc", help="Document: source path, file name, doc_id or a unique part of the path."
)
@click.option(
    "--chunk", "chunk_index", type=int, help="Show this chunk (0-based chunk_index) of --doc."
)
@click.option(
    "--top", type=click.IntRange(1, 100), default=5, show_default=True, help="Rows per chunk list."
)
@click.option(
    "--sample",
    type=click.IntRange(1),
    help="Print this many chunks drawn at random (from --doc alone when given), whole, to read.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed of --sample.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def inspect_cmd(
    out: str,
    doc: str | None,
    chunk_index: int | None,
    top: int,
    sample: int | None,
    seed: int,
    as_json: bool,
) -> None:
    """Summarise an ingest output folder; --doc lists one document's chunks; --doc and --chunk
    show one chunk with its citation and the Markdown span it came from; --sample N prints N
    random chunks whole (path line, pages, body) to read against their pages, drawn from every
    document or, with --doc, from that one."""
    console = StdoutConsole(soft_wrap=False)
    if sample is not None:
        if chunk_index is not None:
            raise ConfigError("--sample draws chunks at random: leave out --chunk")
        drawn = sample_chunks(out, sample, seed, doc)
        if as_json:
            click.echo(_json(list(drawn)))
        else:
            click.echo(render_sample(drawn), nl=False)
    elif chunk_index is not None:
        if doc is None:
            raise ConfigError("--chunk needs --doc NAME")
        view = show_chunk(out, doc, chunk_index)
        if as_json:
            click.echo(_json({"citation": view.record.citation, **dataclasses.asdict(view)}))
        else:
            render_chunk(console, view)
    elif doc is not None:
        source, chunks = document_chunks(out, doc)
        if as_json:
            click.echo(_json({"source_file": source, "chunks": chunks}))
        else:
            show(console, chunk_table(f"Chunks of {source}", chunks, console.is_terminal))
    else:
        report = inspect(out, top=top)
        if as_json:
            click.echo(_json(report))
        else:
            render_report(console, report)
