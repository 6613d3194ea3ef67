"""A caption is no heading.

The layout model sometimes classes a table's or figure's caption as a title or section header
("Table 3 Exposure limits", "TABLE IV", "Fig. 4", "表1 ..."); every paragraph after it up to
the next heading would then be filed under the caption. `caption_heads(boxes)`: a title or
section-header box whose text opens with a caption label and its number (`is_caption`)
becomes a caption box, rendered as a body line (a one-line paragraph right before a table is
the table's caption for the chunker), so it opens no section.

The caption labels are `captionlabels.is_caption`'s.
"""

from __future__ import annotations

import logging
from typing import Any

from ..captionlabels import is_caption

log = logging.getLogger(__name__)

HEADING_CLASSES = frozenset({"title", "section-header"})


def box_text(box: Any) -> str:
    """The text of a layout box, its lines joined by a space."""
    return " ".join("".join(span["text"] for span in line["spans"]) for line in box.textlines or ())


def caption_heads(boxes: list[Any]) -> list[Any]:
    """A title or section-header box whose text opens with a caption label and its number
    becomes a caption box (module docstring); boxes are edited in place and returned."""
    for box in boxes:
        if box.boxclass in HEADING_CLASSES and is_caption(box_text(box)):
            log.debug("caption set as a heading read as a caption: %s", box_text(box)[:80])
            box.boxclass = "caption"
    return boxes
