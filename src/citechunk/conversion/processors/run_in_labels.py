"""Run-in labels: a paragraph that opens with a bold upper-case label and a colon is a section
(block form of the ``run-in-labels`` rule).

Government, legal and regulatory documents mark their sections with run-in heads set in bold
capitals at the start of the paragraph ("**DATES:** The FAA must receive comments by ..."), so
layout models read body text. `promote_run_in_labels(pages)`: a text block whose bold lead
(`leads.bold_lead`) is such a label, the colon ending the lead or opening the text after it,
and that goes on with text, becomes a section-header block of the label (colon dropped) and a
text block of the rest. Its level is left to the heading stage (the label's type is the body's:
below the document's larger headings), and consecutive labels are peers.

Only labels entirely in upper case (letters, digits, spaces and ``,'’&/()-``; at most 60
characters) qualify: mixed-case labels such as "**Return type:** int" or "**Note 1 to paragraph
(g):**" stay body text, and so do list items, table cells, captions and code.
"""

from __future__ import annotations

import logging
import re

from ..blocks import Block
from .common import Pages
from .leads import bold_lead, split, trim_rest, trim_title

log = logging.getLogger(__name__)

_LABEL_RE = re.compile(r"[A-Z][A-Z0-9 ,'’&/()\-]{0,59}")


def _promoted(block: Block) -> tuple[Block, ...] | None:
    """The heading and text blocks of a paragraph opening with a run-in label, else None."""
    lead = bold_lead(block) if block.kind == "text" else None
    if lead is None:
        return None
    text, rest = lead.text, lead.rest_text
    if text.endswith(":"):
        label = text[:-1].rstrip()
    elif rest.startswith(":"):
        label, rest = text, rest[1:]
    else:
        return None
    if not _LABEL_RE.fullmatch(label) or not rest.strip():
        return None
    title, after = trim_title(lead.lead, ":"), trim_rest(lead.rest, ":")
    return split(lead, title, after, "a bold upper-case label and a colon opening a paragraph")


def promote_run_in_labels(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """A paragraph opening with a bold upper-case label and a colon becomes a heading block of
    the label and a text block of the rest (module docstring)."""
    out, promoted = {}, 0
    for number, blocks in pages.items():
        new: list[Block] = []
        for block in blocks:
            parts = _promoted(block)
            promoted += parts is not None
            new += parts or (block,)
        out[number] = tuple(new)
    if promoted:
        log.debug("run-in labels promoted to headings: %d", promoted)
    return out
