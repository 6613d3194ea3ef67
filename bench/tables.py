"""Tables in converted Markdown and chunks, per ingest output folder (issue 34).

Per folder (NAME=OUT, an ingest output folder with ``markdown/`` and ``chunks/``):
  docs          Markdown files read
  tables        pipe tables (runs of lines starting with "|" outside code fences)
  line-tables   runs of 3+ consecutive non-table lines with 2+ figures each (a table read as
                lines: what a flattened table looks like)
  unit-head     heading lines that are a unit line (`tables.labels.is_unit_line`)
  period-head   heading lines that are a bare period or date (`tables.labels.is_period_line`)
  label-path    chunks whose heading path holds a unit or period line
  caption-path  chunks whose heading path's last part is a table or figure caption
                (`captionlabels.is_caption`: "Table 3 ...", "Fig. 4", "表1")
  letterless    chunks whose heading path's last part has no letter ("$9.24", "193", "＊")
  flattened     tables the conversion read as lines, by reason: counted from a conversion log
                at debug level (``--log FILE``, lines "table flattened: page N: REASON"); "-"
                without a log
With ``--questions Q.jsonl`` (questions with "kind": "table" are the table questions: their
answer is a row of a table on the answer's page, as the question set labels it):
  table-q       table questions
  intact        ... whose answer is whole in some chunk (`evaluation.match.contains`)
  in-table      ... whose answer is whole inside one pipe table of such a chunk
  in-lines      ... else whole inside a run of figure lines (a flattened table)

Usage: python bench/tables.py NAME=OUT[:QUESTIONS] ... [--log NAME=FILE] [--show-paths N]
  e.g. bench/tables.py dev3=/work/out/base/dev3:/work/shared/eval/dev3/questions.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from citechunk.captionlabels import is_caption
from citechunk.conversion import read_markdown
from citechunk.conversion.mdlines import heading_text
from citechunk.conversion.tables.labels import is_period_line, is_unit_line
from citechunk.evaluation.data import EvalChunk, load_chunk_set
from citechunk.evaluation.match import contains
from citechunk.mdsyntax import fenced_lines

_FIGURE_RE = re.compile(r"(?<![\w.,])\(?[$€£]?\d[\d,]*(?:\.\d+)?\)?%?(?!\w)")
_FLATTENED_RE = re.compile(r"table flattened: page \d+: (.*)$")
MIN_LINE_TABLE = 3
_LETTER_RE = re.compile(r"[^\W\d_]")


@dataclass
class Tally:
    docs: int = 0
    tables: int = 0
    line_tables: int = 0
    unit_head: int = 0
    period_head: int = 0
    label_path: int = 0
    caption_path: int = 0
    letterless_path: int = 0
    chunks: int = 0
    flattened: Counter[str] | None = None
    questions: Counter[str] = field(default_factory=Counter)


def _is_figure_line(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith(("|", "#")) and len(_FIGURE_RE.findall(s)) >= 2


def blocks(lines: list[str]) -> tuple[list[list[str]], list[list[str]]]:
    """(pipe tables, figure-line runs) of `lines` outside code fences."""
    tables: list[list[str]] = []
    runs: list[list[str]] = []
    cur_t: list[str] = []
    cur_r: list[str] = []
    for i, inside in fenced_lines(lines):
        line = "" if inside else lines[i].strip()
        if line.startswith("|"):
            cur_t.append(line)
        elif cur_t:
            tables.append(cur_t)
            cur_t = []
        if _is_figure_line(line):
            cur_r.append(line)
        elif line and not line.startswith("<!--"):
            if len(cur_r) >= MIN_LINE_TABLE:
                runs.append(cur_r)
            cur_r = []
    if cur_t:
        tables.append(cur_t)
    if len(cur_r) >= MIN_LINE_TABLE:
        runs.append(cur_r)
    return tables, runs


def _markdown(out: Path, tally: Tally) -> None:
    for md in sorted((out / "markdown").glob("*.md")):
        lines = read_markdown(md).split("\n")
        tally.docs += 1
        tables, runs = blocks(lines)
        tally.tables += len(tables)
        tally.line_tables += len(runs)
        for line in lines:
            title = heading_text(line)
            tally.unit_head += bool(title) and is_unit_line(title)
            tally.period_head += bool(title) and is_period_line(title)


def _chunks(out: Path, tally: Tally, show: int) -> list[EvalChunk]:
    chunks = list(load_chunk_set(out).chunks)
    tally.chunks = len(chunks)
    shown = 0
    for c in chunks:
        if any(is_unit_line(h) or is_period_line(h) for h in c.heading_path):
            tally.label_path += 1
            if shown < show:
                print(f"  {c.document} p.{c.first_page}: {' > '.join(c.heading_path)}")
                shown += 1
        last = c.heading_path[-1] if c.heading_path else ""
        tally.letterless_path += bool(last) and not _LETTER_RE.search(last)
        if last and is_caption(last):
            tally.caption_path += 1
            if shown < show:
                print(f"  {c.document} p.{c.first_page}: {' > '.join(c.heading_path)}")
                shown += 1
    return chunks


def _answer_place(chunks: list[EvalChunk], answer: str) -> str:
    """ "in-table", "in-lines", "intact" (in a chunk, elsewhere) or "lost"."""
    best = "lost"
    for c in chunks:
        if not contains(c.text, answer):
            continue
        tables, runs = blocks(c.text.split("\n"))
        if any(contains("\n".join(t), answer) for t in tables):
            return "in-table"
        if any(contains("\n".join(r), answer) for r in runs):
            best = "in-lines"
        elif best == "lost":
            best = "intact"
    return best


def _questions(path: Path, chunks: list[EvalChunk], tally: Tally) -> None:
    by_doc: dict[str, list[EvalChunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.document, []).append(c)
    for raw in path.read_text(encoding="utf-8").splitlines():
        q = json.loads(raw) if raw.strip() else None
        if not q or q.get("kind") != "table":
            continue
        tally.questions["table-q"] += 1
        tally.questions[_answer_place(by_doc.get(q["pdf"], []), q["answer"])] += 1


def _flattened(log: Path) -> Counter[str]:
    reasons: Counter[str] = Counter()
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        m = _FLATTENED_RE.search(line)
        if m:
            reasons[m.group(1).split(" (")[0]] += 1
    return reasons


def measure(out: Path, questions: Path | None, log: Path | None, show: int) -> Tally:
    tally = Tally()
    _markdown(out, tally)
    chunks = _chunks(out, tally, show)
    if questions is not None:
        _questions(questions, chunks, tally)
    if log is not None:
        tally.flattened = _flattened(log)
    return tally


def _row(name: str, t: Tally) -> str:
    q = t.questions
    intact = q["in-table"] + q["in-lines"] + q["intact"]
    share = f"{q['in-table']}/{intact}" if q["table-q"] else "-"
    flat = (
        ", ".join(f"{r}: {n}" for r, n in t.flattened.most_common()) or "0"
        if t.flattened is not None
        else "-"
    )
    return (
        f"| {name} | {t.docs} | {t.tables} | {t.line_tables} | {t.unit_head} | "
        f"{t.period_head} | {t.label_path}/{t.chunks} | {t.caption_path} | {t.letterless_path} | {flat} | {q['table-q'] or '-'} | "
        f"{intact if q['table-q'] else '-'} | {share} | {q['in-lines'] if q['table-q'] else '-'} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="+", help="NAME=OUT or NAME=OUT:QUESTIONS")
    parser.add_argument("--log", action="append", default=[], help="NAME=FILE (debug log)")
    parser.add_argument("--show-paths", type=int, default=0, help="print N label paths a set")
    args = parser.parse_args()
    logs = dict(item.split("=", 1) for item in args.log)
    print(
        "| set | docs | tables | line-tables | unit-head | period-head | label-path/chunks | "
        "caption-path | letterless | "
        "flattened (reason: n) | table-q | intact | in-table/intact | in-lines |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for item in args.sets:
        name, _, rest = item.partition("=")
        out, _, qs = rest.partition(":")
        log = Path(logs[name]) if name in logs else None
        tally = measure(Path(out), Path(qs) if qs else None, log, args.show_paths)
        print(_row(name, tally), flush=True)


if __name__ == "__main__":
    main()
