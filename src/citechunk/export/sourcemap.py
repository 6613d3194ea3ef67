"""Source map: which text-layer words of the PDF each Markdown character range came from.

Built after conversion, from the final page-marked Markdown and the PDF's text layer alone
(`TextLayer`: PyMuPDF's words, or an OCR engine's), so it does not depend on the backend that
wrote the Markdown. Saved beside the Markdown (``<doc>.md.map.json``), so any character range
of a saved Markdown file -- a chunk at any size, a sentence inside a chunk -- gets its regions
on the page without opening the PDF again.

Alignment rules (per page: the Markdown between two page markers against that page's words):

* words are compared normalised: NFKC, case-folded, only letters and digits kept; a token that
  normalises to nothing (heading ``#``, list bullets, table pipes and separator rows, bold and
  italic marks, HTML tags and comments, page markers) has no box;
* Markdown words are matched in order against the page's words, each page word at most once;
  on a mismatch the next Markdown words are re-anchored at the nearest unused page position
  holding the same three (then two) words, forward first; a single word re-anchors only when
  it is unique on the page or a few words ahead; a run of matches from a repeated 2-gram or a
  word a few ahead must reach 3 words, else it is undone (common words of text that is not on
  this page do not land on scattered lines); a word joined or split differently (hyphenation, "e.g." written "e. g.") matches the
  concatenation of up to three neighbours; anything else (text the converter wrote itself, a
  word missing from the text layer) stays unmapped;
* a mapped word keeps the box of each page word it matched (two for a word hyphenated across
  lines) and the line it sits on.

`SourceMap.boxes(start, end)` gives the regions of ``markdown[start:end]``: one rectangle per
touched line (spanning the matched words), consecutive lines of the same block or column merged,
a partial first or last line kept apart, in Markdown (reading) order.

Invariants: boxes use 1-based pages and PDF points, origin top-left, of the unrotated page
(the text layer's coordinates); `SourceMap.boxes` of an empty or unmapped range is empty.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..conversion.textlayer import PageText, TextLayer
from ..fsutil import atomic_write_text
from ..markers import page_bodies
from ..textkeys import compact_key

FORMAT = "citechunk.sourcemap"
VERSION = 1

#: Markdown the converter writes that never comes from the page (replaced by blanks, so offsets
#: stay true): HTML comments (page markers, image placeholders), HTML tags, table pipes.
_SYNTAX_RE = re.compile(r"<!--.*?-->|</?[A-Za-z][^<>]*>|\|", re.DOTALL)
_TOKEN_RE = re.compile(r"\S+")
_MAX_JOIN = 3
_NEAR = 8  # a repeated single word re-anchors only this many page words ahead
_MIN_RUN = 3  # matches after a weak anchor must run this many words to stay
_BESIDE = 8  # lines of one row (table cells) join across gaps up to this many line heights


@dataclass(frozen=True)
class Box:
    """A rectangle on a page: 1-based page, PDF points, origin top-left."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float

    def to_dict(self) -> dict[str, float | int]:
        return {"page": self.page, "x0": self.x0, "y0": self.y0, "x1": self.x1, "y1": self.y1}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Box:
        return cls(int(d["page"]), float(d["x0"]), float(d["y0"]), float(d["x1"]), float(d["y1"]))

    @property
    def area(self) -> float:
        return max(0.0, self.x1 - self.x0) * max(0.0, self.y1 - self.y0)


@dataclass(frozen=True)
class MapLine:
    """A text-layer line: its page, block and extent."""

    page: int
    block: int
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class Piece:
    """Markdown characters ``[start, end)`` came from words of `line` spanning ``x0..x1``."""

    start: int
    end: int
    line: int
    x0: float
    x1: float


#: The comparison form of a word: NFKC, case-folded, letters and digits only.
normalise = compact_key


def markdown_tokens(markdown: str, start: int, end: int) -> list[tuple[str, int, int]]:
    """(normalised word, start, end) of the Markdown words in ``[start, end)`` that have text."""
    segment = _SYNTAX_RE.sub(lambda m: " " * len(m.group()), markdown[start:end])
    out = []
    for m in _TOKEN_RE.finditer(segment):
        norm = normalise(m.group())
        if norm:
            out.append((norm, start + m.start(), start + m.end()))
    return out


def _ngram_index(words: Sequence[str], n: int) -> dict[tuple[str, ...], list[int]]:
    index: dict[tuple[str, ...], list[int]] = {}
    for i in range(len(words) - n + 1):
        index.setdefault(tuple(words[i : i + n]), []).append(i)
    return index


