"""`citechunk review OUT [--doc NAME] [-o FILE]`: HTML pages with each chunk's boxes drawn."""

from __future__ import annotations

import click

from ..errors import ReviewError
from ..review import DEFAULT_DPI, review
from . import main


@main.command("review")
@click.argument("out", type=click.Path(file_okay=False))
@click.option("--doc", help="One document: source path, file name, doc_id or chunk file stem.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="Write the page here (one document); default OUT/review/<stem>.html.",
)
@click.option(
    "--input",
    "input_path",
    type=click.Path(exists=True),
    help="Folder (or PDF) the documents were ingested from; default the run's INPUT.",
)
@click.option(
    "--dpi",
    type=click.IntRange(18, 600),
    default=DEFAULT_DPI,
    show_default=True,
    help="Page image resolution (WebP); 72 keeps body text readable, raise it for small print.",
)
@click.option(
    "--pages",
    default="",
    metavar="RANGE",
    help="Only these pages and their chunks (3-7, 1,3,5-6, 40-): a light page of a long PDF.",
)
def review_cmd(
    out: str, doc: str | None, output: str | None, input_path: str | None, dpi: int, pages: str
) -> None:
    """Write a self-contained HTML review page per document: pages with chunk boxes.

    Pages are WebP images decoded only when scrolled into view; --pages limits a page to a range.

    A document whose PDF is missing or changed is skipped; the others are written and the
    command exits 1 naming the skipped ones."""
    try:
        paths = review(out, doc=doc, output=output, input=input_path, dpi=dpi, pages=pages)
    except ReviewError as exc:
        for path in exc.written:
            click.echo(str(path))
        raise
    for path in paths:
        click.echo(str(path))
