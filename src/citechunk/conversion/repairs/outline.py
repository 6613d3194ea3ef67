"""Heading repair from the PDF outline (bookmarks): the author's own structure beats font sizes.

`repair_headings(pages, outline)` takes the converted pages (1-based page number, Markdown) and
the outline entries, and returns the pages with:

* every heading line that matches an outline entry set to the entry's depth (clamped to 1-6);
* every outline entry whose text is a body line (or two to three consecutive short lines, e.g.
  "APPENDIX A" + "GENERATED TEXTS") on its page becomes a heading line at the entry's depth;
* every other heading demoted, when needed, to one level below the outline entry that encloses
  it (so it nests under the entry instead of competing with it). Headings before the first
  matched entry are left alone.

Matching: titles are compared by `title_key` (markup stripped, NFKC, case-folded, punctuation
collapsed, leading section numbers such as "2.1.", "III-A", "A." removed), so "III-A Google
DeepDream" matches "A. Google DeepDream"; a title that differs only by spaces inside words
matches too ("Fet ching a URL" is "Fetching a URL"; `_same_title`). An entry is searched on
its destination page, then the next page, then the page before, never before the previous
match (outline order is document order), and never on a neighbouring page that a later entry
of the same title names (a structured abstract's "Methods" is not the "Methods" section on the
next page). Heading lines are preferred over body lines; a heading that starts with the
entry's words also matches ("Appendix A" -> "Appendix A. Synoptic Report"). An entry whose
destination lies before the previous entry found is broken (a producer that lost it points to
page 1): it is the heading line of its title on the one page between the previous entry's page
and the next sound destination that prints it as a heading, and not found when no page or
several do (`_find_moved`). Lines inside code fences and table rows are never touched. Cost is
linear in the number of candidate lines.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..mdlines import (
    HEADING_RE,
    heading_level,
    iter_unfenced,
    make_heading,
    split_pages,
    strip_inline_markup,
)
from ..numbers import label_only
from ..outline import (
    LIST_PREFIX_RE,
    MAX_TITLE_CHARS,
    NUMBERING_RE,
    OutlineEntry,
    full_key,
    is_sentence,
    title_key,
)

if TYPE_CHECKING:
    from ..passcontext import PassContext

log = logging.getLogger(__name__)

SHOWN_MISSING = 3  # titles a warning names
MIN_SPACED_CHARS = 6  # a title matched with its spaces removed is at least this long


def names_a_heading(title: str) -> bool:
    """True when an outline entry's title reads as a heading a person would look for on its
    page: not a bare label with a number (slide and page bookmarks), not a sentence
    (`outline.is_sentence`: a numbered item's text)."""
    if not title.split() or label_only(title):
        return False
    return not is_sentence(title)


@dataclass(frozen=True)
class RepairStats:
    """What `repair_headings` did: entries found (by kind) and entries not found."""

    relevelled: int = 0
    promoted: int = 0
    demoted: int = 0
    missing: tuple[str, ...] = field(default_factory=tuple)


@dataclass
class _Line:
    page_idx: int
    line_idx: int
    key: str
    is_heading: bool


@dataclass
class _Match:
    entry: OutlineEntry
    page_idx: int
    first: int
    last: int  # inclusive: lines first..last were joined into the heading


def _candidates(lines: list[str], page_idx: int) -> list[_Line]:
    """Lines that could be headings: short, not blank, not code, not table rows."""
    found = []
    for i, inside in iter_unfenced(lines):
        line = lines[i]
        if inside or not line.strip() or len(line) > MAX_TITLE_CHARS or line.startswith("|"):
            continue
        text = HEADING_RE.sub(r"\2", line) if line.startswith("#") else line
        key = title_key(LIST_PREFIX_RE.sub("", text))
        if key:
            found.append(_Line(page_idx, i, key, heading_level(line) > 0))
    return found


def _match_on_page(
    entry_key: str, cands: list[_Line], after: tuple[int, int]
) -> tuple[int, int] | None:
    """Best candidate after `after`: heading equal, heading prefix, body equal, joined lines.

    Returns (index into `cands` of the first line, number of candidate lines joined).
    """
    usable = [n for n, c in enumerate(cands) if (c.page_idx, c.line_idx) > after]
    for n in usable:
        if cands[n].is_heading and _same_title(cands[n].key, entry_key):
            return n, 1
    for n in usable:
        if cands[n].is_heading and len(entry_key) >= 8 and cands[n].key.startswith(entry_key):
            return n, 1
    for n in usable:
        if _same_title(cands[n].key, entry_key):
            return n, 1
    for n in usable:
        joined = cands[n].key
        for k in range(1, 3):
            if not entry_key.startswith(joined + " ") or n + k >= len(cands):
                break
            if cands[n + k].line_idx - cands[n + k - 1].line_idx > 2:
                break
            joined += " " + cands[n + k].key
            if joined == entry_key:
                return n, k + 1
    return None


def _same_title(key: str, entry_key: str) -> bool:
    """Whether a line's title key is the entry's: equal, or equal once spaces are removed when
    that leaves at least `MIN_SPACED_CHARS` characters (a text layer that sets a gap inside a
    word: "Fet ching a URL" is the entry "Fetching a URL")."""
    if key == entry_key:
        return True
    compact = key.replace(" ", "")
    return len(compact) >= MIN_SPACED_CHARS and compact == entry_key.replace(" ", "")


def _split_run_in(lines: list[str], entry_key: str, after: int) -> int | None:
    """Split a run-in heading ("I. INTRODUCTION According to ...") off a body line.

    Only a line after index `after` whose first words (upper-case or bold) are the entry's
    title qualifies; the title becomes its own line followed by a blank line and the rest.
    Returns the index of the new title line.
    """
    for i, inside in iter_unfenced(lines):
        line = lines[i]
        if i <= after or inside or line.startswith(("#", "|")) or len(line) <= len(entry_key):
            continue
        words = line.split(" ")
        for k in range(1, min(len(words), 16)):
            prefix = " ".join(words[:k])
            key = NUMBERING_RE.sub("", full_key(prefix)).strip()
            if not key:
                continue  # numbering only so far ("II.")
            if key == entry_key and _looks_like_title(prefix):
                rest = " ".join(words[k:])
                if _opens_bold(prefix):  # the bold run goes on past the title
                    prefix, rest = prefix + "**", "**" + rest
                lines[i : i + 1] = [prefix, "", rest]
                return i
            if not entry_key.startswith(key):
                break
    return None


def _looks_like_title(prefix: str) -> bool:
    """Upper-case words (numbering aside) or a bold prefix (wholly bold, or the start of a
    bold run that goes on past it): a run-in heading."""
    plain = strip_inline_markup(prefix)
    bold = prefix.startswith("**") and (prefix.endswith("**") or _opens_bold(prefix))
    return bold or (plain.upper() == plain and any(ch.isalpha() for ch in plain))


def _opens_bold(prefix: str) -> bool:
    """True when `prefix` opens a bold run and does not close it."""
    return prefix.startswith("**") and len(prefix) > 2 and "**" not in prefix[2:]


def _locate(
    outline: Sequence[OutlineEntry], page_numbers: list[int], split: list[list[str]]
) -> tuple[list[_Match], list[str]]:
    """Find each entry's line, in outline order; entries on converted pages not found are listed.

    May split run-in headings off body lines in `split` (see `_split_run_in`).
    """
    index = {p: i for i, p in enumerate(page_numbers)}
    cands = [_candidates(lines, i) for i, lines in enumerate(split)]
    matches: list[_Match] = []
    missing: list[str] = []
    after = (-1, -1)
    keys = [title_key(entry.title) for entry in outline]
    for n, entry in enumerate(outline):
        key = keys[n]
        named = {e.page for e, k in zip(outline[n + 1 :], keys[n + 1 :], strict=True) if k == key}
        if _broken(entry.page, page_numbers, after):
            window = (page_numbers[after[0]], _next_page(outline, n))
            hit = _find_moved(key, window, index, cands, after)
        else:
            hit = _find(key, entry.page, index, cands, after, named - {entry.page})
        if hit is None and (run_in := _find_run_in(key, entry.page, index, split, after)):
            cands[run_in[0]] = _candidates(split[run_in[0]], run_in[0])
            hit = _find(key, entry.page, index, cands, after)
        if hit is None:
            if entry.page in index:
                missing.append(entry.title)
            continue
        page_idx, first, last = hit
        matches.append(_Match(entry, page_idx, first, last))
        after = (page_idx, last)
    return matches, missing


def _find(
    key: str,
    page: int,
    index: dict[int, int],
    cands: list[list[_Line]],
    after: tuple[int, int],
    others: frozenset[int] | set[int] = frozenset(),
) -> tuple[int, int, int] | None:
    """(page index, first line, last line) of the entry on its page, the next, or the one before
    (not on a page of `others`: pages later entries of the same title name)."""
    for p in (page, page + 1, page - 1):
        if p != page and p in others:
            continue
        if p in index and (hit := _match_on_page(key, cands[index[p]], after)):
            first, last = cands[index[p]][hit[0]], cands[index[p]][hit[0] + hit[1] - 1]
            return index[p], first.line_idx, last.line_idx
    return None


def _broken(page: int, page_numbers: list[int], after: tuple[int, int]) -> bool:
    """An entry's destination is broken when it lies before the page of the previous entry
    found (outline order is document order)."""
    return after[0] >= 0 and page < page_numbers[after[0]]


def _next_page(outline: Sequence[OutlineEntry], n: int) -> int:
    """Where the window a broken entry `n` is searched in ends: the destination of the first
    later entry whose destination is not before any earlier entry's; a large number when none."""
    floor = max((e.page for e in outline[:n]), default=0)
    return next((e.page for e in outline[n + 1 :] if e.page >= floor), 1 << 30)


def _find_moved(
    key: str,
    window: tuple[int, int],
    index: dict[int, int],
    cands: list[list[_Line]],
    after: tuple[int, int],
) -> tuple[int, int, int] | None:
    """(page index, first line, last line) of a broken entry (`_broken`): the heading line of
    its title on the one page of `window` (first and last page, inclusive) that prints it as a
    heading after `after`; None when no page or several do."""
    hits = []
    for p in sorted(q for q in index if window[0] <= q <= window[1]):
        page = cands[index[p]]
        hits += [
            (index[p], c.line_idx, c.line_idx)
            for c in page
            if c.is_heading and (c.page_idx, c.line_idx) > after and _same_title(c.key, key)
        ]
    pages = {hit[0] for hit in hits}
    return hits[0] if len(pages) == 1 else None


def _find_run_in(
    key: str, page: int, index: dict[int, int], split: list[list[str]], after: tuple[int, int]
) -> tuple[int, int] | None:
    """(page index, line) of a run-in heading split off on the entry's page or the next."""
    for p in (page, page + 1):
        if p not in index or index[p] < after[0]:
            continue
        start = after[1] if index[p] == after[0] else -1
        line = _split_run_in(split[index[p]], key, start)
        if line is not None:
            return index[p], line
    return None


def _heading_from(lines: list[str], first: int, last: int, level: int) -> str:
    """One heading line of `level` from lines first..last (heading/list markers dropped)."""
    parts = [
        LIST_PREFIX_RE.sub("", HEADING_RE.sub(r"\2", lines[i])) for i in range(first, last + 1)
    ]
    return make_heading(level, " ".join(p for p in parts if p.strip()))


def repair_headings(
    pages: Sequence[tuple[int, str]], outline: Sequence[OutlineEntry]
) -> tuple[list[tuple[int, str]], RepairStats]:
    """Apply the outline to the pages (see module docstring). Without outline: unchanged."""
    if not outline:
        return list(pages), RepairStats()
    split = split_pages(pages)
    matches, missing = _locate(outline, [p for p, _ in pages], split)
    promoted = 0
    dropped: set[tuple[int, int]] = set()
    for m in matches:
        lines = split[m.page_idx]
        promoted += heading_level(lines[m.first]) == 0
        lines[m.first] = _heading_from(lines, m.first, m.last, m.entry.level)
        dropped.update((m.page_idx, i) for i in range(m.first + 1, m.last + 1))
    demoted = _demote_others(split, {(m.page_idx, m.first): m for m in matches}, dropped)
    out = []
    for k, (number, _) in enumerate(pages):
        kept = [line for i, line in enumerate(split[k]) if (k, i) not in dropped]
        out.append((number, "\n".join(kept)))
    stats = RepairStats(len(matches) - promoted, promoted, demoted, tuple(missing))
    log.debug("outline repair: %s", stats)
    return out, stats


def _demote_others(
    split: list[list[str]], by_line: dict[tuple[int, int], _Match], dropped: set[tuple[int, int]]
) -> int:
    """Headings not from the outline go at least one level below the enclosing entry."""
    depth = 0
    demoted = 0
    for page_idx, lines in enumerate(split):
        for i, inside in iter_unfenced(lines):
            if inside or (page_idx, i) in dropped:
                continue
            match = by_line.get((page_idx, i))
            if match:
                depth = min(match.entry.level, 6)
                continue
            level = heading_level(lines[i])
            if level and 0 < depth < 6 and level <= depth:
                lines[i] = make_heading(depth + 1, HEADING_RE.sub(r"\2", lines[i]))
                demoted += 1
    return demoted


def apply_outline(pages: Sequence[tuple[int, str]], ctx: PassContext) -> list[tuple[int, str]]:
    """Headings follow the PDF outline: entries found take its levels, others nest under them.

    `repair_headings` with the context's outline; entries not found on their pages are logged
    (titles, at debug level); those that name a heading (`names_a_heading`) are counted in a
    warning naming the first few, since a person should look at them."""
    repaired, stats = repair_headings(pages, ctx.outline)
    if stats.missing:
        log.debug("%s: outline entries not found: %s", ctx.source, "; ".join(stats.missing))
    look = [t for t in stats.missing if names_a_heading(t)]
    if look:
        shown = "; ".join(repr(t) for t in look[:SHOWN_MISSING])
        more = f"; +{len(look) - SHOWN_MISSING} more" if len(look) > SHOWN_MISSING else ""
        ctx.warnings.append(
            f"outline entries not found on their pages: {len(look)} ({shown}{more})"
        )
    return repaired
