"""Answer matching: markup ignored, whole words only, same results as the reference definition."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citechunk.evaluation.match import contains, normalized, words

SHARED = Path(__file__).resolve().parents[2] / "shared"

WORDS = st.lists(st.from_regex(r"[a-z0-9]{1,6}", fullmatch=True), min_size=1, max_size=8)
MARKUP = st.sampled_from(["**", "_", "*", "|", " | ", "<sup>", "</sup>", "<br>", "<br/>", "`"])


def test_markup_is_ignored() -> None:
    assert contains("| **Total** | 30<br>minutes |", "total 30 minutes")
    assert contains("E = mc<sup>2</sup> holds", "E = mc 2 holds")
    assert contains("## Heading\n\n- item _one_\n- item two", "item one item two")
    assert contains("The Board shall limit the total\ntime to 30 minutes.", "total time to 30")


def test_word_boundaries() -> None:
    assert not contains("abc def", "ab")
    assert not contains("xab def", "ab def")
    assert contains("ab-c", "ab c")
    assert not contains("anything", "")
    assert not contains("anything", " ** ")


def test_case_and_soft_hyphen() -> None:
    assert contains("Retrieval-Aug\u00admented Generation", "retrieval augmented generation")
    assert contains("inter-\nnational", "international")


@given(WORDS, WORDS, WORDS, st.lists(MARKUP, max_size=4))
def test_answer_found_inside_markup(
    before: list[str], answer: list[str], after: list[str], marks: list[str]
) -> None:
    decorated = " ".join(
        f"{marks[i % len(marks)]}{w}" if marks else w for i, w in enumerate(answer)
    )
    text = " ".join(before) + " " + decorated + " " + " ".join(after)
    assert contains(text, " ".join(answer))


@given(WORDS, st.from_regex(r"[a-z]{1,4}", fullmatch=True))
def test_glued_prefix_never_matches(text_words: list[str], tail: str) -> None:
    """A word extended by letters is a different word: 'ab' is not found in 'abc'."""
    glued = [w + tail for w in text_words]
    assert not contains(" ".join(glued), " ".join(text_words))


def _reference() -> ModuleType:
    path = SHARED / "eval" / "check_retrieval.py"
    if not path.is_file():
        pytest.skip("shared/eval/check_retrieval.py not available")
    spec = importlib.util.spec_from_file_location("check_retrieval", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.corpus
@given(st.text(alphabet=st.sampled_from("ab1 -\n\u00ad<>/supbr*|Éé"), max_size=40))
def test_same_words_as_reference(text: str) -> None:
    ref = _reference()
    assert words(text) == ref.words(text)
    assert normalized(text) == " " + " ".join(ref.words(text)) + " "
