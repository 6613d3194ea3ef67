"""Section numbers: the one reader of the numbering headings and lines open with.

`heading_number(title)` reads the number a heading title opens with, as a `HeadingNumber`:

* decimal: "2 Method", "2.1 Data", "3.1.4. Results" (parts of at most 2 digits, then a letter);
* letter-led decimal: "A.1 Licence", "B.2.3 Terms" (an appendix's sections);
* labelled: a label word and a number — "Part II", "Item 1A.", "Note 5 :", "Article 3",
  "Chapter 2", "Appendix A", "Goal 1", "Objective 1.2" — arabic, roman or a single letter,
  optionally followed by decimal parts;
* roman: "II. Methods" (a roman numeral with a period, then a capital).

`scheme` names the pattern (the label, case-folded, or "decimal" / "letter" / "roman") and
`parts` the number's parts (strings, so "1A", "II" and "A" compare as written); `text` writes
the number back as `heading_number` reads it. Two headings are same-pattern siblings when their
`key` (scheme and depth) is equal: "Note 5" and "Note 6", "2.1" and "3.4", "A.1" and "B.2".
Captions ("Table 3", "Figure 2") are not section numbers.

The order of numbers (`successor`, `next_in_pattern`, `next_in_outline`, `previous`) and the
other readings of a line or block (`plain_number`, `chapter_label`, `bare_number`,
`opens_with_number`, `number_depth`, `numbered_label`, `label_only`) are stated where defined.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .mdlines import strip_inline_markup

LABELS = tuple(
    "part chapter section article item note appendix annex schedule exhibit attachment goal"
    " objective strategy step phase unit module lesson".split()
)
_UNLABELLED = ("decimal", "letter", "roman")
_LABELLED_RE = re.compile(
    rf"^(?P<label>{'|'.join(LABELS)})\s+(?P<first>\d{{1,3}}[A-Z]?|[IVXLC]{{1,6}}|[A-Z])"
    r"(?P<rest>(?:\.\d{1,2}){0,4})\.?(?=$|[\s:)\-–—,])",
    re.IGNORECASE,
)
_DECIMAL_RE = re.compile(r"^(?P<first>\d{1,2})(?P<rest>(?:\.\d{1,2}){0,4})\.?\s+(?=[^\W\d_])")
_LETTER_RE = re.compile(r"^(?P<first>[A-Z])(?P<rest>(?:\.\d{1,2}){1,4})\.?\s+(?=\S)")
_ROMAN_RE = re.compile(r"^(?P<first>[IVX]{1,5})\.\s+(?=[A-Z])")
# A word and a number of two to five dotted parts: "Richtlijn 1.2:" (any word, not a label).
_DOTTED_RE = re.compile(r"^[^\W\d_]{2,}\s+(\d{1,3}(?:\.\d{1,2}){1,4})\.?(?=$|[\s:)])")
_PLAIN_RE = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4})[.)]?[ \t]+\S")
_CHAPTER_RE = re.compile(r"^(?:(?:chapter|part)\s+)?(\d{1,3})\.?$", re.IGNORECASE)
_MARK = r"(?:[0-9]{1,2}(?:\.[0-9]{1,2})*|[IVXLC]{1,5}|[A-Z])\.?"
_BARE_RE = re.compile(rf"^\s*{_MARK}\s*$")
_OPENING_RE = re.compile(rf"^{_MARK}\s+\S")
# Any word and a number, nothing else: "Article 12", "SECTION 3", "Rule IV".
_NUMBERED_LABEL_RE = re.compile(
    r"^([^\W\d_]{3,})\.?\s+(\d{1,4}[a-z]?|[IVXLC]{1,7})\.?$", re.IGNORECASE
)
# A number with at most one word before it, marks around: "Slide 12", "p. 4", "12", "1.2.3", "iv".
_LABEL_ONLY_RE = re.compile(r"^\W*(?:[^\W\d_]+\.?\s*)?(?:\d+(?:\.\d+)*|[ivxlcdm]+)\W*$", re.I)
_ROMANS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII")


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

    @property
    def text(self) -> str:
        """The number as written at the start of a title: "2.1", "A.1", "II.", "Part II"."""
        dotted = ".".join(self.parts)
        if self.scheme == "roman":
            return f"{dotted}."
        return dotted if self.scheme in _UNLABELLED else f"{self.scheme.capitalize()} {dotted}"

    @property
    def decimal(self) -> tuple[int, ...] | None:
        """The parts as ints for the decimal scheme ("2.1" -> (2, 1)), else None."""
        return tuple(int(p) for p in self.parts) if self.scheme == "decimal" else None

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


def _rest(rest: str) -> tuple[str, ...]:
    return tuple(p for p in rest.split(".") if p)


def decimal_parts(title: str) -> tuple[int, ...] | None:
    """(2, 1) for "2.1 Main Components" or "2.1. Main Components": the parts of a decimal
    number the title (markup ignored) opens with; None for any other scheme or none."""
    number = heading_number(title)
    return number.decimal if number else None


def number_depth(text: str) -> int | None:
    """How many parts the number `text` opens with has: `heading_number`'s, or a word's and a
    dotted number's ("Guideline 1.2:" -> 2); None without a number."""
    number = heading_number(text)
    if number:
        return number.depth
    m = _DOTTED_RE.match(text)
    return m.group(1).count(".") + 1 if m else None


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


