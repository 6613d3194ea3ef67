"""Size fallback: cut an over-long section into units that fit, then pack units into pieces.

Ladder (coarsest first): blocks at blank lines (a fenced code block is one block, blank lines
inside it do not split; nor do the blank lines around a page marker that falls mid-sentence)
-> table rows / list items / lines -> sentence ends -> words -> a hard cut inside a word. A unit
is only split further when it does not fit the budget, so a code block or a table that fits
stays whole. Table pieces: the header row and separator are glued to the
first data row, and every later row carries them as a header to repeat when a piece starts on it.

Contract: ``Splitter.units(s, e, budget)`` returns units in document order with tight spans
(see `PageMap.trim`), disjoint, covering every non-space character of [s, e) outside marker
lines, each with ``tokens <= budget`` (exact for `approx`, an estimate for real tokenizers: the
exact check happens once per piece in `pack.Packer`). ``Splitter.by_length`` is the same ladder
for `approx`, where a piece fits iff its body is short enough, so no units are needed.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from ..mdsyntax import TABLE_SEPARATOR_RE
from .pages import PageMap
from .tokens import TokenCounter

_BLANK_LINES = re.compile(r"\n(?:[ \t\r]*\n)+")
_LINE = re.compile(r"[^\n]+")
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*\s+")
WORD_RE = re.compile(r"\S+")
_BULLET = re.compile(r"[ \t]*(?:[-*+•▪●◦]|\d{1,3}[.)]|[a-zA-Z][.)])[ \t]+")

APPROX_CHARS_PER_TOKEN = 4
# A section whose estimated size is under this share of the budget is counted whole first, so a
# section that fits is one chunk even when the estimate runs high (estimates are off by far
# less than 2x on real text; a section that truly fits is never split because of one).
LIKELY_FIT = 2.0
# Tokens per character assumed before any exact count of the document has been made.
INITIAL_RATIO = 0.3

_NEXT_KIND = {"para": "line", "code": "line", "item": "line", "line": "sentence"}
_NEXT_KIND.update({"row": "sentence", "sentence": "word"})


@dataclass(frozen=True, slots=True)
class Unit:
    """A span that fits the budget (by ``tokens``, exact for `approx`, else an estimate).
    ``header`` is repeated when a piece starts on this unit; ``kind`` is its ladder level."""

    start: int
    end: int
    tokens: int
    kind: str
    header: str = ""
    header_tokens: int = 0

    def with_header(self, header: str, header_tokens: int) -> Unit:
        return Unit(self.start, self.end, self.tokens, self.kind, header, header_tokens)


class Piece(NamedTuple):
    """One packed chunk body: its tight span, repeated header (or ""), body and exact tokens.
    (An immutable NamedTuple rather than a dataclass: one is made per chunk on the hot path.)"""

    start: int
    end: int
    header: str
    body: str
    tokens: int


Measure = Callable[[int, int, str], tuple[str, int]]


class Splitter:
    """Produces fitting units for spans of one document (see the module contract).

    Unit sizes are exact for `approx`. For real tokenizers they are estimates (characters times
    a tokens-per-character ratio calibrated on the exact counts made so far, or on the section's
    own count), so that every character is tokenised about once: the exact count of each
    finished chunk text (`Packer`) is the only one that matters and it corrects the estimates.
    """

    def __init__(
        self, pages: PageMap, fences: tuple[tuple[int, int], ...], counter: TokenCounter
    ) -> None:
        self.md = pages.markdown
        self.pages = pages
        self.fence_starts = [f[0] for f in fences]
        self.fence_ends = [f[1] for f in fences]
        self.counter = counter
        self.estimating = not counter.approx
        self.ratio = INITIAL_RATIO
        self._seen_chars = 0
        self._seen_tokens = 0

    # -- sizes -----------------------------------------------------------------------------
    def calibrate(self, chars: int, tokens: int) -> None:
        """Record an exact count (``tokens`` for ``chars`` characters of text)."""
        self._seen_chars += chars
        self._seen_tokens += tokens

    def document_ratio(self) -> float:
        """Tokens per character over the exact counts recorded so far."""
        if self._seen_chars < 200:
            return INITIAL_RATIO
        return self._seen_tokens / self._seen_chars

    def size(self, start: int, end: int) -> int:
        """Tokens of ``pages.text(start, end)``: exact for `approx`, else an estimate."""
        if self.estimating:
            return int((end - start) * self.ratio) + 1
        if self.pages.has_marker(start, end):
            return self.counter.count(self.pages.text(start, end))
        return (end - start + 3) // 4

    def likely_fits(self, start: int, end: int, budget: int) -> bool:
        """Whether [start, end) is worth one exact count as a whole: exact for `approx`, else
        an estimate with the document's ratio and some headroom."""
        if not self.estimating:
            return end - start <= budget * APPROX_CHARS_PER_TOKEN
        return (end - start) * self.document_ratio() <= budget * LIKELY_FIT

    # -- the ladder ------------------------------------------------------------------------
    def units(self, start: int, end: int, budget: int, ratio: float | None = None) -> list[Unit]:
        """Fitting units covering [start, end) (see the module contract). ``ratio``: tokens
        per character of this span when known (else the document's ratio so far)."""
        self.ratio = ratio if ratio is not None else self.document_ratio()
        out: list[Unit] = []
        for bs, be in self._blocks(start, end):
            self._emit(bs, be, self._block_kind(bs, be), budget, out)
        return out

    def greedy_blocks(self, start: int, end: int, limit: int) -> list[tuple[int, int, bool]]:
        """Fast path when sizes are character counts: [start, end) cut greedily at blank lines
        (outside fences) into tight spans of at most ``limit`` characters, ``(s, e, True)``; a
        single block longer than that comes back alone as ``(s, e, False)`` for the ladder."""
        cuts = self._paragraph_breaks(start, end)
        cut_starts = [c[0] for c in cuts]
        out: list[tuple[int, int, bool]] = []
        pos = start
        while (span := self.pages.trim(pos, end)) is not None:
            pos, tail_end = span
            if tail_end - pos <= limit:
                out.append((pos, tail_end, True))
                break
            k = bisect_right(cut_starts, pos + limit) - 1
            fits = k >= 0 and cut_starts[k] > pos
            if not fits:
                k = bisect_right(cut_starts, pos)
            piece = self.pages.trim(pos, cut_starts[k] if k < len(cuts) else end)
            if piece is not None:
                out.append((piece[0], piece[1], fits))
            pos = cuts[k][1] if k < len(cuts) else end
        return out

    def words(self, start: int, end: int, budget: int) -> list[Unit]:
        """Word units (long words cut) covering [start, end), skipping marker lines."""
        self.ratio = self.document_ratio()
        out: list[Unit] = []
        for ls, le in self._lines(start, end):
            for m in WORD_RE.finditer(self.md, ls, le):
                self._emit(m.start(), m.end(), "word", budget, out)
        return out

    def refine(self, unit: Unit, budget: int) -> list[Unit]:
        """``unit`` split one ladder level further for a smaller ``budget``."""
        out: list[Unit] = []
        self._emit(unit.start, unit.end, unit.kind, budget, out)
        return out

    def _emit(self, s: int, e: int, kind: str, budget: int, out: list[Unit]) -> None:
        """Append [s, e) as one unit if it fits, else its children one level down."""
        size = self.size(s, e)
        if size <= budget:
            out.append(Unit(s, e, size, kind))
        elif kind == "word":
            self._cut(s, e, budget, out)
        elif kind == "table":
            self._table(s, e, budget, out)
        elif kind == "list":
            self._children(self._items(s, e), "item", budget, out)
        elif kind == "sentence":
            self._children(self._spans(WORD_RE, s, e), "word", budget, out)
        elif _NEXT_KIND[kind] == "line":
            self._children(self._lines(s, e), "line", budget, out)
        else:
            self._children(self._sentences(s, e), "sentence", budget, out)

    def _children(
        self, spans: list[tuple[int, int]], kind: str, budget: int, out: list[Unit]
    ) -> None:
        for cs, ce in spans:
            self._emit(cs, ce, kind, budget, out)

    def _cut(self, s: int, e: int, budget: int, out: list[Unit]) -> None:
        """Hard cut of a single over-long word into pieces of about ``budget`` tokens."""
        step = max(1, int((budget - 1) / self.ratio) if self.estimating else budget * 4)
        while s < e:
            q = min(e, s + step)
            out.append(Unit(s, q, self.size(s, q), "word"))
            s = q

    # -- the ladder by length (`approx`: sizes are character counts) -----------------------
    def by_length(self, start: int, end: int, limit: int) -> list[tuple[int, int, str]]:
        """The ladder for one over-long block when a piece fits iff its body has at most
        ``limit`` characters: tight spans ``(s, e, header)`` packed greedily at the coarsest
        boundary available (same rules as the unit ladder; ``header`` is a table's header row
        and separator to put before the span, or "")."""
        out: list[tuple[int, int, str]] = []
        self._by_length(start, end, self._block_kind(start, end), limit, out)
        return out

    def _by_length(
        self, s: int, e: int, kind: str, limit: int, out: list[tuple[int, int, str]]
    ) -> None:
        if e - s <= limit:
            out.append((s, e, ""))
        elif kind == "word":
            out.extend((q, min(e, q + limit), "") for q in range(s, e, limit))
        elif kind == "table":
            self._table_by_length(s, e, limit, out)
        else:
            if kind == "list":
                spans, child = self._items(s, e), "item"
            elif kind == "sentence":
                spans, child = self._spans(WORD_RE, s, e), "word"
            elif _NEXT_KIND[kind] == "line":
                spans, child = self._lines(s, e), "line"
            else:
                spans, child = self._sentences(s, e), "sentence"
            self._greedy_spans(spans, child, limit, out, "")

    def _greedy_spans(
        self,
        spans: list[tuple[int, int]],
        kind: str,
        limit: int,
        out: list[tuple[int, int, str]],
        header: str,
    ) -> None:
        """Greedy packing of consecutive spans; a span too long alone goes down the ladder.
        ``header`` (if any) is repeated on every piece that does not start at spans[0]."""
        ends = [sp[1] for sp in spans]
        room = limit - len(header) - 1
        i = 0
        while i < len(spans):
            h = header if i > 0 else ""
            s0 = spans[i][0]
            j = bisect_right(ends, s0 + (room if h else limit), lo=i) - 1
            if j < i:
                self._by_length(s0, ends[i], kind, limit, out)
                i += 1
                continue
            out.append((s0, ends[j], h))
            i = j + 1

    def _table_by_length(self, s: int, e: int, limit: int, out: list[tuple[int, int, str]]) -> None:
        rows = self._lines(s, e)
        header, first = "", 1
        if len(rows) >= 3 and TABLE_SEPARATOR_RE.fullmatch(self.md, rows[1][0], rows[1][1]):
            first = 3
            header = self.pages.text(rows[0][0], rows[1][1])
            if len(header) + 1 > limit // 2:
                header = ""
        spans = [(rows[0][0], rows[first - 1][1]), *rows[first:]]
        self._greedy_spans(spans, "row", limit, out, header)

    # -- span finders ----------------------------------------------------------------------
    def _fence_overlaps(self, start: int, end: int) -> bool:
        i = bisect_right(self.fence_ends, start)
        return i < len(self.fence_starts) and self.fence_starts[i] < end

    def _in_fence(self, pos: int) -> bool:
        i = bisect_right(self.fence_starts, pos) - 1
        return i >= 0 and pos < self.fence_ends[i]

    def _between(
        self, start: int, end: int, cuts: Iterable[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """Tight spans of [start, end) between cuts; a cut (a, b) ends one span at ``a`` and
        starts the next at ``b``. Spans holding only whitespace and markers are dropped."""
        out: list[tuple[int, int]] = []
        prev = start
        for piece_end, next_start in cuts:
            span = self.pages.trim(prev, piece_end)
            if span:
                out.append(span)
            prev = next_start
        span = self.pages.trim(prev, end)
        if span:
            out.append(span)
        return out

    def _paragraph_breaks(self, start: int, end: int) -> list[tuple[int, int]]:
        """Blank-line runs in [start, end) that separate blocks: not inside a fence, and not a
        page break inside a sentence (`PageMap.joins`)."""
        fenced = self._fence_overlaps(start, end)
        joins = self.pages.joins
        marked = self.pages.has_marker(start, end)
        return [
            m.span()
            for m in _BLANK_LINES.finditer(self.md, start, end)
            if not (fenced and self._in_fence(m.start()))
            and not (marked and joins(m.start(), m.end()))
        ]

    def _blocks(self, start: int, end: int) -> list[tuple[int, int]]:
        """Tight spans between paragraph breaks (`_paragraph_breaks`)."""
        return self._between(start, end, self._paragraph_breaks(start, end))

    def _block_kind(self, s: int, e: int) -> str:
        md = self.md
        if md.startswith(("```", "~~~"), s) or (self.fence_starts and self._in_fence(s)):
            return "code"
        if md.startswith("|", s):
            return "table"
        if _BULLET.match(md, s):
            return "list"
        return "para"

    def _spans(self, pattern: re.Pattern[str], s: int, e: int) -> list[tuple[int, int]]:
        return [(m.start(), m.end()) for m in pattern.finditer(self.md, s, e)]

    def _lines(self, s: int, e: int) -> list[tuple[int, int]]:
        """Tight spans of the non-blank, non-marker lines of [s, e)."""
        out = []
        for m in _LINE.finditer(self.md, s, e):
            span = self.pages.trim(m.start(), m.end())
            if span:
                out.append(span)
        return out

    def _sentences(self, s: int, e: int) -> list[tuple[int, int]]:
        """Tight spans ending after each sentence end (its punctuation and whitespace kept)."""
        return self._between(
            s, e, ((m.end(), m.end()) for m in _SENTENCE_END.finditer(self.md, s, e))
        )

    def _items(self, s: int, e: int) -> list[tuple[int, int]]:
        """List items: a line starting a bullet at the first item's indentation or less, with
        its continuation lines (deeper bullets and plain lines) attached."""
        md = self.md
        base: int | None = None
        starts: list[int] = []
        for m in _LINE.finditer(md, s, e):
            bullet = _BULLET.match(md, m.start())
            if bullet is None:
                continue
            indent = len(md[m.start() : m.end()]) - len(md[m.start() : m.end()].lstrip())
            if base is None or indent <= base:
                base = indent if base is None else base
                starts.append(max(m.start(), s))
        bounds = [*starts[1:], e] if starts else [e]
        firsts = [s, *starts[1:]] if starts else [s]
        return [
            span for a, b in zip(firsts, bounds, strict=True) if (span := self.pages.trim(a, b))
        ]

    def _table(self, s: int, e: int, budget: int, out: list[Unit]) -> None:
        """Rows of an over-long table; the header and separator travel with later rows."""
        rows = self._lines(s, e)
        header, header_tokens = "", 0
        first = 1
        if len(rows) >= 3 and TABLE_SEPARATOR_RE.fullmatch(self.md, rows[1][0], rows[1][1]):
            header = self.pages.text(rows[0][0], rows[1][1])
            header_tokens = self.size(rows[0][0], rows[1][1]) + 1
            first = 3
            if header_tokens > budget // 2:
                header, header_tokens = "", 0
        head = (rows[0][0], rows[first - 1][1])
        self._emit(head[0], head[1], "para" if first > 1 else "row", budget, out)
        for rs, re_ in rows[first:]:
            mark = len(out)
            self._emit(rs, re_, "row", budget - header_tokens, out)
            if header and len(out) == mark + 1:
                out[mark] = out[mark].with_header(header, header_tokens)
