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
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from ..mdlines import make_heading, page_lines

log = logging.getLogger(__name__)

_LABEL_RE = re.compile(r"^\*\*([A-Z][A-Z0-9 ,'’&/()\-]{0,59}?)\s*(?::\*\*|\*\*\s*:)[ \t]+(\S.*)$")


def promote_run_in_labels(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """A paragraph opening with a bold upper-case label and a colon becomes a heading one level
    below the heading before it (module docstring). Returns new (page, Markdown) pairs."""
    level, promoted, out = 0, 0, []
    for number, text in pages:
        lines = text.split("\n")
        new: list[str] = []
        for line in page_lines(lines):
            if line.heading:
                level = len(line.heading.group(1))
            label = _LABEL_RE.match(line.text) if line.opens else None
            if label:
                new += [make_heading(level + 1, label.group(1)), "", label.group(2)]
                promoted += 1
            else:
                new.append(line.text)
        out.append((number, "\n".join(new)))
    log.debug("run-in labels promoted to headings: %d", promoted)
    return out
