"""Size fallback: cut an over-long section into units that fit, then pack units into pieces.

Ladder (coarsest first): blocks at blank lines (a fenced code block is one block, blank lines
inside it do not split) -> table rows / list items / lines -> sentence ends -> words -> a hard
cut inside a word. A unit is only split further when it does not fit the budget, so a code block
or a table that fits stays whole. Table pieces: the header row and separator are glued to the
first data row, and every later row carries them as a header to repeat when a piece starts on it.

Contracts:
- ``Splitter.units(s, e, budget)`` returns units in document order with tight spans (see
  `PageMap.trim`), disjoint, covering every non-space character of [s, e) outside marker
  lines, each with ``tokens <= budget`` (its exact count).
- ``pack`` returns pieces whose exact ``tokens`` (measured by the caller's function over the
  whole chunk text) is <= ``max_tokens``; with ``overlap == 0`` pieces are disjoint and cover
  all units. With overlap a piece may start inside the previous one, never before its start.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from .pages import PageMap
from .tokens import TokenCounter

_BLANK_LINES = re.compile(r"\n(?:[ \t]*\n)+")
_LINE = re.compile(r"[^\n]+")
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*\s+")
_WORD = re.compile(r"\S+")
_BULLET = re.compile(r"[ \t]*(?:[-*+•▪●◦]|\d{1,3}[.)]|[a-zA-Z][.)])[ \t]+")
_TABLE_SEPARATOR = re.compile(r"[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*(?::?-+:?[ \t]*)?")

# Characters per token above which a span is assumed not to fit without counting it. Exact for
# `approx` (4 characters per token); a heuristic bound for real tokenizers: guessing wrong only
# costs a finer split that `pack` joins back together.
APPROX_CHARS_PER_TOKEN = 4
SURE_CHARS_PER_TOKEN = 5

_NEXT_KIND = {"para": "line", "code": "line", "item": "line", "line": "sentence"}
_NEXT_KIND.update({"row": "sentence", "sentence": "word"})


@dataclass(frozen=True, slots=True)
class Unit:
    """A span that fits the budget. ``header`` is repeated when a piece starts on this unit."""

    start: int
    end: int
    tokens: int
    header: str = ""
    header_tokens: int = 0
    row: bool = False


@dataclass(frozen=True, slots=True)
class Piece:
    """One packed chunk body: its tight span, repeated header (or ""), body and exact tokens."""

    start: int
    end: int
    header: str
    body: str
    tokens: int


Measure = Callable[[int, int, str], tuple[str, int]]


class Splitter:
    """Produces fitting units for spans of one document (see the module contract)."""

    def __init__(
        self, pages: PageMap, fences: tuple[tuple[int, int], ...], counter: TokenCounter
    ) -> None:
        self.md = pages.markdown
        self.pages = pages
        self.fence_starts = [f[0] for f in fences]
        self.fence_ends = [f[1] for f in fences]
        self.counter = counter
        self.chars_per_token = APPROX_CHARS_PER_TOKEN if counter.approx else SURE_CHARS_PER_TOKEN

    # -- counting --------------------------------------------------------------------------
    def count_span(self, start: int, end: int) -> int:
        """Exact tokens of ``pages.text(start, end)``."""
        if self.counter.approx and not self.pages.has_marker(start, end):
            return (end - start + 3) // 4
        return self.counter.count(self.pages.text(start, end))

    def maybe_fits(self, start: int, end: int, budget: int) -> bool:
        return end - start <= budget * self.chars_per_token

    # -- the ladder ------------------------------------------------------------------------
    def units(self, start: int, end: int, budget: int) -> list[Unit]:
        """Fitting units covering [start, end) (see the module contract)."""
        out: list[Unit] = []
        for bs, be in self._blocks(start, end):
            self._emit(bs, be, self._block_kind(bs, be), budget, out, None)
        return out

    def words(self, start: int, end: int, budget: int) -> list[Unit]:
        """Word units (long words cut) covering [start, end), skipping marker lines."""
        out: list[Unit] = []
        for ls, le in self._lines(start, end):
            for m in _WORD.finditer(self.md, ls, le):
                self._emit(m.start(), m.end(), "word", budget, out, None)
        return out

    def _emit(
        self, s: int, e: int, kind: str, budget: int, out: list[Unit], known: int | None
    ) -> None:
        """Append [s, e) as one unit if it fits, else its children one level down."""
        if known is None and (kind == "word" or self.maybe_fits(s, e, budget)):
            known = self.count_span(s, e)
            if known <= budget:
                out.append(Unit(s, e, known))
                return
        if kind == "word":
            self._cut(s, e, budget, out)
        elif kind == "table":
            self._table(s, e, budget, out)
        elif kind == "list":
            self._children(self._items(s, e), "item", s, e, budget, out, known)
        elif kind == "sentence":
            self._children(self._spans(_WORD, s, e), "word", s, e, budget, out, known)
        elif _NEXT_KIND[kind] == "line":
            self._children(self._lines(s, e), "line", s, e, budget, out, known)
        else:
            self._children(self._sentences(s, e), "sentence", s, e, budget, out, known)

    def _children(
        self,
        spans: list[tuple[int, int]],
        kind: str,
        s: int,
        e: int,
        budget: int,
        out: list[Unit],
        known: int | None,
    ) -> None:
        if len(spans) == 1 and spans[0] == (s, e):
            # Same span one level down: it is already known not to fit.
            self._emit(s, e, kind, budget, out, known if known is not None else budget + 1)
            return
        for cs, ce in spans:
            self._emit(cs, ce, kind, budget, out, None)

    def _cut(self, s: int, e: int, budget: int, out: list[Unit]) -> None:
        """Hard cut of a single over-long word into the longest fitting pieces."""
        while s < e:
            lo, hi = s + 1, e  # invariant: [s, lo) fits (one character always does)
            if self.counter.approx:
                lo = min(e, s + budget * 4)
            else:
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if self.counter.count(self.md[s:mid]) <= budget:
                        lo = mid
                    else:
                        hi = mid - 1
            out.append(Unit(s, lo, self.counter.count(self.md[s:lo])))
            s = lo

    # -- span finders ----------------------------------------------------------------------
    def _in_fence(self, pos: int) -> bool:
        i = bisect_right(self.fence_starts, pos) - 1
        return i >= 0 and pos < self.fence_ends[i]

    def _blocks(self, start: int, end: int) -> list[tuple[int, int]]:
        """Tight spans between blank lines; blank lines inside a fence do not separate."""
        out: list[tuple[int, int]] = []
        prev = start
        for m in _BLANK_LINES.finditer(self.md, start, end):
            if self.fence_starts and self._in_fence(m.start()):
                continue
            span = self.pages.trim(prev, m.start())
            if span:
                out.append(span)
            prev = m.end()
        span = self.pages.trim(prev, end)
        if span:
            out.append(span)
        return out

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
        out = []
        prev = s
        for m in _SENTENCE_END.finditer(self.md, s, e):
            span = self.pages.trim(prev, m.end())
            if span:
                out.append(span)
            prev = m.end()
        span = self.pages.trim(prev, e)
        if span:
            out.append(span)
        return out

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
        if len(rows) >= 3 and _TABLE_SEPARATOR.fullmatch(self.md, rows[1][0], rows[1][1]):
            header = self.pages.text(rows[0][0], rows[1][1])
            header_tokens = self.counter.count(header + "\n")
            first = 3
            if header_tokens > budget // 2:
                header, header_tokens = "", 0
        head = (rows[0][0], rows[first - 1][1])
        self._emit(head[0], head[1], "para" if first > 1 else "row", budget, out, None)
        for rs, re_ in rows[first:]:
            mark = len(out)
            self._emit(rs, re_, "row", budget - header_tokens, out, None)
            if header and len(out) == mark + 1:
                u = out[mark]
                out[mark] = Unit(u.start, u.end, u.tokens, header, header_tokens, True)


@dataclass
class _Start:
    """Where the next piece begins: an offset (maybe inside an earlier unit) and its estimate."""

    offset: int
    tokens: int
    header: str
    overlap: bool


class Packer:
    """Greedy packing of units into pieces with exact size checks (see `pack`)."""

    def __init__(
        self, splitter: Splitter, budget: int, max_tokens: int, overlap: int, measure: Measure
    ) -> None:
        self.splitter = splitter
        self.budget = budget
        self.max_tokens = max_tokens
        self.overlap = overlap
        self.measure = measure

    def _sep(self, prev_end: int, start: int) -> int:
        """Estimated tokens of the gap between two units: a newline is about one token."""
        return 1 if self.splitter.md.find("\n", prev_end, start) != -1 else 0

    def _fresh(self, u: Unit) -> _Start:
        return _Start(u.start, u.header_tokens, u.header, False)

    def pack(self, units: list[Unit]) -> list[Piece]:
        pieces: list[Piece] = []
        units = list(units)
        i = 0
        start = self._fresh(units[0]) if units else None
        while start is not None and i < len(units):
            j, est = self._greedy(units, i, start)
            if j == i:  # the overlap leaves no room for the next unit: drop it
                start = self._fresh(units[i])
                continue
            piece = self._fit(units, i, j, start)
            if piece is None:  # units[i] was refined in place: retry from it
                start = self._fresh(units[i])
                continue
            pieces.append(piece[0])
            i = piece[1]
            if i < len(units):
                start = self._overlap_start(units, piece[2], i) or self._fresh(units[i])
        return pieces

    def _greedy(self, units: list[Unit], i: int, start: _Start) -> tuple[int, int]:
        """Index after the last unit that fits the estimate when starting at ``start``."""
        est = start.tokens
        j = i
        prev_end = start.offset if start.overlap else -1
        while j < len(units):
            u = units[j]
            add = u.tokens + (self._sep(prev_end, u.start) if prev_end >= 0 else 0)
            if est + add > self.budget and (j > i or start.overlap):
                break
            est += add
            prev_end = u.end
            j += 1
        return j, est

    def _fit(
        self, units: list[Unit], i: int, j: int, start: _Start
    ) -> tuple[Piece, int, int] | None:
        """Measure exactly, dropping trailing units (then the overlap) until the piece fits.
        Returns (piece, next unit index, first unit index of the piece) or None after refining."""
        while True:
            body, tokens = self.measure(start.offset, units[j - 1].end, start.header)
            if tokens <= self.max_tokens:
                first = i
                return Piece(start.offset, units[j - 1].end, start.header, body, tokens), j, first
            if j - 1 > i:
                j -= 1
            elif start.overlap:
                start.offset, start.header, start.overlap = units[i].start, units[i].header, False
            else:
                self._refine(units, i, tokens)
                return None

    def _refine(self, units: list[Unit], i: int, tokens: int) -> None:
        """A lone unit whose whole chunk text is over the limit (junction effects, long header):
        replace it by word pieces for a budget reduced by the excess."""
        u = units[i]
        budget = max(1, u.tokens - (tokens - self.max_tokens) - 1)
        if u.header and budget <= u.header_tokens:
            units[i] = Unit(u.start, u.end, u.tokens)  # give up repeating this header
            return
        sub = self.splitter.words(u.start, u.end, budget - u.header_tokens)
        if sub and u.header:
            sub[0] = Unit(sub[0].start, sub[0].end, sub[0].tokens, u.header, u.header_tokens, True)
        units[i : i + 1] = sub

    def _overlap_start(self, units: list[Unit], first: int, nxt: int) -> _Start | None:
        """Start of the next piece so that it repeats at most ``overlap`` tokens of the end of
        the previous piece (whole units, then words of the unit before them)."""
        if self.overlap <= 0:
            return None
        k, total = nxt, 0
        while k > first and total + units[k - 1].tokens <= self.overlap:
            k -= 1
            total += units[k].tokens
        offset, header = (units[k].start, units[k].header) if k < nxt else (-1, "")
        room = self.overlap - total
        if k > first and room > 0 and not units[k - 1].row:
            tail = self._word_tail(units[k - 1], room)
            if tail is not None:
                offset, total, header = tail[0], total + tail[1], ""
        if offset < 0:
            return None
        header_tokens = units[k].header_tokens if header and k < nxt else 0
        return _Start(offset, total + header_tokens, header, True)

    def _word_tail(self, u: Unit, room: int) -> tuple[int, int] | None:
        """The earliest word start in ``u`` whose suffix of ``u`` fits ``room`` tokens."""
        pages = self.splitter.pages
        starts = [
            m.start()
            for m in _WORD.finditer(self.splitter.md, u.start, u.end)
            if pages.marker_at(m.start()) is None
        ]
        lo, hi, best = 1, len(starts) - 1, None
        while lo <= hi:
            mid = (lo + hi) // 2
            n = self.splitter.count_span(starts[mid], u.end)
            if n <= room:
                best, hi = (starts[mid], n), mid - 1
            else:
                lo = mid + 1
        return best
