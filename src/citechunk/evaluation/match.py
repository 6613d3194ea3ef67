"""Answer matching: does a chunk hold the whole answer?

Definition (the same as ``shared/eval/check_retrieval.py``, the project's reference): both texts
are reduced to their sequence of lowercased words (`textkeys.WORD_RE`: runs of Unicode letters and
digits in any script, and one character a word in Thai, Japanese, Chinese and Korean, which are
written without spaces), after NFKC, after inline HTML tags such as ``<sup>``, ``<br>``, ``<b>``
are replaced by a space, soft hyphens are dropped and a hyphen at a line end is joined. Markdown
markup (``**``, ``_``, ``#``, table pipes ``|``, list bullets) is not a letter, so it never counts. A text contains an answer when the answer's word sequence
occurs contiguously and on word boundaries: "ab" is not in "abc".
"""

from __future__ import annotations

import re
import unicodedata

from ..textkeys import WORD_RE

INLINE_TAG_RE = re.compile(r"</?(?:sup|sub|br|b|i|em|strong|span|u)\b[^>]*>", re.IGNORECASE)


def words(text: str) -> list[str]:
    """The lowercased words of `text`, markup ignored: the reference check's normalisation
    (`check_retrieval.py`: NFKC, then lower case, not case folding), so scores match it."""
    plain = unicodedata.normalize("NFKC", INLINE_TAG_RE.sub(" ", text))
    cleaned = plain.lower().replace("-\n", "").replace("\u00ad", "")
    return WORD_RE.findall(cleaned)


def normalized(text: str) -> str:
    """`text` as its words joined by single spaces, padded with one space on both sides.

    Precompute this once per chunk; `contains_normalized` then tests an answer in O(len).
    """
    return " " + " ".join(words(text)) + " "


def contains_normalized(hay: str, needle: str) -> bool:
    """True when `needle` (from `normalized`) occurs in `hay` (from `normalized`).

    An answer without any word (`needle` is blank) is never contained.
    """
    return bool(needle.strip()) and needle in hay


def contains(text: str, answer: str) -> bool:
    """True when the whole `answer` occurs in `text` as a contiguous word sequence."""
    return contains_normalized(normalized(text), normalized(answer))
