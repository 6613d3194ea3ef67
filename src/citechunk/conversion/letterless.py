"""A heading without a letter is no section title.

The layout model sometimes classes a line without any letter as a title or section header: a
page or column number, a figure ("$9.24", "1.12"), a date ("07/61"), an equation's tag, a mark
("＊"). Every paragraph after it up to the next heading would then be filed under that line.
`letterless_heads(boxes)`: such a title or section-header box becomes a text box, so it opens
no section. A bare number of up to three digits ("1", "2.") set right before another heading box
stays: it is a chapter label, which the numbering and outline repairs join to its title.
"""

from __future__ import annotations

import logging
from typing import Any

from ..textkeys import LETTER_RE
from .captionheads import HEADING_CLASSES, box_text
from .numbers import chapter_label

log = logging.getLogger(__name__)


def _chapter_label(text: str, after: Any) -> bool:
    return (
        chapter_label(text) is not None
        and after is not None
        and (after.boxclass in HEADING_CLASSES)
    )


def letterless_heads(boxes: list[Any]) -> list[Any]:
    """A title or section-header box without a letter becomes a text box, but a chapter label
    right before another heading (module docstring); boxes are edited in place and returned."""
    for i, box in enumerate(boxes):
        if box.boxclass not in HEADING_CLASSES:
            continue
        text = box_text(box).strip()
        after = boxes[i + 1] if i + 1 < len(boxes) else None
        if not LETTER_RE.search(text) and not _chapter_label(text, after):
            log.debug("heading without a letter read as text: %s", text[:40])
            box.boxclass = "text"
    return boxes
