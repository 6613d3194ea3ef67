"""Anchor bench: citechunk's chunks beside common chunkers, scored by the reference check.

Anchors (each PDF parsed once by pymupdf4llm's layout parser, `parse_document` defaults):
  pymupdf4llm     `to_chunks` with its default options and ``max_tokens=512``;
  lc-header       LangChain `MarkdownHeaderTextSplitter` (headers "#".."######", defaults)
                  then `RecursiveCharacterTextSplitter` (2,048 characters, 15% overlap) on
                  pymupdf4llm's Markdown of the same parse (`to_markdown` defaults);
  lc-recursive    LangChain `RecursiveCharacterTextSplitter` alone (same sizes, same Markdown).
A LangChain chunk's pages are those of its first and last words, found in order in the pages'
words (the reference check's word definition). Citechunk rows: ``--chunks LABEL=DIR`` (an
ingest output or any chunk JSONL) and ``--variant LABEL=KEY=VAL,...`` (the saved Markdown of
``--markdown OUT`` re-chunked in this process with those `ChunkOptions`, title from provenance).

Every row is scored by ``check_retrieval.py`` (the reference definitions: budget, retrievers),
one process per row. Anchor chunkings are cached per PDF under ``--cache``/<set>/, scores per
(row content, questions, retriever, budget), so a re-run only scores what changed (and the
light retrievers can be run apart from MiniLM and hybrid).

Usage: .venv/bin/python bench/anchors.py --name dev2 --pdfs ../shared/eval/dev2/pdfs \\
         --questions ../shared/eval/dev2/questions.jsonl --markdown OUT \\
         [--chunks citechunk=OUT] [--variant size320=max_tokens=320,min_tokens=30] \\
         [--retrievers hybrid,bm25stem,minilm,bm25] [--budget 1500] [--cache out/anchors]
Prints one Markdown table (rows: chunk sets; columns: found per retriever, answers intact,
chunks, mean tokens).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import re
import subprocess
import sys
from bisect import bisect_right
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECK = ROOT.parent / "shared" / "eval" / "check_retrieval.py"
ANCHORS = ("pymupdf4llm", "lc-header", "lc-recursive")
LC_CHARS = 2048
LC_OVERLAP = int(LC_CHARS * 0.15)
P4L_MAX_TOKENS = 512
LOOKUP_WORDS = 8

log = logging.getLogger("anchors")
_TAG = re.compile(r"</?(?:sup|sub|br|b|i|em|strong|span|u)\b[^>]*>", re.I)
_WORD = re.compile(r"[a-z0-9]+")
Record = dict[str, object]


def words(text: str) -> list[str]:
    """The reference check's words: tags out, lower case, runs of letters and digits."""
    text = _TAG.sub(" ", text).lower().replace("-\n", "").replace("\u00ad", "")
    return _WORD.findall(text)


class PageLocator:
    """Pages of a chunk whose words appear, in order, in a document's page Markdown."""

    def __init__(self, pages: list[str]) -> None:
        self.text = " "
        self.page_at: list[int] = []  # char offset in ``text`` where each page starts
        for page in pages:
            self.page_at.append(len(self.text))
            self.text += " ".join(words(page)) + " "
        self.cursor = 0

    def _find(self, ws: list[str], start: int) -> int:
        needle = " " + " ".join(ws) + " "
        at = self.text.find(needle, start)
        return at if at >= 0 else self.text.find(needle)

    def pages(self, chunk: str) -> tuple[int, int]:
        """(first, last) 1-based page of the chunk's first and last words (the last page read
        when they are not found)."""
        ws = words(chunk)
        fallback = max(1, bisect_right(self.page_at, self.cursor))
        if not ws:
            return fallback, fallback
        first = self._find(ws[:LOOKUP_WORDS], max(0, self.cursor - 4 * LC_CHARS))
        if first < 0:
            return fallback, fallback
        last = self._find(ws[-LOOKUP_WORDS:], first)
        end = last if last >= first else first
        self.cursor = first
        return bisect_right(self.page_at, first + 1), bisect_right(self.page_at, end + 1)


