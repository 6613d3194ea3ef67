"""The heading-first chunker: one chunk per section that fits, size fallback inside sections.

Contract (tested with hypothesis in tests/test_chunking_properties.py):
- ``text`` = the path line + "\\n\\n" + body, or just ``body`` when the path line is empty. The
  path line is " > ".join of the document title (when one is given and it is not the path's
  first heading already) and ``heading_path``, whose first heading (of two or more words) is left out when the
  title holds it (a label that completes the title heading with an issuer, number or date
  stands for it) or it opens with a title of four or more words (the title heading a label was
  shortened from): the title tells chunks of documents made on one template apart. ``heading_path`` holds the headings only;
  ``token_count`` is the tokenizer's count of ``text`` and is <= ``max_tokens``.
- Offset invariant: ``strip_markers(markdown[char_start:char_end]).strip() == body``, except that
  a piece of a split table that starts on a row after the table's head gets the table's head
  prepended, and a piece that starts inside a split fenced code block gets the opening fence
  line: ``body == head + "\n" + span``. A table's head is its caption (up to two one-line
  paragraphs right before it, joined by a blank line) and a blank line, then its header rows
  (the header row, the separator and the column-header rows after it) when its first row is a
  header (`split.is_header_row`); the caption is left out when both take over half the
  budget, and either part when it does not fit beside the row (``head`` is then the caption
  alone, the header rows alone, the header row and separator alone, or nothing: a table
  without a header row gets none invented). Spans are tight (they start and end on a non-space
  character outside marker lines), so ``first_page``/``last_page`` are the pages of the span's
  first and last characters and blank lines before a page marker claim no page.
- With ``overlap_tokens == 0`` spans are disjoint and in order: no table row (no character) is in
  two chunks. With ``min_tokens == 0`` and ``pack_short`` off they cover every non-space
  character outside heading lines and page markers exactly once; packed sections (`merge`)
  cover their heading lines too.
- Boundaries (`pack`): a section that fits is one chunk; a longer one is cut between blocks
  (paragraphs, lists, tables, code) first, then between list items, table row groups, lines
  and sentences; a table that fits the window is one unit with its caption, a longer one is cut
  into row groups as large as the window allows, each under the table's header rows whenever
  they fit beside its first row (the last two groups share their rows near-evenly,
  `pack.even_share`; the table's head, header rows and first row, is never cut to fill a piece
  and stays with its caption), and a row is cut only when it is over the window alone. A cut inside a sentence is the
  last choice (`pack.Packer._clean_cut`; a block opening in lower case after prose ending with
  no sentence end or colon goes on with its sentence): after the sentence when the piece still
  fits, else
  before it when the sentence fits a piece alone, else at a clause end, else after a word.
  No piece ends on a lead-in
  line (a line ending in a colon, a bold label, a table's caption, a row labelling the rows
  below) while more follows in its section: the line opens the next piece with what it
  introduces.
- No fragments: a short section (body under `SHORT_TOKENS` and `SHORT_SHARE` of ``max_tokens``)
  is packed with its neighbours under the same parent up to the window (`merge`; off with
  ``pack_short=False``); a section ending with a lead-in line joins the next one.
- ``kind`` (`kinds.chunk_kind`) says what the chunk holds: text, table, table-rows, list or
  navigation.
- A heading with no body makes no chunk but stays in the path of what follows; no chunk is only
  a heading. When nothing follows under it (the next heading is a sibling or shallower), its
  heading line opens the next chunk's body (or ends the last chunk's), so its words are not
  lost. Overlap only happens between fallback pieces of one section.
- Path lines take at most a quarter of ``max_tokens`` (`PATH_SHARE`), so the body keeps most of
  the window: when longer, headings before the nearest one are shortened to their first
  `SHORT_HEADING_WORDS` words and "…", then dropped outer first (the title stays), then the
  nearest heading alone is cut to its leading words; the title is dropped last.
  ``heading_path`` is the path as shown (shortened headings included).
- Deterministic: the same input and options give the same chunks.
"""

from __future__ import annotations

import logging
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..config import ChunkOptions
from ..models import Chunk
from ..textkeys import compact_key
from .base import Chunker
from .kinds import chunk_kind
from .merge import SectionPieces, merge_siblings
from .pack import LEAD_IN, Packer
from .pages import PageMap
from .sections import Section, parse_sections
from .split import APPROX_CHARS_PER_TOKEN, Measure, Piece, Splitter

