"""A table title repeated with "—Continued" (`mdlines.continued_title`; the block rule that
makes the first occurrence no section: test_processors)."""

from __future__ import annotations

from citechunk.conversion.mdlines import continued_title


def test_continued_title() -> None:
    assert continued_title("ESTIMATED COSTS—Continued") == "ESTIMATED COSTS"
    assert continued_title("**Table 2 (cont.)**") == "Table 2"
    assert continued_title("Continued Education") is None