def anchor_chunkings(pdf: Path) -> dict[str, list[Record]]:
    """The three anchors' chunk records of one PDF (one layout parse)."""
    import pymupdf4llm  # noqa: F401  (activates the layout parser)
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter
    from pymupdf4llm.helpers.document_layout import parse_document

    parsed = parse_document(str(pdf))
    name = pdf.name
    out: dict[str, list[Record]] = {a: [] for a in ANCHORS}
    for c in parsed.to_chunks(max_tokens=P4L_MAX_TOKENS):
        md = c.metadata
        out["pymupdf4llm"].append(record(c.text, name, md.page_start, md.page_end))
    pages = [p["text"] for p in parsed.to_markdown(page_chunks=True)]
    markdown = "".join(pages)
    recursive = RecursiveCharacterTextSplitter(chunk_size=LC_CHARS, chunk_overlap=LC_OVERLAP)
    headers = [("#" * n, f"h{n}") for n in range(1, 7)]
    sections = MarkdownHeaderTextSplitter(headers).split_text(markdown)
    texts = {
        "lc-header": [t for d in recursive.split_documents(sections) if (t := d.page_content)],
        "lc-recursive": recursive.split_text(markdown),
    }
    for label, chunk_texts in texts.items():
        locate = PageLocator(pages)
        out[label] = [record(t, name, *locate.pages(t)) for t in chunk_texts]
    return out


def record(text: str, source: str, first: int, last: int, role: str = "content") -> Record:
    """A chunk as the reference check reads it; ``role`` "navigation" keeps it out of the pool,
    as an ingest's records do."""
    return {
        "text": text,
        "source_file": source,
        "first_page": first,
        "last_page": last,
        "role": role,
    }


