"""Right-to-left text a PDF stores in visual order, read in logical order.

A producer that shapes Arabic-script text itself writes its glyphs as the Unicode
*presentation forms* (a letter's initial, medial, final or isolated shape). Most write them in
logical order, the order they are read; some write them in visual order, left to right as
they stand on the page, so every word comes out backwards ("ﻆـﻔﺣ" for "حفظ").

The rule, to apply by hand: in logical order a joined word's shapes run initial, medial ...,
final; in visual order they run final, medial ..., initial. A line whose consecutive shaped
letters more often pair as visual order (a final or medial shape before a medial or initial
one) than as logical order (an initial or medial shape before a medial or final one) is
stored in visual order: its pieces are read from right to left (runs of right-to-left
letters, each reversed, and the figures, Latin words and marks between them as they are: a
number keeps its digits' order). A line without shaped letters, or in logical order, is
left as it is.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: A run of right-to-left letters (Hebrew, Arabic and their presentation forms) with the
#: combining marks and the stretching stroke (tatweel) set among them; not their digits.
_RTL_RUN_RE = re.compile(
    r"[\u0590-\u05ff\u0600-\u065f\u066a-\u06ef\u06fa-\u06ff\u0750-\u077f\u08a0-\u08ff"
    r"\ufb1d-\ufdff\ufe70-\ufeff]+"
)
#: A line's pieces: a right-to-left run, a run of other letters and digits (a number, a Latin
#: word: read as it is), or one other character (a blank, a mark).
_PIECE_RE = re.compile(rf"{_RTL_RUN_RE.pattern}|(?:(?!{_RTL_RUN_RE.pattern})[^\W_])+|.", re.S)
#: Arabic presentation forms (shaped letters).
_SHAPED_RE = re.compile(r"[\ufb50-\ufdff\ufe70-\ufeff]")
_FORMS = ("INITIAL", "MEDIAL", "FINAL", "ISOLATED")


@lru_cache(maxsize=4096)
def _form(ch: str) -> str:
    """The presentation form `ch` is shaped as ("INITIAL" ... "ISOLATED"), else ""."""
    name = unicodedata.name(ch, "")
    return next((form for form in _FORMS if f"{form} FORM" in name), "")


def stored_visually(text: str) -> bool:
    """True when `text`'s shaped letters pair more often in visual than in logical order
    (module rule)."""
    if not _SHAPED_RE.search(text):
        return False
    forms = [_form(ch) for ch in text if ch != "\u0640"]
    logical = visual = 0
    for a, b in zip(forms, forms[1:], strict=False):
        if not a or not b or (a == b == "MEDIAL"):
            continue
        logical += a in ("INITIAL", "MEDIAL") and b in ("MEDIAL", "FINAL")
        visual += a in ("FINAL", "MEDIAL") and b in ("MEDIAL", "INITIAL")
    return visual > logical


def logical_order(text: str) -> str:
    """`text` in logical order: a line stored in visual order read from right to left, its
    right-to-left letter runs reversed (module rule); any other text unchanged."""
    if not stored_visually(text):
        return text
    pieces = [m.group() for m in _PIECE_RE.finditer(text)]
    return "".join(p[::-1] if _RTL_RUN_RE.fullmatch(p) else p for p in reversed(pieces)).strip()
