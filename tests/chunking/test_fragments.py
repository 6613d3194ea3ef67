"""No fragment beside a piece it fits with (`pack.Packer._mend_fragments`): within a section cut
into pieces, a piece whose body is under `LEAD_IN` of the budget is one whose text joined with
the piece before it and with the piece after it would be over the window (both measured
exactly), and a section's last piece that is a fragment does not fit in the piece before."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citechunk import ChunkOptions, chunk_markdown
from citechunk.chunking import options_limit, resolve_embedder
from citechunk.chunking.pack import LEAD_IN
from citechunk.models import Chunk

PROSE = ["the", "pump", "valve", "is", "checked", "for", "wear", "before", "winter", "and"]
PROSE += ["spring", "each", "seal", "gets", "replaced", "when", "worn", "by", "the", "crew"]


def sentence(rng: random.Random, lo: int, hi: int) -> str:
    return " ".join(rng.choices(PROSE, k=rng.randint(lo, hi))).capitalize() + "."


@st.composite
def documents(draw: st.DrawFn) -> str:
    """Sections of paragraphs, footnote lines and short tables; no line introduces what
    follows (no colon, no bold label), so every fragment may join either neighbour."""
    rng = draw(st.randoms(use_true_random=False))
    parts: list[str] = []
    for s in range(draw(st.integers(1, 3))):
        parts.append(f"## Section {s}")
        for _ in range(draw(st.integers(1, 6))):
            kind = draw(st.sampled_from(["para", "para", "note", "table"]))
            if kind == "para":
                n = draw(st.integers(1, 10))
                parts.append(" ".join(sentence(rng, 3, 25) for _ in range(n)))
            elif kind == "note":
                parts.append(f"[{len(parts)}] " + sentence(rng, 2, 6))
            else:
                rows = [f"| Seal {i} | {rng.randint(1, 99)}.5 |" for i in range(rng.randint(2, 12))]
                parts.append("\n".join(["| Part | Hours |", "|---|---|", *rows]))
    return "# Manual\n\n" + "\n\n".join(parts) + "\n"


def joined(md: str, a: Chunk, b: Chunk) -> str:
    """The text of one piece from ``a``'s start to ``b``'s end, under ``a``'s path line and
    repeated header (as the packer measures it)."""
    return a.text + md[a.char_end : b.char_end]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(md=documents(), max_tokens=st.sampled_from([60, 120, 0]))
def test_a_fragment_piece_does_not_fit_with_its_neighbours(md: str, max_tokens: int) -> None:
    options = ChunkOptions(max_tokens=max_tokens)
    count = resolve_embedder(options.embedder).counter.count
    limit = options_limit(options.embedder, max_tokens)
    chunks = chunk_markdown(md, options)
    assert all(count(c.text) <= limit for c in chunks)
    for a, b in itertools.pairwise(chunks):
        if a.section_start != b.section_start or a.heading_path != b.heading_path:
            continue  # pieces of one section
        head = count(a.text[: len(a.text) - len(a.body)])
        small = (limit - head) * LEAD_IN
        if min(a.token_count, b.token_count) - head < small:
            assert count(joined(md, a, b)) > limit, (a.text, b.text)


def test_a_footnote_after_a_paragraph_too_long_to_share_a_chunk_takes_its_last_sentences() -> None:
    """A section's last piece would be a footnote line alone after a paragraph that fills
    the window: it takes the paragraph's last sentence(s) with it instead."""
    rng = random.Random(7)
    paragraph = " ".join(sentence(rng, 8, 14) for _ in range(20)) + " [8]"
    note = "[8] See the annex of this manual on seals and valves, part 3.2 and 3.3."
    md = f"# Manual\n\n## Seals\n\n{paragraph}\n\n{note}\n"
    options = ChunkOptions()
    count = resolve_embedder(options.embedder).counter.count
    chunks = chunk_markdown(md, options)
    assert len(chunks) == 2 and count(chunks[0].text + "\n\n" + note) > chunks[0].token_count
    last = chunks[-1]
    assert last.body.endswith(note) and not last.body.startswith("[8]"), last.body
    head = count(last.text[: len(last.text) - len(last.body)])
    assert last.token_count - head >= (options_limit(options.embedder, 0) - head) * LEAD_IN
    assert chunks[0].body.endswith(".")  # cut at a sentence end


CLOSING = "Hours are counted from the last overhaul."


def seals(lines: int) -> tuple[str, str, list[Chunk], int]:
    """A section of a paragraph, a block of `lines` printed lines and a closing line, chunked
    at the default window: (paragraph, block, chunks, window)."""
    rng = random.Random(3)
    lead = " ".join(sentence(rng, 12, 16) for _ in range(3))
    rows = (f"Seal {i:02d} replaced after {rng.randint(100, 999)} hours" for i in range(lines))
    block = "\n".join(rows)
    options = ChunkOptions()
    md = f"# Manual\n\n## Seals\n\n{lead}\n\n{block}\n\n{CLOSING}\n"
    return lead, block, chunk_markdown(md, options), options_limit(options.embedder, 0)


def test_a_last_fragment_takes_back_a_block_larger_than_what_the_piece_before_keeps() -> None:
    """A section's last piece would be a closing line alone after a block of lines that fills
    the window with the paragraph before it: it takes the block back, though the paragraph
    left before it is smaller, since that paragraph is no fragment."""
    lead, block, chunks, limit = seals(30)
    count = resolve_embedder(ChunkOptions().embedder).counter.count
    assert count(f"Manual > Seals\n\n{lead}\n\n{block}\n\n{CLOSING}") > limit  # two pieces
    assert [c.body for c in chunks] == [lead, f"{block}\n\n{CLOSING}"]


def test_a_last_fragment_takes_back_the_last_printed_lines_of_a_block_of_lines() -> None:
    """A closing line after a block of lines too long to share a piece with it takes the
    block's last lines with it (cut between lines), so no piece is a fragment."""
    _, block, chunks, limit = seals(37)
    count = resolve_embedder(ChunkOptions().embedder).counter.count
    assert count(f"Manual > Seals\n\n{block}\n\n{CLOSING}") > limit  # the block cannot join it
    last = chunks[-1]
    head = count(last.text[: len(last.text) - len(last.body)])
    assert last.body.startswith("Seal ") and last.body.endswith(CLOSING)
    assert last.token_count - head >= (limit - head) * LEAD_IN
    assert all(line in block.split("\n") for line in chunks[-2].body.split("\n"))
