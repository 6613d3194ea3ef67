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

APPROX_CHARS_PER_TOKEN = 4
# A section whose estimated size is under this share of the budget is counted whole first.
LIKELY_FIT = 0.9
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
        cuts = [m.span() for m in _BLANK_LINES.finditer(self.md, start, end)]
        if self._fence_overlaps(start, end):
            cuts = [c for c in cuts if not self._in_fence(c[0])]
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
            for m in _WORD.finditer(self.md, ls, le):
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
            self._children(self._spans(_WORD, s, e), "word", budget, out)
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
                spans, child = self._spans(_WORD, s, e), "word"
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
        if len(rows) >= 3 and _TABLE_SEPARATOR.fullmatch(self.md, rows[1][0], rows[1][1]):
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

    def _blocks(self, start: int, end: int) -> list[tuple[int, int]]:
        """Tight spans between blank lines; blank lines inside a fence do not separate."""
        out: list[tuple[int, int]] = []
        prev = start
        fenced = self._fence_overlaps(start, end)
        for m in _BLANK_LINES.finditer(self.md, start, end):
            if fenced and self._in_fence(m.start()):
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


@dataclass
class _Start:
    """Where the next piece begins: an offset (maybe inside an earlier unit) and its size."""

    offset: int
    tokens: int
    header: str
    overlap: bool


# Exact-count corrections when sizes are estimates: aim pieces at FILL of the limit (scaled by
# the last measured/estimated ratio), shrink to SHRINK_TO after an overflow, and try once to
# grow a piece that came out below GROW_BELOW of the limit.
FILL = 0.96
SHRINK_TO = 0.97
GROW_BELOW = 0.5


