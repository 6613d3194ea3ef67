"""`citechunk review OUT [--doc NAME] [-o FILE]`: HTML pages with each chunk's boxes drawn."""

from __future__ import annotations

import click

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
    "--dpi", type=int, default=DEFAULT_DPI, show_default=True, help="Page image resolution."
)
def review_cmd(
    out: str, doc: str | None, output: str | None, input_path: str | None, dpi: int
) -> None:
    """Write a self-contained HTML review page per document: pages with chunk boxes."""
    for path in review(out, doc=doc, output=output, input=input_path, dpi=dpi):
        click.echo(str(path))
