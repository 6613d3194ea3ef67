"""Run-in headings: a paragraph that opens with a bold upper-case label and a colon.

Government, legal and regulatory documents mark their sections with run-in heads set in bold
capitals inside the first line of the paragraph ("**DATES:** The FAA must receive comments
by ..."), so layout models see body text. `promote_run_in_labels(pages)` turns each such
paragraph into a heading line holding the label (colon dropped) one level below the heading
it follows, a blank line, and the rest of the paragraph; consecutive labels become siblings.

Only labels that are bold, entirely upper case (letters, digits, spaces and ``,'’&/()-``; at
most 60 characters) and followed by a colon and text on the same line qualify; mixed-case
labels such as "**Return type:** int" or "**Note 1 to paragraph (g):**" stay body text, and so
do list items, table rows and lines inside code fences.

The same policy, the other way round: `demote_label_headings(pages)` turns a heading whose title
ends with a colon and is not all upper case ("Parameters:", "Caution:", "On Windows, you have
two options:") into a bold line. Such a label introduces what follows inside the current section;
as a heading it replaced the section's own title in every chunk path below it
("Document > Parameters:" instead of the method it documents). A heading that is only a date
("February 2024", "Thursday, August 6, 2020"), a title page's dateline, is demoted too: as a
heading it became the parent of the front matter after it. So is a heading that is a sentence
(it ends with a period and has at least `SENTENCE_WORDS` words: "All comments are subject to
release under the Freedom of Information Act (FOIA)."): as a heading with no body it was carried
into the next section's chunk instead of staying in the section it belongs to.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from ..mdlines import (
    HEADING_RE,
    bold_line,
    heading_lines,
    iter_unfenced,
    join_pages,
    make_heading,
    split_pages,
    strip_inline_markup,
)

log = logging.getLogger(__name__)

_LABEL_RE = re.compile(r"^\*\*([A-Z][A-Z0-9 ,'’&/()\-]{0,59}?)\s*(?::\*\*|\*\*\s*:)[ \t]+(\S.*)$")


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE_RE = re.compile(
    rf"(?:[a-z]+day,?\s+)?(?:{_MONTH}\s+(?:\d{{1,2}},?\s+)?\d{{4}}|\d{{1,2}}\s+{_MONTH}\s+\d{{4}})",
    re.IGNORECASE,
)


SENTENCE_WORDS = 6  # a title ending with a period and this many words is a sentence


def is_label_title(title: str) -> bool:
    """A mixed-case title ending with a colon, a bare date ("February 2024"), or a sentence."""
    plain = strip_inline_markup(title)
    if _DATE_RE.fullmatch(plain):
        return True
    if plain.endswith(".") and len(plain.split()) >= SENTENCE_WORDS:
        return True
    return plain.endswith(":") and plain.upper() != plain


def demote_label_headings(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """Mixed-case headings ending with a colon, and bare dates, become bold lines (module
    docstring)."""
    split, demoted = split_pages(pages), 0
    for p, i, heading in heading_lines(split):
        if is_label_title(heading.group(2)):
            split[p][i] = bold_line(heading.group(2))
            demoted += 1
    if demoted:
        log.debug("label headings demoted to bold lines: %d", demoted)
    return join_pages(pages, split)


def promote_run_in_labels(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """A paragraph opening with a bold upper-case label and a colon becomes a heading one level
    below the heading before it (module docstring). Returns new (page, Markdown) pairs."""
    level, promoted, out = 0, 0, []
    for number, text in pages:
        lines = text.split("\n")
        new: list[str] = []
        for i, inside in iter_unfenced(lines):
            line = lines[i]
            heading = None if inside else HEADING_RE.match(line)
            if heading:
                level = len(heading.group(1))
            label = None if inside or heading else _LABEL_RE.match(line)
            if label and (i == 0 or not lines[i - 1].strip()):
                new += [make_heading(level + 1, label.group(1)), "", label.group(2)]
                promoted += 1
            else:
                new.append(line)
        out.append((number, "\n".join(new)))
    log.debug("run-in labels promoted to headings: %d", promoted)
    return out
