"""What the run-in heading rules share: the bold words a paragraph block opens with, and the
paragraph cut in two there (a heading block of those words, a text block of the rest).

A block's *lead* is the run of bold spans its text opens with (spans of blanks inside the run
belong to it), across lines, as a paragraph renders it in one bold run (``**7. App Stores.**
You may ...``); its text is the spans' text, each stripped, joined by one blank (`Block.shown`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..blocks import Block, Kind, Line, Span
from ..textlayer import union_box
from .common import part


@dataclass(frozen=True)
class Lead:
    """A block cut after a bold run: ``lead`` (the run, from where it was looked for) and
    ``rest`` (every span after it) as (line index, span) in reading order."""

    block: Block
    lead: tuple[tuple[int, Span], ...]
    rest: tuple[tuple[int, Span], ...]

    @property
    def text(self) -> str:
        return _shown(s for _, s in self.lead)

    @property
    def rest_text(self) -> str:
        return _shown(s for _, s in self.rest)


def _shown(spans: Iterator[Span]) -> str:
    return " ".join(s.text.strip() for s in spans if s.text.strip())


def _spans(block: Block) -> list[tuple[int, Span]]:
    return [(i, s) for i, line in enumerate(block.lines) for s in line.spans]


def bold_lead(block: Block, start: int = 0) -> Lead | None:
    """`block` cut after the bold run that opens its text from span `start` on (counted over
    all its lines; a run of bold spans showing text, blanks between them joining it); None when
    the first span showing text there is not bold."""
    spans = _spans(block)
    end = start
    while end < len(spans) and not spans[end][1].text.strip():
        end += 1
    if end == len(spans) or not spans[end][1].bold:
        return None
    last = end
    for k in range(end, len(spans)):
        span = spans[k][1]
        if span.text.strip():
            if not span.bold:
                break
            last = k
    return Lead(block, tuple(spans[start : last + 1]), tuple(spans[last + 1 :]))


def _lines(block: Block, spans: tuple[tuple[int, Span], ...]) -> tuple[Line, ...]:
    """`spans` regrouped by the block lines they came from, each line boxed by its spans."""
    lines = []
    for index in sorted({i for i, _ in spans}):
        mine = tuple(s for i, s in spans if i == index)
        shown = [s.bbox for s in mine if s.text.strip()]
        box = union_box(shown) if shown else block.lines[index].bbox
        lines.append(replace(block.lines[index], bbox=box, spans=mine))
    return tuple(lines)


def _edge(spans: tuple[tuple[int, Span], ...], at: int, text: str) -> tuple[tuple[int, Span], ...]:
    """`spans` with span number `at` showing `text` instead (dropped when `text` is blank)."""
    index, span = spans[at]
    new = ((index, replace(span, text=text)),) if text.strip() else ()
    return (*spans[:at], *new, *spans[at + 1 :])


def trim_title(spans: tuple[tuple[int, Span], ...], chars: str) -> tuple[tuple[int, Span], ...]:
    """`spans` with `chars` (and blanks) stripped off the end of the last span showing text."""
    shown = [k for k, (_, s) in enumerate(spans) if s.text.strip()]
    return _edge(spans, shown[-1], spans[shown[-1]][1].text.rstrip(" " + chars)) if shown else spans


def trim_rest(spans: tuple[tuple[int, Span], ...], chars: str) -> tuple[tuple[int, Span], ...]:
    """`spans` with `chars` (and blanks) stripped off the start of the first span showing text."""
    shown = [k for k, (_, s) in enumerate(spans) if s.text.strip()]
    return _edge(spans, shown[0], spans[shown[0]][1].text.lstrip(" " + chars)) if shown else spans


def _part(block: Block, spans: tuple[tuple[int, Span], ...], kind: Kind, why: str) -> Block:
    return part(block, _lines(block, spans), kind, why, depth=0)


def split(
    lead: Lead, title: tuple[tuple[int, Span], ...], rest: tuple[tuple[int, Span], ...], why: str
) -> tuple[Block, ...]:
    """The paragraph as a section-header block of the spans `title` (its level left to the
    heading stage) and, when `rest` shows text, a text block of `rest`; `why` on both."""
    head = _part(lead.block, title, "section-header", why)
    if not any(s.text.strip() for _, s in rest):
        return (head,)
    return (head, _part(lead.block, rest, "text", why))
