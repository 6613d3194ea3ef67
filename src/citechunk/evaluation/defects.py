"""Countable chunk defects: what a reader of the chunks trips over, found without reading them.

Each chunk counts at most once per kind; the figure reported is defects per 1,000 chunks.

- ``glyph``: the chunk's text holds U+FFFD, a control character (other than tab and newline), a
  private-use code point, or a spacing accent (U+00A8 ¨, U+00B4 ´, U+02C6-U+02DD such as ˆ ˜ ˚)
  touching a letter: a glyph the conversion did not turn into text ("K¨uttler").
- ``tiny``: the body (the text after the path line) has fewer than 30 tokens.
- ``broken``: the body ends mid-sentence (its last character is a letter, a digit, a comma or a
  hyphen) and the next chunk of the document, under the same heading path, starts with a
  lower-case letter of any script (emphasis marks ignored): one sentence cut in two.
- ``repeated``: the body holds a line of 25 or more characters (trimmed; table rows, which a
  split table repeats on purpose, excepted) that is in the bodies of 3 or more chunks of the
  same document: running text or a boilerplate line read as body.
- ``stamp``: a body line is a margin stamp: an arXiv identifier with its subject class in
  brackets ("arXiv:2101.00001v2 [cs.CL] 3 Jan 2021"), or a printer's slug (a "VerDate" line
  with "Jkt" and "Frm" fields).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

KINDS = ("glyph", "tiny", "broken", "repeated", "stamp")
TINY_TOKENS = 30
REPEATED_CHARS = 25
REPEATED_CHUNKS = 3

_ACCENTS = "\u00a8\u00b4" + "".join(chr(c) for c in range(0x02C6, 0x02DE))
_SPACING_ACCENT_RE = re.compile(rf"[{_ACCENTS}](?=[^\W\d_])|(?<=[^\W\d_])[{_ACCENTS}]")
_STAMP_RES = (
    re.compile(r"\barXiv:\s*\d{4}\.\d{4,5}(?:v\d+)?\s*\[[\w.-]+\]"),
    re.compile(r"\bVerDate\b.*\bJkt\b.*\bFrm\b"),
)
_MID_SENTENCE_END_RE = re.compile(r"[^\W_]$|[,\-]$")


@dataclass(frozen=True)
class DefectChunk:
    """What the tally needs of one chunk: its heading path, whole text and body."""

    heading_path: tuple[str, ...]
    text: str
    body: str


def has_garbled_glyph(text: str) -> bool:
    """U+FFFD, a control or private-use character, or a spacing accent beside a letter."""
    if "\ufffd" in text or _SPACING_ACCENT_RE.search(text):
        return True
    return any(unicodedata.category(ch) in ("Cc", "Co") and ch not in "\t\n" for ch in text)


def has_margin_stamp(body: str) -> bool:
    return any(r.search(line) for line in body.splitlines() for r in _STAMP_RES)


def is_broken_pair(body: str, next_body: str) -> bool:
    """`body` ends mid-sentence and `next_body` goes on in lower case."""
    start = next_body.lstrip().lstrip("*_")[:1]
    return bool(_MID_SENTENCE_END_RE.search(body.rstrip())) and start.islower()


def _long_lines(body: str) -> set[str]:
    lines = (line.strip() for line in body.splitlines())
    return {ln for ln in lines if len(ln) >= REPEATED_CHARS and not ln.startswith("|")}


def document_defects(
    chunks: Sequence[DefectChunk], count_tokens: Callable[[str], int]
) -> list[set[str]]:
    """The defect kinds of each chunk of one document (chunks in document order)."""
    seen = Counter(line for c in chunks for line in _long_lines(c.body))
    repeated = {line for line, n in seen.items() if n >= REPEATED_CHUNKS}
    kinds: list[set[str]] = []
    for i, c in enumerate(chunks):
        found = set()
        if has_garbled_glyph(c.text):
            found.add("glyph")
        if count_tokens(c.body) < TINY_TOKENS:
            found.add("tiny")
        nxt = chunks[i + 1] if i + 1 < len(chunks) else None
        if nxt and nxt.heading_path == c.heading_path and is_broken_pair(c.body, nxt.body):
            found.add("broken")
        if _long_lines(c.body) & repeated:
            found.add("repeated")
        if has_margin_stamp(c.body):
            found.add("stamp")
        kinds.append(found)
    return kinds


@dataclass
class Tally:
    """Chunks and defects of one set of documents."""

    chunks: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)

    def add(self, kinds: Iterable[set[str]]) -> None:
        for found in kinds:
            self.chunks += 1
            self.by_kind.update(found)

    @property
    def defects(self) -> int:
        return sum(self.by_kind.values())

    def per_thousand(self, kind: str | None = None) -> float:
        n = self.defects if kind is None else self.by_kind[kind]
        return 1000.0 * n / self.chunks if self.chunks else 0.0
