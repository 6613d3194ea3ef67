"""One choice of what a split table's row group repeats (`Splitter.table_headers`) for both
ladders: the unit ladder (sizes estimated or counted in tokens) and the ladder by length
(`approx`, sizes in characters). A row group repeats the fullest header that fits beside its
first row: the caption and all header rows, else the header rows, else the header row and its
separator alone (the column-header rows after the separator dropped)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citechunk import ChunkOptions, chunk_markdown
from citechunk.chunking import options_limit, resolve_embedder

CAPTION = "Table 3: Spare parts"
HEADER = "| Item | 2022 | 2021 |\n|---|---|---|"
PERIODS = "| | {} | |"


def table(rows: int, label_words: int, periods: str) -> tuple[str, list[str]]:
    lines = [
        f"| Part {i} " + "for the pump " * label_words + f"| {10 + i}.50 | {9 + i}.25 |"
        for i in range(rows)
    ]
    md = f"# Prices\n\n{CAPTION}\n\n{HEADER}\n{PERIODS.format(periods)}\n" + "\n".join(lines)
    return md + "\n", lines


def later_groups(md: str, lines: list[str], options: ChunkOptions) -> list[str]:
    """Bodies of the chunks holding rows of the table after its head, but not its head."""
    chunks = chunk_markdown(md, options)
    limit = options_limit(options.embedder, options.max_tokens)
    counter = resolve_embedder(options.embedder).counter
    assert all(counter.count(c.text) <= limit for c in chunks)
    held = [c.body for c in chunks if any(has(c.body, r) for r in lines[1:])]
    # each row after the table's head once, in order (a head too long for the window is cut)
    assert [r for b in held for r in lines[1:] if has(b, r)] == lines[1:]
    return [b for b in held if "| Part 0 " not in b]


def has(body: str, line: str) -> bool:
    return f"\n{line}\n" in f"\n{body}\n"


def test_a_row_too_wide_for_the_column_header_rows_repeats_the_header_row_alone() -> None:
    """By length: the period row after the separator is long, so a wide row does not fit
    beside all header rows, but it does beside the header row and separator: every later row
    group repeats those two lines (it went without any header before)."""
    periods = "Fiscal year ended in June, restated for the change of segments and of units"
    md, lines = table(12, 6, periods)
    options = ChunkOptions(embedder="approx@512", max_tokens=60)
    groups = later_groups(md, lines, options)
    assert groups
    for body in groups:
        assert body.startswith(HEADER + "\n| Part "), body
        assert periods not in body


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(6, 30),
    label_words=st.integers(0, 8),
    periods=st.sampled_from(["Fiscal Year", "Fiscal year ended in June, restated " * 2]),
    spec=st.sampled_from(["approx@512", "all-MiniLM-L6-v2"]),
    max_tokens=st.sampled_from([60, 90, 0]),
)
def test_every_later_row_group_repeats_a_header_when_the_header_row_fits_beside_it(
    rows: int, label_words: int, periods: str, spec: str, max_tokens: int
) -> None:
    """On both ladders every later row group opens with one of the table's headers (caption
    and header rows, header rows, or header row and separator), and with at least the header
    row and separator when those and the group's first row fit well within the window."""
    options = ChunkOptions(embedder=spec, max_tokens=max_tokens)
    md, lines = table(rows, label_words, periods)
    counter = resolve_embedder(spec).counter
    limit = options_limit(spec, max_tokens)
    column_rows = f"{HEADER}\n{PERIODS.format(periods)}"
    for body in later_groups(md, lines, options):
        first = next(r for r in lines if has(body, r))
        choices = (f"{CAPTION}\n\n{column_rows}\n", f"{column_rows}\n", f"{HEADER}\n", "")
        opening = next((h for h in choices if body.startswith(h + first)), None)
        assert opening is not None, body
        if counter.count(f"Prices\n\n{HEADER}\n{first}") <= 0.8 * limit:
            assert HEADER in opening, body
