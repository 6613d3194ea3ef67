"""Rendering speed: Markdown from citechunk's typed blocks vs pymupdf4llm's ``to_markdown``,
side by side, on the same parsed pages.

Each PDF of ../shared/corpus/pdfs (or the folder given) is parsed once by the layout model
(text model, layout passes applied); then, `--rounds` times and interleaved, a copy of the
parse is rendered both ways: pymupdf4llm's ``ParsedDocument.to_markdown(page_chunks=True)``
and `blocks.page_blocks` + `render.render_page` (the blocks read and written). Each keeps its
fastest round per file; the table prints the totals and the ratio (blocks / pymupdf4llm, lower
is faster). The model's inference, the same for both, is left out.

Usage: .venv/bin/python bench/render_speed.py [PDF_DIR] [--rounds 3]
"""

from __future__ import annotations

import argparse
import copy
import time
from pathlib import Path
from typing import Any

import pymupdf
from pymupdf4llm.helpers.document_layout import create_list_item_levels

from citechunk.config import ConvertOptions
from citechunk.conversion.blocks import page_blocks
from citechunk.conversion.pymupdf import LayoutMeter, _parse
from citechunk.conversion.render import render_page

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pdfs"


def theirs(parsed: Any) -> None:
    parsed.to_markdown(header=True, footer=True, page_chunks=True)


def ours(parsed: Any) -> None:
    for page in parsed.pages:
        render_page(page_blocks(page, create_list_item_levels(page.boxes)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    best = {"pymupdf4llm to_markdown": 0.0, "blocks + render": 0.0}
    pages = 0
    for pdf in sorted(args.folder.glob("*.pdf")):
        with pymupdf.open(pdf) as doc:
            numbers = list(range(1, doc.page_count + 1))
            parsed = _parse(doc, numbers, "text", ConvertOptions(), LayoutMeter(), [])
        pages += len(numbers)
        fastest = {name: float("inf") for name in best}
        for round_ in range(args.rounds):
            order = list(zip(best, (theirs, ours), strict=True))
            for name, render in order[round_ % 2 :] + order[: round_ % 2]:
                copied = copy.deepcopy(parsed)
                start = time.perf_counter()
                render(copied)
                fastest[name] = min(fastest[name], time.perf_counter() - start)
        for name in best:
            best[name] += fastest[name]
    print(f"{pages} pages")
    for name, seconds in best.items():
        print(f"{name:26} {seconds:8.3f} s  {pages / seconds:8.0f} pages/s")
    ratio = best["blocks + render"] / best["pymupdf4llm to_markdown"]
    print(f"ratio blocks / pymupdf4llm: {ratio:.2f}")


if __name__ == "__main__":
    main()
