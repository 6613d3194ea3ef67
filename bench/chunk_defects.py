"""Countable chunk defects per 1,000 chunks, per ingest output folder.

The kinds (each chunk counts at most once per kind; `citechunk.evaluation.defects` defines them):
  glyph     U+FFFD, control or private-use characters, a spacing accent beside a letter
  tiny      body under 30 tokens (the chunk's own tokenizer)
  broken    body ends mid-sentence and the next chunk of the same heading path starts lower-case
  repeated  a body line of 25+ characters (not a table row) found in 3+ chunks of the document
  stamp     a margin stamp line (arXiv identifier with subject class; printer's "VerDate" slug)
Target (issue 28): at most 20 per 1,000 chunks and no garbled glyph.

Usage: .venv/bin/python bench/chunk_defects.py NAME=OUT [NAME=OUT ...] [--show KIND] [--by-doc]
  e.g. bench/chunk_defects.py before=/work/base/dev2 after=/work/out/reader/dev2 --show broken
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from citechunk.chunking.tokens import get_counter
from citechunk.conversion import read_markdown
from citechunk.evaluation.defects import KINDS, DefectChunk, Tally, document_defects
from citechunk.export.inspect import LoadedDocument, load_documents, split_text


def _chunks(out: Path, doc: LoadedDocument) -> list[DefectChunk]:
    records = sorted(doc.records, key=lambda r: r.chunk_index)
    md = out / records[0].markdown_file if records else None
    markdown = read_markdown(md) if md is not None and md.is_file() else None
    return [DefectChunk(r.heading_path, r.text, split_text(r, markdown)[1]) for r in records]


def _documents(out: Path) -> Iterator[tuple[LoadedDocument, list[DefectChunk], list[set[str]]]]:
    for doc in sorted(load_documents(out), key=lambda d: d.source_file):
        if not doc.records:
            continue
        counter = get_counter(doc.records[0].tokenizer)
        chunks = _chunks(out, doc)
        yield doc, chunks, document_defects(chunks, counter.count)


def _row(name: str, t: Tally) -> str:
    kinds = " ".join(f"{t.by_kind[k]:>8}" for k in KINDS)
    return f"{name:<40} {t.chunks:>7} {kinds} {t.defects:>8} {t.per_thousand():>9.1f}"


def _snippet(text: str, width: int = 110) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width // 2] + " … " + flat[-width // 2 :]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("sets", nargs="+", metavar="NAME=OUT")
    ap.add_argument("--show", choices=KINDS, help="list the chunks with this defect")
    ap.add_argument("--by-doc", action="store_true", help="one row per document too")
    args = ap.parse_args()
    print(
        f"{'set':<40} {'chunks':>7} " + " ".join(f"{k:>8}" for k in KINDS) + "  defects  per 1000"
    )
    for spec in args.sets:
        name, _, out = spec.partition("=")
        total = Tally()
        for doc, chunks, kinds in _documents(Path(out or name)):
            t = Tally()
            t.add(kinds)
            total.add(kinds)
            if args.by_doc:
                print(_row("  " + doc.source_file[:38], t))
            for i, (c, found) in enumerate(zip(chunks, kinds, strict=True)):
                if args.show in found:
                    print(f"    {args.show} {doc.source_file} #{i}: {_snippet(c.body)}")
        print(_row(name, total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
