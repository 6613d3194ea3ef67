"""Exact token counts and time of chunking, two chunkers side by side in one run: re-chunk ingest
outputs' saved Markdown with the code on the path (``new``) and with ``--base SRC`` (``base``),
each in a child process, alternating per round, and report per set the exact counts (calls of
the embedder's tokenizer, as the chunker makes them), the seconds (best of ``--rounds``) and the
new/base ratios, plus how many chunks differ (text or span) and, with ``--show``, the first
differing chunks of each document. Figures taken under load are noise: read the counts and the
ratios, not the seconds.

Usage: python bench/row_fill.py NAME=OUT ... --base /work/main/src [--rounds 2] [--show N]
  e.g. PYTHONPATH=src python bench/row_fill.py wide=/work/out/integ9-wide --base /work/main/src
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path, PurePosixPath
from typing import Any

log = logging.getLogger("row_fill")


def child(out: Path) -> None:
    """Chunk every document of ``out`` and print one JSON line: counts, seconds, chunks."""
    from citechunk.chunking.heading import HeadingChunker
    from citechunk.chunking.tokens import TokenCounter
    from citechunk.config import load_config
    from citechunk.conversion import read_markdown, saved_title
    from citechunk.evaluation.data import read_records

    cfg = load_config()
    seen: dict[str, Path] = {}
    for row in read_records(out / "chunks"):
        seen.setdefault(
            PurePosixPath(str(row["source_file"])).name, out / str(row["markdown_file"])
        )
    docs = [(name, read_markdown(path), saved_title(path)) for name, path in sorted(seen.items())]
    calls = 0
    result: dict[str, Any] = {"chunks": {}}
    start = time.perf_counter()
    for name, markdown, title in docs:
        chunker = HeadingChunker(cfg.chunk, title)
        inner = chunker.counter.count

        def count(text: str, inner: Any = inner) -> int:
            nonlocal calls
            calls += 1
            return int(inner(text))

        chunker.counter = TokenCounter(chunker.counter.spec, count, chunker.counter.approx)
        result["chunks"][name] = [
            (c.char_start, c.char_end, c.text) for c in chunker.chunk(markdown)
        ]
    result["seconds"] = time.perf_counter() - start
    result["counts"] = calls
    print(json.dumps(result))


def run(src: str, out: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(out)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def differing(base: dict[str, Any], new: dict[str, Any]) -> dict[str, list[tuple[Any, Any]]]:
    """Per document, the chunks of ``base`` and ``new`` not in the other (text and span)."""
    out: dict[str, list[tuple[Any, Any]]] = {}
    for name, old in base["chunks"].items():
        a = [tuple(c) for c in old]
        b = [tuple(c) for c in new["chunks"].get(name, [])]
        if a != b:
            only_a = [c for c in a if c not in set(b)]
            only_b = [c for c in b if c not in set(a)]
            out[name] = list(zip(only_a, only_b, strict=False)) or [(None, None)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", help="NAME=OUT")
    parser.add_argument("--base", help="the src folder of the code to compare against")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--show", type=int, default=0, help="differing chunks to show per doc")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child)
        return
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    new_src = os.environ.get("PYTHONPATH", str(Path(__file__).resolve().parents[1] / "src"))
    log.info(
        "set          counts base/new (ratio)    seconds base/new (ratio)   docs/chunks differ"
    )
    for item in args.sets:
        name, _, out = item.partition("=")
        runs: dict[str, list[dict[str, Any]]] = {"base": [], "new": []}
        for _ in range(args.rounds):
            for label, src in (("base", args.base), ("new", new_src)):
                runs[label].append(run(src, Path(out)))
        base, new = runs["base"][0], runs["new"][0]
        sec = {k: min(r["seconds"] for r in v) for k, v in runs.items()}
        diff = differing(base, new)
        changed = sum(len(v) for v in diff.values())
        log.info(
            "%-12s %7d / %7d (%.3f)   %6.1f / %6.1f (%.3f)   %d / %d",
            name,
            base["counts"],
            new["counts"],
            new["counts"] / max(1, base["counts"]),
            sec["base"],
            sec["new"],
            sec["new"] / max(1e-9, sec["base"]),
            len(diff),
            changed,
        )
        for doc, pairs in diff.items():
            log.info("  differs: %s (%d chunks)", doc, len(pairs))
            for old, fresh in pairs[: args.show]:
                for label, c in (("base", old), ("new", fresh)):
                    if c is not None:
                        log.info("  --- %s [%d, %d)\n%s", label, c[0], c[1], c[2])


if __name__ == "__main__":
    main()
