"""Sections named by running headers: a page header whose text changes between runs of pages
opens a section where the body does not.

The rule, over a document without an outline (the outline decides where there is one):

- A page that has a running line (`runninglines`: an edge line repeated on several pages) has
  as its *section line* the first line in its top band (`runninglines.EDGE_BAND`) that is no
  page number and not the document's constant header (a line on `CONSTANT_SHARE` or more of
  the pages that have a header: the document's or the publisher's name), when that line holds
  three letters or more once a "(continued)" mark and the page number beside it are dropped,
  and is either a running line itself or set *once* in the size, weight and place (its top
  within half its size) of a running line of a section (below): a section of one page names
  itself in the slot where the document's sections of several pages name theirs. A line set
  once with a "(continued)" mark goes on with the section line of the page before, and is
  left out where that page has none. A continuation note ("continued from previous page") is
  no header. Lines below it are subtitles.
- Pages without a section line are neutral; a *run* is a maximal sequence of pages whose
  section lines are the same (`outline.title_key`). A line that heads two runs apart
  alternates with another (verso and recto headers) and names no section. A run of
  `MIN_RUN_PAGES` pages or more, or of lines set once, is a section, unless its words are in
  the document's title (it names the document) or none of its pages has body text
  (`body_pages`: `MIN_BODY_WORDS` words between the top and bottom bands set at the
  document's body size): a header that names a section stands over the section's text, and
  one seen only over drawings, figures or a form's boxes is the header of those sheets.
- Each section opens at the document's top section level (the smallest level of a heading
  after page 1, else 1), unless a body heading of that level, other than one an earlier
  header section opened, opens a section on the run's first page or the page before: the
  last body heading or one-line paragraph with the header's words (a heading whose words
  begin with them where the header is set once: a title wrapped to a second line) since the
  section before takes that level; without one, a heading block with the header's text is
  put before the first block of the run's first page.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from .blocks import Block, Layer, Line, Span
from .outline import title_key
from .runninglines import EDGE_BAND, RunningLines, is_page_number, line_signature
from .textlayer import Line as TextLine
from .textlayer import PageText, TextLayer, body_size

#: A header line on this share of the pages that have one is the document's constant header.
CONSTANT_SHARE = 0.8
#: A section's run holds its header on this many pages at least.
MIN_RUN_PAGES = 2
#: A running header read as a heading is among a page's first blocks.
TOP_BLOCKS = 3
#: The evidence of a heading a header section put in, and of one it raised.
OPENED = "the running header names a section that opens here"
RAISED = "its words are the running header of the pages after it"
#: A page has body text when this many words between its edge bands are set at the body size.
MIN_BODY_WORDS = 20
#: Points: a line within this of the document's body size is set at it.
BODY_SIZE_TOLERANCE = 0.5
_CONTINUED_RE = re.compile(
    r"[\s(\[–—-]*\b(?:continued|cont'?d|cont\.)[\s.)\]…]*$|^\W*continued\b.*$", re.I
)
_FOLIO_RE = re.compile(r"^\s*(?:page\s+)?\d{1,3}\s+|\s+(?:page\s+)?\d{1,3}\s*$", re.I)


@dataclass(frozen=True)
class Section:
    """A section a running header names: its first page, the header's text, its last page and
    whether its header is set once (a title of one page, which may wrap to a second line)."""

    page: int
    text: str
    last: int = 0
    once: bool = False


def _header_text(text: str) -> str:
    return _CONTINUED_RE.sub("", _FOLIO_RE.sub("", text)).strip()


def _top_lines(layer: TextLayer, running: RunningLines, number: int) -> list[tuple[TextLine, bool]]:
    """Page `number`'s horizontal lines in the top band, top to bottom, page numbers left
    out: each with whether it is a running line."""
    page = layer.page(number)
    signatures = running.on_page(number)
    out = []
    for line in sorted(page.lines, key=lambda ln: (ln.box[1], ln.box[0])):
        if page.height and line.box[1] <= page.height * EDGE_BAND and not line.vertical:
            if not is_page_number(line.text):
                out.append((line, line_signature(line.text) in signatures))
    return out


def _first_lines(
    layer: TextLayer, running: RunningLines, pages: Sequence[int]
) -> dict[int, tuple[TextLine, bool]]:
    """Each page's first top-band line after the document's constant header, with whether
    it is a running line, on the pages that have a running line (module docstring)."""
    tops = {n: _top_lines(layer, running, n) for n in pages}
    headed = [n for n in pages if any(is_running for _, is_running in tops[n])]
    counts = Counter(key for n in headed for key in {_top_key(ln) for ln, run in tops[n] if run})
    constant = {k for k, c in counts.items() if c >= CONSTANT_SHARE * len(headed)}
    out = {}
    for n in headed:
        rest = [(ln, run) for ln, run in tops[n] if _top_key(ln) not in constant]
        if rest:
            out[n] = rest[0]
    return out


def _continued(text: str) -> bool:
    return bool(_CONTINUED_RE.search(_FOLIO_RE.sub("", text)))


def _top_key(line: TextLine) -> str:
    return title_key(_header_text(line.text))


def _names_something(line: TextLine) -> bool:
    return sum(ch.isalpha() for ch in _header_text(line.text)) >= 3


def _placed_like(line: TextLine, lines: Collection[TextLine]) -> bool:
    """`line` is set in the size, weight and place on the page of one of `lines`."""
    return any(
        line.bold == ref.bold
        and abs(line.size - ref.size) <= BODY_SIZE_TOLERANCE
        and abs(line.box[1] - ref.box[1]) <= ref.size / 2
        for ref in lines
    )


def _once(
    firsts: Mapping[int, tuple[TextLine, bool]], slots: Sequence[TextLine], lines: Mapping[int, str]
) -> dict[int, str]:
    """The section lines set once (module docstring): lines of `firsts` that are no running
    line, set like one of `slots`; with a continuation mark, only after a page of `lines` with
    the same words."""
    once: dict[int, str] = {}
    for n, (line, run) in sorted(firsts.items()):
        if run or not _names_something(line) or not _placed_like(line, slots):
            continue
        text = _header_text(line.text)
        before = once.get(n - 1, lines.get(n - 1, ""))
        if not _continued(line.text) or title_key(before) == title_key(text):
            once[n] = text
    return once


def find_sections(
    layer: TextLayer, running: RunningLines, pages: Sequence[int], title: str = ""
) -> tuple[Section, ...]:
    """The sections the page headers of `pages` name (module docstring): those of the running
    section lines, then again with the lines set once in the place of theirs."""
    firsts = _first_lines(layer, running, pages)
    repeated = {n: ln for n, (ln, run) in firsts.items() if run and _names_something(ln)}
    lines = {n: _header_text(ln.text) for n, ln in repeated.items()}
    bodied = body_pages(layer, pages) if lines else frozenset()
    found = sections(lines, title, bodied)
    slots = [repeated[n] for s in found for n in range(s.page, s.last + 1) if n in repeated]
    once = _once(firsts, slots, lines)
    if not once:
        return tuple(found)
    return tuple(sections({**lines, **once}, title, bodied, frozenset(once)))


def _inner_lines(page: PageText) -> list[TextLine]:
    """The page's horizontal lines between its top and bottom bands (`EDGE_BAND`)."""
    low, high = page.height * EDGE_BAND, page.height * (1 - EDGE_BAND)
    return [ln for ln in page.lines if not ln.vertical and low < ln.box[1] < high]


