"""A document's title: what tells its chunks apart from those of a document on the same template.

Chunks of two reports made from one template (two quarterly filings, two trial protocols) share
their headings, so nothing in a chunk says which document it belongs to. The title goes in
front of every chunk's heading path (`chunking.heading`), so retrievers see it.

Rules (`document_title`):
- The display title: on the first page that has text (of the first three), the first run of
  consecutive horizontal lines set in that page's largest font (sideways margin stamps ignored), when that font is at least `TITLE_RATIO`
  times the body size (the font size holding most characters on those pages). A largest font
  no bigger than the body, or a "title" of over `MAX_TITLE_WORDS` words, is no title.
- Else the PDF's metadata title, when it is meaningful: at least two words with letters, not the
  file name (stem), not an identifier without spaces, not a word processor's "Microsoft Word -
  file.doc" label and not a placeholder ("untitled", "none").
- Whitespace is collapsed; the result is at most `MAX_TITLE_CHARS` characters, cut at a word.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .textlayer import Line, TextLayer

#: The display title's font is at least this many times the body font size.
TITLE_RATIO = 1.15
#: A run of large lines longer than this is a page set in a large font, not a title.
MAX_TITLE_WORDS = 40
#: A title is cut (at a word) to at most this many characters.
MAX_TITLE_CHARS = 200
#: Pages searched for the first page with text, and measured for the body size.
TITLE_PAGES = 3

_WORD_RE = re.compile(r"[^\W\d_]{2,}")
_PLACEHOLDER_RE = re.compile(
    r"^(?:untitled|none|null|title|document\d*|microsoft (?:word|powerpoint|excel)\b.*"
    r"|.*\.(?:docx?|pdf|tex|dvi|indd|rtf|odt|pptx?|xlsx?))$",
    re.IGNORECASE,
)


def _size(line: Line) -> float:
    return round(line.size, 1)


def _horizontal(line: Line) -> bool:
    """False for a line set sideways (a margin stamp such as an arXiv identifier)."""
    x0, y0, x1, y1 = line.box
    return (x1 - x0) >= (y1 - y0) or len(line.text) < 2


def _body_size(pages: Sequence[Sequence[Line]]) -> float:
    """The font size holding the most characters on `pages`."""
    weight: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            weight[_size(line)] += len(line.text)
    return weight.most_common(1)[0][0] if weight else 0.0


def display_title(layer: TextLayer) -> str:
    """The first run of largest-font lines on the first page with text (see module rules)."""
    numbers = layer.numbers[:TITLE_PAGES]
    pages = [layer.page(n).lines for n in numbers]
    page = next((lines for lines in pages if lines), ())
    first = [line for line in page if _horizontal(line)]
    if not first:
        return ""
    top = max(_size(line) for line in first)
    if top < TITLE_RATIO * _body_size(pages):
        return ""
    run: list[str] = []
    for line in first:
        if _size(line) == top:
            run.append(line.text)
        elif run:
            break
    title = clean(" ".join(run))
    return "" if len(title.split()) > MAX_TITLE_WORDS else title


def meaningful_metadata_title(title: str, source: Path) -> str:
    """`title` from the PDF's metadata when it names the document (see module rules), else ""."""
    title = clean(title)
    if len(_WORD_RE.findall(title)) < 2 or _PLACEHOLDER_RE.match(title):
        return ""
    if " " not in title or _key(title) == _key(source.stem):
        return ""
    return title


def document_title(layer: TextLayer, metadata_title: str, source: Path) -> str:
    """The display title, else the meaningful metadata title, else ""."""
    return display_title(layer) or meaningful_metadata_title(metadata_title, source)


def pdf_title(doc: Any, source: Path) -> str:
    """`document_title` of an open PyMuPDF document."""
    metadata = doc.metadata or {}
    return document_title(TextLayer.of_document(doc), str(metadata.get("title") or ""), source)


def clean(text: str) -> str:
    """Whitespace collapsed, cut at a word to `MAX_TITLE_CHARS`."""
    text = " ".join(text.split())
    if len(text) <= MAX_TITLE_CHARS:
        return text
    cut = text[: MAX_TITLE_CHARS + 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-")


def _key(text: str) -> str:
    return re.sub(r"[\W_]+", "", text).lower()