def write_jsonl(path: Path, records: Iterable[Record]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    tmp.replace(path)


def build_anchors(pdfs: Path, cache: Path) -> dict[str, Path]:
    """Each anchor's chunk folder for the set, parsing only PDFs not cached yet."""
    for pdf in sorted(pdfs.glob("*.pdf")):
        if all((cache / a / f"{pdf.name}.jsonl").is_file() for a in ANCHORS):
            continue
        log.info("parsing %s", pdf.name)
        for label, records in anchor_chunkings(pdf).items():
            write_jsonl(cache / label / f"{pdf.name}.jsonl", records)
    return {a: cache / a for a in ANCHORS}


def build_variant(markdown: Path, spec: str, target: Path) -> Path:
    """The saved Markdown under ``markdown`` re-chunked with ``spec`` ("key=val,...")."""
    from citechunk.chunking import chunk_markdown
    from citechunk.chunking.navigation import chunk_role
    from citechunk.config import ChunkOptions
    from citechunk.conversion import read_markdown
    from citechunk.models import Provenance

    fields: dict[str, object] = {}
    for item in filter(None, spec.split(",")):
        key, _, value = item.partition("=")
        fields[key] = int(value) if value.lstrip("-").isdigit() else value
    options = ChunkOptions(**fields)  # type: ignore[arg-type]
    for md in sorted(markdown.glob("*.md")):
        prov_file = md.with_name(md.name + ".json")
        prov = json.loads(prov_file.read_text(encoding="utf-8")) if prov_file.is_file() else {}
        title = Provenance.from_dict(prov).title if prov else ""
        source = Path(str(prov.get("source", md.name))).name
        chunks = chunk_markdown(read_markdown(md), options, title)
        records = (
            record(c.text, source, c.first_page, c.last_page, chunk_role(c.body)) for c in chunks
        )
        write_jsonl(target / f"{md.name}.jsonl", records)
    return target


def digest(folder: Path, *extra: str) -> str:
    h = hashlib.sha256("\0".join(extra).encode())
    for f in sorted([*folder.rglob("*.jsonl"), *folder.rglob("*.parquet")]):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def score(label: str, chunks: Path, args: argparse.Namespace, cache: Path) -> list[Record]:
    """check_retrieval.py's summary lines for one chunk folder, one per retriever, each cached
    by (content, questions, retriever, budget): only missing retrievers are run, in one process
    (hybrid reuses MiniLM's scores)."""
    questions = Path(args.questions)
    content = digest(chunks, questions.read_text(), str(args.budget))
    hits = {r: cache / "scores" / f"{content}-{r}.json" for r in args.retrievers.split(",")}
    missing = [r for r, f in hits.items() if not f.is_file()]
    if missing and not args.cached:
        cmd = [
            sys.executable,
            str(args.check),
            "--questions",
            str(questions),
            "--chunks",
            str(chunks),
        ]
        cmd += ["--retriever", ",".join(missing), "--budget", str(args.budget), "--label", label]
        log.info("scoring %s (%s)", label, ",".join(missing))
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        for line in done.stdout.splitlines():
            if line.startswith("{"):
                row = json.loads(line)
                hits[row["retriever"]].parent.mkdir(parents=True, exist_ok=True)
                hits[row["retriever"]].write_text(json.dumps(row))
    return [json.loads(f.read_text()) for f in hits.values() if f.is_file()]


def table(name: str, results: dict[str, list[Record]], retrievers: list[str]) -> str:
    head = f"| {name} | " + " | ".join(retrievers) + " | intact | chunks | mean tokens |"
    lines = [head, "|---" * (len(retrievers) + 4) + "|"]
    for label, rows in results.items():
        by = {str(r["retriever"]): r for r in rows}
        found = [f"{float(by[r]['recall']):.3f}" if r in by else "-" for r in retrievers]
        if not rows:
            lines.append(f"| {label} | " + " | ".join(found) + " | - | - | - |")
            continue
        any_row = rows[0]
        lines.append(
            f"| {label} | "
            + " | ".join(found)
            + f" | {float(any_row['answer_intact']):.3f} | {any_row['chunks']}"
            + f" | {float(any_row['mean_chunk_tokens']):.0f} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--name", required=True)
    ap.add_argument("--pdfs", required=True, type=Path)
    ap.add_argument("--questions", required=True)
    ap.add_argument("--markdown", type=Path, help="an ingest output whose markdown/ to re-chunk")
    ap.add_argument("--chunks", action="append", default=[], metavar="LABEL=DIR")
    ap.add_argument("--variant", action="append", default=[], metavar="LABEL=KEY=VAL,...")
    ap.add_argument("--retrievers", default="hybrid,bm25stem,minilm,bm25")
    ap.add_argument("--budget", type=int, default=1500)
    ap.add_argument("--cache", type=Path, default=ROOT / "out" / "anchors")
    ap.add_argument("--check", type=Path, default=CHECK, help="the reference check script")
    ap.add_argument("--cached", action="store_true", help="show cached scores only ('-')")
    ap.add_argument("--no-anchors", action="store_true", help="score only the citechunk rows")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cache = args.cache / args.name
    rows: dict[str, Path] = {}
    if not args.no_anchors:
        rows.update(build_anchors(args.pdfs, cache))
    for item in args.chunks:
        label, _, folder = item.partition("=")
        rows[label] = Path(folder)
    for item in args.variant:
        label, _, spec = item.partition("=")
        if args.markdown is None:
            ap.error("--variant needs --markdown OUT")
        rows[label] = build_variant(args.markdown / "markdown", spec, cache / "variants" / label)
    results = {label: score(label, folder, args, cache) for label, folder in rows.items()}
    sys.stdout.write(table(args.name, results, args.retrievers.split(",")) + "\n")


if __name__ == "__main__":
    main()
