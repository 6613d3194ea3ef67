"""The layout passes: named, listed with the Markdown passes, each skippable by name."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from citechunk.conversion.layoutpasses import LAYOUT_PASSES, LayoutPage, run_layout_passes
from citechunk.conversion.pipeline import PASS_NAMES, check_pass_names, pass_table
from citechunk.errors import ConfigError

LEFT = ["Some women have abnormal", "cells that are contained", "within the lobules of the"]
RIGHT = ["This condition will not", "develop breast cancer in", "most women who have it,"]


def _line(*spans: tuple[float, str]) -> dict[str, Any]:
    style = {"size": 10.0, "flags": 0, "font": "Helvetica"}
    out = [{"bbox": (x, 100.0, x + 6 * len(t), 110.0), "text": t, **style} for x, t in spans]
    return {"bbox": (out[0]["bbox"][0], 100.0, out[-1]["bbox"][2], 110.0), "spans": out}


def _two_columns() -> list[Any]:
    from pymupdf4llm.helpers.document_layout import LayoutBox

    lines = [
        _line((54, a), (240, b)) for a, b in zip([*LEFT, "x" * 24], [*RIGHT, "y" * 23], strict=True)
    ]
    return [LayoutBox(54, 100, 400, 160, "text", textlines=lines)]


def _page() -> LayoutPage:
    from pymupdf4llm.helpers.document_layout import LayoutBox

    return LayoutPage(SimpleNamespace(width=612.0, fulltext=[]), None, LayoutBox)


def test_every_layout_pass_is_a_pass_name_and_in_the_table() -> None:
    names = [p.name for p in LAYOUT_PASSES]
    assert len(set(names)) == len(names) and set(names) <= set(PASS_NAMES)
    check_pass_names(names)
    table = pass_table()
    assert all(f"| `{name}` | layout |" in table for name in names)
    with pytest.raises(ConfigError, match="split-column"):
        check_pass_names(["split-column"])


def test_a_skipped_layout_pass_leaves_the_boxes_to_the_others() -> None:
    split = run_layout_passes(_two_columns(), _page())
    assert [b.textlines[0]["spans"][0]["text"] for b in split] == [LEFT[0], RIGHT[0]]
    whole = run_layout_passes(_two_columns(), _page(), skip=("split-columns",))
    assert len(whole) == 1 and len(whole[0].textlines[0]["spans"]) == 2
