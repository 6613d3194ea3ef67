"""An author line is not a section title (``author-lines``).

`demote_author_lines(pages)`: a heading block on the document's first page whose text names
people and nothing else becomes a text block, and so does a heading "by" right before it. A
byline says who wrote the document; as a heading it parents the affiliation, the abstract and,
when it is set larger than the sections, the whole document in every chunk's path.

The rule, over the block's spans:

- *Names only* (`names`): the text, a leading "By" and a closing parenthesis (an affiliation)
  aside, splits at commas, semicolons, "&" and "and" into parts that are each a personal name
  (`is_name`: two to five words, each a capitalised word, an initial such as "H." or "H.J.", or
  a lower-case particle such as "van" or "de"; at least two that are not particles, the last a
  capitalised word) or a degree ("M.Sc.", "PhD"). Footnote marks (superscript spans, "*", "†",
  "¹", primes) are set aside first.
- *A sign of authorship* (a two-word title such as "General Terms" also reads as a name): a
  footnote mark, an initial, a leading "By" or a "by" line right before it, or an e-mail
  address holding one of the names in the text after it, before the next heading.

Only the first page is read, and only a heading after some other text of the page (of any
kind: a layout model may read the title above a byline as a page header): a byline stands
under the title, while a name that opens the page is the document's own title (a curriculum
vitae), and later pages use names as the titles of sections about people (a report's
directors, a tribute).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..blocks import Block
from ..mdlines import strip_inline_markup
from .common import Pages, demoted, edited

log = logging.getLogger(__name__)

#: Characters that mark a name for a footnote (an affiliation, a corresponding author).
MARKS = "*∗†‡§¹²³⁴⁵⁶⁷⁸⁹⁰'’\"″"
#: Words a name has at most and at least.
MAX_NAME_WORDS = 5
MIN_NAME_WORDS = 2
_BY_RE = re.compile(r"^by\s+", re.IGNORECASE)
_SEP_RE = re.compile(r"\s*(?:[,;&]|\band\b)\s*")
_AFFILIATION_RE = re.compile(r"\s*\([^()]*\)\s*$")
_WORD_RE = re.compile(r"^(?:[A-Z]['’])?[^\W\d_][^\W\d_A-Z]+(?:[-'’][^\W\d_][^\W\d_A-Z]+)*$")
_INITIAL_RE = re.compile(r"^(?:[A-Z]\.-?){1,3}$")
_DEGREE_RE = re.compile(r"^(?:[BM]\.?Sc|Ph\.?D|M\.?D|[BM]\.?A|MBA|Jr|Sr|Dr|Prof)\.?$")
_EMAIL_RE = re.compile(r"([\w.+-]+)@[\w-]+(?:\.[\w-]+)+")
_PARTICLES = frozenset(
    "van von de der den da di del della du le la dos das ten ter bin al el".split()
)


@dataclass(frozen=True)
class Byline:
    """What an author line's text reads as: its names (each a tuple of words), whether it
    opens with "By", and whether a name carries a footnote mark or an initial."""

    names: tuple[tuple[str, ...], ...]
    by: bool
    marked: bool
    initials: bool


def _capitalised(word: str) -> bool:
    return bool(_WORD_RE.match(word)) and word[0].isupper()


def is_name(words: Sequence[str]) -> bool:
    """A personal name (module docstring): two to five capitalised words, initials or
    particles, at least two not particles, the last a capitalised word."""
    if not MIN_NAME_WORDS <= len(words) <= MAX_NAME_WORDS or not _capitalised(words[-1]):
        return False
    if not all(_capitalised(w) or _INITIAL_RE.match(w) or w in _PARTICLES for w in words):
        return False
    return sum(w not in _PARTICLES for w in words) >= MIN_NAME_WORDS


def names(text: str, marked: bool = False) -> Byline | None:
    """The byline `text` reads as (module docstring), or None when any part is no name;
    `marked`: the block's spans held a superscript already."""
    plain = strip_inline_markup(text).strip()
    by = _BY_RE.match(plain) is not None
    plain = _AFFILIATION_RE.sub("", _BY_RE.sub("", plain))
    found: list[tuple[str, ...]] = []
    for part in _SEP_RE.split(plain):
        words = []
        for token in part.split():
            word = token.strip(MARKS)
            marked = marked or word != token
            if word:
                words.append(word)
        if not words or all(_DEGREE_RE.match(w) for w in words):
            continue
        if not is_name(words):
            return None
        found.append(tuple(words))
    if not found:
        return None
    initials = any(_INITIAL_RE.match(w) for name in found for w in name)
    return Byline(tuple(found), by, marked, initials)


def _unmarked(block: Block) -> tuple[str, bool]:
    """The block's text without its superscript spans, and whether it had any."""
    kept = [s.text.strip() for line in block.lines for s in line.spans if not s.superscript]
    marked = any(s.superscript and s.text.strip() for line in block.lines for s in line.spans)
    return " ".join(t for t in kept if t), marked


def _emails_name(byline: Byline, after: Sequence[Block]) -> bool:
    """An e-mail address in the blocks `after` (up to the next heading) holds one of the
    names' words."""
    words = {w.lower() for name in byline.names for w in name if len(w) > 2}
    for block in after:
        if block.is_heading:
            return False
        for local in _EMAIL_RE.findall(block.text):
            if any(w in local.lower() for w in words):
                return True
    return False


def _is_by(block: Block | None) -> bool:
    return block is not None and block.shown.strip().lower() == "by"


def author_line(blocks: Sequence[Block], i: int) -> bool:
    """Whether heading block `i` of the first page's `blocks` is an author line: below other
    text of the page, names only, with a sign of authorship (module docstring)."""
    if not any(b.text.strip() for b in blocks[:i]):
        return False
    text, marked = _unmarked(blocks[i])
    byline = names(text, marked)
    if byline is None:
        return False
    before = blocks[i - 1] if i > 0 else None
    if byline.by or byline.marked or byline.initials or _is_by(before):
        return True
    return _emails_name(byline, blocks[i + 1 :])


def demote_author_lines(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Heading blocks of the first page that are author lines, and a heading "by" right
    before one, become text blocks (module docstring)."""
    if not pages:
        return edited(pages, {})
    first = min(pages)
    blocks = pages[first]
    changes = {}
    for i, block in enumerate(blocks):
        if block.is_heading and author_line(blocks, i):
            changes[(first, i)] = demoted(block, "an author line, not a section title")
            if i > 0 and blocks[i - 1].is_heading and _is_by(blocks[i - 1]):
                changes[(first, i - 1)] = demoted(blocks[i - 1], "the 'by' of an author line")
    if changes:
        log.debug("author lines read as headings, made text: %d", len(changes))
    return edited(pages, changes)
