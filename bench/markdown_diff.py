"""Two ingest outputs' Markdown compared page by page, differences counted by kind.

For each document in both A and B (OUT/markdown/<name>-<hex>.md), each page (`<!-- page N -->`):
  headings   heading lines (text and level) differ
  tables     the count of table rows (lines starting with '|') differs
  figures    a caption line ("Figure 3", "Fig. 2", "Table 1" at a line's start) is missing in
             one side or sits at another place among the page's lines
  front      page 1 text before the first heading or "Abstract" differs (title and author
             blocks)
  text       any other line differs (paragraphs split/joined, words, order)
Printed: per document, pages and identical pages, then pages per kind; with --pages, each
differing page with its kinds (the pages that need the image model, when A is text+image and
B is text).

Usage: .venv/bin/python bench/markdown_diff.py A_OUT B_OUT [--pages]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

from citechunk.conversion import read_markdown
from citechunk.markers import page_bodies

CAPTION = re.compile(r"^\W*(figure|fig\.|table)\s*\d+", re.IGNORECASE)
KINDS = ("headings", "tables", "figures", "front", "text")


def pages(markdown: str) -> dict[int, list[str]]:
    """Page number -> the page's non-blank lines."""
    out: dict[int, list[str]] = {}
    for start, end, page in page_bodies(markdown):
        out[page] = [ln.strip() for ln in markdown[start:end].splitlines() if ln.strip()]
    return out


def kinds(number: int, a: list[str], b: list[str]) -> set[str]:
    """The kinds of difference between one page's lines in A and in B (module docstring)."""
    if a == b:
        return set()
    found: set[str] = set()
    if [ln for ln in a if ln.startswith("#")] != [ln for ln in b if ln.startswith("#")]:
        found.add("headings")
    if sum(ln.startswith("|") for ln in a) != sum(ln.startswith("|") for ln in b):
        found.add("tables")
    caps_a = [(i, ln) for i, ln in enumerate(a) if CAPTION.match(ln.lstrip("*_#> "))]
    caps_b = [(i, ln) for i, ln in enumerate(b) if CAPTION.match(ln.lstrip("*_#> "))]
    if [ln for _, ln in caps_a] != [ln for _, ln in caps_b] or _moved(a, b, caps_a, caps_b):
        found.add("figures")
    if number == 1 and _front(a) != _front(b):
        found.add("front")
    rest_a = [ln for ln in a if not ln.startswith(("#", "|"))]
    rest_b = [ln for ln in b if not ln.startswith(("#", "|"))]
    if rest_a != rest_b and not found & {"figures", "front"}:
        found.add("text")
    return found or {"text"}


def _moved(
    a: list[str], b: list[str], caps_a: list[tuple[int, str]], caps_b: list[tuple[int, str]]
) -> bool:
    """A caption whose preceding line differs between A and B (placed elsewhere)."""
    before_a = {ln: a[i - 1] if i else "" for i, ln in caps_a}
    before_b = {ln: b[i - 1] if i else "" for i, ln in caps_b}
    return any(before_b.get(ln) != prev for ln, prev in before_a.items())


def _front(lines: list[str]) -> list[str]:
    out = []
    for ln in lines:
        if ln.startswith("#") or ln.lower().lstrip("*_ ").startswith("abstract"):
            break
        out.append(ln)
    return out


def _markdowns(out: Path) -> dict[str, Path]:
    return {md.name.rsplit("-", 1)[0]: md for md in sorted((out / "markdown").glob("*.md"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--pages", action="store_true", help="list each differing page")
    args = parser.parse_args()
    a_docs, b_docs = _markdowns(args.a), _markdowns(args.b)
    total: Counter[str] = Counter()
    print("| document | pages | identical | " + " | ".join(KINDS) + " |")
    print("|---|---|---|" + "---|" * len(KINDS))
    for name in sorted(a_docs.keys() & b_docs.keys()):
        pa, pb = pages(read_markdown(a_docs[name])), pages(read_markdown(b_docs[name]))
        counts: Counter[str] = Counter()
        listed = []
        for number in sorted(pa.keys() | pb.keys()):
            found = kinds(number, pa.get(number, []), pb.get(number, []))
            counts.update(found)
            counts["pages"] += 1
            counts["identical"] += not found
            if found:
                listed.append(f"{number}:{'+'.join(sorted(found))}")
        total.update(counts)
        cells = " | ".join(str(counts[k]) for k in KINDS)
        print(f"| {name} | {counts['pages']} | {counts['identical']} | {cells} |")
        if args.pages and listed:
            print(f"|  pages | {' '.join(listed)} |")
    cells = " | ".join(str(total[k]) for k in KINDS)
    print(f"| all | {total['pages']} | {total['identical']} | {cells} |")


if __name__ == "__main__":
    main()
