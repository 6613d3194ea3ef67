"""Table header rows in an ingest's saved Markdown (issue 51): how many pipe tables have a
header row that is data, a title, or empty.

A table is a run of lines starting with "|" whose second line is a separator; its first line is
the header row and the rows after the separator are data. Stated here on their own (not the
conversion's `tables.header`), per table:
  tables       tables read
  data-head    the header row is a data row: some column where the header cell
               - is a number (digits with separators, a sign, a currency sign, "%" or a unit of
                 up to three letters) not opening with a year, and the first data row's cell is one,
               - is text (three or more characters, a letter) that a data cell of the column
                 repeats, while no data row repeats the whole header row,
               - ends in a page number after a leader or a space ("Overview ... 3") and so does
                 the first data row's cell, or
               - has eight or more words and the column's data cells have as many on average
  title-head   the header row holds text in its first cell only (a title or a group label), in a
               table of two or more columns
  empty-head   the header row holds no text (a table without a header)
  docs         Markdown files read; ``--show N`` prints N data-head and title-head header rows
               with their first data row

Usage: python bench/table_headers.py NAME=OUT ... [--show N] [--json F]
  e.g. bench/table_headers.py base=/work/wide-base after=/work/wide-w4-tables
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

_SEP = re.compile(r"\|(?:\s*:?-+:?\s*\|)+")
_NUMBER = re.compile(r"[-−–(+]?\s*[$€£¥₹]?\s*\d[\d,.\s]*\)?\s*(?:%|[^\W\d_]{1,3}\.?)?")
_YEAR = re.compile(r"(?:19|20)\d\d(?!\d)")
_PAGE_END = re.compile(r"(?:\.{2,}|…|\s)\s*\d{1,4}$")
_MARKUP = re.compile(r"\*\*|__|<br\s*/?>|`|_")
_WORD = re.compile(r"[^\W_]+")


@dataclass
class Tally:
    docs: int = 0
    tables: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    shown: list[str] = field(default_factory=list)
    by_doc: Counter[str] = field(default_factory=Counter)


def cells(row: str) -> list[str]:
    """A row's cells, markup and outer spaces removed."""
    parts = re.split(r"(?<!\\)\|", row.strip().removeprefix("|").removesuffix("|"))
    return [" ".join(_MARKUP.sub(" ", p).split()) for p in parts]


def _number(text: str) -> bool:
    return bool(_NUMBER.fullmatch(text)) and not _YEAR.match(text)


def _key(text: str) -> str:
    return "".join(_WORD.findall(text.lower()))


def data_like(head: list[str], rows: list[list[str]]) -> bool:
    """The header row is a data row by the module docstring's tests."""
    if not rows:
        return False
    first = rows[0]
    whole = _key("".join(head))
    repeated = any(_key("".join(r)) == whole for r in rows)
    for j, cell in enumerate(head):
        below = [r[j] for r in rows if j < len(r) and r[j]]
        under = first[j] if j < len(first) else ""
        if cell and _number(cell) and under and _NUMBER.fullmatch(under):
            return True
        if len(cell) >= 3 and re.search(r"[^\W\d_]", cell) and not repeated:
            if any(_key(b) == _key(cell) for b in below):
                return True
        if _PAGE_END.search(cell) and _PAGE_END.search(under) and not _number(cell):
            return True
        words = [len(b.split()) for b in below]
        if len(cell.split()) >= 8 and words and sum(words) / len(words) >= 8:
            return True
    return False


def kind(head: list[str], rows: list[list[str]]) -> str:
    """ "empty-head", "title-head", "data-head" or "" (a header row that reads as one)."""
    if not any(head):
        return "empty-head"
    if len(head) >= 2 and head[0] and not any(head[1:]):
        return "title-head"
    return "data-head" if data_like(head, rows) else ""


def tables(text: str) -> list[list[str]]:
    """The pipe tables of a Markdown text (runs of "|" lines with a separator second)."""
    out, run = [], []
    for line in [*text.split("\n"), ""]:
        if line.lstrip().startswith("|"):
            run.append(line)
            continue
        if len(run) >= 2 and _SEP.fullmatch(run[1].strip()):
            out.append(run)
        run = []
    return out


def measure(out: Path, show: int) -> Tally:
    tally = Tally()
    for path in sorted((out / "markdown").glob("*.md")):
        tally.docs += 1
        for table in tables(path.read_text(encoding="utf-8")):
            tally.tables += 1
            head, rows = cells(table[0]), [cells(r) for r in table[2:]]
            found = kind(head, rows)
            if not found:
                continue
            tally.counts[found] += 1
            if found == "data-head":
                tally.by_doc[path.name.split(".pdf")[0]] += 1
            if found != "empty-head" and len(tally.shown) < show:
                shown = "\n".join(table[:3])[:400]
                tally.shown.append(f"{found} {path.name[:50]}\n{shown}")
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="+", help="NAME=OUT (an ingest output folder)")
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = {}
    for item in args.sets:
        name, _, folder = item.partition("=")
        t = measure(Path(folder), args.show)
        row = {"docs": t.docs, "tables": t.tables, **{k: t.counts[k] for k in _KINDS}}
        results[name] = {"total": row, "data-head by doc": dict(t.by_doc)}
        print(name, json.dumps(row))
        for doc, n in t.by_doc.most_common():
            print(f"  {n:3d} {doc}")
        for text in t.shown:
            print("---", text)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")


_KINDS = ("data-head", "title-head", "empty-head")

if __name__ == "__main__":
    main()