class _Aligner:
    """Aligns one page's Markdown words (`md`) to its text-layer words (`page`); each page word
    is matched at most once (text the Markdown repeats keeps one box, not two)."""

    def __init__(self, md: Sequence[str], page: Sequence[str]) -> None:
        self.md, self.page = md, page
        self.index = {n: _ngram_index(page, n) for n in (3, 2, 1)}
        self.used = bytearray(len(page))

    def _free(self, positions: list[int], p: int) -> list[int]:
        """Unused `positions`, the nearest to `p` first (forward, then backward)."""
        k = bisect.bisect_left(positions, p)
        ahead = [q for q in positions[k:] if not self.used[q]]
        return ahead + [q for q in reversed(positions[:k]) if not self.used[q]]

    def _anchor(self, i: int, p: int) -> tuple[int, bool] | None:
        """(page position, weak) to re-anchor md word `i` at; weak when the words matched there
        occur elsewhere on the page too (a 2-gram, or a word a few positions ahead)."""
        for n in (3, 2):
            if i + n <= len(self.md):
                free = self._free(self.index[n].get(tuple(self.md[i : i + n]), []), p)
                if free:
                    return free[0], n == 2 and len(free) > 1
        free = self._free(self.index[1].get((self.md[i],), []), p)
        if len(free) == 1:
            return free[0], False
        return (free[0], True) if free and p <= free[0] <= p + _NEAR else None

    def _joined(self, i: int, p: int) -> tuple[int, int] | None:
        """(md words, page words) when 1 md word = 2..3 page words or 2..3 md words = 1."""
        for n in range(2, _MAX_JOIN + 1):
            if p + n <= len(self.page) and self.md[i] == "".join(self.page[p : p + n]):
                return (1, n) if not any(self.used[p : p + n]) else None
            if i + n <= len(self.md) and "".join(self.md[i : i + n]) == self.page[p]:
                return n, 1
        return None

    def _take(self, out: list[tuple[int, ...]], i: int, nm: int, p: int, nw: int) -> None:
        for k in range(nm):
            out[i + k] = tuple(range(p, p + nw))
        for q in range(p, p + nw):
            self.used[q] = 1

    def _undo(self, out: list[tuple[int, ...]], start: int, end: int) -> None:
        for k in range(start, end):
            for q in out[k]:
                self.used[q] = 0
            out[k] = ()

    def align(self) -> list[tuple[int, ...]]:
        """For each md word, the page word indices it matched (empty when none). A run of
        matches that starts at a weak anchor and ends before `_MIN_RUN` words is undone: common
        words of text that is not on this page do not land on scattered lines."""
        out: list[tuple[int, ...]] = [()] * len(self.md)
        i, p = 0, 0
        run, weak = 0, False  # where the current run of matches started, and how
        while i < len(self.md):
            free = p < len(self.page) and not self.used[p]
            step = (1, 1) if free and self.md[i] == self.page[p] else None
            step = step or (self._joined(i, p) if free else None)
            if step:
                self._take(out, i, step[0], p, step[1])
                i, p = i + step[0], p + step[1]
                continue
            if weak and i - run < _MIN_RUN:
                self._undo(out, run, i)
            anchor = self._anchor(i, p)
            if anchor is None:
                i += 1
                run, weak = i, False
            else:
                (p, weak), run = anchor, i
        if weak and i - run < _MIN_RUN:
            self._undo(out, run, i)
        return out


def _line_table(page: PageText) -> tuple[dict[tuple[int, int], MapLine], list[tuple[int, int]]]:
    """The page's lines keyed by (block, line), and each word's key."""
    extent: dict[tuple[int, int], list[float]] = {}
    keys = []
    for w in page.words:
        key = (w.block, w.line)
        keys.append(key)
        e = extent.setdefault(key, list(w.box))
        e[0], e[1] = min(e[0], w.box[0]), min(e[1], w.box[1])
        e[2], e[3] = max(e[2], w.box[2]), max(e[3], w.box[3])
    _meet_midway(list(extent.values()))
    lines = {k: MapLine(page.number, k[0], *(round(v, 2) for v in e)) for k, e in extent.items()}
    return lines, keys


def _meet_midway(boxes: list[list[float]]) -> None:
    """Lines one above the other whose glyph boxes overlap by less than half a line's height
    (type set solid: ascenders reach into the line above) meet at the middle of the shared
    band, so that no two lines' rectangles cover the same strip of the page."""
    rows = sorted(boxes, key=lambda b: b[1])
    for i, upper in enumerate(rows):
        for lower in rows[i + 1 :]:
            if lower[1] >= upper[3]:
                break
            shared = upper[3] - lower[1]
            height = min(upper[3] - upper[1], lower[3] - lower[1])
            beside = min(upper[2], lower[2]) - max(upper[0], lower[0]) > 0
            if beside and 0 < shared < 0.5 * height and lower[3] > upper[3]:
                upper[3] = lower[1] = (upper[3] + lower[1]) / 2


