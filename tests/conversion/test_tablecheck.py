"""The table rule on the layout path: a form whose text runs across its column lines reads as
printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert


@pytest.mark.corpus
def test_a_form_table_cut_through_words_reads_as_printed(shared_dir: Path) -> None:
    pdf = shared_dir / "eval" / "dev2" / "pdfs" / "20071229X02007.pdf"
    markdown = convert(pdf, ConvertOptions(pages="2")).markdown
    assert "2319 hours (Total, all aircraft), 2313 hours (Total, this make and model)" in markdown
    assert "aircr |" not in markdown and "aircr|" not in markdown
