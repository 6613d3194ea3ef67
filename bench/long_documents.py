"""Long documents: navigation marked and page furniture gone, counted per ingest output folder.

Counts, per set, of chunks (each chunk counts at most once per kind):
  nav       chunks whose record ``role`` is "navigation" (contents pages, indexes; records
            without the field count as content)
  leaders   content chunks with 3 or more lines holding a dot leader (". . ." or "....", then
            a page reference): navigation left in the text
  linenos   a body with 5 or more consecutive integers (n, n+1, ... n+4), each a whole token
            opening a line or following a space and followed by a space and a letter, in order,
            each 20 to 300 characters after the one before: margin line numbers
  running   a body line (2+ words, 8+ characters, not a table row or heading) whose signature
            (case-folded, digits as #, spaces collapsed) is a line on 3 or more pages of the
            document's Markdown and on at least a quarter of them: a page header or footer
  strike    the body holds ``~~`` (Markdown strikethrough)
  fprose    a fenced block of 3+ lines, at least half of them prose: 8+ words, no comment
            mark first (# // -- ; *), letters, spaces and sentence punctuation 95%+ of their
            characters
Usage:
  .venv/bin/python bench/long_documents.py count NAME=OUT [NAME=OUT ...] [--show KIND] [--by-doc]
  .venv/bin/python bench/long_documents.py rechunk SRC DEST   (re-chunk SRC's saved Markdown
            with this checkout's chunker into DEST/chunks as JSONL; DEST/markdown links SRC's)
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from citechunk.chunking import chunk_markdown
from citechunk.config import load_config
from citechunk.conversion import read_markdown, saved_title
from citechunk.export import make_records, write_chunks
from citechunk.export.inspect import LoadedDocument, load_documents, split_text
from citechunk.markers import page_spans
from citechunk.mdsyntax import HEADING_RE, fenced_lines

KINDS = ("nav", "leaders", "linenos", "running", "strike", "fprose")
_LEADER_RE = re.compile(r"(?:\.\s*){4,}\s*\**\s*(?:\d{1,4}|[ivxlc]{1,7})\b", re.IGNORECASE)
_INT_RE = re.compile(r"(?:^|(?<=\s))\d{1,5}(?= [^\W\d_])", re.MULTILINE)
_PROSE_CHARS_RE = re.compile(r"[^\W\d_]|[\s.,;:'\"\-]")
LINE_RUN, LINE_MIN_GAP, LINE_GAP = 5, 20, 300


def _signature(line: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"\d+", "#", line.strip().casefold()))


def _candidate(line: str) -> bool:
    s = line.strip()
    return (
        len(s) >= 8
        and len(s.split()) >= 2
        and not s.startswith("|")
        and not HEADING_RE.match(s)
        and not s.startswith("<!--")
    )


def running_signatures(markdown: str) -> set[str]:
    """Signatures of lines on 3+ pages, and on a quarter of the pages or more."""
    pages: Counter[str] = Counter()
    spans = page_spans(markdown)
    for start, end in spans:
        pages.update({_signature(ln) for ln in markdown[start:end].splitlines() if _candidate(ln)})
    least = max(3, len(spans) // 4)
    return {s for s, n in pages.items() if n >= least}


def has_line_numbers(body: str) -> bool:
    hits = [(m.start(), int(m.group())) for m in _INT_RE.finditer(body)]
    for i, (pos, n) in enumerate(hits):
        run, last = 1, pos
        for pos2, m in hits[i + 1 :]:
            if pos2 - last > LINE_GAP:
                break
            if m == n + run and pos2 - last >= LINE_MIN_GAP:
                run, last = run + 1, pos2
                if run >= LINE_RUN:
                    return True
    return False


def _prose_line(line: str) -> bool:
    s = line.strip()
    if len(s.split()) < 8 or s.startswith(("#", "//", "--", ";", "*")):
        return False
    return len(_PROSE_CHARS_RE.findall(s)) >= 0.95 * len(s)


def has_fenced_prose(body: str) -> bool:
    lines = body.splitlines()
    blocks: list[list[str]] = []
    inside = False
    for i, fenced in fenced_lines(lines):
        if fenced and not inside:
            blocks.append([])
        if fenced and blocks:
            blocks[-1].append(lines[i])
        inside = fenced
    for block in blocks:
        filled = [ln for ln in block[1:] if ln.strip() and not ln.lstrip().startswith("```")]
        if len(filled) >= 3 and sum(map(_prose_line, filled)) >= 0.5 * len(filled):
            return True
    return False


def chunk_kinds(role: str, body: str, running: set[str]) -> set[str]:
    found = set()
    if role == "navigation":
        found.add("nav")
    elif sum(bool(_LEADER_RE.search(ln)) for ln in body.splitlines()) >= 3:
        found.add("leaders")
    if has_line_numbers(body):
        found.add("linenos")
    if any(_candidate(ln) and _signature(ln) in running for ln in body.splitlines()):
        found.add("running")
    if "~~" in body:
        found.add("strike")
    if has_fenced_prose(body):
        found.add("fprose")
    return found


@dataclass
class Tally:
    chunks: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)


def _documents(out: Path) -> Iterator[tuple[LoadedDocument, list[tuple[str, str, set[str]]]]]:
    for doc in sorted(load_documents(out), key=lambda d: d.source_file):
        records = sorted(doc.records, key=lambda r: r.chunk_index)
        if not records:
            continue
        md = read_markdown(out / records[0].markdown_file)
        running = running_signatures(md)
        rows = []
        for r in records:
            body = split_text(r, md)[1]
            rows.append((r.role, body, chunk_kinds(r.role, body, running)))
        yield doc, rows


def _row(name: str, t: Tally) -> str:
    return f"{name:<44} {t.chunks:>7} " + " ".join(f"{t.by_kind[k]:>8}" for k in KINDS)


def _snippet(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width // 2] + " … " + flat[-width // 2 :]


def count(sets: Sequence[str], show: str | None, by_doc: bool) -> None:
    print(f"{'set':<44} {'chunks':>7} " + " ".join(f"{k:>8}" for k in KINDS))
    for spec in sets:
        name, _, out = spec.partition("=")
        total = Tally()
        for doc, rows in _documents(Path(out or name)):
            t = Tally(len(rows), Counter(k for _, _, kinds in rows for k in kinds))
            total.chunks += t.chunks
            total.by_kind.update(t.by_kind)
            if by_doc:
                print(_row("  " + doc.source_file[:42], t))
            for i, (_, body, kinds) in enumerate(rows):
                if show in kinds:
                    print(f"    {show} {doc.source_file} #{i}: {_snippet(body)}")
        print(_row(name, total))


def rechunk(src: Path, dest: Path) -> None:
    """DEST/chunks: SRC's saved Markdown chunked again with the default configuration."""
    cfg = load_config()
    (dest / "chunks").mkdir(parents=True, exist_ok=True)
    link = dest / "markdown"
    if not link.exists():
        link.symlink_to((src / "markdown").resolve(), target_is_directory=True)
    for doc in load_documents(src):
        if not doc.records:
            continue
        first = doc.records[0]
        md_path = src / first.markdown_file
        chunks = chunk_markdown(read_markdown(md_path), cfg.chunk, saved_title(md_path))
        records = make_records(
            chunks,
            source_file=first.source_file,
            source_sha256=first.source_sha256,
            markdown_file=first.markdown_file,
            tokenizer=first.tokenizer,
            backend=first.backend,
            config_fingerprint="rechunk",
            ocr_pages=sorted({p for r in doc.records for p in r.ocr_pages}),
        )
        write_chunks(records, dest / "chunks" / doc.chunk_file.name, "jsonl", {})


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("count")
    c.add_argument("sets", nargs="+", metavar="NAME=OUT")
    c.add_argument("--show", choices=KINDS)
    c.add_argument("--by-doc", action="store_true")
    r = sub.add_parser("rechunk")
    r.add_argument("src", type=Path)
    r.add_argument("dest", type=Path)
    args = ap.parse_args()
    if args.cmd == "count":
        count(args.sets, args.show, args.by_doc)
    else:
        rechunk(args.src, args.dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
