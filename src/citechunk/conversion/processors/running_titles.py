"""Running titles are not sections (block form of the ``running-titles`` rule).

Long documents reprint a title at the top of page after page (a company's name and "Notes to
the financial statements (Continued)", a report's title, a chapter name); layout models take
it for a heading on some pages, and as a heading it would parent whatever follows it on every
page and take a place in the document's heading scale.

`demote_running_titles(pages)`: a page's top blocks are its first `TOP_BLOCKS` blocks by
position (top edge, then left edge) among those with text that are no page header, page
footer or picture; the heading blocks and wholly bold text blocks among them are its opening
run, each alone and, when there are several, joined in that order ("PART I" / "Item 2"), each
title at the top edge of its (first) block. A title whose signature
(`signature`: plain text, case-folded, digits and a label's number blurred — "Part II" like
"Part I" —, short parentheticals such as "(Continued)" or "(Unaudited)" and punctuation
ignored) opens `MIN_PAGES` pages or more at one place (top edges within
`PLACE_TOLERANCE` points) is a running title there (a signature of labels and their numbers
alone only when one exact title of it, numbers included, opens two pages: "Article 4",
"Article 5", "Article 6" each opening one page are sections in sequence, while a running
"PART II" repeats: `running_signatures`). Every heading
block with that signature set at that place, or in an opening run whose joined title runs
there, becomes a text block (bold where its spans are); the same title set elsewhere (lower on
the page where its section starts) stays a heading. The pages need not follow each other; the
cost is that a section title that opens three pages at one place by itself is read as a
running title too.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Sequence

from ..blocks import Block
from ..mdlines import strip_inline_markup
from ..numbers import LABELS
from .common import MARGIN_KINDS, Pages, all_bold, demoted, edited

log = logging.getLogger(__name__)

TOP_BLOCKS = 3
#: Points: two top edges this close are one place on the page.
PLACE_TOLERANCE = 3.0
_NOT_TOP = MARGIN_KINDS | {"picture"}
MIN_PAGES = 3
_PARENTHETICAL_RE = re.compile(r"\((?:[^()\s]+(?:\s[^()\s]+)?)\)")
_NON_WORD_RE = re.compile(r"[\W_]+")
_LABELS = "|".join(LABELS)
# a label's number, roman or a letter included ("part ii", "appendix b"), blurred like digits
_LABEL_NUMBER_RE = re.compile(rf"\b({_LABELS})\s+(?:[ivxlc]+|[a-z]|\d+[a-z]?)\b")
# the signature of labels with their numbers alone: "Article 5", "Part II Item 7"
_LABEL_ALONE_RE = re.compile(rf"^(?:{_LABELS})(?: (?:{_LABELS}))*$")


def _folded(title: str) -> str:
    """The title's text without markup, NFKC-normalised and case-folded."""
    return unicodedata.normalize("NFKC", strip_inline_markup(title)).casefold()


def signature(title: str) -> str:
    """The identity of a running title (module docstring); "" for a title without letters."""
    plain = _PARENTHETICAL_RE.sub(" ", _folded(title))
    plain = _LABEL_NUMBER_RE.sub(r"\1 #", plain)
    plain = re.sub(r"\d+", "#", plain)
    return _NON_WORD_RE.sub(" ", plain).strip() if re.search(r"[^\W\d_]", plain) else ""


def exact_title(title: str) -> str:
    """A title's plain words, numbers kept: two pages opened by the same title match."""
    return _NON_WORD_RE.sub(" ", _folded(title)).strip()


def running_signatures(openers: list[set[tuple[str, str]]]) -> set[str]:
    """The signatures that open `MIN_PAGES` pages, a bare label's only when one of its titles
    repeats (module docstring)."""
    exact: Counter[tuple[str, str]] = Counter(pair for found in openers for pair in found)
    pages: Counter[str] = Counter(sig for found in openers for sig in {s for s, _ in found})
    repeats = {sig for (sig, _), n in exact.items() if n >= 2}
    return {
        sig
        for sig, n in pages.items()
        if n >= MIN_PAGES and (sig in repeats or not _LABEL_ALONE_RE.match(sig))
    }


def top_run(blocks: Sequence[Block]) -> list[int]:
    """Indexes of the heading and wholly bold text blocks among the page's top blocks, in
    position order (module docstring)."""
    shown = [i for i, b in enumerate(blocks) if b.text and b.kind not in _NOT_TOP]
    top = sorted(shown, key=lambda i: (blocks[i].bbox[1], blocks[i].bbox[0]))[:TOP_BLOCKS]
    return [
        i for i in top if blocks[i].is_heading or (blocks[i].kind == "text" and all_bold(blocks[i]))
    ]


def _titles(blocks: Sequence[Block], run: list[int]) -> list[tuple[str, float]]:
    """The run's titles with the top edge they stand at: each block's, and the joined run's."""
    titles = [(blocks[i].text, blocks[i].bbox[1]) for i in run]
    if len(titles) > 1:
        titles.append((" ".join(t for t, _ in titles), titles[0][1]))
    return titles


def _places(tops: list[tuple[int, float]]) -> list[float]:
    """The top edges at which a title opens `MIN_PAGES` pages (of its (page, top) openers)."""
    return [
        top
        for _, top in tops
        if len({n for n, t in tops if abs(t - top) <= PLACE_TOLERANCE}) >= MIN_PAGES
    ]


def _at(places: list[float], top: float) -> bool:
    return any(abs(top - place) <= PLACE_TOLERANCE for place in places)


def demote_running_titles(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """A heading that opens three or more pages at one place is a running title: each
    heading block with its signature at that place becomes a text block (module docstring)."""
    runs = {n: top_run(pages[n]) for n in pages}
    titles = {
        n: [(signature(t), t, top) for t, top in _titles(pages[n], run)] for n, run in runs.items()
    }
    openers = [{(sig, exact_title(t)) for sig, t, _ in found if sig} for found in titles.values()]
    tops: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for n, found in titles.items():
        for sig, _, top in found:
            tops[sig].append((n, top))
    places = {sig: _places(tops[sig]) for sig in running_signatures(openers)}
    places = {sig: found for sig, found in places.items() if found}
    joined = {
        (n, i)
        for n, run in runs.items()
        if len(run) > 1 and _at(places.get(titles[n][-1][0], []), titles[n][-1][2])
        for i in run
    }
    changes = {}
    for n, blocks in pages.items():
        for i, block in enumerate(blocks):
            here = _at(places.get(signature(block.text), []), block.bbox[1])
            if block.is_heading and (here or (n, i) in joined):
                why = f"running title: opens {MIN_PAGES}+ pages at top {block.bbox[1]:.0f} pt"
                changes[(n, i)] = demoted(block, why)
    if changes:
        log.debug("running titles made text (%d blocks): %s", len(changes), sorted(places))
    return edited(pages, changes)
