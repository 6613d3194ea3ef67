"""Packing fitting units into chunk pieces, each checked with one exact count of its text.

A piece never ends on a line that introduces what follows (`Splitter.introduces`: a bold label,
a line ending in a colon) while units of the same call follow and the piece holds more: that
line opens the next piece.

No table row is in two pieces: a piece that starts inside a table (after its header) starts
with the row after the previous piece's last one, under the repeated header. A row that labels
the rows below it ("Interest expense", its figures empty) is a line that introduces what
follows, and so does a caption (a one-line paragraph right before a table). A table's head (its
header rows and first row) is never cut to fill a piece, and lines introducing it stay with it.
Row groups are as large as the window allows, except that the last two of a table share their
rows near-evenly (`even_share`): no last group of a row or two after a full one.

No fragment beside a piece it fits with: a piece whose body is under `LEAD_IN` of the budget
(sized by estimates that ran high, or left over at a section's end) joins its neighbour when one
exact count says the joined piece fits (`Packer._mend_fragments`); a last piece that still is a
fragment takes back units of the piece before up to a clean cut, leaving that piece no fragment
(`Packer._mend_tail`).

A piece that would end inside a block (a table's rows, a list's items, a paragraph's lines or
sentences) while it holds the start of that block after other units ends before the block
instead (with the lead-in line or caption before it), when what it keeps is at least `LEAD_IN`
of the budget: pieces are cut between paragraphs first, then list items, table row groups and
sentences.

A cut inside a sentence is the last choice (`Packer._clean_cut`): a piece that would end inside
a sentence (between word units of it, or before a unit going on in lower case: of the same
block, or opening the next block after prose ending with no sentence end or colon, as a
display equation's "where ..." paragraph) ends after that sentence when it still fits, else before that sentence when the sentence
fits a piece of its own and what the piece keeps is more than lines introducing what follows
and at least `MIN_WORDS` words; else at the sentence's last clause end (a comma, semicolon or
dash; a colon introduces what follows) when the piece keeps at least `CLAUSE_KEEP` of its size;
else after a word. A piece made only of a long lead-in paragraph ("... typically contain the
following components:") before a unit it cannot take whole gives that paragraph's last
sentence to the next piece (`Packer._split_lead`) rather than a part of the unit.

Contract: ``Packer.pack(units)`` returns pieces in document order whose exact ``tokens``
(measured by the caller's function over the whole chunk text, heading path included) is
<= ``max_tokens``; with ``overlap == 0`` pieces cover all units and are disjoint; with overlap a piece may start inside the previous piece of the
same call (never before its start).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .split import WORD_RE, Measure, Piece, Splitter, Unit


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
# A piece that would end before a unit too big to join, while holding less than this share of
# the limit (a caption, a lead-in line "Options:"), takes the start of that unit instead: the
# unit is split one ladder level further (a table into rows, a paragraph into lines/sentences).
LEAD_IN = 0.15
# At most this many extra rows are tried, one exact count each, to fill a row group.
MAX_FILL = 8
# A piece ends before a sentence it would cut only when it keeps at least this many words (a
# fragment alone is worse than a cut sentence).
MIN_WORDS = 10
# A piece cut inside a sentence too long for a piece of its own ends at the sentence's last
# clause end when it keeps at least this share of its estimated size (else after a word).
CLAUSE_KEEP = 0.5

# Where a cut between two units falls (`Packer._cut_level`): inside a sentence after a word,
# after a clause end, or at a sentence end (or between lines, list items, rows or blocks).
WORD_CUT, CLAUSE_CUT, SENTENCE_CUT = 0, 1, 2
_CLOSERS = "[\"'”’)\\]*_]*"
_SENTENCE_TAIL = re.compile(rf"[.!?…。！？]{_CLOSERS}$")
_CLAUSE_TAIL = re.compile(rf"(?:[,;，；、]|\s[—–-]|—){_CLOSERS}$")


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
        firsts: list[int] = []  # the unit each piece starts at
        start = self._fresh(units[0]) if units else None
        while start is not None and i < len(units):
            target = self._target(FILL)
            j, est = self._greedy(units, i, start, target)
            if i < j < len(units) and (
                self._split_lead(units, i, j, start) or self._lead_in(units, j, est, start, i)
            ):
                j, _ = self._greedy(units, i, start, target)
            j = self._before_lead_line(units, i, j)
            j = self._clean_cut(units, i, self._balance_tail(units, i, j), start)
            if j == i:  # the overlap leaves no room for the next unit: shrink or drop it
                room = int(target) - units[i].tokens - units[i].header_tokens - 1
                smaller = self._overlap_start(units, first, i, min(room, start.tokens - 1))
                shrunk = smaller is not None and smaller.tokens < start.tokens
                start = smaller if smaller is not None and shrunk else self._fresh(units[i])
                continue
            fitted = self._fit(units, i, j, start)
            if fitted is None:  # a unit was split further in place: retry from units[i]
                start = self._fresh(units[i])
                continue
            piece, nxt = fitted
            pieces.append(piece)
            firsts.append(i)
            first, i = i, nxt
            if i < len(units):
                start = self._overlap_start(units, first, i) or self._fresh(units[i])
        if self.overlap == 0:
            self._mend_fragments(units, pieces, firsts)
        return pieces

    def _fragment(self, tokens: int) -> bool:
        """A piece of `tokens` exact tokens is a fragment: its body (the tokens after the
        heading prefix, ``max_tokens - budget``) is under `LEAD_IN` of the budget."""
        return tokens - (self.max_tokens - self.budget) < self.budget * LEAD_IN

    def _mend_fragments(self, units: list[Unit], pieces: list[Piece], firsts: list[int]) -> None:
        """No piece is a fragment (its body under `LEAD_IN` of the budget) beside one it fits
        with: measured exactly, where the size estimate ran high, a fragment joins the piece
        before it (lines introducing what follows join the piece after it, unless that one
        starts inside a table under a repeated header) when the joined piece fits the limit,
        one exact count per try; a last piece that still is a fragment takes back units
        (`_mend_tail`). ``firsts``: the unit each piece starts at."""
        k = 0
        while k < len(pieces) and len(pieces) > 1:
            if not self._fragment(pieces[k].tokens):
                k += 1
                continue
            lead = k + 1 < len(pieces) and self._all_lead(units, firsts[k], firsts[k + 1])
            pairs = [(k, k + 1)] if lead else [(k - 1, k), (k, k + 1)]
            for a, b in pairs:
                if a < 0 or b >= len(pieces) or (b == k + 1 and pieces[b].header):
                    continue
                head, tail = pieces[a], pieces[b]
                body, tokens = self.measure(head.start, tail.end, head.header)
                if tokens <= self.max_tokens:
                    pieces[a : b + 1] = [Piece(head.start, tail.end, head.header, body, tokens)]
                    del firsts[b]
                    k = a
                    break
            else:
                k += 1
        if len(pieces) > 1:
            self._mend_tail(units, pieces, firsts[-2], firsts[-1])

    def _mend_tail(self, units: list[Unit], pieces: list[Piece], prev: int, last: int) -> None:
        """The last piece (from units[last]) made a fragment, its body under `LEAD_IN` of the
        budget (`_balance_tail`'s rule, which works on estimates, met by exact counts): it
        takes the last units of the piece before (from units[prev]) up to a clean cut (a
        sentence end, or between lines, items or blocks; not after a line introducing what
        follows; never moving a table, its caption or rows, nor code) while it stays within the limit
        and the piece before is no fragment: whole units first, else the sentences (or the
        printed lines) of the piece's last paragraph or list item. One exact count of each
        piece per try."""
        if not self._fragment(pieces[-1].tokens):
            return
        best = self._take_back(units, pieces, prev, last, prev)
        u = units[last - 1]
        refinable = u.kind in ("para", "item", "list", "line") and u.tokens > 1
        if best is None and refinable and not self.splitter.in_fence(u.start):
            sub = [v.in_block(u.block) for v in self.splitter.refine(u, u.tokens - 1)]
            if len(sub) > 1 and all(v.kind in ("sentence", "line") for v in sub):
                if u.header:
                    sub[0] = sub[0].with_header(u.header, u.header_tokens)
                units[last - 1 : last] = sub
                last += len(sub) - 1
                best = self._take_back(units, pieces, prev, last, last - len(sub))
        if best is not None:
            pieces[-2:] = best

    def _take_back(
        self, units: list[Unit], pieces: list[Piece], prev: int, last: int, lo: int
    ) -> tuple[Piece, Piece] | None:
        """`_mend_tail`'s two pieces when the last one starts at units[c], the latest clean
        cut with ``lo`` < c < ``last`` (and c > ``prev``) that makes it at least `LEAD_IN` of
        the budget, else the earliest clean one that fits; None when none fits."""
        best: tuple[Piece, Piece] | None = None
        for c in range(last - 1, max(prev, lo), -1):
            a, b = units[c - 1], units[c]
            if {a.kind, b.kind} & {"row", "head", "table"} or self.splitter.in_fence(b.start):
                break  # a table stays with the text before it (its lead-in, "The table below")
            if c + 1 < last and self.splitter.captions(b, units[c + 1]):
                break
            if self._estimate(units, c, last, self._fresh(b)) > self.budget:
                break
            if self._cut_level(a, b) != SENTENCE_CUT or self._all_lead(units, c - 1, c):
                continue
            start = self._fresh(b)
            body, tokens = self.measure(start.offset, pieces[-1].end, start.header)
            if tokens > self.max_tokens:
                break
            head = pieces[-2]
            kept, kept_tokens = self.measure(head.start, a.end, head.header)
            if self._fragment(kept_tokens):
                break
            best = (
                Piece(head.start, a.end, head.header, kept, kept_tokens),
                Piece(start.offset, pieces[-1].end, start.header, body, tokens),
            )
            if not self._fragment(tokens):
                break
        return best

    def _lead_in(self, units: list[Unit], j: int, est: float, start: _Start, i: int = -1) -> bool:
        """Split units[j] one ladder level down in place when the piece before it (estimated
        ``est`` tokens) is under LEAD_IN of the limit, or (``i``: its first unit) is only lines
        introducing units[j] (a lead-in line, a caption): a list, table or code block stays
        with its lead-in. False when it does not apply or cannot split."""
        if start.overlap:
            return False
        if est >= self.budget * LEAD_IN and not (0 <= i < j and self._all_lead(units, i, j)):
            return False
        u = units[j]
        if u.kind in ("word", "row", "head") or u.tokens < 2:  # cut only when over the limit
            return False
        sub = [v.in_block(u.block) for v in self.splitter.refine(u, u.tokens - 1)]
        if len(sub) < 2:
            return False
        if u.header:
            sub[0] = sub[0].with_header(u.header, u.header_tokens)
        units[j : j + 1] = sub
        return True

    def _split_lead(self, units: list[Unit], i: int, j: int, start: _Start) -> bool:
        """Split units[i] into its lines or sentences in place when the piece is that unit
        alone, it introduces units[j] (`Splitter.introduces`) and it is at least `LEAD_IN` of
        the budget: its last sentence, the lead-in, then opens the next piece with what it
        introduces (`_lead_back`), and units[j] is not cut to fill the piece."""
        u = units[i]
        if j != i + 1 or start.overlap or u.kind in ("word", "row", "sentence", "code"):
            return False
        if u.tokens < self.budget * LEAD_IN or not self.splitter.introduces(u):
            return False
        sub = [v.in_block(u.block) for v in self.splitter.refine(u, u.tokens - 1)]
        if len(sub) < 2 or any(v.kind == "word" for v in sub):
            return False
        if u.header:
            sub[0] = sub[0].with_header(u.header, u.header_tokens)
        units[i : i + 1] = sub
        return True

    def _cut_level(self, a: Unit, b: Unit) -> int:
        """Where the cut between consecutive units ``a`` and ``b`` falls: inside a sentence
        when ``b`` goes on in lower case (emphasis aside: "U.S." / "and European") or one of
        them is a word of a sentence cut into words and ``a`` ends no sentence (nor its line,
        before a unit on a new line); then `CLAUSE_CUT` after a clause end (a comma, semicolon
        or dash), else `WORD_CUT`. Between blocks (paragraphs, lists), inside a sentence only
        when ``b`` opens its block in lower case and ``a``, prose, ends neither a sentence nor
        a lead-in (a display equation and its "where ..." paragraph, a paragraph broken at a
        page or column: `_runs_on`). Else `SENTENCE_CUT` (as between table rows and code
        lines)."""
        md = self.splitter.md
        if {a.kind, b.kind} & {"row", "head", "code"} or self.splitter.in_fence(b.start):
            return SENTENCE_CUT
        goes_on = md[b.start : b.start + 4].lstrip("*_")[:1].islower()
        tail = md[max(a.start, a.end - 12) : a.end]
        if a.block != b.block:
            return self._tail_level(tail) if goes_on and self._runs_on(a, tail) else SENTENCE_CUT
        if (a.kind != "word" and b.kind != "word") and not goes_on:
            return SENTENCE_CUT
        if b.kind != "word" and "\n" in md[a.end : b.start] and not goes_on:
            return SENTENCE_CUT
        if _SENTENCE_TAIL.search(tail) and not goes_on:
            return SENTENCE_CUT
        return self._tail_level(tail)

    @staticmethod
    def _tail_level(tail: str) -> int:
        return CLAUSE_CUT if _CLAUSE_TAIL.search(tail) else WORD_CUT

    def _runs_on(self, a: Unit, tail: str) -> bool:
        """Whether unit ``a``, the last of its block, may run on into the next block: prose
        (not a table, code or heading line) ending with no sentence end and no colon."""
        md = self.splitter.md
        line = md[max(a.start, md.rfind("\n", a.start, a.end) + 1) : a.end]
        if a.kind == "table" or line.startswith(("|", "#")) or self.splitter.in_fence(a.start):
            return False
        return not _SENTENCE_TAIL.search(tail) and not tail.rstrip("*_ ").endswith(":")

    def _clean_cut(self, units: list[Unit], i: int, j: int, start: _Start) -> int:
        """``j``, or another end when the piece units[i:j] (from ``start``) would end inside a
        sentence (module docstring): after that sentence when the piece still fits and the
        sentence does not end on a line introducing what follows ("where:"), else
        before it when it fits a piece of its own and the piece keeps more than lines
        introducing it and at least `MIN_WORDS` words (with the lead-in lines before it,
        `_lead_back`, when they fit beside it; a whole sentence comes before a lead-in line
        opening its piece), else at its last clause end when the piece keeps `CLAUSE_KEEP` of
        its size."""
        if not i < j < len(units) or self._cut_level(units[j - 1], units[j]) == SENTENCE_CUT:
            return j
        k = j - 1  # the cut sentence is units[k:n]
        while k > i and self._cut_level(units[k - 1], units[k]) != SENTENCE_CUT:
            k -= 1
        n = j + 1
        while n < len(units) and self._cut_level(units[n - 1], units[n]) != SENTENCE_CUT:
            n += 1
        lead = n < len(units) and self.splitter.introduces(units[n - 1])  # "where:" ends it
        if not lead and self.measure(start.offset, units[n - 1].end, start.header)[1] <= (
            self.max_tokens
        ):
            return n  # one exact count: an estimate could let a shrinking piece grow again
        kept = units[k - 1].end if i < k else 0
        few = i < k and len(WORD_RE.findall(self.splitter.md, units[i].start, kept)) < MIN_WORDS
        if i < k and not few and self._fits(units, k, n) and not self._all_lead(units, i, k):
            back = self._lead_back(units, i, k)
            clean = self._cut_level(units[back - 1], units[back]) == SENTENCE_CUT
            if back < k and clean and not self._all_lead(units, i, back):
                return back if self._fits(units, back, n) else k
            return k
        keep = self._estimate(units, i, j, self._fresh(units[i])) * CLAUSE_KEEP
        for c in range(j - 1, max(i, k), -1):
            if self._cut_level(units[c - 1], units[c]) == CLAUSE_CUT:
                return c if self._estimate(units, i, c, self._fresh(units[i])) >= keep else j
        return j

    def _fits(self, units: list[Unit], k: int, n: int) -> bool:
        """Whether units[k:n] fit one piece: by estimate, or (an estimate under twice the
        budget, as `split.LIKELY_FIT`) by one exact count of their text."""
        start = self._fresh(units[k])
        est = self._estimate(units, k, n, start)
        if est <= self._target(FILL):
            return True
        if not self.splitter.estimating or est > 2 * self.budget:
            return False
        return self.measure(start.offset, units[n - 1].end, start.header)[1] <= self.max_tokens

    def _before_lead_line(self, units: list[Unit], i: int, j: int) -> int:
        """Where the piece units[i:j] ends (module docstring): before the block it would end
        inside when it holds that block's start after units worth `LEAD_IN` of the budget
        (lead-in lines before the block moving with it), and in any case before last lines
        introducing what follows (or a table's caption) with more units after them and another
        unit before them."""
        cut = self._lead_back(units, i, j)
        if j < len(units) and units[j].block >= 0 and units[j - 1].block == units[j].block:
            b = j - 1
            while b > i and units[b - 1].block == units[j].block:
                b -= 1
            b = self._lead_back(units, i, b) if b > i else b
            if (
                b > i
                and not self._all_lead(units, i, b)
                and self._estimate(units, i, b, self._fresh(units[i])) >= self.budget * LEAD_IN
            ):
                return b
        return cut

    def _all_lead(self, units: list[Unit], i: int, j: int) -> bool:
        """Whether units[i:j] all introduce what follows them (`_lead_back`)."""
        splitter = self.splitter
        return all(
            splitter.introduces(units[k]) or splitter.captions(units[k], units[k + 1])
            for k in range(i, j)
        )

    def _lead_back(self, units: list[Unit], i: int, j: int) -> int:
        """``j`` moved back over last units that introduce units[j] (`Splitter.introduces`,
        `Splitter.captions`) while the piece keeps another unit."""
        while i < j - 1 and j < len(units):
            lead, nxt = units[j - 1], units[j]
            if not (self.splitter.introduces(lead) or self.splitter.captions(lead, nxt)):
                break
            j -= 1
        return j

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
        return self.max_tokens * fill / self.scale - (self.max_tokens - self.budget)

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
                piece = Piece(start.offset, units[j - 1].end, start.header, body, tokens)
                grown = self._grow(units, i, j, start, tokens)
                if grown is not None:
                    return self._rows_filled(units, i, grown[1], start, grown[0], fill=False)
                return self._rows_filled(units, i, j, start, piece, fill=True)
            smaller = min(j - 1, self._greedy(units, i, start, self._target(SHRINK_TO))[0])
            smaller = self._keep_introduced(units, i, j, smaller)
            if smaller > i:
                before = self._estimate(units, i, smaller, start)
                if self._lead_in(units, smaller, before, start, i):
                    return None  # units[smaller] was split: retry with its first part
                j = self._before_lead_line(units, i, smaller)
                j = self._clean_cut(units, i, j, start)
            elif start.overlap:
                start.offset, start.header, start.overlap = units[i].start, units[i].header, False
                start.tokens = units[i].header_tokens
            else:
                self._refine(units, i, tokens)
                return None

    def _keep_introduced(self, units: list[Unit], i: int, j: int, smaller: int) -> int:
        """``smaller`` (a shrunk end of the piece units[i:j]), or later when the shrunk piece
        would hold only lines introducing what follows: past the further introducing lines (a
        caption after a lead-in) and past a table's head or row after them (units not cut to
        fill a piece), so the next exact count tries the lines with what they introduce (the
        estimate that shrank the piece may be off for table text)."""
        if not i < smaller < j - 1 or not self._all_lead(units, i, smaller):
            return smaller
        k = smaller
        while k < j - 1 and (
            self.splitter.introduces(units[k]) or self.splitter.captions(units[k], units[k + 1])
        ):
            k += 1
        return k + 1 if k < j - 1 and units[k].kind in ("head", "row") else k

    def _balance_tail(self, units: list[Unit], i: int, j: int) -> int:
        """``j``, or one unit earlier when what is left after units[i:j] is under `LEAD_IN` of
        the budget (it would be a fragment alone) and the piece keeps at least that much: the
        last piece of a section gets the piece's last unit."""
        if not i < j - 1 < len(units) - 1 or j >= len(units):
            return j
        small = self.budget * LEAD_IN
        rest = self._estimate(units, j, len(units), self._fresh(units[j]))
        if rest >= small or units[j - 1].kind == "row":
            return j
        if self._estimate(units, i, j - 1, self._fresh(units[i])) < small:
            return j
        return self._lead_back(units, i, j - 1)

    def _rows_after(self, units: list[Unit], j: int) -> int:
        """How many rows of units[j - 1]'s table follow units[j - 1] (0 when it is no row)."""
        if units[j - 1].kind not in ("row", "head"):
            return 0
        block, k = units[j - 1].block, j
        while k < len(units) and units[k].kind == "row" and units[k].block == block:
            k += 1
        return k - j

    def _even_plan(
        self, units: list[Unit], i: int, j: int, start: _Start, tokens: int
    ) -> tuple[int, bool]:
        """Where the piece units[i:j] ends when it ends inside a table (rows of it follow): the
        table's rows from the piece's first row of it to the table's end are cut into
        near-equal groups (`even_share`; a later group, beside the header it repeats, holds
        what the window's estimate allows, and at least as much as this piece holds; the text
        after the table, when it fits one, counts with the last group), never ending on a row
        that labels the rows below. Also whether that end is settled: more rows held by this
        piece would not move it (the last two groups are shared, their cut falls before the
        piece's last row, the text after the table counts alike, and the piece, of ``tokens``
        exact tokens, cannot take all the rows left by the fill's own estimate), so filling
        it further is work the even cut would undo."""
        rest = self._rows_after(units, j) if i < j < len(units) else 0
        if rest < 1 or start.overlap:
            return j, False
        block, first = units[j - 1].block, j - 1
        while first > i and units[first - 1].block == block:
            first -= 1
        header = units[j].header_tokens  # the head's header rows are no row's size
        sizes = [
            u.tokens + 1 - (header if u.kind == "head" else 0) for u in units[first : j + rest]
        ]
        held = j - first  # a later group, under the same header, holds at least as much
        room = max(self._target(FILL) - header, sum(sizes[:held]))
        tail = sum(u.tokens + 1 for u in units[j + rest :])  # text after the table
        if 0 < tail < room:  # goes with the last group: its size counts
            sizes.append(tail)
        share = even_share(sizes, held, room)
        end = first + share
        while end - 1 > first and self.splitter.introduces(units[end - 1]):
            end -= 1
        left = sum(u.tokens * self.scale + 1 for u in units[j : j + rest])
        settled = share < held and (tail == 0 or tail < room) and tokens + left > self.max_tokens
        return end, settled

    def _rows_filled(
        self, units: list[Unit], i: int, j: int, start: _Start, piece: Piece, fill: bool
    ) -> tuple[Piece, int]:
        """The piece units[i:j] when it ends inside a table: (with ``fill``) grown by further
        rows of it, one exact count each, while it stays within the limit and never ending on
        a row that labels the rows below (what the window holds), then cut back to the even
        end (`_even_plan`; one exact count when it shrinks). The even end is checked first and
        after each row: once it is settled, no row is added that it would take away again."""
        for _ in range(MAX_FILL if fill else 0):
            rest = self._rows_after(units, j) if j < len(units) else 0
            if (
                rest < 1
                or self.splitter.introduces(units[j])
                or self._even_plan(units, i, j, start, piece.tokens)[1]
            ):
                break
            if piece.tokens + units[j].tokens * self.scale + 1 > self.max_tokens:
                break
            body, tokens = self.measure(start.offset, units[j].end, start.header)
            if tokens > self.max_tokens:
                break
            piece = Piece(start.offset, units[j].end, start.header, body, tokens)
            j += 1
        end = self._even_plan(units, i, j, start, piece.tokens)[0]
        if end >= j:
            return piece, j
        body, tokens = self.measure(start.offset, units[end - 1].end, start.header)
        return Piece(start.offset, units[end - 1].end, start.header, body, tokens), end

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
        bigger = self._clean_cut(units, i, self._before_lead_line(units, i, bigger), start)
        if bigger <= j:
            return None
        body, grown = self._measure(start, units[bigger - 1].end)
        if grown > self.max_tokens:
            return None
        return Piece(start.offset, units[bigger - 1].end, start.header, body, grown), bigger

    def _refine(self, units: list[Unit], i: int, tokens: int) -> None:
        """A lone unit whose chunk text is over the limit: split it further for a budget
        reduced by the measured excess, or first stop repeating a table header that does not fit
        (always so for a table row: a row is not cut while it fits alone)."""
        u = units[i]
        scale = tokens / max(1, self.max_tokens - self.budget + u.tokens + u.header_tokens)
        budget = int(self.budget * SHRINK_TO / scale) - u.header_tokens
        budget = min(budget, u.tokens - 1)
        if u.header and (budget < 1 or u.kind == "row"):  # a row is cut only with no header
            units[i] = Unit(u.start, u.end, u.tokens, u.kind, block=u.block)
            return
        if budget < 1:
            raise RuntimeError(f"cannot fit the text at offset {u.start} into the token limit")
        sub = [v.in_block(u.block) for v in self.splitter.refine(u, budget)]
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
        if k > first and room > 0 and units[k - 1].kind not in ("row", "head"):
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
            for m in WORD_RE.finditer(self.splitter.md, u.start, u.end)
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


def row_groups(sizes: Sequence[float], room: float) -> int:
    """How many groups of consecutive rows of ``sizes`` greedy packing makes, each group at
    most ``room`` (a row over it is a group of its own)."""
    groups, held = 0, 0.0
    for size in sizes:
        if held and held + size > room:
            groups, held = groups + 1, 0.0
        held += size
    return groups + (held > 0)


def even_share(sizes: Sequence[float], first: int, room: float) -> int:
    """How many of the rows ``sizes`` (a table's rows from a group's first to the table's end)
    the group takes: ``first`` (what it can hold) unless the rows after them fit one more
    group of at most ``room``; then the last two groups share the rows near-evenly: the group
    takes the count of rows whose size comes closest to half the rows' total (at least one
    row, at most ``first``), so a last group is not left with a row or two after a full one."""
    if row_groups(sizes[first:], room) != 1:
        return first
    half = sum(sizes) / 2
    best, gap, held = first, float("inf"), 0.0
    for n, size in enumerate(sizes[:first], start=1):
        held += size
        if abs(held - half) < gap:
            best, gap = n, abs(held - half)
    return best
