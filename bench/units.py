"""Chunks as the author's units (issue 51): re-chunk an ingest's saved Markdown and count, per set,
the boundary and table defects a strict reader meets.

For each NAME=OUT (an ingest output folder: its ``chunks/`` name each document's Markdown file,
whose provenance gives the title), every document's Markdown is chunked again with the code on
the path (so two runs differ only by the chunker) at the embedder's default window, and:
  chunks       chunks made
  few-rows     chunks holding 1 or 2 data rows of a table of 3+ data rows whose other rows lie
               in other chunks, when the table's next (or previous) row, not in the chunk, would
               still fit: its text plus the chunk's counts <= the window
  uneven       chunks holding 1 or 2 data rows of a table of 3+ data rows next to a chunk
               holding the table's adjacent rows, when the rows of both could be cut into two
               groups each of more rows than the smaller, both fitting the window (each moved
               row counted alone, plus a newline): the cut was not near-even. (few-rows also
               counts a near-even cut, 2 + 2 rows when no 3 fit, as a defect.)
  row-twice    data rows whose Markdown line overlaps the spans of two or more chunks
  row-twice-fit  of those, rows that would fit a chunk alone under its path line
  headless     chunks holding a whole data row of a table with a Markdown header row (one with
               a filled cell) but not that header row line
  tiny         chunks whose body (text after the path line) has under 10 words, and their share
  ends-lead    chunks whose body's last line is a heading (``#``) or a lead-in line (its text,
               emphasis removed, ends with ':'), outside a code block, when a chunk follows
               (a document's last chunk introduces nothing it could have kept)
  over         chunks whose text counts more than the window with the embedder's tokenizer
  mid-end      chunks whose body ends mid-sentence: its last line is prose (no heading, table
               row or fence) not ending in sentence punctuation (. ! ? … ; : and CJK ends,
               closing quotes, brackets and emphasis aside), and the next chunk of the same
               section (the same section span) continues it: no paragraph break lies between
               them (page marker lines aside), or it opens lower-case
  mid-start    chunks whose body opens lower-case (emphasis aside) after a chunk of the same
               section that ends without a sentence end (. ! ? …)
               (a piece opening a code block again with its fence line counts in neither)
  Both are also given for sections that fit the window (``-fit``: the section's body under its
  path line counts at most the window, so it need not have been cut at all) and for cuts whose
  sentence would fit a chunk (``-sent``: the text from the last sentence end or paragraph
  break before the cut to the first one after it, under the path line, fits the window).
A table is a run of consecutive lines starting with "|"; when its second line is a separator
its first line is the Markdown header row and the data rows follow the separator, else every
line is a data row. Words are runs of letters and digits (as ``check_retrieval.py`` reads them).

With ``NAME=OUT:QUESTIONS`` also the table answers: questions whose answer's words lie,
contiguous, inside one data row of a table of the question's document (the rule that defines
the subset), and of those, how many have a chunk whose body holds that whole row line and the
table's Markdown header row line (or, for a table without one, the row under the table's first
line): ``table-q`` and ``in-table``.

``--write DIR`` also writes each set's chunks to DIR/NAME/records/*.jsonl with the fields
``check_retrieval.py`` and ``citechunk eval`` read (``role`` and ``kind`` when the chunker has
them), for retrieval before/after.

Usage: python bench/units.py NAME=OUT[:QUESTIONS] ... [--write DIR] [--show KIND] [--json F]
  e.g. PYTHONPATH=/old/src python bench/units.py wide=/work/base/wide dev=/work/base/dev:Q.jsonl
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from rechunk import chunk_fields

from citechunk.chunking import chunk_markdown, resolve_embedder
from citechunk.chunking.navigation import chunk_role
from citechunk.config import load_config
from citechunk.conversion import read_markdown, saved_title
from citechunk.evaluation.data import read_records
from citechunk.markers import strip_markers
from citechunk.models import Chunk

log = logging.getLogger("units")

_WORD = re.compile(
    r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|[^\W_\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+"
)
_TAG = re.compile(r"</?(?:sup|sub|br|b|i|em|strong|span|u)\b[^>]*>", re.I)
_SEPARATOR = re.compile(r"\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?")
_HEADING = re.compile(r"#{1,6}(?:\s|$)")
_EMPHASIS = re.compile(r"[*_`]+")
MIN_WORDS = 10
_CLOSERS = "\"'”’)]*_`»"
_SENTENCE_END = tuple(".!?…。！？")
_CLAUSE_END = (*_SENTENCE_END, ";", ":")
_NOT_PROSE = ("#", "|", "```", "~~~", "<!--")
_BREAK = re.compile(r"[.!?…。！？][\"'”’)\]*_]*(?:\s|$)|\n[ \t]*\n")
Spans = tuple[list[int], list[int]]


def words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", _TAG.sub(" ", text)).lower().replace("-\n", "")
    return _WORD.findall(text.replace("\u00ad", ""))


def contains(hay: Sequence[str], needle: Sequence[str]) -> bool:
    return bool(needle) and f" {' '.join(needle)} " in f" {' '.join(hay)} "


@dataclass(frozen=True)
class Table:
    """A run of table lines: its header row line ("" without one) and data row spans."""

    header: str
    rows: tuple[tuple[int, int], ...]


def tables(markdown: str) -> list[Table]:
    """The pipe tables of `markdown` (module docstring)."""
    out: list[Table] = []
    run: list[tuple[int, int]] = []
    pos = 0
    for line in [*markdown.split("\n"), ""]:
        start, pos = pos, pos + len(line) + 1
        if line.lstrip().startswith("|"):
            run.append((start, start + len(line.rstrip())))
            continue
        if run:
            texts = [markdown[s:e].strip() for s, e in run]
            if len(run) >= 2 and _SEPARATOR.fullmatch(texts[1]):
                out.append(Table(texts[0], tuple(run[2:])))
            else:
                out.append(Table("", tuple(run)))
            run = []
    return out


def last_line(body: str) -> str:
    lines = [ln.strip() for ln in body.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def ends_lead(body: str) -> bool:
    lines = [ln.strip() for ln in body.splitlines()]
    if sum(ln.startswith(("```", "~~~")) for ln in lines) % 2:
        return False  # the last line is inside a code block
    line = last_line(body)
    return bool(_HEADING.match(line)) or _EMPHASIS.sub("", line).rstrip().endswith(":")


def _ends(line: str, ends: tuple[str, ...]) -> bool:
    return line.rstrip(_CLOSERS + " ").endswith(ends)


def ends_open(body: str) -> bool:
    """The body's last line is prose not ending in sentence or clause punctuation."""
    line = last_line(body)
    return bool(line) and not line.startswith(_NOT_PROSE) and not _ends(line, _CLAUSE_END)