class Packer:
    """Greedy packing of units into pieces, each checked with one exact count of its text.

    With estimated unit sizes a piece that measures over ``max_tokens`` loses trailing units (by
    the measured/estimated ratio) and is measured again; a piece well under the limit tries once
    to take more units. A lone unit that is still over the limit is refined (split further).
    """

    def __init__(
        self, splitter: Splitter, budget: int, max_tokens: int, overlap: int, measure: Measure
    ) -> None:
        self.splitter = splitter
        self.budget = budget  # for the body; max_tokens - budget is the heading prefix
        self.max_tokens = max_tokens
        self.overlap = overlap
        self.measure = measure
        self.scale = 1.0  # measured / estimated tokens of the last piece

    def _sep(self, prev_end: int, start: int) -> int:
        """Estimated tokens of the gap between two units: a newline is about one token."""
        return 1 if self.splitter.md.find("\n", prev_end, start) != -1 else 0

    @staticmethod
    def _fresh(u: Unit) -> _Start:
        return _Start(u.start, u.header_tokens, u.header, False)

    def pack(self, units: list[Unit]) -> list[Piece]:
        pieces: list[Piece] = []
        units = list(units)
        i, first = 0, 0
        start = self._fresh(units[0]) if units else None
        while start is not None and i < len(units):
            target = self._target(FILL)
            j, _ = self._greedy(units, i, start, target)
            if j == i:  # the overlap leaves no room for the next unit: shrink or drop it
                room = int(target) - units[i].tokens - units[i].header_tokens - 1
                smaller = self._overlap_start(units, first, i, min(room, start.tokens - 1))
                shrunk = smaller is not None and smaller.tokens < start.tokens
                start = smaller if smaller is not None and shrunk else self._fresh(units[i])
                continue
            fitted = self._fit(units, i, j, start)
            if fitted is None:  # units[i] was refined in place: retry from it
                start = self._fresh(units[i])
                continue
            piece, nxt = fitted
            pieces.append(piece)
            first, i = i, nxt
            if i < len(units):
                start = self._overlap_start(units, first, i) or self._fresh(units[i])
        return pieces

    def _greedy(self, units: list[Unit], i: int, start: _Start, budget: float) -> tuple[int, int]:
        """(index after the last unit that fits ``budget`` from ``start``, estimated size)."""
        est = start.tokens
        j = i
        prev_end = start.offset if start.overlap else -1
        while j < len(units):
            u = units[j]
            add = u.tokens + (self._sep(prev_end, u.start) if prev_end >= 0 else 0)
            if est + add > budget and (j > i or start.overlap):
                break
            est += add
            prev_end = u.end
            j += 1
        return j, est

    def _target(self, fill: float) -> float:
        """Body budget in estimated tokens aiming at ``fill`` of the limit."""
        if not self.splitter.estimating:
            return self.budget
        return min(
            self.budget, self.max_tokens * fill / self.scale - (self.max_tokens - self.budget)
        )

    def _measure(self, start: _Start, end: int) -> tuple[str, int]:
        body, tokens = self.measure(start.offset, end, start.header)
        self.splitter.calibrate(len(body), tokens - (self.max_tokens - self.budget))
        return body, tokens

    def _fit(self, units: list[Unit], i: int, j: int, start: _Start) -> tuple[Piece, int] | None:
        """The piece starting at ``start`` with units[i:j] or fewer, measured exactly; None
        after refining units[i] in place."""
        prefix = self.max_tokens - self.budget
        while True:
            est = self._estimate(units, i, j, start)
            body, tokens = self._measure(start, units[j - 1].end)
            self.scale = tokens / max(1, prefix + est)
            if tokens <= self.max_tokens:
                grown = self._grow(units, i, j, start, tokens)
                if grown is not None:
                    return grown
                return Piece(start.offset, units[j - 1].end, start.header, body, tokens), j
            smaller = min(j - 1, self._greedy(units, i, start, self._target(SHRINK_TO))[0])
            if smaller > i:
                j = smaller
            elif start.overlap:
                start.offset, start.header, start.overlap = units[i].start, units[i].header, False
                start.tokens = units[i].header_tokens
            else:
                self._refine(units, i, tokens)
                return None

    def _estimate(self, units: list[Unit], i: int, j: int, start: _Start) -> int:
        est, prev_end = start.tokens, (start.offset if start.overlap else -1)
        for u in units[i:j]:
            est += u.tokens + (self._sep(prev_end, u.start) if prev_end >= 0 else 0)
            prev_end = u.end
        return est

    def _grow(
        self, units: list[Unit], i: int, j: int, start: _Start, tokens: int
    ) -> tuple[Piece, int] | None:
        """One attempt to add units to a piece measured well under the limit."""
        if not self.splitter.estimating or j >= len(units):
            return None
        if tokens >= self.max_tokens * GROW_BELOW:
            return None
        bigger = self._greedy(units, i, start, self._target(SHRINK_TO))[0]
        if bigger <= j:
            return None
        body, grown = self._measure(start, units[bigger - 1].end)
        if grown > self.max_tokens:
            return None
        return Piece(start.offset, units[bigger - 1].end, start.header, body, grown), bigger

    def _refine(self, units: list[Unit], i: int, tokens: int) -> None:
        """A lone unit whose chunk text is over the limit: split it further for a budget
        reduced by the measured excess (or stop repeating a table header that does not fit)."""
        u = units[i]
        scale = tokens / max(1, self.max_tokens - self.budget + u.tokens + u.header_tokens)
        budget = int(self.budget * SHRINK_TO / scale) - u.header_tokens
        budget = min(budget, u.tokens - 1)
        if u.header and budget < 1:
            units[i] = Unit(u.start, u.end, u.tokens, u.kind)
            return
        if budget < 1:
            raise RuntimeError(f"cannot fit the text at offset {u.start} into the token limit")
        sub = self.splitter.refine(u, budget)
        if sub and u.header:
            sub[0] = sub[0].with_header(u.header, u.header_tokens)
        units[i : i + 1] = sub

    def _overlap_start(
        self, units: list[Unit], first: int, nxt: int, limit: int | None = None
    ) -> _Start | None:
        """Start of the next piece so that it repeats about ``limit`` (default ``overlap``)
        tokens of the end of the previous piece (whole units, then words of the unit before)."""
        limit = self.overlap if limit is None else limit
        if limit <= 0:
            return None
        k, total = nxt, 0
        while k > first and total + units[k - 1].tokens <= limit:
            k -= 1
            total += units[k].tokens
        offset, header = (units[k].start, units[k].header) if k < nxt else (-1, "")
        room = limit - total
        if k > first and room > 0 and units[k - 1].kind != "row":
            tail = self._word_tail(units[k - 1], room)
            if tail is not None:
                offset, total, header = tail[0], total + tail[1], ""
        if offset < 0:
            return None
        header_tokens = units[k].header_tokens if header else 0
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
            n = self.splitter.size(starts[mid], u.end)
            if n <= room:
                best, hi = (starts[mid], n), mid - 1
            else:
                lo = mid + 1
        return best