def body_pages(layer: TextLayer, pages: Sequence[int]) -> frozenset[int]:
    """The pages of `pages` with body text: `MIN_BODY_WORDS` words or more between the edge
    bands in lines set at the body size of those lines over `pages` (`textlayer.body_size`)."""
    inner = {n: _inner_lines(layer.page(n)) for n in pages}
    size = body_size(ln for lines in inner.values() for ln in lines)
    return frozenset(
        n
        for n, lines in inner.items()
        if sum(len(ln.text.split()) for ln in lines if abs(ln.size - size) <= BODY_SIZE_TOLERANCE)
        >= MIN_BODY_WORDS
    )


def sections(
    lines: Mapping[int, str],
    title: str = "",
    bodied: Collection[int] | None = None,
    once: Collection[int] = (),
) -> list[Section]:
    """The sections the section lines of `lines` (page -> line) open (module docstring); a
    line whose words are in the document's `title` names the document, not a section, and a
    run none of whose pages is in `bodied` (the pages with body text; None: all) none. A run
    of the pages in `once` (lines set once in the section lines' place) needs no second page."""
    runs: list[tuple[str, list[int]]] = []
    for n in sorted(lines):
        key = title_key(lines[n])
        if runs and runs[-1][0] == key:
            runs[-1][1].append(n)
        else:
            runs.append((key, [n]))
    heads = Counter(key for key, _ in runs)
    found = [
        Section(pages[0], lines[pages[0]], pages[-1], all(n in once for n in pages))
        for key, pages in runs
        if heads[key] == 1
        and (len(pages) >= MIN_RUN_PAGES or all(n in once for n in pages))
        and _key(key) not in _key(title)
        and (bodied is None or any(n in bodied for n in pages))
    ]
    return found


