"""The PDF's own text layer, page by page: the reference every conversion check reads.

Backends write Markdown; this module reads what the PDF itself holds (PyMuPDF's words and
lines with their boxes and fonts), so passes can compare the two (words lost, running lines,
heading fonts) and chunks can point back at regions of the page. It never renders Markdown.

Invariants:
- page numbers are 1-based, as in the page markers;
- coordinates are PDF points with the origin top-left (PyMuPDF's), of the unrotated page;
- a page is read once, on first use, and cached; a page with no text gives empty tuples;
- `TextLayer.from_pages` builds one from words made elsewhere (an OCR engine), with the same
  shapes, so no caller needs to know where the words came from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .blocks import BOLD as BOLD_FLAG
from .blocks import MONOSPACED
from .spans import readable

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Word:
    """One word as the PDF places it: ``block``/``line`` number it within its page."""

    text: str
    box: Box
    block: int
    line: int


@dataclass(frozen=True)
class Line:
    """One text line: its words in order, its box, the largest font size, whether all of
    its spans are bold, whether it is set sideways (not left to right) and whether all of its
    spans are in a fixed-pitch font; size, bold and fixed pitch read from the spans that print
    a character (not blanks or control characters alone)."""

    text: str
    box: Box
    block: int
    size: float
    bold: bool
    vertical: bool = False
    mono: bool = False


@dataclass(frozen=True)
class PageText:
    """Everything read from one page."""

    number: int
    words: tuple[Word, ...]
    lines: tuple[Line, ...]
    #: The page's height in points (0: unknown, e.g. words from an OCR engine).
    height: float = 0.0

    @property
    def text(self) -> str:
        """The page's lines joined with newlines (reading order as the PDF stores it)."""
        return "\n".join(line.text for line in self.lines)


def body_size(lines: Iterable[Line]) -> float:
    """The font size (to 0.1 pt) holding the most characters of `lines`; 0 without lines."""
    weight: Counter[float] = Counter()
    for line in lines:
        weight[round(line.size, 1)] += len(line.text)
    return weight.most_common(1)[0][0] if weight else 0.0


def union_box(boxes: Iterable[Sequence[float]]) -> Box:
    """The smallest box holding all of `boxes` (at least one), as (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = zip(*boxes, strict=True)
    return (min(x0), min(y0), max(x1), max(y1))


def _words(page: Any) -> tuple[Word, ...]:
    """The page's words, without those too low to read (`spans.readable`, as
    `spans.drop_unreadable` leaves them out of the layout path)."""
    return tuple(
        Word(str(w[4]), (w[0], w[1], w[2], w[3]), int(w[5]), int(w[6]))
        for w in page.get_text("words", sort=False)
        if readable((w[0], w[1], w[2], w[3]))
    )


def _visible(text: str) -> bool:
    """`text` holds a character that is printed: not only blanks and control characters (a
    glyph the font maps to no character, such as a large bracket read as U+0001)."""
    return any(ch.isprintable() and not ch.isspace() for ch in text)


def _line(block_no: int, raw: Mapping[str, Any]) -> Line | None:
    """The line's size, bold and fixed pitch are read from its spans that print a character
    (`_visible`): a span of control characters set large is no part of the line's look."""
    shown = [s for s in raw.get("spans", ()) if readable(tuple(s["bbox"]))]
    spans = [s for s in shown if _visible(str(s.get("text", "")))]
    if not spans:
        return None
    text = "".join(str(s["text"]) for s in shown).strip()
    return Line(
        text=text,
        box=tuple(raw["bbox"]),
        block=block_no,
        size=max(float(s.get("size", 0.0)) for s in spans),
        bold=all(int(s.get("flags", 0)) & BOLD_FLAG for s in spans),
        vertical=abs(float(raw.get("dir", (1.0, 0.0))[1])) > 0.01,
        mono=all(int(s.get("flags", 0)) & MONOSPACED for s in spans),
    )


def _lines(page: Any) -> tuple[Line, ...]:
    out: list[Line] = []
    for block_no, block in enumerate(page.get_text("dict", sort=False)["blocks"]):
        for raw in block.get("lines", ()):
            line = _line(block_no, raw)
            if line is not None:
                out.append(line)
    return tuple(out)


def read_page(page: Any, number: int) -> PageText:
    """Words and lines of one PyMuPDF page (`number` is its 1-based page number)."""
    return PageText(number, _words(page), _lines(page), float(page.cropbox.height))


class TextLayer:
    """Lazy, cached access to the text layer of a document's pages.

    Built over an open PyMuPDF document (`of_document`) or over pages read elsewhere
    (`from_pages`). The reader is only called while the document is open; a caller that
    closes it first must have read the pages it needs (`preload`).
    """

    def __init__(self, reader: Callable[[int], PageText], numbers: Iterable[int]) -> None:
        self._reader = reader
        self._numbers = tuple(numbers)
        self._cache: dict[int, PageText] = {}

    @classmethod
    def of_document(cls, doc: Any) -> TextLayer:
        return cls(lambda n: read_page(doc[n - 1], n), range(1, doc.page_count + 1))

    @classmethod
    def from_pages(cls, pages: Iterable[PageText]) -> TextLayer:
        known = {p.number: p for p in pages}
        return cls(lambda n: known.get(n, PageText(n, (), ())), sorted(known))

    @property
    def numbers(self) -> tuple[int, ...]:
        return self._numbers

    def page(self, number: int) -> PageText:
        if number not in self._cache:
            self._cache[number] = self._reader(number)
        return self._cache[number]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the pages read so far (the reader needs the open document)."""
        return (TextLayer.from_pages, (tuple(self._cache.values()),))

    def preload(self, numbers: Iterable[int]) -> TextLayer:
        """Read `numbers` now (before the document closes); returns self."""
        for n in numbers:
            self.page(n)
        return self

    def with_page(self, page: PageText) -> TextLayer:
        """A copy whose `page.number` reads as `page` (e.g. the words an OCR engine found)."""
        reader = self._reader
        layer = TextLayer(lambda n: page if n == page.number else reader(n), self._numbers)
        layer._cache = {k: v for k, v in self._cache.items() if k != page.number}
        return layer
