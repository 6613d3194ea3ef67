"""Pass `list-wraps`: a wrapped line set as a bullet of its own continues its item."""

from __future__ import annotations

from citechunk.conversion.repairs.listwraps import join_list_wraps, join_page_wraps


def test_wrapped_lines_rejoin_their_item() -> None:
    page = (
        "The proposed AD would require:\n\n"
        "- Revising the existing flight manual to\n"
        "- incorporate new and revised procedures for\n\n"
        "- erroneous angle of attack.\n"
        "- Performing an operational readiness\n"
        "- flight, by doing the test.\n"
        "  - Checking the wiring and\n"
        "  - then the connectors."
    )
    assert join_page_wraps(page) == (
        "The proposed AD would require:\n\n"
        "- Revising the existing flight manual to incorporate new and revised procedures for "
        "erroneous angle of attack.\n"
        "- Performing an operational readiness flight, by doing the test.\n"
        "  - Checking the wiring and then the connectors."
    )


def test_items_of_their_own_stay() -> None:
    page = (
        "- the first item ends here.\n- and the second starts lower\n"
        "- nid:  DT_UUID\n- geometry:  GB_Curve\n"
        "- Two words\n- more text\n"  # too short to be a wrapped line
        "- a list item ending with a word\n* other marker continues\n"
        "- an item before a paragraph\n\nparagraph\n\n- after it in lower case\n"
        "```\n- code line that\n- goes on\n```"
    )
    assert join_page_wraps(page) == page


def test_each_page_on_its_own() -> None:
    pages = [(1, "- Revising the existing manual to"), (2, "- incorporate new procedures.")]
    assert join_list_wraps(pages) == pages