def opening(running: RunningLines, found: Sequence[Section]) -> RunningLines:
    """`running` with the header of each section of `found` counted once as a body line of the
    section's first page: the heading that opens it is text, not a running line."""
    body = {n: dict(counts) for n, counts in running.body.items()}
    for section in found:
        signature = line_signature(section.text)
        page = body.setdefault(section.page, {})
        page[signature] = page.get(signature, 0) + 1
    return replace(running, body=body)


def _top_level(pages: Mapping[int, Sequence[Block]]) -> int:
    first = min(pages, default=1)
    levels = [b.level for n, bs in pages.items() if n > first for b in bs if b.level]
    return min(levels, default=1)


def _key(text: str) -> str:
    """`outline.title_key` without blanks: a header and a heading match however the text
    layer spaced their words."""
    return title_key(text).replace(" ", "")


def _names(block: Block, key: str, wrapped: bool = False) -> bool:
    """A heading, or a one-line text block, whose words are the header's; with `wrapped` (a
    header set once: a title whose first line it may be), a heading whose words begin with
    them. A running header is the same on every page, so a heading holding more than its words
    is another title under it."""
    if block.is_heading:
        heading = _key(block.text)
        return heading.startswith(key) if wrapped else heading == key
    return block.kind == "text" and len(block.lines) == 1 and _key(block.text) == key


def _heading(section: Section, level: int, before: Block | None) -> Block:
    size = float(before.size) if before else 0.0
    span = Span(section.text, size=size)
    box = before.bbox if before else (0.0, 0.0, 0.0, 0.0)
    return Block(
        page=section.page,
        bbox=box,
        kind="section-header",
        lines=(Line(box, (span,)),),
        level=level,
        evidence=(OPENED,),
    )


def _open(blocks: Sequence[Block], section: Section, level: int) -> tuple[Block, ...]:
    key = _key(section.text)
    for i, block in enumerate(blocks):
        if _names(block, key, section.once):
            why = RAISED
            raised = replace(
                block, kind="section-header", level=level, evidence=(*block.evidence, why)
            )
            return (*blocks[:i], raised, *blocks[i + 1 :])
    return (_heading(section, level, blocks[0] if blocks else None), *blocks)


def _repeats(blocks: Sequence[Block], key: str) -> tuple[Block, ...]:
    """`blocks` with each heading among the first `TOP_BLOCKS` that holds the header's words
    (the running header read as a heading) put in the furniture layer."""
    out = list(blocks)
    for i, block in enumerate(blocks[:TOP_BLOCKS]):
        if block.is_heading and key in _key(block.text):
            why = "a running header repeated as a heading"
            out[i] = replace(block, layer=Layer.FURNITURE, evidence=(*block.evidence, why))
    return tuple(out)


def _opened(pages: Mapping[int, Sequence[Block]], number: int, level: int, key: str) -> bool:
    """A body heading at `level` or above, other than the header's own words and other than
    one a header section opened, opens a section on page `number` or the one before."""
    near = [*pages.get(number - 1, ()), *pages.get(number, ())]
    return any(
        b.is_heading
        and b.level
        and b.level <= level
        and key not in _key(b.text)
        and not {OPENED, RAISED} & set(b.evidence)
        for b in near
    )


def _named_at(pages: Mapping[int, Sequence[Block]], section: Section, first: int) -> int | None:
    """The last page from the section's first back to `first` with a block naming its header
    (`_names`)."""
    key = _key(section.text)
    for n in range(section.page, first - 1, -1):
        if any(_names(b, key, section.once) for b in pages.get(n, ())):
            return n
    return None


def open_sections(
    pages: Mapping[int, Sequence[Block]], found: Sequence[Section]
) -> dict[int, tuple[Block, ...]]:
    """`pages` with each section of `found` opened at the top section level (module
    docstring): the last body heading or line with its words since the section before is
    raised, else a heading block put first on its page; the header's repeats as headings on
    the section's pages go to the furniture layer."""
    out = {n: tuple(bs) for n, bs in pages.items()}
    level = _top_level(pages)
    since = min(pages, default=1)
    for section in found:
        key = _key(section.text)
        opener = _named_at(pages, section, since)
        since = section.last + 1
        if section.page not in out or _opened(out, section.page, level, key):
            continue
        for n in range(section.page - 1, section.last + 1):
            if n in out:
                out[n] = _repeats(out[n], key)
        page = section.page if opener is None else opener
        out[page] = _open(pages[page] if opener is not None else out[page], section, level)
    return out
