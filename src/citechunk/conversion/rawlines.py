"""How the pymupdf layout path reads the text layer: as PyMuPDF gives it, every time.

Two rules, both of pymupdf4llm's layout path (``document_layout``) reading:

- Marked-content replacement text (``/ActualText``) is the text of its glyphs. A PDF writer
  puts it where a glyph's own Unicode mapping is wrong or missing (a ligature such as "ft"
  mapped to some other letter): pymupdf4llm's text flags ignore it, and "Software" became
  "SoHware". PyMuPDF's plain text (what the text layer of every other stage reads) honours it;
  so does the layout path here.
- The lines of a page region are read without changing the page's text blocks.

pymupdf4llm's ``get_raw_lines`` joins touching spans of one line by appending the later span's
text to the earlier span's dictionary, the very dictionary of the text blocks it was given.
The layout path reads every box's lines from one list of blocks (``fulltext``), so a line read
a second time (a box overlapping another, a table checked against its words) starts from
spans that already hold the rest of their line: each span then reads as the suffix of the line
from it on, and the joined line repeats ever shorter suffixes ("The method of claim 1 The method
of claim 1 method of claim 1 ..."). Text layers with one span per word whose boxes touch (OCR
layers) show it on every line.

The rule: a region's lines are read from copies of the spans, so reading never changes the
blocks and the same region reads the same every time. `raw_lines` is that reading;
`layer_reading` installs it and the flags as pymupdf4llm's layout path's, for the duration of
one parse.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any


def copied_blocks(blocks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """`blocks` (``extractDICT`` format) with each text line's spans copied, so a reader that
    edits spans edits the copies; blocks and lines are shallow copies."""
    out: list[dict[str, Any]] = []
    for block in blocks:
        lines = block.get("lines")
        if not lines:
            out.append(block)
            continue
        copied = [{**line, "spans": [dict(span) for span in line["spans"]]} for line in lines]
        out.append({**block, "lines": copied})
    return out


def raw_lines(blocks: Sequence[dict[str, Any]], clip: Any, **options: Any) -> list[Any]:
    """pymupdf4llm's ``get_raw_lines`` of `blocks` inside `clip`, read from copies of the
    spans (module docstring): `blocks` are left as they were."""
    from pymupdf4llm.helpers.get_text_lines import get_raw_lines

    lines: list[Any] = get_raw_lines(
        textpage=None, blocks=copied_blocks(blocks), clip=clip, **options
    )
    return lines


def _reader(original: Any) -> Any:
    def read(textpage: Any = None, blocks: Any = None, **options: Any) -> Any:
        if blocks is not None:
            blocks = copied_blocks(blocks)
        return original(textpage=textpage, blocks=blocks, **options)

    return read


@contextlib.contextmanager
def layer_reading() -> Iterator[None]:
    """Within the block, pymupdf4llm's layout path honours replacement text and reads lines
    through copies of the spans (module docstring); its own reader and flags are put back
    afterwards. The caller serialises parses (both are module globals of pymupdf4llm)."""
    import pymupdf
    from pymupdf4llm.helpers import document_layout

    reader, flags = document_layout.get_raw_lines, document_layout.FLAGS
    document_layout.get_raw_lines = _reader(reader)
    document_layout.FLAGS = flags & ~pymupdf.TEXT_IGNORE_ACTUALTEXT
    try:
        yield
    finally:
        document_layout.get_raw_lines, document_layout.FLAGS = reader, flags
