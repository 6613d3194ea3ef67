"""The comparison forms of text: one definition for every place that asks "is this the same
word, title or heading?".

* `compact_key`: letters and digits only, NFKC, case-folded ("Conﬁguring Retries" and
  "configuring-retries" are one key). For words and for titles compared as a whole.
* `words_key`: the letters-and-digits words, NFKC, case-folded, joined by one space
  ("1.3. STETIGKEIT" is "1 3 stetigkeit"). For titles whose word boundaries matter.

`words` is the word list both are made of (word coverage counts it). Two word definitions
stay apart on purpose: `evaluation.match.words` is the reference check's (ASCII, to score as
`check_retrieval.py` does) and `evaluation.scans.words` keeps inner apostrophes and hyphens (an
OCR word error counts "don't" as one word).

Neither key strips Markdown: callers pass plain text (`conversion.mdlines.strip_inline_markup`).
"""

from __future__ import annotations

import re
import unicodedata

_WORD_RE = re.compile(r"[^\W_]+")


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def compact_key(text: str) -> str:
    """`text`'s letters and digits, NFKC, case-folded, nothing between them."""
    return "".join(ch for ch in _folded(text) if ch.isalnum())


def words(text: str) -> list[str]:
    """`text`'s words: runs of letters and digits, NFKC, case-folded."""
    return _WORD_RE.findall(_folded(text))


def words_key(text: str) -> str:
    """`words` of `text` joined by one space."""
    return " ".join(words(text))
