"""Image-only copies of PDFs and word-level scores of OCR text, for measuring OCR.

`make_scan(source, target, ...)` writes a PDF whose every page holds only a picture of the
source page: rendered in grey at `dpi`, turned by `skew` degrees (a scanner's slight skew),
JPEG-compressed, and optionally turned a quarter or half turn inside the image (a page fed
sideways; the new page's /Rotate stays 0). No text layer survives, so any text read from it
came from OCR. `words`, `word_recall` and `word_error_rate` compare the OCR'd text with the
source page's own text.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from ..textkeys import NO_SPACE_SCRIPTS

_RUN = rf"[^\W_{NO_SPACE_SCRIPTS}]+"
_WORD_RE = re.compile(rf"[{NO_SPACE_SCRIPTS}]|{_RUN}(?:['’.-]{_RUN})*")
_MARKUP_RE = re.compile(r"<!--.*?-->|[#*|`>_\[\]]")


def words(text: str) -> list[str]:
    """Case-folded NFKC words of `text` (letters/digits, inner apostrophes, dots and hyphens kept;
    one character a word in `textkeys.NO_SPACE_SCRIPTS`), Markdown markup and page markers ignored. Not `textkeys.words`: an OCR word error counts
    "don't" and "x-ray" as one word each."""
    plain = unicodedata.normalize("NFKC", _MARKUP_RE.sub(" ", text))
    return [w.casefold() for w in _WORD_RE.findall(plain)]


def word_recall(reference: Sequence[str], found: Sequence[str]) -> float:
    """Share of `reference` words (as a multiset) that `found` also holds; 1.0 for none."""
    if not reference:
        return 1.0
    common = Counter(reference) & Counter(found)
    return sum(common.values()) / len(reference)


def word_error_rate(reference: Sequence[str], found: Sequence[str]) -> float:
    """(substitutions + deletions + insertions) / len(reference), by word edit distance."""
    if not reference:
        return 0.0 if not found else 1.0
    previous = list(range(len(found) + 1))
    for i, ref in enumerate(reference, 1):
        current = [i] + [0] * len(found)
        for j, hyp in enumerate(found, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ref != hyp))
        previous = current
    return previous[-1] / len(reference)


def make_scan(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    pages: Iterable[int] | None = None,
    dpi: int = 200,
    skew: float = 0.0,
    turns: Mapping[int, int] | None = None,
    quality: int = 75,
) -> Path:
    """Write an image-only copy of `source`'s `pages` (1-based, default all) to `target`.

    `turns` maps a source page to 90, 180 or 270: that page's picture is turned clockwise
    inside the image (the page takes the turned size). Returns `target`.
    """
    import pymupdf

    turns = dict(turns or {})
    src = pymupdf.open(os.fspath(source))
    out = pymupdf.open()
    numbers = list(pages) if pages is not None else list(range(1, src.page_count + 1))
    for number in numbers:
        rect = src[number - 1].rect
        canvas = pymupdf.open()
        page = canvas.new_page(width=rect.width, height=rect.height)
        page.show_pdf_page(page.rect, src, number - 1, rotate=-skew)
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
        jpeg = pix.tobytes("jpeg", jpg_quality=quality)
        turn = turns.get(number, 0) % 360
        width, height = (
            (rect.height, rect.width) if turn in (90, 270) else (rect.width, rect.height)
        )
        new = out.new_page(width=width, height=height)
        new.insert_image(new.rect, stream=jpeg, rotate=-turn)
        canvas.close()
    path = Path(target)
    out.save(os.fspath(path), garbage=3, deflate=True)
    out.close()
    src.close()
    return path


def page_words(pdf: str | os.PathLike[str]) -> dict[int, list[str]]:
    """The `words` of each page's own text layer (1-based page -> words)."""
    import pymupdf

    with pymupdf.open(os.fspath(pdf)) as doc:
        return {i + 1: words(page.get_text("text")) for i, page in enumerate(doc)}
