"""Glyphs a PDF draws without their text, made text (`repair_glyphs`, pass ``glyphs``).

- A spacing accent (¨ ´ ˆ ˇ ˘ ˙ ˚ ˛ ˜ ˝ ¯ ¸) touching a letter is the accent of that letter, set
  as a separate glyph (TeX sets it before the letter, other producers after): it joins the
  letter after it when the two compose to one character, else the letter before it
  ("K¨uttler" -> "Küttler", "Ageˆncia" -> "Agência"); a dotless i under an accent is an i
  ("na¨ıve" -> "naïve"). An acute accent, also typed for an apostrophe ("Ministry´s"), joins
  only a vowel after it ("Jos´e" -> "José"). Every line outside code fences is then
  NFC-normalised.
- Check boxes become Markdown task marks: ☐ ❑ ❒ and a spacing diaeresis standing alone (a
  symbol font's box glyph read as Latin-1) -> ``[ ]``; ☑ ☒ -> ``[x]``.
- A bullet glyph opening a line before text ("• Item", "■ 1. Amend ...") becomes the list
  marker ``- ``.
- U+FFFD (a glyph the PDF maps to no character; control characters became it in `tidy`) is
  dropped (a space stays where it separated two words); the pages that had one are named in a
  warning, with the words that lost letters to it (a ligature glyph without text inside a
  word: "di?erent", "e?ective"), so a reader knows which words are damaged.
"""

from __future__ import annotations

import re
import unicodedata

from ..mdlines import map_unfenced
from ..pagelist import page_ranges
from ..passcontext import Pages, PassContext

#: spacing accent -> its combining mark
_COMBINING = {
    "\u00a8": "\u0308",  # diaeresis
    "\u00af": "\u0304",  # macron
    "\u00b4": "\u0301",  # acute
    "\u00b8": "\u0327",  # cedilla
    "\u02c6": "\u0302",  # circumflex
    "\u02c7": "\u030c",  # caron
    "\u02d8": "\u0306",  # breve
    "\u02d9": "\u0307",  # dot above
    "\u02da": "\u030a",  # ring above
    "\u02db": "\u0328",  # ogonek
    "\u02dc": "\u0303",  # tilde
    "\u02dd": "\u030b",  # double acute
}
_ACCENT_CLASS = "".join(_COMBINING)
_LETTER = r"[^\W\d_]"
_ACCENT_RE = re.compile(rf"({_LETTER}?)([{_ACCENT_CLASS}])({_LETTER}?)")
_DOTLESS = {"ı": "i", "ȷ": "j"}
_ACUTE = "\u00b4"
_VOWELS = frozenset("aeiouAEIOUı")
_LONE_DIAERESIS_RE = re.compile(r"(?<!\S)\u00a8(?!\S)")
_BOXES = str.maketrans({"☐": "[ ]", "❑": "[ ]", "❒": "[ ]", "☑": "[x]", "☒": "[x]"})
_NO_TEXT_RE = re.compile(r"[ \t]*\ufffd+[ \t]*")
_LEAD_BULLET_RE = re.compile(r"^([ \t]*)[•●▪■◆►‣∙◦][ \t]+(?=[\w*_(\"“‘'])")


def _compose(base: str, accent: str) -> str | None:
    """`base` with `accent` as one NFC character, or None when they do not compose."""
    joined = unicodedata.normalize("NFC", _DOTLESS.get(base, base) + _COMBINING[accent])
    return joined if len(joined) == 1 else None


def _join_accent(m: re.Match[str]) -> str:
    before, accent, after = m.groups()
    if accent == _ACUTE:
        after, before = (after if after in _VOWELS else ""), ""
    if after and (c := _compose(after, accent)):
        return m.group(1) + c
    if before and (c := _compose(before, accent)):
        return c + after
    return m.group(0)


def repair_line(line: str) -> str:
    """One Markdown line outside code with its accents joined, boxes and bullets made Markdown,
    NFC-normalised (module docstring)."""
    if any(ch in line for ch in _COMBINING):
        line = _LONE_DIAERESIS_RE.sub("[ ]", line)
        line = _ACCENT_RE.sub(_join_accent, line)
    line = _LEAD_BULLET_RE.sub(r"\1- ", line.translate(_BOXES))
    return unicodedata.normalize("NFC", line)


def _repair_page(text: str) -> str:
    return _drop_no_text(map_unfenced(text, repair_line))


def _drop_no_text(text: str) -> str:
    """U+FFFD runs removed; one space stays where they separated two words or stood between
    spaces, so no words are glued together."""

    def repl(m: re.Match[str]) -> str:
        before = text[m.start() - 1] if m.start() else "\n"
        after = text[m.end()] if m.end() < len(text) else "\n"
        if "\n" in (before, after):
            return ""
        spaced = m.group(0).strip("\ufffd") != ""
        return " " if spaced or (before.isalnum() and after.isalnum()) else ""

    return _NO_TEXT_RE.sub(repl, text)


#: Glyphs without text with the letters around them.
_DAMAGED_RE = re.compile(r"([^\W\d_]*)(\ufffd+)([^\W\d_]*)")
#: Damaged words a warning names at most.
MAX_DAMAGED = 8


def damaged_words(pages: Pages) -> list[str]:
    """The distinct words that lost letters to glyphs without text inside them
    (`_inside_word`), in page order, the lost glyphs shown as one "?"."""
    found: dict[str, None] = {}
    for _, text in pages:
        for m in _DAMAGED_RE.finditer(text):
            if _inside_word(m.group(1), m.group(3)):
                found.setdefault(f"{m.group(1)}?{m.group(3)}", None)
    return list(found)


def _script(ch: str) -> str:
    return unicodedata.name(ch, "").split(" ", 1)[0]


def _inside_word(before: str, after: str) -> bool:
    """Lost glyphs are letters of a word when letters of one script stand on both sides ("di?
    erent"); between two scripts, or at a word's edge, they may as well be a symbol or a mark
    between words, and are not named."""
    return bool(before and after) and _script(before[-1]) == _script(after[0])


def _lost_warning(pages: Pages) -> str:
    lost = [n for n, text in pages if "\ufffd" in text]
    if not lost:
        return ""
    warning = f"glyphs without text dropped on pages: {page_ranges(lost)}"
    words = damaged_words(pages)
    if words:
        more = len(words) - MAX_DAMAGED
        named = ", ".join(words[:MAX_DAMAGED]) + (f" and {more} more" if more > 0 else "")
        warning += f"; words that lost letters: {named}"
    return warning


def repair_glyphs(pages: Pages, ctx: PassContext) -> Pages:
    """Spacing accents join their letters, box and bullet glyphs become Markdown, and glyphs
    without text are dropped with their pages and the words that lost letters named in a
    warning (module docstring)."""
    warning = _lost_warning(pages)
    if warning:
        ctx.warnings.append(warning)
    return [(n, _repair_page(text)) for n, text in pages]
