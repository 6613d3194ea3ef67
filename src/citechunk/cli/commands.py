"""convert, chunk and backends commands. Other stages register their commands at the bottom."""

from __future__ import annotations

import dataclasses
import json
import sys

import click

from ..chunking import chunk_markdown
from ..conversion import convert, describe, read_markdown, save, saved_title, sourcemap
from . import State, main, pass_state


@main.command("convert")
@click.argument("pdf", type=click.Path(dir_okay=False))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="Write Markdown here (and OUTPUT.json with provenance); default stdout.",
)
@click.option("--backend", help="Conversion backend (see `citechunk backends`).")
@click.option("--pages", help="Pages to convert, 1-based: 3-7 or 1,3,5-6.")
@click.option("--password", help="Password for an encrypted PDF.")
@click.option(
    "--outline-repair/--no-outline-repair",
    default=None,
    help="Fix heading levels from the PDF outline, else the section numbers.",
)
@click.option(
    "--docling-layout",
    type=click.Choice(["offline", "model"]),
    help="docling backend: built-in weight-free layout stage, or docling's layout model.",
)
@click.option(
    "--docling-artifacts-path", help="docling backend: folder with docling's model weights."
)
@pass_state
def convert_cmd(
    state: State,
    pdf: str,
    output: str | None,
    backend: str | None,
    pages: str | None,
    password: str | None,
    outline_repair: bool | None,
    docling_layout: str | None,
    docling_artifacts_path: str | None,
) -> None:
    """Convert PDF to Markdown with a <!-- page N --> line before each page."""
    cfg = state.config(
        {
            "convert": {
                "backend": backend,
                "pages": pages,
                "password": password,
                "outline_repair": outline_repair,
                "docling_layout": docling_layout,
                "docling_artifacts_path": docling_artifacts_path,
            }
        }
    )
    doc = convert(pdf, cfg.convert)
    for warning in doc.provenance.warnings:
        click.echo(f"Warning: {pdf}: {warning}", err=True)
    if output:
        save(doc, output)
    else:
        sys.stdout.write(doc.markdown)


@main.command("chunk")
@click.argument("markdown_file", type=click.Path(dir_okay=False, exists=True))
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help="Write JSONL here; default stdout."
)
@click.option("--max-tokens", type=int, help="Hard limit per chunk, heading path included.")
@click.option("--min-tokens", type=int, help="Merge smaller sibling sections up to this size.")
@click.option("--overlap-tokens", type=int, help="Overlap between size-fallback pieces.")
@click.option("--tokenizer", help="approx | tiktoken:<encoding> | hf:<tokenizer.json>.")
@pass_state
def chunk_cmd(
    state: State,
    markdown_file: str,
    output: str | None,
    max_tokens: int | None,
    min_tokens: int | None,
    overlap_tokens: int | None,
    tokenizer: str | None,
) -> None:
    """Split page-marked Markdown into heading-first chunks (one JSON object per line).

    With a source map beside the file (FILE.md.map.json, written by ingest), each chunk also
    gets its "boxes" on the page."""
    cfg = state.config(
        {
            "chunk": {
                "max_tokens": max_tokens,
                "min_tokens": min_tokens,
                "overlap_tokens": overlap_tokens,
                "tokenizer": tokenizer,
            }
        }
    )
    markdown = read_markdown(markdown_file)
    chunks = chunk_markdown(markdown, cfg.chunk, saved_title(markdown_file))
    smap = sourcemap.load(markdown_file)
    rows = []
    for c in chunks:
        row = dataclasses.asdict(c)
        if smap is not None:
            row["boxes"] = [b.to_dict() for b in smap.boxes(c.char_start, c.char_end)]
        rows.append(row)
    lines = [json.dumps(row, ensure_ascii=False) + "\n" for row in rows]
    if output:
        from ..fsutil import atomic_write_text

        atomic_write_text(output, "".join(lines))
    else:
        sys.stdout.writelines(lines)


@main.command("backends")
def backends_cmd() -> None:
    """List conversion backends, their versions and whether each is usable here."""
    for info in describe():
        status = f"ok {info.version}" if info.available else f"unavailable: {info.detail}"
        click.echo(f"{info.name:10} {status}")


# Commands of later stages register themselves on import:
from . import eval as _eval  # noqa: E402,F401
from . import ingest as _ingest  # noqa: E402,F401
from . import inspect as _inspect  # noqa: E402,F401
from . import review as _review  # noqa: E402,F401