log = logging.getLogger(__name__)

PATH_SEPARATOR = " > "
#: A first heading that opens with a title of at least this many words is the title heading
#: the label was shortened from (`conversion.title.MIN_CUT_WORDS`): the label stands for it.
MIN_CUT_LABEL_WORDS = 4
#: The path line takes at most this share of ``max_tokens``: the body keeps the rest.
PATH_SHARE = 0.25
#: An outer heading of a path line that is too long keeps this many leading words.
SHORT_HEADING_WORDS = 6
ELLIPSIS = "…"
#: A section whose body is under `SHORT_TOKENS` tokens and this share of ``max_tokens`` is short:
#: it is packed with its neighbours under the same parent (`merge`), never a fragment alone
#: (a two-line article, a fee line, a glossary entry; a paragraph-long section stays apart).
SHORT_SHARE = 0.125
SHORT_TOKENS = 32


def _shorten(heading: str) -> str:
    """``heading`` cut to its first `SHORT_HEADING_WORDS` words and an ellipsis."""
    words = heading.split()
    if len(words) <= SHORT_HEADING_WORDS:
        return heading
    return " ".join(words[:SHORT_HEADING_WORDS]) + ELLIPSIS


@dataclass(frozen=True)
class Prefix:
    """The heading path as it appears in chunk text, and its token count."""

    path: tuple[str, ...]
    text: str
    tokens: int


def _spans(pages: PageMap, sections: Sequence[Section]) -> Iterator[tuple[Section, int, int]]:
    """Each section that has a body, with its tight span. A titled heading with no body whose
    next section is not its child (a sibling or a shallower heading follows) is in no path; its
    heading line opens the next section's span instead, or, after the last body, ends the last
    span, so its words reach a chunk (an agenda's "6. ADJOURNMENT", a title before "# 1 ...")."""
    pending: int | None = None  # heading_start of the first such heading not yet placed
    last: tuple[Section, int, int] | None = None
    for k, section in enumerate(sections):
        span = pages.trim(section.body_start, section.body_end)
        if span is None:
            titled = len(section.path) > len(section.parent)
            child = k + 1 < len(sections) and sections[k + 1].parent_start == section.heading_start
            if titled and not child and pending is None:
                pending = section.heading_start
            continue
        start, end = span
        if pending is not None:
            opened = pages.trim(pending, end)
            start, pending = (opened[0] if opened else start), None
        if last is not None:
            yield last
        last = (section, start, end)
    if last is not None and pending is not None:  # bodiless headings after the last body
        tail = pages.trim(last[1], sections[-1].body_end)
        last = (last[0], last[1], tail[1]) if tail else last
    if last is not None:
        yield last


def _section_span(group: SectionPieces) -> tuple[int, int]:
    """A group's section span: from its heading line (a section under a heading) or its first
    piece, to its last piece's end. Every piece of a split section shares it."""
    start = group.pieces[0].start
    if group.section.level > 0:
        start = min(start, group.section.heading_start)
    return start, group.pieces[-1].end


