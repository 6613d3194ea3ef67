"""The comparison forms of text: one definition for every place that asks "is this the same
word, title or heading?".

* `compact_key`: letters and digits only, NFKC, case-folded ("Conﬁguring Retries" and
  "configuring-retries" are one key). For words and for titles compared as a whole.
* `words_key`: the words, NFKC, case-folded, joined by one space ("1.3. STETIGKEIT" is
  "1 3 stetigkeit"). For titles whose word boundaries matter.

`words` is the word list both are made of (word coverage counts it). A word is a run of
Unicode letters and digits, in any script; in the scripts written without spaces between
words (Thai, Japanese kana, CJK ideographs, Hangul syllables: `NO_SPACE_SCRIPTS`) each
character is a word, so a phrase matches inside a line whatever its neighbours are
(`WORD_RE`, the definition of the reference checks `shared/eval/faithful.py` and
`check_retrieval.py`). `evaluation.match.words` reads words the same way with the reference
check's own normalisation (lower case, tags and line-end hyphens), and `evaluation.scans.words`
keeps inner apostrophes and hyphens (an OCR word error counts "don't" as one word).

Neither key strips Markdown: callers pass plain text (`conversion.mdlines.strip_inline_markup`).
"""

from __future__ import annotations

import re
import unicodedata

#: Scripts written without spaces between words: Thai, kana, CJK ideographs, Hangul syllables.
NO_SPACE_SCRIPTS = "\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
#: A word: one character of a `NO_SPACE_SCRIPTS` script, or a run of other letters and digits.
WORD_RE = re.compile(rf"[{NO_SPACE_SCRIPTS}]|[^\W_{NO_SPACE_SCRIPTS}]+")
#: A letter, in any script (not a digit, not ``_``): "does this text hold a letter?".
LETTER_RE = re.compile(r"[^\W\d_]")


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def compact_key(text: str) -> str:
    """`text`'s letters and digits, NFKC, case-folded, nothing between them."""
    return "".join(words(text))


def words(text: str) -> list[str]:
    """`text`'s words (`WORD_RE`), NFKC, case-folded."""
    return WORD_RE.findall(_folded(text))


def words_key(text: str) -> str:
    """`words` of `text` joined by one space."""
    return " ".join(words(text))
