"""Count chunks that hold a footnote set as a quote or inside a list (issue 50: footnotes after
their paragraph).

    python bench/footnote_scan.py CHUNKS_DIR [CHUNKS_DIR ...]

Reads every ``*.parquet`` (or ``*.jsonl``) of chunks under each directory and counts, per
directory, the chunks holding

- a footnote quote: a line ``> `` opening with a number of one to three digits or a footnote
  symbol (∗ † ‡ § ¶), an optional "." or ")", then text ("> 5. Jeffrie ...", "> 22 See ...");
- a footnote list item: a list line (``- ``) opening with a number, bare or bold, that is no
  list number (no "." or ")" after it) and that the chunk cites elsewhere, as `` [N]`` or
  glued to a word or a stop ("Ltd.,19 the", "International Ltd23");
- a footnote paragraph: a paragraph opening ``[N] `` (the form the renderer writes).

Prints one line per directory and the documents with quote or list footnotes.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

_QUOTE_RE = re.compile(r"^> ?(?:<sup>)?(?:\d{1,3}|[*∗†‡§¶]+)(?:</sup>)?[.)]?\s*\S", re.M)
_LIST_RE = re.compile(r"^\s*[-*+] (?:\*\*)?(\d{1,3})(?:\*\*)? +\S", re.M)
_PARAGRAPH_RE = re.compile(r"(?:^|\n\n)\[\d{1,3}\] \S")


def _texts(folder: Path) -> list[tuple[str, str]]:
    """(document, chunk text) of every chunk under `folder`."""
    out: list[tuple[str, str]] = []
    for path in sorted(folder.glob("*.parquet")):
        import pyarrow.parquet as pq

        table = pq.read_table(path, columns=["text"])
        out.extend((path.stem, str(t)) for t in table.column("text").to_pylist())
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append((path.stem, str(json.loads(line).get("text", ""))))
    return out


def _list_note(text: str) -> bool:
    for m in _LIST_RE.finditer(text):
        n = m.group(1)
        if f" [{n}]" in text or re.search(rf"[^\W\d_.,;]_?[.,;]*{n}(?!\d)", text):
            return True
    return False


def scan(folder: Path) -> tuple[Counter[str], Counter[str]]:
    """Chunk counts per kind, and per document the chunks with a quote or list footnote."""
    counts: Counter[str] = Counter()
    docs: Counter[str] = Counter()
    for doc, text in _texts(folder):
        counts["chunks"] += 1
        quote, listed = bool(_QUOTE_RE.search(text)), _list_note(text)
        counts["quote"] += quote
        counts["list"] += listed
        counts["paragraph"] += bool(_PARAGRAPH_RE.search(text))
        if quote or listed:
            docs[doc] += 1
    return counts, docs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    args = parser.parse_args()
    for folder in args.folders:
        counts, docs = scan(folder)
        print(
            f"{folder}: {counts['chunks']} chunks, footnote as quote {counts['quote']}, "
            f"in a list {counts['list']}, as [N] paragraph {counts['paragraph']}"
        )
        for doc, n in docs.most_common():
            print(f"    {n:4d}  {doc}")


if __name__ == "__main__":
    main()
