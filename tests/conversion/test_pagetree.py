"""A damaged PDF whose page tree is lost converts from its page objects (`pagetree`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citechunk import ConvertOptions, convert
from citechunk.errors import ConversionError

TEXTS = ["First page: the scope of this memo.", "Second page: the message format."]


def _pdf(lose_tree: bool, break_xref: bool) -> bytes:
    """Two pages of text; the page tree object emptied (``null``) and the xref offset broken
    (so MuPDF repairs the file) as asked."""
    import pymupdf

    doc = pymupdf.open()
    for text in TEXTS:
        doc.new_page().insert_text((72, 72), text, fontsize=11)
    data: bytes = doc.tobytes(garbage=0, deflate=False, use_objstms=0)
    if lose_tree:  # the same length, so the xref offsets stay true
        tree = re.search(rb"<<[^>]*/Type/Pages\b.*?>>(?=\s*endobj)", data, flags=re.S)
        assert tree is not None
        data = data.replace(tree[0], b"null".ljust(len(tree[0])))
    if break_xref:
        data = re.sub(rb"startxref\s*\d+", b"startxref\n999999", data)
    return data


def test_a_lost_page_tree_is_rebuilt_from_the_page_objects(tmp_path: Path) -> None:
    path = tmp_path / "lost_tree.pdf"
    path.write_bytes(_pdf(lose_tree=True, break_xref=True))
    doc = convert(path, ConvertOptions(layout="never"))
    assert doc.provenance.page_count == 2
    assert all(text in doc.markdown for text in TEXTS)
    assert doc.markdown.index(TEXTS[0]) < doc.markdown.index(TEXTS[1])
    assert any("damaged" in w for w in doc.provenance.warnings)


def test_a_file_without_repair_keeps_its_empty_page_tree(tmp_path: Path) -> None:
    """The page tree is the author's: an intact file whose tree holds no page has none."""
    path = tmp_path / "no_tree.pdf"
    path.write_bytes(_pdf(lose_tree=True, break_xref=False))
    with pytest.raises(ConversionError, match="no pages found"):
        convert(path, ConvertOptions(layout="never"))
