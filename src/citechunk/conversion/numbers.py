"""Heading numbers: the numbering schemes documents use to say which sections are siblings.

`heading_number(title)` reads the number a heading title opens with, as a `HeadingNumber`:

* decimal: "2 Method", "2.1 Data", "3.1.4. Results" (parts of at most 2 digits, then a letter);
* letter-led decimal: "A.1 Licence", "B.2.3 Terms" (an appendix's sections);
* labelled: a label word and a number — "Part II", "Item 1A.", "Note 5 :", "Article 3",
  "Chapter 2", "Appendix A", "Goal 1", "Objective 1.2" — arabic, roman or a single letter,
  optionally followed by decimal parts;
* roman: "II. Methods" (a roman numeral with a period, then a capital).

`scheme` names the pattern (the label, case-folded, or "decimal" / "letter" / "roman") and
`parts` the number's parts (strings, so "1A", "II" and "A" compare as written). Two headings
are same-pattern siblings when their `key` (scheme and depth) is equal: "Note 5" and "Note 6",
"2.1" and "3.4", "A.1" and "B.2". Captions ("Table 3", "Figure 2") are not section numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .mdlines import strip_inline_markup

LABELS = (
    "part",
    "chapter",
    "section",
    "article",
    "item",
    "note",
    "appendix",
    "annex",
    "schedule",
    "exhibit",
    "attachment",
    "goal",
    "objective",
    "strategy",
    "step",
    "phase",
    "unit",
    "module",
    "lesson",
)
_LABELLED_RE = re.compile(
    rf"^(?P<label>{'|'.join(LABELS)})\s+(?P<first>\d{{1,3}}[A-Z]?|[IVXLC]{{1,6}}|[A-Z])"
    r"(?P<rest>(?:\.\d{1,2}){0,4})\.?(?=$|[\s:)\-–—,])",
    re.IGNORECASE,
)
_DECIMAL_RE = re.compile(r"^(?P<first>\d{1,2})(?P<rest>(?:\.\d{1,2}){0,4})\.?\s+(?=[^\W\d_])")
_LETTER_RE = re.compile(r"^(?P<first>[A-Z])(?P<rest>(?:\.\d{1,2}){1,4})\.?\s+(?=\S)")
_ROMAN_RE = re.compile(r"^(?P<first>[IVX]{1,5})\.\s+(?=[A-Z])")


@dataclass(frozen=True)
class HeadingNumber:
    """A heading's number: its scheme and its parts (module docstring)."""

    scheme: str
    parts: tuple[str, ...]

    @property
    def depth(self) -> int:
        return len(self.parts)

    @property
    def key(self) -> tuple[str, int]:
        """Same-pattern siblings share this key."""
        return self.scheme, self.depth

    def is_parent_of(self, other: HeadingNumber) -> bool:
        """True when `other` is a section inside this one ("2" -> "2.1", "Goal 1" ->
        "Objective 1.2" is not: different schemes never nest by number)."""
        return (
            other.scheme == self.scheme
            and other.depth > self.depth
            and other.parts[: self.depth] == self.parts
        )


def heading_number(title: str) -> HeadingNumber | None:
    """The number `title` (markup ignored) opens with, or None (module docstring)."""
    text = strip_inline_markup(title)
    m = _LABELLED_RE.match(text)
    if m:
        first = m.group("first").upper()
        return HeadingNumber(m.group("label").casefold(), (first, *_rest(m.group("rest"))))
    for scheme, pattern in (("decimal", _DECIMAL_RE), ("letter", _LETTER_RE)):
        m = pattern.match(text)
        if m:
            return HeadingNumber(scheme, (m.group("first"), *_rest(m.group("rest"))))
    m = _ROMAN_RE.match(text)
    return HeadingNumber("roman", (m.group("first"),)) if m else None


_ROMANS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII")


def successor(number: HeadingNumber) -> HeadingNumber | None:
    """The next number of `number`'s sequence as written ("3" -> "4", "2.1" -> "2.2",
    "Part II" -> "Part III", "Appendix B" -> "Appendix C"), or None when there is none."""
    last = number.parts[-1]
    if last.isdigit():
        following = str(int(last) + 1)
    elif last in _ROMANS[:-1]:
        following = _ROMANS[_ROMANS.index(last) + 1]
    elif len(last) == 1 and last.isalpha() and last.upper() != "Z":
        following = chr(ord(last.upper()) + 1)
    else:
        return None
    return HeadingNumber(number.scheme, (*number.parts[:-1], following))


def _rest(rest: str) -> tuple[str, ...]:
    return tuple(p for p in rest.split(".") if p)


def decimal_parts(title: str) -> tuple[int, ...] | None:
    """(2, 1) for "2.1 Main Components" or "2.1. Main Components": the parts of a decimal
    number the title (markup ignored) opens with; None for any other scheme or none."""
    number = heading_number(title)
    if number is None or number.scheme != "decimal":
        return None
    return tuple(int(p) for p in number.parts)


def unnumbered_level(level: int, section_level: int) -> int:
    """The level of an unnumbered heading that sits inside a document's numbering (between its
    first and last numbered heading) in a numbered section at `section_level`: one below that
    section when it is not already deeper, so it can neither end the section nor become the
    parent of the numbered sections after it."""
    return section_level + 1 if level <= section_level else level