def _page_pieces(
    markdown: str, start: int, end: int, page: PageText, lines: list[MapLine]
) -> list[Piece]:
    """Align one page's Markdown span to `page`; new lines are appended to `lines`."""
    tokens = markdown_tokens(markdown, start, end)
    kept = [(normalise(w.text), i) for i, w in enumerate(page.words)]
    kept = [(norm, i) for norm, i in kept if norm]
    if not tokens or not kept:
        return []
    table, keys = _line_table(page)
    ids: dict[tuple[int, int], int] = {}
    pieces = []
    matched = _Aligner([t[0] for t in tokens], [k[0] for k in kept]).align()
    for (_, t0, t1), words in zip(tokens, matched, strict=True):
        for j in words:
            wi = kept[j][1]
            key = keys[wi]
            if key not in ids:
                ids[key] = len(lines)
                lines.append(table[key])
            box = page.words[wi].box
            pieces.append(Piece(t0, t1, ids[key], round(box[0], 2), round(box[2], 2)))
    return pieces


def build(markdown: str, layer: TextLayer) -> SourceMap:
    """The source map of page-marked `markdown` against `layer` (see the module rules)."""
    lines: list[MapLine] = []
    pieces: list[Piece] = []
    known = set(layer.numbers)
    for start, end, number in page_bodies(markdown):
        if number in known:
            pieces += _page_pieces(markdown, start, end, layer.page(number), lines)
    pieces.sort(key=lambda p: (p.start, p.end))
    return SourceMap(tuple(lines), tuple(pieces))


_Rect = tuple[MapLine, float, float]  # a line with the x extent of its matched words


def _height(r: _Rect) -> float:
    return max(r[0].y1 - r[0].y0, 1.0)


def _union(rects: Sequence[_Rect]) -> Box:
    return Box(
        rects[0][0].page,
        min(r[1] for r in rects),
        min(r[0].y0 for r in rects),
        max(r[2] for r in rects),
        max(r[0].y1 for r in rects),
    )


def _continues(group: Sequence[_Rect], r: _Rect) -> bool:
    """True when line `r` extends `group`: the next line of its column, or beside its last line
    (cells of a table row, spans of one line)."""
    last, u = group[-1], _union(group)
    line, x0, x1 = r
    if line.page != last[0].page:
        return False
    h = max(_height(last), _height(r))
    gap = line.y0 - last[0].y1
    overlap_x = min(x1, u.x1) - max(x0, u.x0)
    below_limit = 1.2 * h if line.block == last[0].block else 0.8 * h
    if -0.5 * h <= gap <= below_limit and overlap_x >= 0.3 * min(x1 - x0, u.x1 - u.x0):
        return True
    overlap_y = min(line.y1, last[0].y1) - max(line.y0, last[0].y0)
    gap_x = max(x0 - u.x1, u.x0 - x1)
    return overlap_y >= 0.5 * min(_height(last), _height(r)) and gap_x <= _BESIDE * h


def _own_row(a: _Rect, b: _Rect) -> bool:
    """`a` and `b` are on different rows (one above the other): their boxes share less than
    half the height of the lower one (set solid, a line's glyph box reaches into the next)."""
    shared = min(a[0].y1, b[0].y1) - max(a[0].y0, b[0].y0)
    return shared < 0.5 * min(_height(a), _height(b))


def _group_boxes(group: Sequence[_Rect]) -> list[Box]:
    """A group's rectangles: its union, with a partial first or last line kept apart (a chunk
    that starts or ends mid-line does not cover the rest of that line)."""
    head: list[_Rect] = []
    tail: list[_Rect] = []
    body = list(group)
    if len(body) >= 2 and _own_row(body[0], body[1]):
        rest = _union(body[1:])
        if body[0][1] > rest.x0 + 0.5 * _height(body[0]):
            head, body = [body[0]], body[1:]
    if len(body) >= 2 and _own_row(body[-1], body[-2]):
        rest = _union(body[:-1])
        if body[-1][2] < rest.x1 - 0.5 * _height(body[-1]):
            tail, body = [body[-1]], body[:-1]
    return [_union([r]) for r in head] + [_union(body)] + [_union([r]) for r in tail]


def _covers(box: Box, line: MapLine) -> bool:
    """`box` covers a good part (30%) of `line`."""
    w = min(box.x1, line.x1) - max(box.x0, line.x0)
    h = min(box.y1, line.y1) - max(box.y0, line.y0)
    area = (line.x1 - line.x0) * (line.y1 - line.y0)
    return w > 0 and h > 0 and w * h > 0.3 * area


