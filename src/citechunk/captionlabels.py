"""Caption labels: the words that open a table's or figure's caption, with its number.

A caption label is a word naming a table, figure or chart (in English, German, French,
Spanish, Italian, Portuguese or Dutch; "Fig.", "Abb." and "Tab." abbreviated, "Tab." only with
its period) followed by a number: arabic with dotted or dashed parts ("2.1", "3-2", an optional
letter "4a"), roman ("IV"), or a letter and digits ("A.1", "S2"); or a Chinese, Japanese or
Korean label (表, 図, 図表, 图, 圖, 표, 그림, "第1表") with its digits. "Table of Contents",
"Figures" alone and "Exhibit N" are not captions: an exhibit label opens an appended document
(a filing's "EXHIBIT 31.1"), a section of its own.
"""

from __future__ import annotations

import re

_LATIN_LABEL = (
    r"(?i:table|tableau|tabelle|tabla|tabella|tabela|tabel|tab\.|figure|figura|figur|figuur"
    r"|fig\.?|abbildung|abb\.|chart|graph|graphique|gr[aá]fico|diagram|cuadro|quadro)"
)
_NUMBER = r"(?:\d+(?:[.\-\u2010\u2013]\d+)*[a-z]?|[IVXLC]+|[A-Z]\.?\d+(?:[.\-]\d+)*)"
_CAPTION_RE = re.compile(
    rf"^\W*(?:{_LATIN_LABEL}\s*{_NUMBER}(?![^\W_])"
    r"|(?:図表|表|図|图|圖|표|그림)\s*\d+|第\s*\d+\s*[表図])"
)


_SEPARATORS = ".:：–—-"


def is_caption(text: str) -> bool:
    """`text` opens with a caption label and its number (module docstring)."""
    return bool(_CAPTION_RE.match(text.strip()))


def is_caption_title(text: str) -> bool:
    """`text` is a caption title: its caption label and number are followed by a separator
    ("TABLE VIII. Geometries ...", "Table 5: Retrieval ..."), not by the rest of a sentence
    ("Table 4 summarizes ...")."""
    text = text.strip()
    m = _CAPTION_RE.match(text)
    return m is not None and text[m.end() :].lstrip(" *_")[:1] in _SEPARATORS
