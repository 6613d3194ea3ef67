"""Strike-through the PDF does not show is not invented.

pymupdf4llm marks a span struck through (``~~text~~``) when MuPDF finds a drawn line crossing
it. Most such lines are something else: an overline in a formula ("γ̄"), a rule a typesetter
draws for an underscore in an identifier (``GSTP1_RAT``), a stray line through one letter of a
filing. A struck passage a reader is meant to see (a revised draft's deleted wording) strikes a
phrase. So `drop_unshown_strikes` keeps the marks only around text holding at least
`MIN_STRUCK_WORDS` blank-separated words with two or more letters each; around anything less
the marks go and the text stays. Code fences and inline code are left alone.
"""

from __future__ import annotations

import re

from ..mdlines import iter_unfenced

#: Struck text keeps its marks when it has this many words of two or more letters.
MIN_STRUCK_WORDS = 2
_STRIKE_RE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_CODE_RE = re.compile(r"(`+)[^`]*?\1")
_LETTERS_RE = re.compile(r"[^\W\d_]{2,}")


def _shown(struck: str) -> bool:
    """A struck phrase: `MIN_STRUCK_WORDS` blank-separated words with two or more letters."""
    words = [w for w in struck.split() if _LETTERS_RE.search(w) and "_" not in w]
    return len(words) >= MIN_STRUCK_WORDS


def _line(line: str) -> str:
    out, pos = [], 0
    for code in _CODE_RE.finditer(line):
        out.append(_unstrike(line[pos : code.start()]))
        out.append(code.group(0))
        pos = code.end()
    out.append(_unstrike(line[pos:]))
    return "".join(out)


def _unstrike(text: str) -> str:
    return _STRIKE_RE.sub(lambda m: m.group(0) if _shown(m.group(1)) else m.group(1), text)


def drop_unshown_strikes(text: str) -> str:
    """Strike-through marks around less than a struck phrase go, the text stays (module
    docstring)."""
    if "~~" not in text:
        return text
    lines = text.split("\n")
    for i, inside in iter_unfenced(lines):
        if not inside and "~~" in lines[i]:
            lines[i] = _line(lines[i])
    return "\n".join(lines)