def _value(part: str) -> tuple[int, str] | None:
    """A number part as (value, suffix): "7" -> (7, ""), "1A" -> (1, "A"), "B" -> (2, "")."""
    m = re.fullmatch(r"(\d+)([A-Z]?)", part)
    if m:
        return int(m.group(1)), m.group(2)
    return (ord(part) - ord("A") + 1, "") if len(part) == 1 and part.isalpha() else None


def next_in_pattern(prev: HeadingNumber | None, number: HeadingNumber) -> bool:
    """`number` comes next after `prev`, the last number of its pattern so far: the next value
    under the same parent ("7" -> "8", "1" -> "1A", "A" -> "B"), or a first one ("1", "A")
    where the pattern or the parent is new."""
    last = _value(number.parts[-1])
    if last is None:
        return False
    opens = last == (1, "")
    if prev is None or prev.parts[:-1] != number.parts[:-1]:
        return opens
    before = _value(prev.parts[-1])
    if before is None:
        return opens
    return last[0] == before[0] + 1 or (last[0] == before[0] and last[1] > before[1])


def next_in_outline(prev: tuple[int, ...] | None, number: tuple[int, ...]) -> bool:
    """True when decimal `number` is the next section after `prev`: its first child ("2" ->
    "2.1"), next sibling ("2.1" -> "2.2") or the next sibling of an ancestor ("2.3" -> "3")."""
    if prev is None:
        return False
    return number == (*prev, 1) or any(number == (*prev[:d], prev[d] + 1) for d in range(len(prev)))


def previous(number: tuple[int, ...]) -> tuple[int, ...] | None:
    """The decimal number before `number` in its list ("3.2" -> "3.1"); None when its last
    part is below 2 (a list starts at 1)."""
    return (*number[:-1], number[-1] - 1) if number[-1] >= 2 else None


def plain_number(line: str) -> tuple[int, ...] | None:
    """The decimal number a plain numbered line opens with ("3.2 text", "3.2. text", "3.2)
    text" -> (3, 2)): up to five parts of at most 2 digits, then a space and text."""
    m = _PLAIN_RE.match(line)
    return tuple(int(p) for p in m.group(1).split(".")) if m else None


def chapter_label(text: str) -> str | None:
    """ "1" for a line that is only a chapter number ("1", "2.", "Chapter 1", "PART 1"), else
    None."""
    m = _CHAPTER_RE.match(text)
    return m.group(1) if m else None


def bare_number(text: str) -> bool:
    """`text` is only a section mark: a decimal number ("1.2"), a capital roman numeral or a
    capital letter, with an optional period."""
    return _BARE_RE.match(text) is not None


def opens_with_number(text: str) -> bool:
    """`text` opens with a section mark (`bare_number`) and a space, then more text."""
    return _OPENING_RE.match(text) is not None


def numbered_label(text: str) -> str | None:
    """The label word (case-folded) of a text that is only a label word of three or more
    letters and a number ("Article 12", "Rule IV"), else None."""
    match = _NUMBERED_LABEL_RE.match(text.strip())
    return match.group(1).casefold() if match else None


def label_only(text: str) -> bool:
    """`text` is a number with at most one word before it and nothing else ("Slide 12",
    "p. 4", "12", "1.2.3", "iv"): a count of pages or slides, not a title."""
    return _LABEL_ONLY_RE.match(text) is not None


def unnumbered_level(level: int, section_level: int) -> int:
    """The level of an unnumbered heading that sits inside a document's numbering (between its
    first and last numbered heading) in a numbered section at `section_level`: one below that
    section when it is not already deeper, so it can neither end the section nor become the
    parent of the numbered sections after it."""
    return section_level + 1 if level <= section_level else level
