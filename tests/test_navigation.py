"""Navigation chunks (contents pages, indexes) are marked in the record and left out of the
evaluation pool unless asked for; the text stays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citechunk.chunking import chunk_markdown
from citechunk.chunking.navigation import Entry, chunk_role, entry
from citechunk.config import ChunkOptions
from citechunk.evaluation import load_chunk_set
from citechunk.export import ChunkRecord, make_records, read_chunks, write_chunks

CONTENTS_LEADERS = """\
Introduction ........................................ 1
Background and scope ................................ 3
1.1 Terms . . . . . . . . . . . . . . . . . . . . . . 4
1.2 Earlier work . . . . . . . . . . . . . . . . . . . 7
Methods ............................................. 12
"""

CONTENTS_TABLE = """\
| | | Page |
|---|---|---|
| Item 1. | Business | 3 |
| Item 1A. | Risk Factors | 12 |
| Item 2. | Properties | 30 |
| Item 3. | Legal Proceedings | 31 |
| Item 7. | Management's Discussion and Analysis | 35 |
"""

INDEX = """\
- arrays, 45, 112-118
- assignment operators, 67
- awk language, 3, 9
  - history of, 501
- BEGIN pattern, 22, 140
"""

FIGURES_TABLE = """\
| Segment | 2022 | 2023 |
|---|---|---|
| Retail | 1,204 | 1,377 |
| Wholesale | 842 | 910 |
| Services | 311 | 296 |
| Total | 2,357 | 2,583 |
"""

COUNTS_TABLE = """\
| Site | Patients |
|---|---|
| Leeds | 41 |
| York | 12 |
| Hull | 30 |
| Bath | 8 |
| Derby | 25 |
"""

PROSE = """\
The review found 12 cases in 2019 and 14 in 2020. Each case was read by two clinicians.

The committee met on 3 March and again on 17 March to agree the protocol in version 2.
"""


@pytest.mark.parametrize(
    ("body", "role"),
    [
        (CONTENTS_LEADERS, "navigation"),
        (CONTENTS_TABLE, "navigation"),
        (INDEX, "navigation"),
        (FIGURES_TABLE, "content"),
        (COUNTS_TABLE, "content"),
        (PROSE, "content"),
        ("Introduction .... 1\n", "content"),  # one entry is no list
    ],
)
def test_chunk_role(body: str, role: str) -> None:
    assert chunk_role(body) == role


def test_entry_forms() -> None:
    assert entry("**Notices**. . . . . . . . . . . vii") is not None
    assert entry("|**What is cancer? ............ 4**|") is not None
    assert entry("| Revenue | 1,234 | 5,678 |") is None
    assert entry("|1.2|Objeto ... 3|") == Entry(marked=True, page=3)  # number, title, page
    assert entry("|4|Loops 2|") is None  # no leader: a number and a cell ending in a figure
    assert entry("Part II") is None  # a label's numeral, no leader: not a page
    assert entry("The total was 1,234.") is None


DOCUMENT = f"""\
<!-- page 1 -->
# Contents

{CONTENTS_LEADERS}
<!-- page 2 -->
# Introduction

The introduction explains why the survey was run and who answered it, in plain words.

# Background and scope

The background describes the earlier surveys and the questions they left open.
"""


def _records() -> list[ChunkRecord]:
    chunks = chunk_markdown(DOCUMENT, ChunkOptions(max_tokens=200), pack_short=False)
    return make_records(
        chunks,
        source_file="survey.pdf",
        source_sha256="0" * 64,
        markdown_file="markdown/survey.md",
        tokenizer="approx",
        backend="pymupdf",
        config_fingerprint="test",
    )


def test_records_carry_role_and_eval_leaves_navigation_out(tmp_path: Path) -> None:
    records = _records()
    roles = [(r.heading_path, r.role) for r in records]
    assert roles == [
        (("Contents",), "navigation"),
        (("Introduction",), "content"),
        (("Background and scope",), "content"),
    ]
    out = tmp_path / "out"
    write_chunks(records, out / "chunks" / "survey.jsonl", "jsonl")
    assert read_chunks(out).column("role").to_pylist() == ["navigation", "content", "content"]
    pool = load_chunk_set(out)
    assert [c.heading_path for c in pool.chunks] == [("Introduction",), ("Background and scope",)]
    assert len(load_chunk_set(out, with_navigation=True).chunks) == 3


def test_short_sections_are_packed_but_never_with_navigation() -> None:
    """The two short sections join (under their parent, the document); the contents list
    before them stays a chunk of its own, marked navigation by role and kind."""
    chunks = chunk_markdown(DOCUMENT, ChunkOptions(max_tokens=200))
    assert [(c.heading_path, c.kind) for c in chunks] == [
        (("Contents",), "navigation"),
        ((), "text"),
    ]
    assert chunks[1].body.startswith("# Introduction\n\nThe introduction explains")
    assert "# Background and scope\n\nThe background" in chunks[1].body


def test_records_without_role_read_as_content(tmp_path: Path) -> None:
    """A file written before schema 1.2 has no ``role``: every record reads as content."""
    records = _records()
    path = tmp_path / "chunks" / "old.jsonl"
    path.parent.mkdir()
    lines = []
    for r in records:
        d = r.to_dict()
        del d["role"]
        d["schema_version"] = "1.1"
        lines.append(json.dumps(d))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert set(read_chunks(tmp_path).column("role").to_pylist()) == {"content"}
    write_chunks(records, tmp_path / "pq" / "chunks" / "new.parquet", "parquet")
    assert read_chunks(tmp_path / "pq").column("role").to_pylist()[0] == "navigation"


@pytest.mark.parametrize(
    "line",
    [
        "| Writing and submission of the article | Month 11 | Month 11 |",  # a schedule
        "| /s/ Jane Doe | Director | July 2, 2020 |",  # a signature table's date
        "2027 Benefit Payments 1,059 307 154",  # a row of figures
    ],
)
def test_rows_of_figures_are_no_entries(line: str) -> None:
    assert entry(line) is None


def test_a_contents_list_before_a_page_of_prose_is_content() -> None:
    """Entries are most of the lines but not of the text: the chunk holds the document's own
    words too, and retrieval must see them."""
    prose = "The directors are committed to conducting the business in an ethical manner. " * 12
    assert chunk_role(CONTENTS_LEADERS + "\n" + prose) == "content"
