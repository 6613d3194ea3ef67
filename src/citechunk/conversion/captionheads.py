"""A caption is no heading.

The layout model sometimes classes a table's or figure's caption as a title or section header
("Table 3 Exposure limits", "TABLE IV", "Fig. 4", "表1 ..."); every paragraph after it up to
the next heading would then be filed under the caption. `caption_heads(boxes)`: a title or
section-header box whose text opens with a caption label and its number (`is_caption`)
becomes a caption box, rendered as a body line (a one-line paragraph right before a table is
the table's caption for the chunker), so it opens no section.

A caption label is a word naming a table, figure or chart (in English, German, French,
Spanish, Italian, Portuguese or Dutch; "Fig.", "Abb." and "Tab." abbreviated, "Tab." only with
its period) followed by a number: arabic with dotted or dashed parts ("2.1", "3-2", an optional
letter "4a"), roman ("IV"), or a letter and digits ("A.1", "S2"); or a Chinese, Japanese or
Korean label (表, 図, 図表, 图, 圖, 표, 그림, "第1表") with its digits. "Table of Contents",
"Figures" alone and "Exhibit N" are not captions: an exhibit label opens an appended document
(a filing's "EXHIBIT 31.1"), a section of its own.
"""

from __future__ import annotations

import logging
import re
from typing import Any

log = logging.getLogger(__name__)

_LATIN_LABEL = (
    r"(?i:table|tableau|tabelle|tabla|tabella|tabela|tabel|tab\.|figure|figura|figur|figuur"
    r"|fig\.?|abbildung|abb\.|chart|graph|graphique|gr[aá]fico|diagram|cuadro|quadro)"
)
_NUMBER = r"(?:\d+(?:[.\-\u2010\u2013]\d+)*[a-z]?|[IVXLC]+|[A-Z]\.?\d+(?:[.\-]\d+)*)"
_CAPTION_RE = re.compile(
    rf"^\W*(?:{_LATIN_LABEL}\s*{_NUMBER}(?![^\W_])"
    r"|(?:図表|表|図|图|圖|표|그림)\s*\d+|第\s*\d+\s*[表図])"
)
HEADING_CLASSES = frozenset({"title", "section-header"})


def is_caption(text: str) -> bool:
    """`text` opens with a caption label and its number (module docstring)."""
    return bool(_CAPTION_RE.match(text.strip()))


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
