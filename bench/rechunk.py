"""Re-chunk an ingest output folder's saved Markdown, optionally after Markdown passes and with
pages replaced by fresh conversions, into a new folder that `citechunk eval --chunks` and
`bench/tables.py` read (markdown/ + records/*.jsonl with the fields evaluation needs).

  --pass NAME     run this pass of `conversion.pipeline.PASSES` over each whole document
                  (as one page; only passes whose rule is line-local give the same result as
                  in a conversion; repeatable)
  --splice F.md   a conversion of some pages of one source (``citechunk convert PDF --pages
                  N -o F.md``; its ``F.md.json`` names the source): those pages replace the
                  same pages of that document before the passes run (repeatable)

Usage: python bench/rechunk.py BASE_OUT NEW_OUT [--pass table-labels] [--splice F.md ...]
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path, PurePosixPath
from typing import Any

from citechunk.chunking import chunk_markdown
from citechunk.config import load_config
from citechunk.conversion import read_markdown, saved_title
from citechunk.conversion.passcontext import PassContext
from citechunk.conversion.pipeline import PASSES
from citechunk.evaluation.data import read_records
from citechunk.markers import page_bodies, render_pages
from citechunk.models import Chunk


def chunk_fields(c: Chunk, source: str, markdown_file: str) -> dict[str, Any]:
    """The fields of a chunk record that `check_retrieval.py` reads, for a re-chunked file."""
    return {
        "text": c.text,
        "source_file": source,
        "markdown_file": markdown_file,
        "first_page": c.first_page,
        "last_page": c.last_page,
        "heading_path": list(c.heading_path),
        "token_count": c.token_count,
        "chunk_index": c.chunk_index,
        "char_start": c.char_start,
        "char_end": c.char_end,
    }


def _pages(markdown: str) -> dict[int, str]:
    return {page: markdown[s:e] for s, e, page in page_bodies(markdown)}


def _splice(markdown: str, fresh: str) -> str:
    pages = _pages(markdown)
    pages.update(_pages(fresh))
    return render_pages(sorted(pages.items()))


def _source(splice: Path) -> str:
    prov = json.loads(Path(f"{splice}.json").read_text(encoding="utf-8"))
    return PurePosixPath(str(prov.get("source") or prov.get("source_file"))).name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--pass", dest="passes", action="append", default=[])
    parser.add_argument("--splice", action="append", default=[], type=Path)
    args = parser.parse_args()
    cfg = load_config()
    steps = [p for p in PASSES if p.name in args.passes]
    splices: dict[str, list[Path]] = {}
    for f in args.splice:
        splices.setdefault(_source(f), []).append(f)
    (args.new / "markdown").mkdir(parents=True, exist_ok=True)
    if (args.new / "records").exists():
        shutil.rmtree(args.new / "records")
    (args.new / "records").mkdir()
    seen: set[str] = set()
    for row in read_records(args.base / "chunks"):
        rel = str(row["markdown_file"])
        if rel in seen:
            continue
        seen.add(rel)
        src = Path(args.base / rel)
        markdown = read_markdown(src)
        name = PurePosixPath(str(row["source_file"])).name
        for f in splices.get(name, []):
            markdown = _splice(markdown, read_markdown(f))
        ctx = PassContext(source=name, options=cfg.convert)
        for step in steps:
            markdown = step.apply([(1, markdown)], ctx)[0][1]
        (args.new / rel).write_text(markdown, encoding="utf-8")
        title = saved_title(src)
        out = args.new / "records" / (PurePosixPath(rel).stem + ".jsonl")
        with out.open("w", encoding="utf-8") as fh:
            for c in chunk_markdown(markdown, cfg.chunk, title):
                rec = chunk_fields(c, str(row["source_file"]), rel)
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
