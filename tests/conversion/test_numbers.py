"""The one numbering reader: what it parses renders back, and its order relations agree."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from citechunk.conversion.numbers import (
    LABELS,
    HeadingNumber,
    bare_number,
    chapter_label,
    decimal_parts,
    heading_number,
    label_only,
    next_in_outline,
    next_in_pattern,
    number_depth,
    numbered_label,
    opens_with_number,
    plain_number,
    previous,
    successor,
)

_PART = st.from_regex(r"[0-9]{1,2}", fullmatch=True)
_REST = st.lists(_PART, max_size=4)
_DECIMAL = st.tuples(st.integers(0, 99), st.lists(st.integers(0, 99), max_size=4)).map(
    lambda t: (t[0], *t[1])
)


@st.composite
def numbers(draw: st.DrawFn) -> HeadingNumber:
    """Any number `heading_number` reads: decimal, letter-led, labelled or roman."""
    scheme = draw(st.sampled_from(("decimal", "letter", "roman", *LABELS)))
    if scheme == "decimal":
        return HeadingNumber(scheme, (draw(_PART), *draw(_REST)))
    if scheme == "letter":
        rest = draw(st.lists(_PART, min_size=1, max_size=4))
        return HeadingNumber(scheme, (draw(st.from_regex(r"[A-Z]", fullmatch=True)), *rest))
    if scheme == "roman":
        return HeadingNumber(scheme, (draw(st.from_regex(r"[IVX]{1,5}", fullmatch=True)),))
    first = draw(st.from_regex(r"[0-9]{1,3}[A-Z]?|[IVXLC]{1,6}|[A-Z]", fullmatch=True))
    return HeadingNumber(scheme, (first, *draw(_REST)))


@given(numbers(), st.sampled_from(("Title", "Risk Factors", "**Data**")))
def test_every_number_renders_back_as_the_same_number(number: HeadingNumber, title: str) -> None:
    assert heading_number(f"{number.text} {title}") == number
    assert number_depth(f"{number.text} {title}") == number.depth


def test_titles_read_render_back_whatever_their_case_and_markup() -> None:
    for title in (
        "PART II. OTHER INFORMATION",
        "**Item 1A.** Risk",
        "note 5 : Leases",
        "2.1. Data",
    ):
        number = heading_number(title)
        assert number is not None and heading_number(f"{number.text} Title") == number, title


@given(numbers())
def test_a_successor_is_a_same_pattern_sibling_that_comes_next(number: HeadingNumber) -> None:
    after = successor(number)
    assume(after is not None)
    assert after is not None and after.key == number.key and after != number
    assert after.parts[:-1] == number.parts[:-1]
    if number.parts[-1].isdigit():
        assert next_in_pattern(number, after) and not next_in_pattern(after, number)
        if number.decimal and after.decimal and number.decimal[-1] >= 1:
            assert previous(after.decimal) == number.decimal


@given(numbers())
def test_a_pattern_opens_only_at_one_or_a(number: HeadingNumber) -> None:
    last = number.parts[-1]
    opens = last == "A" or (last.isdigit() and int(last) == 1)
    assert next_in_pattern(None, number) is opens


@given(_DECIMAL, _DECIMAL)
def test_next_in_outline_is_a_first_child_or_the_next_of_an_ancestor(
    prev: tuple[int, ...], number: tuple[int, ...]
) -> None:
    nexts = {(*prev, 1)} | {(*prev[: d - 1], prev[d - 1] + 1) for d in range(1, len(prev) + 1)}
    assert next_in_outline(prev, number) is (number in nexts)
    assert all(next_in_outline(prev, n) for n in nexts)
    assert not next_in_outline(None, number)


@given(_DECIMAL)
def test_previous_undoes_the_next_sibling(number: tuple[int, ...]) -> None:
    sibling = (*number[:-1], number[-1] + 1)
    assert next_in_outline(number, sibling)
    if number[-1] >= 1:
        assert previous(sibling) == number
    assert (previous(number) is None) is (number[-1] < 2)


@given(_DECIMAL, st.sampled_from(("", ".", ")")), st.sampled_from((" ", "\t", "  ")))
def test_plain_numbered_lines_read_their_number(
    number: tuple[int, ...], mark: str, space: str
) -> None:
    written = ".".join(map(str, number))
    assert plain_number(f"{written}{mark}{space}text") == number
    assert plain_number(f"{written}{mark}") is None  # a number alone opens no line of text
    assert decimal_parts(f"{written} Data") == number
    assert bare_number(written) and bare_number(f" {written}. ")
    assert opens_with_number(f"{written}. Results") and not opens_with_number(written)


@given(st.integers(0, 999), st.sampled_from(("", "Chapter ", "PART ", "part ")))
def test_a_chapter_label_is_only_its_number(number: int, label: str) -> None:
    assert chapter_label(f"{label}{number}") == chapter_label(f"{label}{number}.") == str(number)
    assert chapter_label(f"{label}{number} Scope") is None
    assert chapter_label(f"Section {number}") is None


def test_marks_are_numbers_roman_numerals_or_capitals() -> None:
    assert all(bare_number(t) for t in ("IV.", "A", "1.2.3", "XII"))
    assert not any(bare_number(t) for t in ("iv", "123", "1.234", "Ab", "٣"))
    assert opens_with_number("IV. TEXT DATA") and opens_with_number("A. Learned Features")
    assert not opens_with_number("Aa. Text")


@given(numbers())
def test_a_labelled_number_alone_is_a_numbered_label_and_no_title(number: HeadingNumber) -> None:
    labelled = number.scheme not in ("decimal", "letter", "roman") and number.depth == 1
    first = number.parts[0]
    assume(labelled and (first[0].isdigit() or set(first) <= set("IVXLC")))
    assert numbered_label(number.text.upper()) == number.scheme
    assert numbered_label(f"{number.text} Title") is None
    assert label_only(number.text) is (first.isdigit() or set(first) <= set("IVXLC"))


def test_counts_of_pages_and_slides_are_labels_only() -> None:
    assert all(label_only(t) for t in ("Slide 12", "p. 4", "12", "1.2.3", "iv", "(3)"))
    assert not any(label_only(t) for t in ("2 Methods", "Appendix A", "Slide 12 Results"))
