"""Markdown line helpers shared by the conversion passes: heading lines, fences, inline markup,
pages split into lines and joined back. No rule lives here, only the vocabulary rules use; what
is a heading or a fence is `citechunk.mdsyntax`, shared with the chunker.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Sequence

from ..mdsyntax import HEADING_RE, fenced_lines

log = logging.getLogger(__name__)

_NEWLINES_RE = re.compile(r"\r\n?|[\x85\u2028\u2029]")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x84\x86-\x9f]")
_EMPHASIS_RE = re.compile(r"\*\*|__|~~|`|</?(?:u|mark|b|i|em|strong|sup|sub)>")
_UNDERSCORE_RE = re.compile(r"(?<![\w\\])_(?=\S)|(?<=\S)_(?![\w])")
_SPACES_RE = re.compile(r"[ \t]+")
_CONTINUED_RE = re.compile(
    r"(\S.*?)(?:[\s—–-]+|\s*\()(?:continued|cont'd|cont’d|cont)\.?\)?\s*\.?$", re.IGNORECASE
)


def normalize_text(text: str) -> str:
    """Only ``\\n`` line breaks; control characters other than tab/newline become U+FFFD."""
    return _CONTROL_RE.sub("\ufffd", _NEWLINES_RE.sub("\n", text))


def strip_inline_markup(text: str) -> str:
    """Plain text of a Markdown fragment: emphasis, code ticks and inline HTML tags removed."""
    text = _EMPHASIS_RE.sub("", text)
    text = _UNDERSCORE_RE.sub("", text)
    return _SPACES_RE.sub(" ", text).strip()


def heading_level(line: str) -> int:
    """The ATX heading level of `line` (1-6), 0 when it is not a heading line."""
    m = HEADING_RE.match(line)
    return len(m.group(1)) if m else 0


def heading_text(line: str) -> str:
    """The cleaned text of a heading line ("" when `line` is no heading)."""
    m = HEADING_RE.match(line)
    return strip_inline_markup(m.group(2)) if m else ""


def make_heading(level: int, text: str) -> str:
    """A heading line of `level` (clamped to 1-6) with plain `text`."""
    return "#" * min(max(level, 1), 6) + " " + strip_inline_markup(text)


def clean_heading_line(line: str) -> str:
    """``# **Title**`` -> ``# Title``; non-heading lines unchanged; empty headings become "";
    continuation titles become bold lines (module docstring)."""
    m = HEADING_RE.match(line)
    if not m:
        return line
    text = strip_inline_markup(m.group(2))
    if _continued(text):
        return f"**{text}**"
    return f"{m.group(1)} {text}" if text else ""


def _continued(plain: str) -> re.Match[str] | None:
    # the cheap substring test first: the pattern is slow on long lines without a match
    return _CONTINUED_RE.match(plain) if "cont" in plain.lower() else None


def continued_title(text: str) -> str | None:
    """The title a continuation line repeats ("ESTIMATED COSTS—Continued" -> "ESTIMATED
    COSTS"), or None when `text` (markup ignored) is not a continuation title."""
    m = _continued(strip_inline_markup(text))
    return m.group(1).strip() if m else None


def iter_unfenced(lines: Sequence[str]) -> Iterator[tuple[int, bool]]:
    """(index, inside_fence) for each line; fence delimiter lines count as inside
    (`mdsyntax.fenced_lines`)."""
    return fenced_lines(lines)


def map_unfenced(text: str, edit: Callable[[str], str]) -> str:
    """`text` with `edit` applied to each line outside code fences (`iter_unfenced`)."""
    lines = text.split("\n")
    for i, inside in iter_unfenced(lines):
        if not inside:
            lines[i] = edit(lines[i])
    return "\n".join(lines)


def split_pages(pages: Sequence[tuple[int, str]]) -> list[list[str]]:
    """The lines of each (page number, Markdown) pair, for the structure repairs to edit."""
    return [text.split("\n") for _, text in pages]


def join_pages(
    pages: Sequence[tuple[int, str]], split: Sequence[list[str]]
) -> list[tuple[int, str]]:
    """`split_pages` undone: (page number, Markdown) pairs from the (edited) lines."""
    return [(number, "\n".join(lines)) for (number, _), lines in zip(pages, split, strict=True)]


def heading_lines(split: Sequence[list[str]]) -> Iterator[tuple[int, int, re.Match[str]]]:
    """(page index, line index, `HEADING_RE` match) of every heading line outside code fences,
    in document order. Each line is read when it is reached, so the caller may rewrite the
    current line and the lines before it while iterating."""
    for k, lines in enumerate(split):
        for i, inside in iter_unfenced(lines):
            m = None if inside else HEADING_RE.match(lines[i])
            if m:
                yield k, i, m


def tidy_blank_lines(text: str) -> str:
    """Collapse runs of blank lines to one and trim outer blank lines."""
    return re.sub(r"\n[ \t]*\n(?:[ \t]*\n)+", "\n\n", text).strip("\n")
