"""A document's title: what tells its chunks apart from those of a document on the same template.

Chunks of two reports made from one template (two quarterly filings, two trial protocols) share
their headings, so nothing in a chunk says which document it belongs to. The title goes in
front of every chunk's heading path (`chunking.heading`), so retrievers see it.

Rules (`document_title`):
- The display title: on the first page with readable text (of the first three; a page whose
  text layer is garbled is never read), the runs of consecutive horizontal lines set in one
  display size (at least `TITLE_RATIO` times the body size, the font size holding most
  characters on those pages; sideways margin stamps ignored) are the candidates, largest size
  first, then top to bottom. The first candidate that names a document is the title: two or
  more words with letters, at most `MAX_TITLE_WORDS` words, not opening with a section number
  ("1 Introduction", "Chapter 2", "Part II": a heading of the document). A size that several
  runs of that page share is the document's top heading level ("Executive Summary" and
  "Currency Exposure Review"), not a title: the search stops there, as smaller runs are
  headings too.
- Else the PDF's metadata title, when it is meaningful: at least two words holding a letter
  ("10-K - 02/07/2019 - 3M Company"; an identifier of digits and dashes has none), not the
  file name (stem), not an identifier without spaces, not a word processor's "Microsoft Word -
  file.doc" label and not a placeholder ("untitled", "none").
- Text is NFKC-normalised (ligature glyphs spelled out, as in the body), control and
  replacement characters are dropped and whitespace collapsed; the result is at most
  `MAX_TITLE_CHARS` characters, cut at a word.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from ..textkeys import compact_key
from .numbers import heading_number
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
#: A word of a metadata title: a blank-separated token holding a letter ("3M", "10-K").
_LETTERED_RE = re.compile(r"\S*[^\W\d_]\S*")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\ufffd]")
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


def _runs(lines: Sequence[Line], display: float) -> list[tuple[float, str]]:
    """(size, text) of each run of consecutive lines set in one size of at least `display`."""
    runs: list[tuple[float, list[str]]] = []
    last = 0.0
    for line in lines:
        size = _size(line)
        if size < display:
            last = 0.0
            continue
        if runs and size == last:
            runs[-1][1].append(line.text)
        else:
            runs.append((size, [line.text]))
        last = size
    return [(size, clean(" ".join(texts))) for size, texts in runs]


def names_document(text: str) -> bool:
    """Two or more words with letters, at most `MAX_TITLE_WORDS` words, no section number."""
    words = len(text.split())
    return (
        len(_WORD_RE.findall(text)) >= 2 and words <= MAX_TITLE_WORDS and not heading_number(text)
    )


def display_title(layer: TextLayer, skip: Collection[int] = ()) -> str:
    """The display title of the first readable page (see module rules); `skip`: garbled pages."""
    numbers = [n for n in layer.numbers[:TITLE_PAGES] if n not in skip]
    pages = [[ln for ln in layer.page(n).lines if _horizontal(ln)] for n in numbers]
    first = next((lines for lines in pages if lines), [])
    if not first:
        return ""
    display = TITLE_RATIO * _body_size(pages)
    sizes = Counter(size for size, _ in _runs(first, display))
    runs = sorted(enumerate(_runs(first, display)), key=lambda r: (-r[1][0], r[0]))
    for _, (size, text) in runs:
        if sizes[size] > 1:
            return ""  # the document's heading level: smaller runs are headings too
        if names_document(text):
            return text
    return ""


def meaningful_metadata_title(title: str, source: Path) -> str:
    """`title` from the PDF's metadata when it names the document (see module rules), else ""."""
    title = clean(title)
    if len(_LETTERED_RE.findall(title)) < 2 or _PLACEHOLDER_RE.match(title):
        return ""
    if " " not in title or compact_key(title) == compact_key(source.stem):
        return ""
    return title


def document_title(
    layer: TextLayer, metadata_title: str, source: Path, skip: Collection[int] = ()
) -> str:
    """The display title, else the meaningful metadata title, else "" (`skip`: garbled pages)."""
    return display_title(layer, skip) or meaningful_metadata_title(metadata_title, source)


def pdf_title(
    doc: Any, source: Path, layer: TextLayer | None = None, skip: Collection[int] = ()
) -> str:
    """`document_title` of an open PyMuPDF document (`layer`: its text layer, if read)."""
    metadata = doc.metadata or {}
    layer = layer or TextLayer.of_document(doc)
    return document_title(layer, str(metadata.get("title") or ""), source, skip)


def clean(text: str) -> str:
    """NFKC, control and replacement characters dropped, whitespace collapsed, cut at a word
    to `MAX_TITLE_CHARS`."""
    text = " ".join(_CONTROL_RE.sub(" ", unicodedata.normalize("NFKC", text)).split())
    if len(text) <= MAX_TITLE_CHARS:
        return text
    cut = text[: MAX_TITLE_CHARS + 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-")