class HeadingChunker(Chunker):
    """Heading-first chunking (see the module docstring for the contract)."""

    name = "heading"

    def __init__(
        self, options: ChunkOptions | None = None, title: str = "", pack_short: bool = True
    ) -> None:
        super().__init__(options)
        self.title = " ".join(title.split())
        self.pack_short = pack_short  # short sections packed with their neighbours (`merge`)
        self._prefixes: dict[tuple[str, ...], Prefix] = {}

    def chunk(self, markdown: str) -> list[Chunk]:
        return list(self.iter_chunks(markdown))

    def iter_chunks(self, markdown: str) -> Iterator[Chunk]:
        """The chunks one by one (memory stays about one section beyond the input)."""
        pages = PageMap(markdown, self.options.start_page)
        tree = parse_sections(markdown, self.options.max_depth)
        splitter = Splitter(pages, tree.fences, self.counter)
        groups: Iterable[SectionPieces] = self._groups(splitter, tree.sections)
        short = min(SHORT_TOKENS, int(self.options.max_tokens * SHORT_SHARE))
        short = short if self.pack_short else 0
        if short > 0 or self.options.min_tokens > 0:
            groups = merge_siblings(
                groups, self.options.min_tokens, lambda run, own: self._join(pages, run, own), short
            )
        marker_starts, marker_pages = pages.starts, [pages.start_page, *pages.pages]
        index = 0
        for group in groups:
            path = group.path
            head = group.head
            section_start, section_end = _section_span(group)
            for p in group.pieces:
                yield Chunk(  # positional (hot loop): index, text, body, path, pages, offsets,
                    index,  # tokens, section span, kind
                    head + p.body,
                    p.body,
                    path,
                    marker_pages[bisect_right(marker_starts, p.start)],
                    marker_pages[bisect_right(marker_starts, p.end - 1)],
                    p.start,
                    p.end,
                    p.tokens,
                    section_start,
                    section_end,
                    chunk_kind(markdown, p.start, p.end, p.body),
                )
                index += 1

    def _groups(self, splitter: Splitter, sections: Sequence[Section]) -> Iterator[SectionPieces]:
        """Each section's pieces: one exact count for a section that fits (the common case),
        else the size fallback (`_split`)."""
        text, likely_fits = splitter.pages.text, splitter.likely_fits
        max_tokens, count, approx = self.options.max_tokens, self.counter.count, self.counter.approx
        for section, start, end in _spans(splitter.pages, sections):
            prefix = self._prefixes.get(section.path) or self.prefix(section.path)
            ratio = None
            budget = max_tokens - prefix.tokens
            if (
                (end - start <= APPROX_CHARS_PER_TOKEN * budget)
                if approx
                else likely_fits(start, end, budget)
            ):
                body = text(start, end)
                if approx:
                    tokens = (len(prefix.text) + len(body) + 3) // 4
                else:
                    tokens = count(prefix.text + body)
                    splitter.calibrate(len(body), tokens - prefix.tokens)
                if tokens <= max_tokens:
                    piece = Piece(start, end, "", body, tokens)
                    yield SectionPieces(section, prefix.path, prefix.text, (piece,), prefix.tokens)
                    continue
                ratio = (tokens - prefix.tokens) / max(1, len(body))
            pieces = self._split(splitter, start, end, prefix, ratio)
            yield SectionPieces(section, prefix.path, prefix.text, tuple(pieces), prefix.tokens)

    # -- sizes -----------------------------------------------------------------------------
    def prefix(self, path: tuple[str, ...]) -> Prefix:
        """The displayed path for ``path``, fitted into `PATH_SHARE` of ``max_tokens``
        (cached)."""
        cached = self._prefixes.get(path)
        if cached is None:
            cached = self._fit_prefix(path)
            self._prefixes[path] = cached
        return cached

    def _lead(self, path: tuple[str, ...]) -> tuple[str, ...]:
        """The title before `path`, unless there is none or the path starts with it."""
        if not self.title or (path and compact_key(path[0]) == compact_key(self.title)):
            return ()
        return (self.title,)

    def _shown(self, path: tuple[str, ...]) -> tuple[str, ...]:
        """The path line's parts: the title, then `path` without a first heading of two or more
        words that the title holds (a label completing the document's title heading with an
        issuer, number or date stands for it) or that opens with a title of at least
        `MIN_CUT_LABEL_WORDS` words (the heading the label was shortened from)."""
        if path and self.title and len(path[0].split()) > 1:
            head, title = compact_key(path[0]), compact_key(self.title)
            cut = len(self.title.split()) >= MIN_CUT_LABEL_WORDS and head.startswith(title)
            if head in title or cut:
                return (self.title, *path[1:])
        return self._lead(path) + path

    def _fit_prefix(self, path: tuple[str, ...]) -> Prefix:
        """The path line within `PATH_SHARE` of ``max_tokens`` (module docstring): the whole
        path, else outer headings shortened to `SHORT_HEADING_WORDS` words, else dropped outer
        first, else the nearest heading cut to its leading words; the title goes last."""
        limit = max(1, int(self.options.max_tokens * PATH_SHARE))
        fitted = self._try(path, limit)
        if fitted is not None:
            return fitted
        shortened = tuple(_shorten(h) for h in path[:-1]) + path[-1:]
        for k in range(len(shortened)):
            fitted = self._try(shortened[k:], limit)
            if fitted is not None:
                return fitted
        if path:
            words = path[-1].split()
            lo, hi = 0, len(words) - 1  # longest leading run of words that fits
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if self._try((" ".join(words[:mid]),), limit) is not None:
                    lo = mid
                else:
                    hi = mid - 1
            fitted = self._try((" ".join(words[:lo]),), limit) if lo else None
            if fitted is not None:
                log.debug("heading shortened to fit the path line: %r", fitted.path)
                return fitted
        if self.title:
            text = self.title + "\n\n"
            tokens = self.counter.count(text)
            if tokens <= limit:
                return Prefix((), text, tokens)
        return Prefix((), "", 0)

    def _try(self, path: tuple[str, ...], limit: int) -> Prefix | None:
        """The prefix for ``path`` when it counts at most ``limit`` tokens."""
        shown = self._shown(path)
        if not shown:
            return Prefix((), "", 0)
        text = PATH_SEPARATOR.join(shown) + "\n\n"
        tokens = self.counter.count(text)
        return Prefix(path, text, tokens) if tokens <= limit else None

    def _measure(self, pages: PageMap, prefix: Prefix) -> Measure:
        counter = self.counter

        def measure(start: int, end: int, header: str) -> tuple[str, int]:
            body = pages.text(start, end)
            if header:
                body = header + "\n" + body
            if counter.approx:
                return body, (len(prefix.text) + len(body) + 3) // 4
            return body, counter.count(prefix.text + body)

        return measure

    # -- sections --------------------------------------------------------------------------
    def _split(
        self, splitter: Splitter, start: int, end: int, prefix: Prefix, ratio: float | None
    ) -> list[Piece]:
        """Pieces of a section that does not fit (``ratio``: its measured tokens per char)."""
        max_tokens = self.options.max_tokens
        budget = max_tokens - prefix.tokens
        measure = self._measure(splitter.pages, prefix)
        if not splitter.estimating and self.options.overlap_tokens == 0:
            return self._section_by_length(splitter, start, end, prefix, measure)
        units = splitter.units(start, end, budget, ratio)
        packer = Packer(splitter, budget, max_tokens, self.options.overlap_tokens, measure)
        return packer.pack(units)

    def _section_by_length(
        self, splitter: Splitter, start: int, end: int, prefix: Prefix, measure: Measure
    ) -> list[Piece]:
        """Sizes are character counts (`approx`): cut at blank lines by length, and run the
        ladder only on single blocks that are too long; a block under `LEAD_IN` of the limit
        just before such a block starts that block's first piece (as in `Packer`)."""
        max_tokens = self.options.max_tokens
        limit = APPROX_CHARS_PER_TOKEN * max_tokens - len(prefix.text)
        pieces: list[Piece] = []
        blocks = splitter.greedy_blocks(start, end, limit)
        lead: int | None = None  # start of a lead-in block carried into the next block
        for k, (s, e, fits) in enumerate(blocks):
            if fits and e - s < LEAD_IN * limit and k + 1 < len(blocks) and not blocks[k + 1][2]:
                lead = s  # pack.LEAD_IN: too small to stand alone before a block that is split
                continue
            if fits:
                spans = [(s, e, "")]
            elif lead is not None:
                spans = splitter.by_length(s, e, limit - (s - lead), start)
                if spans and not spans[0][2]:
                    spans[0] = (lead, spans[0][1], "")
                else:
                    spans.insert(0, (lead, blocks[k - 1][1], ""))
            else:
                spans = splitter.by_length(s, e, limit, start)
            lead = None
            for ps, pe, header in spans:
                body, tokens = measure(ps, pe, header)
                pieces.append(Piece(ps, pe, header, body, tokens))
        return pieces

    def _join(self, pages: PageMap, run: list[SectionPieces], own: bool) -> SectionPieces | None:
        """One piece for a run (`merge`): from the first sibling's heading line to the last
        section's end under the parent path, or (``own``) from a parent's body through its
        children under the parent's own path."""
        first = run[0].section
        prefix = self.prefix(first.path if own else first.parent)
        start = run[0].pieces[0].start
        if not own:  # the first sibling's heading line (its piece may hold bodiless headings)
            start = min(first.heading_start, start)
        span = pages.trim(start, run[-1].pieces[-1].end)
        if span is None:  # pragma: no cover - the run has bodies
            return None
        body, tokens = self._measure(pages, prefix)(span[0], span[1], "")
        if tokens > self.options.max_tokens:
            return None
        piece = Piece(span[0], span[1], "", body, tokens)
        return SectionPieces(first, prefix.path, prefix.text, (piece,), prefix.tokens)
