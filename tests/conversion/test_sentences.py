"""Pass `broken-sentences`: a sentence cut by a column or page break stays one paragraph."""

from __future__ import annotations

import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion.passcontext import PassContext
from citechunk.conversion.repairs.sentences import join_broken_sentences, runs_on


@pytest.mark.parametrize(
    ("before", "after", "joined"),
    [
        ("results on multiple open-domain", "questions, it also suffers", True),
        ("as the airplane’s weight,", "balance and speed", True),
        ("- Revising the existing manual to", "incorporate new procedures", True),
        ("It ends here.", "and goes on", False),
        ("It ends here", "Then a new one", False),
        ("support throughout your treatment", "**radiologist** reads scans", False),
        ("|a|b|", "continued row", False),
        ("# Heading", "lower text", False),
        ("text", "```\ncode", False),
        ("12", "page number above", False),
        ("⇒ r ï,α = Fi,α + λ flowN = 0 (3.7)", "where in the last step", True),
        ("cosθ = γ S V − γ S L (1.2)", "where γS V is the", True),
        ("as reported (2019)", "and later", False),
    ],
)
def test_runs_on(before: str, after: str, joined: bool) -> None:
    assert runs_on(before, after) is joined


def test_column_breaks_join_and_page_breaks_are_recorded() -> None:
    ctx = PassContext(ConvertOptions())
    pages = [
        (1, "# A\n\nA sentence cut by the\n\n\ncolumn break ends here.\n\nThen more to come on"),
        (2, "the next page.\n\nNew paragraph."),
        (3, "# B\n\nFinished."),
        (4, "starts lower but the page before ended a sentence."),
    ]
    out = join_broken_sentences(pages, ctx)
    assert out[0][1] == (
        "# A\n\nA sentence cut by the\ncolumn break ends here.\n\nThen more to come on"
    )
    assert out[1:] == pages[1:]
    assert ctx.continued == {2}
