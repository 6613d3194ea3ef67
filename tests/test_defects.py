"""The countable-defect tally (`citechunk.evaluation.defects`) on small chunk lists."""

from __future__ import annotations

from citechunk.evaluation.defects import (
    DefectChunk,
    Tally,
    document_defects,
    has_garbled_glyph,
    has_margin_stamp,
    is_broken_pair,
)


def words(text: str) -> int:
    return len(text.split())


LONG = " ".join(["word"] * 40)


def chunk(body: str, path: tuple[str, ...] = ("A",)) -> DefectChunk:
    return DefectChunk(path, " > ".join(path) + "\n\n" + body, body)


def test_garbled_glyphs() -> None:
    assert has_garbled_glyph("K¨uttler et al.")
    assert has_garbled_glyph("Yes \ufffd No")
    assert has_garbled_glyph("a\x07b") and has_garbled_glyph("icon \ue000 here")
    assert not has_garbled_glyph("Küttler\tet al.\n")
    assert not has_garbled_glyph("the ¨ sign alone")  # an accent touching no letter is a symbol


def test_margin_stamps() -> None:
    assert has_margin_stamp("text\narXiv:2004.04906v3 [cs.CL] 30 Sep 2020\nmore")
    assert has_margin_stamp("VerDate Sep<11>2014 16:20 Jan 08, 2024 Jkt 262001 PO 00000 Frm 00001")
    assert not has_margin_stamp("See arXiv:2004.04906 for the preprint.")


def test_broken_pair_needs_mid_sentence_end_and_lower_case_start() -> None:
    assert is_broken_pair("results on multiple open-domain", "qa datasets")
    assert is_broken_pair("as the airplane’s,", "_weight_ and balance")
    assert not is_broken_pair("It ends here.", "and goes on")
    assert not is_broken_pair("results on multiple", "QA datasets, it also")


def test_document_defects_counts_each_kind_once_per_chunk() -> None:
    line = "Copyright 2024 Example Corporation. All rights reserved."
    chunks = [
        chunk(f"{LONG}\n{line}\nthe state of the"),
        chunk(f"art is {LONG}\n{line}"),
        chunk(f"{LONG} K¨uttler\n{line}", ("B",)),
        chunk("Too short.", ("B",)),
        chunk(f"{LONG} cut at a", ("C",)),
        chunk(f"but under another path {LONG}", ("D",)),
    ]
    kinds = document_defects(chunks, words)
    assert kinds == [
        {"repeated", "broken"},
        {"repeated"},
        {"repeated", "glyph"},
        {"tiny"},
        set(),
        set(),
    ]
    tally = Tally()
    tally.add(kinds)
    assert (tally.chunks, tally.defects, tally.per_thousand("repeated")) == (6, 6, 500.0)


def test_table_rows_repeated_by_a_split_table_are_not_defects() -> None:
    header = "|**Quarter**|**Revenue in millions**|**Change**|"
    chunks = [chunk(f"{header}\n|Q{i}|1|2|\n{LONG} {i}") for i in range(4)]
    assert document_defects(chunks, words) == [set()] * 4