def opens_lower(body: str) -> bool:
    first = body.lstrip().lstrip("*_")[:1]
    return first.islower()


def _no_break(markdown: str, a: int, b: int) -> bool:
    """No paragraph break between offsets a and b (marker lines removed)."""
    return "\n\n" not in "\n".join(ln.strip() for ln in strip_markers(markdown[a:b]).split("\n"))


def _sentence_fits(markdown: str, a: Chunk, b: Chunk, count: Any, limit: int) -> bool:
    """The sentence cut between a and b (last break before a's end .. first after b's start)
    fits the window under a's path line."""
    before = [m.end() for m in _BREAK.finditer(markdown, a.char_start, a.char_end)]
    start = before[-1] if before else a.char_start
    after = _BREAK.search(markdown, b.char_start, b.char_end)
    end = after.start() + 1 if after else b.char_end
    head = a.text[: len(a.text) - len(a.body)]
    return count(head + strip_markers(markdown[start:end]).strip()) <= limit


@dataclass
class MidCuts:
    """Mid-sentence ends and starts: all, in sections that fit, where the sentence fits."""

    end: int = 0
    end_fit: int = 0
    end_sent: int = 0
    start: int = 0
    start_fit: int = 0
    start_sent: int = 0
    shown: list[str] = field(default_factory=list)

    def add(self, other: MidCuts) -> None:
        for name in ("end", "end_fit", "end_sent", "start", "start_fit", "start_sent"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def row(self) -> dict[str, int]:
        return {
            "mid-end": self.end,
            "mid-end-fit": self.end_fit,
            "mid-end-sent": self.end_sent,
            "mid-start": self.start,
            "mid-start-fit": self.start_fit,
            "mid-start-sent": self.start_sent,
        }


def mid_sentence(markdown: str, chunks: Sequence[Chunk], count: Any, limit: int) -> MidCuts:
    """Chunks cut inside a sentence (module docstring: mid-end, mid-start)."""
    out = MidCuts()
    fits: dict[tuple[int, int], bool] = {}
    for a, b in zip(chunks, chunks[1:], strict=False):
        key = (a.section_start, a.section_end)
        if key != (b.section_start, b.section_end) or a.section_start < 0:
            continue
        if b.body.startswith(("```", "~~~")):  # a code block's lines, its fence repeated
            continue
        end = ends_open(a.body) and (
            _no_break(markdown, a.char_end, b.char_start) or opens_lower(b.body)
        )
        start = opens_lower(b.body) and not _ends(last_line(a.body), _SENTENCE_END)
        if not (end or start):
            continue
        if key not in fits:
            same = [c for c in chunks if (c.section_start, c.section_end) == key]
            s, e = min(c.char_start for c in same), max(c.char_end for c in same)
            head = a.text[: len(a.text) - len(a.body)]
            fits[key] = count(head + strip_markers(markdown[s:e]).strip()) <= limit
        sent = _sentence_fits(markdown, a, b, count, limit)
        out.end += end
        out.end_fit += end and fits[key]
        out.end_sent += end and sent
        out.start += start
        out.start_fit += start and fits[key]
        out.start_sent += start and sent
        out.shown.append(f"{a.body[-200:]}\n  | next chunk |\n{b.body[:200]}")
    return out


def body_of(c: Chunk) -> str:
    return c.body


@dataclass
class Tally:
    docs: int = 0
    chunks: int = 0
    few_rows: int = 0
    row_twice: int = 0
    twice_fit: int = 0
    uneven: int = 0
    headless: int = 0
    tiny: int = 0
    ends_lead: int = 0
    over: int = 0
    table_q: int = 0
    in_table: int = 0
    mid: MidCuts = field(default_factory=MidCuts)
    shown: dict[str, list[str]] = field(default_factory=dict)
    by_doc: dict[str, dict[str, int]] = field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        share = round(100 * self.tiny / max(1, self.chunks), 2)
        out: dict[str, Any] = {
            "docs": self.docs,
            "chunks": self.chunks,
            "few-rows": self.few_rows,
            "uneven": self.uneven,
            "row-twice": self.row_twice,
            "row-twice-fit": self.twice_fit,
            "headless": self.headless,
            "tiny": self.tiny,
            "tiny%": share,
            "ends-lead": self.ends_lead,
            "over": self.over,
            **self.mid.row(),
        }
        if self.table_q:
            out["table-q"] = self.table_q
            out["in-table"] = self.in_table
        return out


def _covering(chunks: Sequence[Chunk], spans: Spans, s: int, e: int) -> list[int]:
    """Indexes of the chunks whose span overlaps [s, e) (spans are in document order)."""
    lo = bisect_right(spans[1], s)
    hi = bisect_left(spans[0], e)
    return [k for k in range(lo, hi) if chunks[k].char_start < e and s < chunks[k].char_end]


def _holds(c: Chunk, s: int, e: int) -> bool:
    return c.char_start <= s and e <= c.char_end


def _filled(header: str) -> bool:
    return any(c.strip(" *_") for c in header.strip().strip("|").split("|"))


@dataclass
class TableDefects:
    """Table defects of one document (module docstring), with example chunk texts."""

    few: set[int] = field(default_factory=set)
    uneven: set[int] = field(default_factory=set)
    headless: set[int] = field(default_factory=set)
    twice: int = 0
    twice_fit: int = 0
    shown: dict[str, list[str]] = field(default_factory=dict)


def _held(chunks: Sequence[Chunk], holders: list[list[int]], rows: Table) -> dict[int, list[int]]:
    """Chunk index -> the data rows of the table it holds whole."""
    out: dict[int, list[int]] = {}
    for r, h in enumerate(holders):
        for k in h:
            if _holds(chunks[k], *rows.rows[r]):
                out.setdefault(k, []).append(r)
    return out


def _uneven_pair(
    a: Chunk, b: Chunk, ra: list[int], rb: list[int], size: list[int], limit: int
) -> bool:
    """Chunks a, b hold consecutive row runs ra, rb of one table: a cut of ra + rb into two
    groups of more rows each than the smaller run, both fitting (moved rows counted alone)."""
    small, both = min(len(ra), len(rb)), ra + rb
    for cut in range(small + 1, len(both) - small):
        left, right = both[:cut], both[cut:]
        ta = a.token_count - sum(size[r] for r in ra) + sum(size[r] for r in left)
        tb = b.token_count - sum(size[r] for r in rb) + sum(size[r] for r in right)
        if ta <= limit and tb <= limit:
            return True
    return False


def table_checks(markdown: str, chunks: Sequence[Chunk], count: Any, limit: int) -> TableDefects:
    """few-rows, uneven, row-twice(-fit) and headless over the document's tables."""
    out = TableDefects()
    spans = ([c.char_start for c in chunks], [c.char_end for c in chunks])
    for table in tables(markdown):
        rows = table.rows
        holders = [_covering(chunks, spans, s, e) for s, e in rows]
        for (s, e), h in zip(rows, holders, strict=True):
            if len(h) > 1:
                out.twice += 1
                head = chunks[h[0]].text[: len(chunks[h[0]].text) - len(chunks[h[0]].body)]
                out.twice_fit += count(head + markdown[s:e]) <= limit
        if table.header and _filled(table.header):
            for (s, e), h in zip(rows, holders, strict=True):
                out.headless.update(
                    k for k in h if _holds(chunks[k], s, e) and table.header not in chunks[k].body
                )
        if len(rows) < 3:
            continue
        held = _held(chunks, holders, table)
        size: list[int] = []
        for k in sorted(held):
            mine = held[k]
            if not 1 <= len(mine) <= 2 or len(mine) == len(rows):
                continue
            near = [r for r in (mine[0] - 1, mine[-1] + 1) if 0 <= r < len(rows)]
            room = [count(markdown[rows[r][0] : rows[r][1]]) + 1 for r in near]
            if room and chunks[k].token_count + min(room) <= limit:
                out.few.add(k)
                out.shown.setdefault("few-rows", []).append(chunks[k].text)
            size = size or [count(markdown[s:e]) + 1 for s, e in rows]
            for j in (k - 1, k + 1):
                other = held.get(j, [])
                pair = (j, other, k, mine) if j < k else (k, mine, j, other)
                if not other or pair[1][-1] + 1 != pair[3][0]:
                    continue
                a, ra, b, rb = pair
                if _uneven_pair(chunks[a], chunks[b], ra, rb, size, limit):
                    out.uneven.add(k)
                    out.shown.setdefault("uneven", []).append(
                        f"{chunks[a].text}\n  | next chunk |\n{chunks[b].body}"
                    )
                    break
    return out


def table_answers(
    markdown: str, chunks: Sequence[Chunk], answers: Sequence[str]
) -> tuple[int, int]:
    """(answers inside a table row, of those in a chunk with that row and its table's header)."""
    found = held = 0
    tabs = tables(markdown)
    bodies = [body_of(c) for c in chunks]
    for answer in answers:
        need = words(answer)
        hit = next(
            (
                (t, markdown[s:e].strip())
                for t in tabs
                for s, e in t.rows
                if contains(words(markdown[s:e]), need)
            ),
            None,
        )
        if hit is None:
            continue
        found += 1
        table, row = hit
        head = table.header or markdown[table.rows[0][0] : table.rows[0][1]].strip()
        if any(row in b and (head in b) for b in bodies):
            held += 1
    return found, held


def documents(out: Path) -> Iterator[tuple[str, Path]]:
    seen: set[str] = set()
    for row in read_records(out / "chunks"):
        rel = str(row["markdown_file"])
        if rel not in seen:
            seen.add(rel)
            yield PurePosixPath(str(row["source_file"])).name, out / rel


def record(c: Chunk, source: str, markdown_file: str) -> dict[str, Any]:
    rec = chunk_fields(c, source, markdown_file)
    rec["role"] = chunk_role(c.body)
    kind = getattr(c, "kind", None)
    if kind is not None:
        rec["kind"] = kind
    return rec


def measure_set(
    name: str, out: Path, questions: Path | None, write: Path | None, show: str
) -> Tally:
    cfg = load_config()
    spec = resolve_embedder(cfg.chunk.embedder)
    count, limit = spec.counter.count, spec.limit
    asked: dict[str, list[str]] = {}
    if questions is not None:
        for line in questions.read_text(encoding="utf-8").splitlines():
            if line.strip():
                q = json.loads(line)
                asked.setdefault(PurePosixPath(q["pdf"]).name, []).append(q["answer"])
    tally = Tally()
    for source, md_path in documents(out):
        markdown = read_markdown(md_path)
        chunks = chunk_markdown(markdown, cfg.chunk, saved_title(md_path))
        tally.docs += 1
        tally.chunks += len(chunks)
        tabs = table_checks(markdown, chunks, count, limit)
        few, twice, headless = len(tabs.few), tabs.twice, tabs.headless
        tiny = [c for c in chunks if len(words(body_of(c))) < MIN_WORDS]
        lead = [c for c in chunks[:-1] if ends_lead(body_of(c))]
        over = [c for c in chunks if count(c.text) > limit]
        tally.few_rows += few
        tally.row_twice += twice
        tally.twice_fit += tabs.twice_fit
        tally.uneven += len(tabs.uneven)
        tally.headless += len(headless)
        tally.tiny += len(tiny)
        tally.ends_lead += len(lead)
        tally.over += len(over)
        mid = mid_sentence(markdown, chunks, count, limit)
        tally.mid.add(mid)
        doc = {"chunks": len(chunks), "few-rows": few, "row-twice": twice}
        doc.update({"uneven": len(tabs.uneven), "row-twice-fit": tabs.twice_fit})
        doc["headless"] = len(headless)
        doc.update({"tiny": len(tiny), "ends-lead": len(lead), "over": len(over)})
        doc.update(mid.row())
        if source in asked:
            found, held = table_answers(markdown, chunks, asked[source])
            tally.table_q += found
            tally.in_table += held
            doc.update({"table-q": found, "in-table": held})
        tally.by_doc[source] = doc
        examples = {
            "few-rows": tabs.shown.get("few-rows", []),
            "uneven": tabs.shown.get("uneven", []),
            "headless": [chunks[k].text for k in sorted(headless)],
            "tiny": [c.text for c in tiny],
            "ends-lead": [c.text for c in lead],
            "mid": mid.shown,
        }
        for kind in ("few-rows", "uneven", "headless", "tiny", "ends-lead", "mid"):
            if show == kind:
                tally.shown.setdefault(source, []).extend(examples[kind][:3])
        if write is not None:
            rel = md_path.relative_to(out).as_posix()
            target = write / name / "records" / (md_path.stem + ".jsonl")
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("w", encoding="utf-8") as fh:
                for c in chunks:
                    fh.write(json.dumps(record(c, source, rel), ensure_ascii=False) + "\n")
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="+", help="NAME=OUT or NAME=OUT:QUESTIONS")
    parser.add_argument("--write", type=Path)
    parser.add_argument(
        "--show",
        default="",
        choices=["", "few-rows", "uneven", "headless", "tiny", "ends-lead", "mid"],
    )
    parser.add_argument("--json", type=Path, help="write per-set and per-document figures here")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    results: dict[str, Any] = {}
    for item in args.sets:
        name, _, rest = item.partition("=")
        out, _, q = rest.partition(":")
        tally = measure_set(name, Path(out), Path(q) if q else None, args.write, args.show)
        results[name] = {"total": tally.row(), "docs": tally.by_doc}
        log.info("%s %s", name, json.dumps(tally.row()))
        for source, texts in tally.shown.items():
            for text in texts:
                log.info("--- %s\n%s\n", source, text)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
