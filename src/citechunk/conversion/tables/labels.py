"""Lines that label a table rather than open a section: unit lines and period lines.

* A unit line states the unit of a table's figures and nothing else: "(in thousands, except
  share and per share data)", "$ in millions", "In millions of dollars", "(Dollars in millions,
  except per share amounts)", "Amounts in thousands". It is at most `MAX_LABEL_CHARS` long,
  and after an optional currency sign, currency or quantity noun ("dollars", "amounts",
  "shares") and "in"/"of", it starts with a scale word (thousands, millions, billions) or
  names a currency in parentheses ("(in U.S. dollars)").
* A period line is a bare period or date: every word is a month, a day or a year number, or a
  period word ("year", "ended", "months", "quarter", "fiscal", "as of", ...), and at least one
  word is a month, a year or "ended"/"ending" ("December 31, 2017", "2017", "Year Ended
  December 31,", "Three Months Ended March 31, 2023 and 2022", "2022 2021").

Neither is ever a heading: it names no content of its own, only the unit or the period of the
figures next to it, so a section it opened would push the table's real name out of the path.

* A row of figures is no heading either: a line of which at least `MIN_ROW_FIGURES` words, and
  more than half of them, are figures (more digits than other characters: "52B", "13",
  "2,605"), such as a table's column header "Params 52B 47B 32B" the layout set in large type.
  It is plain text.

`processors.table_labels` makes such heading blocks text.
"""

from __future__ import annotations

import re

from ..mdlines import strip_inline_markup

MAX_LABEL_CHARS = 120
MIN_ROW_FIGURES = 3

_SCALE = r"(?:thousands|millions|billions|trillions|000s?|000's|mn|bn)"
_QUANTITY = (
    r"(?:(?:u\.?s\.?\s*)?dollars?|amounts?|euros?|shares?|figures|numbers|units|"
    r"pounds|yen|francs|rupees|currency)"
)
_CURRENCY = r"(?:[$€£¥]|usd|eur|gbp|chf|jpy|u\.?s\.?\s*\$)"
_UNIT_RE = re.compile(
    rf"^(?:{_CURRENCY}\s*|{_QUANTITY}\s+|(?:all\s+)?{_QUANTITY}\s+(?:are\s+)?(?:stated\s+|expressed\s+|presented\s+)?)*"
    rf"(?:in|of)?\s*(?:{_CURRENCY}\s*)?{_SCALE}\b(?:\s+of\s+{_QUANTITY}|\s+{_CURRENCY})?"
    rf"(?:\s*(?:[,;]\s*)?(?:except|unless|other\s+than|and|or|\(|where)\b.*)?$",
    re.IGNORECASE,
)
_IN_CURRENCY_RE = re.compile(rf"^\(\s*in\s+(?:{_CURRENCY}|{_QUANTITY})\s*\)$", re.IGNORECASE)

_MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
).split()
_PERIOD_WORDS = set(
    (
        "year years ended ending end ends as of at for the and fiscal quarter quarters month "
        "months week weeks period periods three six nine twelve thirteen fifty two fifty-two "
        "fifty-three first second third fourth q1 q2 q3 q4 h1 h2 fy to through"
    ).split()
)
_ANCHORS = set(_MONTHS) | {"ended", "ending"}
_TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z'-]*\.?|\d+")
_PERIOD_ALLOWED_RE = re.compile(r"^[\w\s,.'’/–—-]+$")
_YEAR_RE = re.compile(r"^(?:19|20)\d\d$")


def _plain(text: str) -> str:
    return strip_inline_markup(text).strip()


def is_unit_line(text: str) -> bool:
    """`text` (markup ignored) states a unit and nothing else (module docstring)."""
    plain = _plain(text)
    if not plain or len(plain) > MAX_LABEL_CHARS:
        return False
    inner = plain.strip("()[] .:").strip()
    return bool(_UNIT_RE.match(inner) or _IN_CURRENCY_RE.match(plain))


def _period_token(token: str) -> bool:
    t = token.lower().rstrip(".")
    if t.isdigit():
        return bool(_YEAR_RE.match(t)) or 1 <= int(t) <= 31
    return t in _PERIOD_WORDS or t in _MONTHS


def is_period_line(text: str) -> bool:
    """`text` (markup ignored) is a bare period or date (module docstring)."""
    plain = _plain(text).strip("()[] :")
    if not plain or len(plain) > MAX_LABEL_CHARS or not _PERIOD_ALLOWED_RE.match(plain):
        return False
    tokens = _TOKEN_RE.findall(plain)
    if not tokens or not all(_period_token(t) for t in tokens):
        return False
    return any(t.lower().rstrip(".") in _ANCHORS or _YEAR_RE.match(t) for t in tokens)


def is_table_label(text: str) -> bool:
    """A unit line or a period line: a label of a table's figures, never a heading."""
    return is_unit_line(text) or is_period_line(text)


def _is_figure(word: str) -> bool:
    digits = sum(ch.isdigit() for ch in word)
    return digits * 2 > len(word)


def is_figure_row(text: str) -> bool:
    """`text` (markup ignored) is a row of figures (module docstring)."""
    words = _plain(text).split()
    figures = sum(_is_figure(w) for w in words)
    return figures >= MIN_ROW_FIGURES and figures * 2 > len(words)
