"""Size fallback: cut an over-long section into units that fit, then pack units into pieces.

Ladder (coarsest first): blocks at blank lines (a fenced code block is one block, blank lines
inside it do not split; nor do the blank lines around a page marker that falls mid-sentence)
-> table rows / list items / lines (not inside a sentence) -> sentence ends -> words -> a hard
cut inside a word. A unit is only split further when it does not fit the budget, so a code
block or a table that fits stays whole. Code pieces: every line of an over-long fenced block
but the closing fence carries the opening fence line as its header, so a piece that starts
inside the block opens it again (CommonMark closes the fence a piece ends inside). Table pieces: the header row and separator are glued to the
first data row, and every later row carries a header to repeat when a piece starts on it: the
table's caption (`table_caption`: up to two one-line paragraphs just before the table, such as a
title, "The following table shows ...:" or a unit line "(In millions)"), its header row and
separator, and the column-header rows after the separator (rows whose first cell is empty: the
periods). A table read as lines (one paragraph per row) is the same: after a period line
(`is_period_line`) and up to two short lines before it, every one-line paragraph of the run
carries those lines (`line_table_headers`).

Contract: ``Splitter.units(s, e, budget)`` returns units in document order with tight spans
(see `PageMap.trim`), disjoint, covering every non-space character of [s, e) outside marker
lines, each with ``tokens <= budget`` (exact for `approx`, an estimate for real tokenizers: the
exact check happens once per piece in `pack.Packer`). ``Splitter.by_length`` is the same ladder
for `approx`, where a piece fits iff its body is short enough, so no units are needed.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..captionlabels import is_caption_title
from ..mdsyntax import TABLE_SEPARATOR_RE
from .pages import PageMap
from .tokens import TokenCounter

_BLANK_LINES = re.compile(r"\n(?:[ \t\r]*\n)+")
_LINE = re.compile(r"[^\n]+")
#: A sentence ends at its punctuation, its closing quotes and brackets, and the footnote mark
#: after them (" [12]", " [3,4]": the mark cites the sentence before it, never the next one).
_SENTENCE_END = re.compile(
    r"[.!?…][\"'”’)\]]*(?: \[\d{1,3}(?:[,;–-]\d{1,3})*\])?\s+|[。！？][」』）]*\s*"
)
# A line ending in CJK text that is no sentence end runs on into the next line (no case to tell).
_STARTS_BLOCK = re.compile(r"[ \t]*(?:[-*+•▪●◦|#>]|\d{1,3}[.)])")
_CJK_RUNS_ON = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af、，]")
WORD_RE = re.compile(r"\S+")
_RUNS_ON_END = re.compile(r"[^\W_]|[,-]")
_FENCE_LINE = re.compile(r" {0,3}(?:`{3,}|~{3,})[^\n]*")
_BULLET = re.compile(r"[ \t]*(?:[-*+•▪●◦]|\d{1,3}[.)]|[a-zA-Z][.)])[ \t]+")

APPROX_CHARS_PER_TOKEN = 4
# A section whose estimated size is under this share of the budget is counted whole first, so a
# section that fits is one chunk even when the estimate runs high (estimates are off by far
# less than 2x on real text; a section that truly fits is never split because of one).
LIKELY_FIT = 2.0
# Tokens per character assumed before any exact count of the document has been made.
INITIAL_RATIO = 0.3

# A caption or line-table header line is one line of at most this many characters.
CAPTION_CHARS = 300
CAPTION_BLOCKS = 2
CAPTION_WORDS = 15
#: Rows after a table's separator searched for the row naming its columns (`naming_row`).
NAMING_ROWS = 5
#: Words a cell of that row holds at most.
NAMING_WORDS = 6
_YEAR = re.compile(r"(?<![\d.,])(?:19|20)\d\d(?![\d.,%])")
_NUMBER = re.compile(r"(?<![\w.,])\(?[$€£]?\d[\d,]*(?:\.\d+)?\)?%?(?![\w])")

# A cell that is one figure: an amount, a percentage or a quantity with a short unit ("100г").
_FIGURE_CELL = re.compile(r"[-+−(]?[$€£¥₹]?\s?\d[\d\s,.]*(?:%|\s?[^\W\d_]{1,3}\.?)?\)?")
_PLACEHOLDER = re.compile(r"(?:Col(?:umn)?)\s*\d+", re.IGNORECASE)
_MARKUP = re.compile(r"\*\*|__|<br\s*/?>|`")
_INTRODUCES = re.compile(r"^(?:\*\*[^*\n]+\*\*|__[^_\n]+__)[:.]?$|^.*:$")
_HEADING_LINE = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)", re.MULTILINE)
_LEAD_END = re.compile(r"[^:]:[*_\s]*$")
# A table row with text in its first cell only: a label of the rows below it.
_LETTER = re.compile(r"[^\W\d_]")
_LABEL_ROW = re.compile(r"\|[^|\n]*[^|\s][^|\n]*\|(?:[ \t]*\|)+[ \t]*$")

_NEXT_KIND = {"para": "line", "code": "line", "item": "line", "line": "sentence", "head": "line"}
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
    block: int = -1  # start of the block (paragraph, list, table, code) the unit is part of

    def with_header(self, header: str, header_tokens: int) -> Unit:
        return Unit(self.start, self.end, self.tokens, self.kind, header, header_tokens, self.block)

    def in_block(self, block: int) -> Unit:
        return Unit(
            self.start, self.end, self.tokens, self.kind, self.header, self.header_tokens, block
        )


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
        self.floor = 0  # body start of the section being split (a table caption's limit)

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

    def fits_exactly(self, text: str, budget: int) -> bool:
        """Whether ``text`` fits ``budget`` by one exact count, when sizes are estimates (one
        of table markup may be far off: a table's head or header is dropped only when over)."""
        return self.estimating and self.counter.count(text) <= budget

    def likely_fits(self, start: int, end: int, budget: int) -> bool:
        """Whether [start, end) is worth one exact count as a whole: exact for `approx`, else
        an estimate with the document's ratio and some headroom."""
        if not self.estimating:
            return end - start <= budget * APPROX_CHARS_PER_TOKEN
        return (end - start) * self.document_ratio() <= budget * LIKELY_FIT

    # -- the ladder ------------------------------------------------------------------------
    def units(self, start: int, end: int, budget: int, ratio: float | None = None) -> list[Unit]:
        """Fitting units covering [start, end) (see the module contract). ``ratio``: tokens
        per character of this span when known (else the document's ratio so far). A unit's
        ``block`` is the start of its block, and the items of a loose list (list blocks one
        after another, blank lines between) right after a lead-in (`introduces`) are one
        block, the list's first item's: a piece ending inside it ends before its lead-in."""
        self.ratio = ratio if ratio is not None else self.document_ratio()
        self.floor = start
        out: list[Unit] = []
        blocks = self._blocks(start, end)
        lined = self.line_table_headers(blocks, budget)
        block, last, grouped = -1, "", False
        for k, (bs, be) in enumerate(blocks):
            kind = self._block_kind(bs, be)
            caption = self.table_caption(bs, start) if kind == "table" else ""
            mark = len(out)
            self._emit(bs, be, kind, budget, out, caption)
            if k in lined and len(out) > mark:
                out[mark] = out[mark].with_header(*lined[k])
            if not (kind == last == "list" and grouped):  # a loose list after a lead-in
                block, grouped = bs, kind == "list" and last == "lead"
            out[mark:] = [u.in_block(block) for u in out[mark:]]
            last = "lead" if kind == "para" and self.introduces(Unit(bs, be, 0, kind)) else kind
        return out

    # -- what a table piece repeats --------------------------------------------------------
    def text_size(self, text: str) -> int:
        """Tokens of a text that is not a span (a repeated header): as `size`."""
        if self.estimating:
            return int(len(text) * self.ratio) + 1
        return (len(text) + 3) // 4

    def _one_line(self, s: int, e: int) -> str | None:
        """The text of block [s, e) when it is one short paragraph line (not a table row, list
        item or code), else None."""
        if self._block_kind(s, e) != "para" or e - s > 2 * CAPTION_CHARS:
            return None
        text = self.pages.text(s, e)
        if "\n" in text or len(text) > CAPTION_CHARS or text.startswith("#"):
            return None
        return text

    def introduces(self, unit: Unit) -> bool:
        """Whether `unit` introduces what follows it: a heading line in the body (a bodiless
        heading opening the next section's text, a heading deeper than ``max_depth``); a
        one-line paragraph set wholly in bold of at most `CAPTION_WORDS` words, a label
        ("**Performance Indicators**", not a sentence set in bold); text (a paragraph, list item, line or sentence, not
        code) whose last line ends in a colon, emphasis aside ("The Department will:", "as
        follows:"); or a table row with text in its first cell only ("|Interest expense||||"),
        the label of the rows below it."""
        if unit.kind == "row":
            return bool(_LABEL_ROW.match(self.md, unit.start, unit.end))
        if unit.kind == "code" or self._in_fence(unit.start):
            return False
        tail = self.md[max(unit.start, self.md.rfind("\n", unit.start, unit.end) + 1) : unit.end]
        if _LEAD_END.search(tail):
            return True
        if _HEADING_LINE.match(self.md, unit.start) and "\n" not in self.md[unit.start : unit.end]:
            return True
        text = self._one_line(unit.start, unit.end)
        if text is None or not _INTRODUCES.match(text.strip()):
            return False
        return text.rstrip().endswith(":") or len(WORD_RE.findall(text)) <= CAPTION_WORDS

    def captions(self, unit: Unit, nxt: Unit) -> bool:
        """Whether ``unit`` is a caption of the table ``nxt`` starts: a one-line paragraph
        right before it (`table_caption`) that is a caption title ("TABLE VIII. Geometries of
        ...", `captionlabels.is_caption_title`, however long) unless a table ends right before
        it (then it is that table's caption, printed below it), or of at most `CAPTION_WORDS`
        words and one figure (a title, a unit line; not a line of label-value fields)."""
        if not self.md.startswith("|", nxt.start) or self.md.startswith("|", unit.start):
            return False
        if self._paragraph_breaks(unit.end, nxt.start) == [] or nxt.block not in (-1, nxt.start):
            return False
        text = self._one_line(unit.start, unit.end)
        if text is None:
            return False
        if is_caption_title(text) and not self._after_table(unit.start):
            return True
        return len(text.split()) <= CAPTION_WORDS and figure_count(text) <= 1

    def _after_table(self, pos: int) -> bool:
        """The last line with text before ``pos`` is a table row (a caption there is the
        caption printed below that table)."""
        before = self.md[:pos].rstrip()
        return before[before.rfind("\n") + 1 :].startswith("|")

    def table_caption(self, pos: int, floor: int) -> str:
        """The caption of a table starting at ``pos``: up to `CAPTION_BLOCKS` one-line
        paragraphs right before it, after ``floor`` (its section's body start), each a
        caption title, of at most `CAPTION_WORDS` words or ending in a colon (a sentence of
        the text before the table that does not lead into it is no caption), joined by a
        blank line; "" when there is none."""
        lo = max(floor, pos - 2 * CAPTION_BLOCKS * CAPTION_CHARS)
        blocks = self._blocks(lo, pos)
        if lo > floor and blocks:
            blocks = blocks[1:]  # may be the tail of a longer block
        lines: list[str] = []
        for bs, be in reversed(blocks[-CAPTION_BLOCKS:]):
            text = self._one_line(bs, be)
            if text is None or not self._names_table(text):
                break
            lines.insert(0, text)
        return "\n\n".join(lines)

    @staticmethod
    def _names_table(text: str) -> bool:
        words = len(text.split())
        return is_caption_title(text) or words <= CAPTION_WORDS or bool(_LEAD_END.search(text))

    def line_table_headers(
        self, blocks: list[tuple[int, int]], budget: int
    ) -> dict[int, tuple[str, int]]:
        """Tables read as lines: block index -> (header, tokens) for each one-line paragraph
        after a period line (`is_period_line`) in the same run of one-line paragraphs, when
        two or more of them are figure rows. The header is the period line and up to
        `CAPTION_BLOCKS` figure-free one-line paragraphs right before it (a caption, a
        "Years ended ..." or unit line), dropped first to last while over half the budget."""
        out: dict[int, tuple[str, int]] = {}
        lines = [self._one_line(bs, be) for bs, be in blocks]
        k = 0
        while k < len(lines):
            text = lines[k]
            if text is None or not is_period_line(text):
                k += 1
                continue
            lead: list[str] = []
            for j in range(k - 1, max(-1, k - 1 - CAPTION_BLOCKS), -1):
                before = lines[j]
                if before is None or figure_count(before) > 1 or is_period_line(before):
                    break
                lead.insert(0, before)
            run = k + 1
            while run < len(lines) and not is_period_line(lines[run] or "\n"):
                if lines[run] is None:
                    break
                run += 1
            if sum(figure_count(t or "") >= 2 for t in lines[k + 1 : run]) >= 2:
                header, tokens = self._fit_header([*lead, text], budget)
                if header:  # a blank line before the span: the rows stay paragraphs
                    out.update(dict.fromkeys(range(k + 1, run), (header + "\n", tokens + 1)))
            k = run
        return out

    def _fit_header(
        self, parts: list[str], budget: int, size: Callable[[str], int] | None = None
    ) -> tuple[str, int]:
        """``parts`` joined by blank lines, leading parts dropped while over half of
        ``budget`` (by ``size``, default `text_size`); ("", 0) when even the last part is."""
        size = self.text_size if size is None else size
        while parts:
            text = "\n\n".join(parts)
            tokens = size(text) + 1
            if tokens <= budget // 2:
                return text, tokens
            parts = parts[1:]
        return "", 0

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
        self._children(self._words(start, end), "word", budget, out)
        return out

    def refine(self, unit: Unit, budget: int) -> list[Unit]:
        """``unit`` split one ladder level further for a smaller ``budget``."""
        out: list[Unit] = []
        caption = self.table_caption(unit.start, self.floor) if unit.kind == "table" else ""
        self._emit(unit.start, unit.end, unit.kind, budget, out, caption)
        return out

    def _emit(
        self, s: int, e: int, kind: str, budget: int, out: list[Unit], caption: str = ""
    ) -> None:
        """Append [s, e) as one unit if it fits, else its children one level down
        (``caption``: a table's, see `table_caption`)."""
        size = self.size(s, e)
        if size <= budget:
            out.append(Unit(s, e, size, kind))
        elif kind == "word":
            self._cut(s, e, budget, out)
        elif kind == "table":
            self._table(s, e, budget, out, caption)
        elif kind == "code" and _FENCE_LINE.match(self.md, s):
            self._code(s, e, budget, out)
        elif kind == "list":
            self._children(self._items(s, e), "item", budget, out)
        elif kind == "sentence":
            self._children(self._words(s, e), "word", budget, out)
        elif _NEXT_KIND[kind] == "line":
            self._children(self._line_spans(s, e, kind), "line", budget, out)
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
    def by_length(
        self, start: int, end: int, limit: int, floor: int | None = None
    ) -> list[tuple[int, int, str]]:
        """The ladder for one over-long block when a piece fits iff its body has at most
        ``limit`` characters: tight spans ``(s, e, header)`` packed greedily at the coarsest
        boundary available (same rules as the unit ladder; ``header`` is what a table piece
        repeats, or ""; ``floor``: the section's body start, for a table's caption)."""
        out: list[tuple[int, int, str]] = []
        kind = self._block_kind(start, end)
        if kind == "table" and end - start > limit:
            self._table_by_length(start, end, limit, out, start if floor is None else floor)
        else:
            self._by_length(start, end, kind, limit, out)
        return out

    def _by_length(
        self, s: int, e: int, kind: str, limit: int, out: list[tuple[int, int, str]]
    ) -> None:
        if e - s <= limit:
            out.append((s, e, ""))
        elif kind == "word":
            out.extend((q, min(e, q + limit), "") for q in range(s, e, limit))
        elif kind == "table":
            self._table_by_length(s, e, limit, out, s)
        else:
            if kind == "list":
                spans, child = self._items(s, e), "item"
            elif kind == "sentence":
                spans, child = self._words(s, e), "word"
            elif _NEXT_KIND[kind] == "line":
                spans, child = self._line_spans(s, e, kind), "line"
            else:
                spans, child = self._sentences(s, e), "sentence"
            self._greedy_spans(spans, child, limit, out)

    def _greedy_spans(
        self,
        spans: list[tuple[int, int]],
        kind: str,
        limit: int,
        out: list[tuple[int, int, str]],
        headers: Sequence[str] = (),
    ) -> None:
        """Greedy packing of consecutive spans; a span too long alone goes down the ladder.
        A piece that starts at spans[i] (i > 0) repeats ``headers[i]`` (if any); no span is
        in two pieces, and a piece of rows does not end on a label row while rows follow."""
        ends = [sp[1] for sp in spans]
        i = 0
        while i < len(spans):
            h = headers[i] if 0 < i < len(headers) else ""
            s0 = spans[i][0]
            j = bisect_right(ends, s0 + (limit - len(h) - 1 if h else limit), lo=i) - 1
            if j < i:
                self._by_length(s0, ends[i], kind, limit, out)
                i += 1
                continue
            if kind == "row" and i < j < len(spans) - 1 and _LABEL_ROW.match(self.md, *spans[j]):
                j -= 1  # a row labelling the rows below opens the next piece (`introduces`)
            out.append((s0, ends[j], h))
            i = j + 1

    def _table_by_length(
        self, s: int, e: int, limit: int, out: list[tuple[int, int, str]], floor: int
    ) -> None:
        """`_table` by length: each row after the table's head repeats the fullest of
        `table_headers` (sized in characters against ``limit``) that fits beside it, or none
        (a row too long to fit beside any goes down the ladder alone)."""
        rows = self._lines(s, e)
        first = self.table_head(rows)
        headers = self.table_headers(rows, first, self.table_caption(s, floor), limit, len)
        spans = [(rows[0][0], rows[first - 1][1]), *rows[first:]]
        repeat = [""] + [
            next((h for h, t in headers if re_ - rs <= limit - t), "") for rs, re_ in rows[first:]
        ]
        self._greedy_spans(spans, "row", limit, out, repeat)

    # -- span finders ----------------------------------------------------------------------
    def _fence_overlaps(self, start: int, end: int) -> bool:
        i = bisect_right(self.fence_ends, start)
        return i < len(self.fence_starts) and self.fence_starts[i] < end

    def in_fence(self, pos: int) -> bool:
        """Whether ``pos`` lies inside a fenced code block."""
        return bool(self.fence_starts) and self._in_fence(pos)

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

    def _words(self, s: int, e: int) -> list[tuple[int, int]]:
        """Spans of the words of [s, e) outside marker lines (a sentence may run across a
        page marker; a cut between its words never lands inside the marker)."""
        return [w for ls, le in self._lines(s, e) for w in self._spans(WORD_RE, ls, le)]

    def _lines(self, s: int, e: int) -> list[tuple[int, int]]:
        """Tight spans of the non-blank, non-marker lines of [s, e)."""
        out = []
        for m in _LINE.finditer(self.md, s, e):
            span = self.pages.trim(m.start(), m.end())
            if span:
                out.append(span)
        return out

    def _line_spans(self, s: int, e: int, kind: str) -> list[tuple[int, int]]:
        """`_lines`, but outside code a line that ends inside a sentence (on a letter, digit or
        comma, and the next line starts lower-case; or on CJK text other than a sentence end,
        and the next line starts no list item, table row or heading) is one span with the
        next: a line break, like a page marker between two lines, is no place to cut a
        sentence. Emphasis marks closing the line or opening the next are read past ("of_" /
        "_the"), and a line ending in a hyphen runs on like one ending in a letter ("im-" /
        "portant"). Sentence ends (`_sentences`) include 。！？ (no space follows them)."""
        if kind == "code":
            return self._lines(s, e)
        md = self.md
        out: list[tuple[int, int]] = []
        for span in self._lines(s, e):
            end = out[-1][1] - 1 if out else 0
            while out and end > out[-1][0] and md[end] in "*_":  # emphasis closing the line
                end -= 1
            first = span[0]
            while first < span[1] - 1 and md[first] in "*_":  # emphasis opening the next
                first += 1
            if out and (
                (_RUNS_ON_END.match(md, end) and md[first].islower())
                or (_CJK_RUNS_ON.match(md, end) and not _STARTS_BLOCK.match(md, span[0]))
            ):
                out[-1] = (out[-1][0], span[1])
            else:
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

    def _table(self, s: int, e: int, budget: int, out: list[Unit], caption: str = "") -> None:
        """Rows of an over-long table; each row after the table's head (`table_head`) carries
        the fullest of `table_headers` that fits beside it (by estimate, else by one exact
        count: the estimate of table markup may be far off), or none (a row is split only
        when it is over ``budget`` alone)."""
        rows = self._lines(s, e)
        first = self.table_head(rows)
        headers = self.table_headers(rows, first, caption, budget)
        head = (rows[0][0], rows[first - 1][1])
        if first == 1 or self.size(*head) <= budget:
            self._emit(head[0], head[1], "head" if first > 1 else "row", budget, out)
        elif self.fits_exactly(self.pages.text(*head), budget):  # estimated over, counted within
            out.append(Unit(head[0], head[1], self.size(*head), "head"))
        else:  # the header lines and the first row, each whole while it fits
            self._children(rows[:first], "row", budget, out)
        for rs, re_ in rows[first:]:
            size = self.size(rs, re_)
            fit = next(((h, t) for h, t in headers if size <= budget - t), None)
            if fit is None and self.estimating:  # estimated over: one exact count decides
                row = self.pages.text(rs, re_)
                fit = next(
                    ((h, t) for h, t in headers if self.fits_exactly(f"{h}\n{row}", budget)), None
                )
            if fit is None:  # no header fits beside the row: the row stays whole without one
                self._emit(rs, re_, "row", budget, out)
            else:
                out.append(Unit(rs, re_, size, "row", *fit))

    def _code(self, s: int, e: int, budget: int, out: list[Unit]) -> None:
        """Lines of an over-long fenced code block; its opening fence line travels with every
        later line but a closing fence, so a piece that starts inside the block opens it again
        (and one that ends inside it is closed by its end, as CommonMark closes a fence)."""
        lines = self._lines(s, e)
        fence = self.md[lines[0][0] : lines[0][1]].strip()
        header_tokens = self.text_size(fence) + 1
        self._emit(lines[0][0], lines[0][1], "line", budget, out)
        for ls, le in lines[1:]:
            mark = len(out)
            closing = _FENCE_LINE.fullmatch(self.md, ls, le) is not None
            self._emit(ls, le, "line", budget - (0 if closing else header_tokens), out)
            if not closing and len(out) > mark:
                out[mark] = out[mark].with_header(fence, header_tokens)

    def table_headers(
        self,
        rows: list[tuple[int, int]],
        first: int,
        caption: str,
        budget: int,
        size: Callable[[str], int] | None = None,
    ) -> list[tuple[str, int]]:
        """What a row after a split table's head may repeat, fullest first, with its tokens:
        the caption above the header rows (header row, separator, column-header rows) while
        both take at most half of ``budget``; the header rows; the header row and separator
        alone. When a row after the separator names the columns the header row leaves
        unnamed (`naming_row`) and the three take at most half of ``budget``, the header rows
        are the header row, the separator and that row (the rows between, a legend or group
        labels, travel with the table's head only). A table whose first row is no header (`has_header`) repeats only its caption,
        while that takes at most half of ``budget``. A row carries the first that fits beside
        it: the header that names its columns is repeated whenever there is room for it.
        Sizes are ``size`` (default `text_size`, tokens; `len` for the ladder by length, where
        ``budget`` is characters) plus one for the newline after the header. The one choice
        for both the unit ladder (`_table`) and the ladder by length (`_table_by_length`)."""
        size = self.text_size if size is None else size
        if not (first > 1 and self.has_header(rows)):
            alone = self._fit_header([caption], budget, size) if caption else ("", 0)
            return [alone] if alone[0] else []
        top = self.pages.text(rows[0][0], rows[1][1])
        naming = self.naming_row(rows)
        named = f"{top}\n{self.pages.text(*rows[naming])}" if naming else ""
        if named and size(named) + 1 > budget // 2:
            naming = 0  # a naming row that would leave a piece room for one row stays put
        if naming:  # the header row, the separator and the row naming the columns
            texts = [named, top]
        else:
            texts = [self.pages.text(rows[0][0], rows[first - 2][1])]
        if first > 3 and not naming:  # column-header rows after the separator: also without
            texts.append(top)
        out: list[tuple[str, int]] = []
        if caption:
            joined = f"{caption}\n\n{texts[0]}"
            tokens = size(joined) + 1
            if tokens <= budget // 2:
                out.append((joined, tokens))
        out.extend((t, size(t) + 1) for t in texts)
        return [(h, t) for h, t in out if t < budget or self.fits_exactly(h, budget - 1)]

    def has_header(self, rows: list[tuple[int, int]]) -> bool:
        """Whether the table's first row (before its separator) heads its columns
        (`is_header_row` against the first data row)."""
        data = self.md[rows[2][0] : rows[2][1]] if len(rows) > 2 else ""
        return is_header_row(self.md[rows[0][0] : rows[0][1]], data)

    def table_head(self, rows: list[tuple[int, int]]) -> int:
        """Index of the first row after the table's head: the header row, the separator, the
        column-header rows after it (`is_column_header_row`, at most `CAPTION_BLOCKS` + 1)
        and the first data row glued to them; 1 when the table has no separator row."""
        md = self.md
        if len(rows) < 3 or not TABLE_SEPARATOR_RE.fullmatch(md, rows[1][0], rows[1][1]):
            return 1
        n = 2
        while n < min(len(rows) - 1, 3 + CAPTION_BLOCKS) and is_column_header_row(
            md[rows[n][0] : rows[n][1]]
        ):
            n += 1
        return max(n, self.naming_row(rows) + 1) + 1

    def naming_row(self, rows: list[tuple[int, int]]) -> int:
        """Index of the row after the separator that names the table's columns when its
        header row does not, else 0: the header row (two or more filled cells: one alone is
        a title) leaves empty a column (the first, the row labels', aside) that rows after
        the separator fill, and among the `NAMING_ROWS` rows after the separator (more rows
        following) the first holding no number but years, each filled cell a label (a
        letter, at most `NAMING_WORDS` words), whose filled cells (two or more) take every
        such column the rows after it fill. The rows between (a legend, group labels) name
        no column of the body."""
        if len(rows) < 4 or not TABLE_SEPARATOR_RE.fullmatch(self.md, rows[1][0], rows[1][1]):
            return 0
        cells = [_cells(self.md[a:b]) for a, b in rows]
        if sum(map(bool, cells[0])) < 2 or _filled(cells[2:]) <= _filled(cells[:1]):
            return 0
        for k in range(2, min(len(rows) - 1, 2 + NAMING_ROWS)):
            row = self.md[rows[k][0] : rows[k][1]]
            named = _filled(cells[k : k + 1])
            if len(named) < 2 or figure_count(row) != len(_YEAR.findall(row)):
                continue
            if any(len(c.split()) > NAMING_WORDS or not _LETTER.search(c) for c in cells[k] if c):
                continue
            if _filled(cells[k + 1 :]) <= named:
                return k
        return 0


def _cells(row: str) -> list[str]:
    """A table row's cells, markup and outer spaces removed."""
    inner = row.strip().removeprefix("|").removesuffix("|")
    return [_MARKUP.sub("", c).strip() for c in inner.split("|")]


def _filled(rows: list[list[str]]) -> set[int]:
    """Columns after the first that a cell of ``rows`` fills."""
    return {j for cells in rows for j, c in enumerate(cells) if j and c}


def is_header_row(row: str, data: str) -> bool:
    """Whether a table's first row heads its columns. It does not when every cell is empty or a
    converter's placeholder ("Col1", "Column 2"), or when it is shaped like the data row after
    it: a cell holding figures and no year (a year alone, with its unit or in a date, "2022 $",
    "2021 No.", "30 2018", names a column; an amount, "100г", does not) above a figure in the
    data row's same column ("| Chicken skewers | 100г | 230 |" over "| Lamb | 150г | 310 |")."""
    cells = _cells(row)
    if all(not c or _PLACEHOLDER.fullmatch(c) for c in cells):
        return False
    below = _cells(data) if data else []
    for k, cell in enumerate(cells):
        if _FIGURE_CELL.fullmatch(cell) and not _YEAR.search(cell):
            if k < len(below) and _FIGURE_CELL.fullmatch(below[k]):
                return False
    return True


def figure_count(text: str) -> int:
    """Numbers in a line (amounts, percentages, years, "(38)")."""
    return len(_NUMBER.findall(text))


def is_period_line(text: str) -> bool:
    """A line naming its columns' periods: two or more years and at most one other number
    ("Years Ended December 31, 2022 2021 2020")."""
    years = len(_YEAR.findall(text))
    return years >= 2 and figure_count(text) - years <= 1


def is_column_header_row(row: str) -> bool:
    """A table row after the separator that still heads columns: its first cell is empty and
    it holds no number but years ("| | 2022 | 2021 |", "| | Fiscal Year | |")."""
    row = row.strip()
    cells = row.removeprefix("|").removesuffix("|").split("|")
    if len(cells) < 2 or cells[0].strip(" *_"):
        return False
    return figure_count(row) == len(_YEAR.findall(row))