def merge_lines(rects: Iterable[_Rect], foreign: Sequence[MapLine] = ()) -> list[Box]:
    """Rectangles for lines given in reading order (see `_continues` and `_group_boxes`); a line
    does not join a group when their union would cover one of the `foreign` lines (text the
    range does not hold: figure labels, another chunk's lines around a caption)."""
    groups: list[list[_Rect]] = []
    for r in rects:
        if groups and _continues(groups[-1], r):
            union = _union([*groups[-1], r])
            if not any(ln.page == union.page and _covers(union, ln) for ln in foreign):
                groups[-1].append(r)
                continue
        groups.append([r])
    return [b for g in groups for b in _group_boxes(g)]


@dataclass(frozen=True)
class SourceMap:
    """Text-layer lines and the Markdown pieces that came from them (pieces sorted by start)."""

    lines: tuple[MapLine, ...]
    pieces: tuple[Piece, ...]
    _starts: list[int] = field(init=False, repr=False, compare=False)
    _ends: list[int] = field(init=False, repr=False, compare=False)
    _by_page: dict[int, list[tuple[int, MapLine]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_page: dict[int, list[tuple[int, MapLine]]] = {}
        for k, ln in enumerate(self.lines):
            by_page.setdefault(ln.page, []).append((k, ln))
        object.__setattr__(self, "_by_page", by_page)
        object.__setattr__(self, "_starts", [p.start for p in self.pieces])
        object.__setattr__(self, "_ends", [p.end for p in self.pieces])

    def pieces_in(self, start: int, end: int) -> tuple[Piece, ...]:
        """The pieces overlapping Markdown characters ``[start, end)``."""
        lo = bisect.bisect_right(self._ends, start)
        hi = bisect.bisect_left(self._starts, end)
        return tuple(p for p in self.pieces[lo:hi] if p.start < end and p.end > start)

    def boxes(self, start: int, end: int) -> list[Box]:
        """The regions ``markdown[start:end]`` came from, a few per page, in reading order."""
        extent: dict[int, list[float]] = {}
        for p in self.pieces_in(start, end):
            e = extent.setdefault(p.line, [p.x0, p.x1])
            e[0], e[1] = min(e[0], p.x0), max(e[1], p.x1)
        pages = {self.lines[k].page for k in extent}
        foreign = [
            ln for page in sorted(pages) for k, ln in self._by_page.get(page, ()) if k not in extent
        ]
        return merge_lines(((self.lines[k], e[0], e[1]) for k, e in extent.items()), foreign)

    def to_json(self) -> str:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "lines": [[ln.page, ln.block, ln.x0, ln.y0, ln.x1, ln.y1] for ln in self.lines],
            "pieces": [[p.start, p.end, p.line, p.x0, p.x1] for p in self.pieces],
        }
        return json.dumps(data, separators=(",", ":")) + "\n"

    @classmethod
    def from_json(cls, text: str) -> SourceMap:
        data = json.loads(text)
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise ValueError(f"not a {FORMAT} version {VERSION} file")
        lines = tuple(
            MapLine(int(a), int(b), float(c), float(d), float(e), float(f))
            for a, b, c, d, e, f in data["lines"]
        )
        pieces = tuple(
            Piece(int(a), int(b), int(c), float(d), float(e)) for a, b, c, d, e in data["pieces"]
        )
        return cls(lines, pieces)


def map_path(md_path: str | os.PathLike[str]) -> Path:
    """Where the source map of `md_path` is saved: ``<md_path>.map.json``."""
    return Path(str(md_path) + ".map.json")


def save(smap: SourceMap, md_path: str | os.PathLike[str]) -> Path:
    """Write `smap` beside `md_path`, atomically; returns its path."""
    path = map_path(md_path)
    atomic_write_text(path, smap.to_json())
    return path


def load(md_path: str | os.PathLike[str]) -> SourceMap | None:
    """The saved source map of `md_path`, or None when there is none (an older output)."""
    path = map_path(md_path)
    if not path.is_file():
        return None
    try:
        return SourceMap.from_json(path.read_text(encoding="utf-8"))
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a readable source map: {exc}") from None


def of_pdf(pdf: str | os.PathLike[str], markdown: str, password: str = "") -> SourceMap:
    """Open `pdf` with PyMuPDF and map `markdown` to its text layer."""
    import pymupdf

    with pymupdf.open(pdf) as doc:
        if doc.needs_pass and not doc.authenticate(password):
            raise ValueError(f"{pdf}: encrypted and the password does not open it")
        return build(markdown, TextLayer.of_document(doc))


def markdown_boxes(md_path: str | os.PathLike[str], start: int, end: int) -> list[Box]:
    """The page regions of characters ``[start, end)`` of a saved Markdown file (read from its
    source map; empty when the file has none). For citing a sentence inside a chunk."""
    smap = load(md_path)
    return smap.boxes(start, end) if smap else []
