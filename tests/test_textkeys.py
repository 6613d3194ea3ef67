"""The comparison forms of text (textkeys.py), as properties over random strings."""

from __future__ import annotations

import random

from citechunk.textkeys import compact_key, words, words_key

ALPHABET = "aZ9 _-.,ﬁﬂ²ÄäßSS\u00a0\t/Ⅳ"


def samples(n: int = 400) -> list[str]:
    rng = random.Random(7)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12))) for _ in range(n)]


def test_keys_are_idempotent_and_agree() -> None:
    for text in samples():
        assert compact_key(compact_key(text)) == compact_key(text)
        assert words_key(words_key(text)) == words_key(text)
        assert words_key(text).replace(" ", "") == compact_key(text)
        assert words_key(text) == " ".join(words(text))


def test_keys_ignore_case_ligatures_and_punctuation() -> None:
    assert compact_key("Conﬁguring  Retries") == compact_key("configuring-retries")
    assert words_key("1.3. STETIGKEIT") == "1 3 stetigkeit"
    assert words_key("Straße_Plan") == "strasse plan"
    assert words("x²  Ⅳ") == ["x2", "iv"]
