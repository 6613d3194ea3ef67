"""Page lists as people read them in warnings: [1, 2, 3, 5] -> "1-3, 5"."""

from __future__ import annotations

from collections.abc import Sequence


def page_ranges(pages: Sequence[int]) -> str:
    """[1, 2, 3, 5] -> "1-3, 5" (ascending pages, at least one)."""
    out: list[str] = []
    start = prev = pages[0]
    for p in [*pages[1:], -1]:
        if p == prev + 1:
            prev = p
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = p
    return ", ".join(out)
