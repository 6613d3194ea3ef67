"""convert, chunk and backends commands. Other stages register their commands at the bottom."""

from __future__ import annotations

import json
import sys
from pathlib import Path, PurePath

import click

from ..chunking import chunk_markdown, resolve_embedder
from ..config import ChunkOptions
from ..conversion import convert, describe, provenance_path, read_markdown, save
from ..export import sourcemap
from ..models import Chunk, Provenance
from . import State, main, pass_state
from .options import Overrides, config_flags


@main.command("convert")
@click.argument("pdf", type=click.Path(dir_okay=False))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="Write Markdown here (and OUTPUT.json with provenance); default stdout.",
)
@config_flags(
    "convert.backend",
    "convert.pages",
    "convert.password",
    "convert.outline_repair",
    "convert.layout_model",
    "convert.layout",
    "convert.layout_gpu",
    "convert.docling_layout",
    "convert.docling_artifacts_path",
    "convert.skip_passes",
    "convert.ocr",
    "convert.ocr_engine",
    "convert.ocr_languages",
)
@pass_state
def convert_cmd(state: State, pdf: str, output: str | None, overrides: Overrides) -> None:
    """Convert PDF to Markdown with a <!-- page N --> line before each page."""
    cfg = state.config(overrides)
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
@config_flags("chunk.max_tokens", "chunk.min_tokens", "chunk.overlap_tokens", "chunk.embedder")
@pass_state
def chunk_cmd(state: State, markdown_file: str, output: str | None, overrides: Overrides) -> None:
    """Split page-marked Markdown into heading-first chunks (one JSON object per line).

    With a source map beside the file (FILE.md.map.json, written by ingest), each chunk also
    gets its "boxes" on the page."""
    cfg = state.config(overrides)
    path = Path(markdown_file)
    prov_file = provenance_path(path)
    prov = (
        Provenance.from_dict(json.loads(prov_file.read_text(encoding="utf-8")))
        if prov_file.is_file()
        else None
    )
    chunks = chunk_markdown(read_markdown(path), cfg.chunk, prov.title if prov else "")
    records = chunk_records(chunks, path.name, prov, cfg.chunk, sourcemap.load(path))
    lines = [json.dumps(r, ensure_ascii=False) + "\n" for r in records]
    if output:
        from ..fsutil import atomic_write_text

        atomic_write_text(output, "".join(lines))
    else:
        sys.stdout.writelines(lines)


def chunk_records(
    chunks: list[Chunk],
    markdown_name: str,
    prov: Provenance | None,
    options: ChunkOptions,
    source_map: sourcemap.SourceMap | None = None,
) -> list[dict[str, object]]:
    """Chunk records with ingest's fields (`export.ChunkRecord`), filled where known.

    ``source_file`` is the provenance's source (its file name when the path is absolute), else
    the Markdown file's name; ``markdown_file`` is the Markdown file's name (relative to its
    folder); without provenance ``source_sha256`` and ``backend`` are empty. ``chunk_id`` hashes
    what produced the text (backend, its version and options from the provenance, the chunk
    options), so it differs from the id `ingest` gives the same chunk."""
    from ..export import config_fingerprint, make_records, produced_config

    source = prov.source.replace("\\", "/") if prov else markdown_name
    if PurePath(source).is_absolute() or ".." in PurePath(source).parts:
        source = PurePath(source).name
    produced = produced_config(
        prov.backend if prov else "",
        prov.backend_version if prov else "",
        prov.options if prov else {},
        options,
    )
    records = make_records(
        chunks,
        source_file=source,
        source_sha256=prov.source_sha256 if prov else "",
        markdown_file=markdown_name,
        tokenizer=resolve_embedder(options.embedder).tokenizer,
        embedder=options.embedder,
        backend=prov.backend if prov else "",
        config_fingerprint=config_fingerprint(produced),
        ocr_pages=prov.ocr_pages if prov else (),
        source_map=source_map,
    )
    return [r.to_dict() for r in records]


@main.command("backends")
def backends_cmd() -> None:
    """List conversion backends, their versions and whether each is usable here."""
    for info in describe():
        status = f"ok {info.version}" if info.available else f"unavailable: {info.detail}"
        if info.available and info.devices:
            status += f"; {info.devices}"
        click.echo(f"{info.name:10} {status}")


@main.command("passes")
def passes_cmd() -> None:
    """List the conversion passes in the order they run (names for --no-pass)."""
    from ..conversion.pipeline import pass_table

    click.echo(pass_table())


# Commands of later stages register themselves on import:
from . import eval as _eval  # noqa: E402,F401
from . import ingest as _ingest  # noqa: E402,F401
from . import inspect as _inspect  # noqa: E402,F401
from . import review as _review  # noqa: E402,F401
from . import sync as _sync  # noqa: E402,F401
