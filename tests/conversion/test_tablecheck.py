"""Tables whose cells disagree with the text layer are read as the page's lines."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.tablecheck import cut_words, words


def test_cut_words_counts_cell_words_the_text_layer_lacks() -> None:
    layer = words(["11000 hours (Total, all aircraft)", "L A TEX"])
    assert cut_words([["11000 hours (Total, all aircr", "aft)"]], layer) == (2, 0)
    assert cut_words([["11000 hours", "(Total, all aircraft)"], [None, ""]], layer) == (0, 0)
    assert cut_words([["LATEX", "JOBCTL"]], layer) == (0, 2)  # joined or absent: not cut
    assert cut_words([["hours hours"]], Counter({"hours": 1})) == (0, 1)


@pytest.mark.corpus
def test_a_form_table_cut_through_words_reads_as_printed(shared_dir: Path) -> None:
    pdf = shared_dir / "eval" / "dev2" / "pdfs" / "20071229X02007.pdf"
    markdown = convert(pdf, ConvertOptions(pages="2")).markdown
    assert "2319 hours (Total, all aircraft), 2313 hours (Total, this make and model)" in markdown
    assert "aircr |" not in markdown and "aircr|" not in markdown
