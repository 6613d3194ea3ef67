"""Property tests of the chunk contract over generated page-marked Markdown.

The generator builds documents from headings at random levels, paragraphs (some very long and
without newlines), fenced code holding `#` lines and page markers, tables, lists and page
markers, and records where every heading line and marker line is, independently of the
chunker's own parser. Checked: no chunk over ``max_tokens``; with overlap 0 every non-space
character outside heading lines and markers lies in exactly one chunk span (and so in exactly
one body; no table row is in two chunks); the offset invariant; pages are those of the span ends and never decrease; no empty
chunk; determinism.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citechunk import ChunkOptions, chunk_markdown
from citechunk.chunking import FixedChunker, options_limit, resolve_embedder
from citechunk.chunking.sections import clean_heading
from citechunk.markers import marker, strip_markers
from citechunk.models import Chunk

WORDS = ["retry", "hedge", "ratio", "policy", "EUR", "60%", "max_attempts", "**bold**", "ünïcode"]
WORDS += ["backoff", "a", "the", "table", "x" * 30, "2.1", "<br>", "fund", "—"]


@dataclass
class Doc:
    """A generated document and, per character range, what the generator put there."""

    parts: list[str] = field(default_factory=list)
    length: int = 0
    heading_lines: list[tuple[int, int]] = field(default_factory=list)
    heading_info: list[tuple[int, bool]] = field(default_factory=list)  # (level, titled)
    marker_lines: list[tuple[int, int, int]] = field(default_factory=list)  # (start, end, page)
    page: int = 1
    start_page: int = 1

    def add(self, text: str) -> int:
        start = self.length
        self.parts.append(text)
        self.length += len(text)
        return start

    @property
    def markdown(self) -> str:
        return "".join(self.parts)


def words(rng: random.Random, lo: int, hi: int) -> str:
    out = rng.choices(WORDS, k=rng.randint(lo, hi))
    for i in range(8, len(out), 9):
        out[i] += rng.choice([".", ".", "!", "?", ",", ""])
    return " ".join(out)


@st.composite
def documents(draw: st.DrawFn) -> Doc:
    rng = draw(st.randoms(use_true_random=False))
    doc = Doc()
    doc.start_page = doc.page = draw(st.integers(1, 4))
    if draw(st.booleans()):
        doc.marker_lines.append((0, len(marker(doc.page)), doc.page))
        doc.add(marker(doc.page) + "\n\n")
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(
            st.sampled_from(["heading", "heading", "para", "para", "long", "fence", "table"])
            | st.sampled_from(["list", "marker", "marker", "blank"])
        )
        if kind == "heading":
            level = draw(st.integers(1, 6))
            title = rng.choice(["", " " + words(rng, 1, 4)])
            start = doc.add("#" * level + title)
            doc.heading_lines.append((start, doc.length))
            doc.heading_info.append((level, bool(clean_heading(title))))
            doc.add("\n\n")
        elif kind == "para":
            doc.add(words(rng, 1, 40) + "\n\n")
        elif kind == "long":  # one long line: sentence and word fallbacks
            doc.add(words(rng, 80, 400) + "\n\n")
        elif kind == "fence":
            fence = draw(st.sampled_from(["```", "~~~", "````"]))
            doc.add(fence + "\n# not a heading\n" + words(rng, 1, 20) + "\n")
            if draw(st.booleans()):  # a page break inside the code block
                add_marker(doc)
                doc.add("\n")
            doc.add("## still code\n" + fence + "\n\n")
        elif kind == "table":
            rows = [
                f"| {words(rng, 1, 3)} | {words(rng, 1, 6)} |"
                for _ in range(draw(st.integers(1, 30)))
            ]
            doc.add("| key | value |\n|---|---|\n" + "\n".join(rows) + "\n\n")
        elif kind == "list":
            items = [f"- {words(rng, 1, 12)}" for _ in range(draw(st.integers(1, 25)))]
            doc.add("\n".join(items) + "\n\n")
        elif kind == "marker":
            add_marker(doc)
            doc.add("\n\n")
        else:
            doc.add(draw(st.sampled_from(["\n", "  \n", "\t\n"])))
    return doc


def add_marker(doc: Doc) -> None:
    doc.page += 1
    start = doc.add(marker(doc.page))
    doc.marker_lines.append((start, doc.length, doc.page))


def expected_page(doc: Doc, offset: int) -> int:
    page = doc.start_page
    for start, _, number in doc.marker_lines:
        if start <= offset:
            page = number
    return page


def check_contract(doc: Doc, chunks: list[Chunk], options: ChunkOptions) -> None:
    md = doc.markdown
    counter = resolve_embedder(options.embedder).counter
    prev_first = 0
    for i, c in enumerate(chunks):
        assert c.chunk_index == i
        assert c.body and c.body == c.body.strip()
        assert (
            c.token_count
            == counter.count(c.text)
            <= options_limit(options.embedder, options.max_tokens)
        )
        head = " > ".join(c.heading_path)
        assert c.text == (head + "\n\n" + c.body if c.heading_path else c.body)
        span = strip_markers(md[c.char_start : c.char_end]).strip()
        if span != c.body and c.body.split("\n", 1)[0] in ("```", "~~~", "````"):
            # a piece that starts inside a code block opens it again with its fence line
            fence = c.body.split("\n", 1)[0]
            assert c.body == fence + "\n" + span and fence + "\n" in md[: c.char_start], c
        elif span != c.body:
            header = c.body[: len(c.body) - len(span)]
            # a table piece repeats the caption lines before the table, header and separator
            assert c.body.endswith(span) and header.endswith("| key | value |\n|---|---|\n"), c
            caption = header[: -len("| key | value |\n|---|---|\n")]
            assert not caption or caption.endswith("\n\n"), c
            assert all(line in md[: c.char_start] for line in caption.split("\n")), c
        assert c.first_page == expected_page(doc, c.char_start)
        assert c.last_page == expected_page(doc, c.char_end - 1)
        assert prev_first <= c.first_page <= c.last_page
        prev_first = c.first_page
        assert "<!-- page" not in c.text


def absorbed_headings(doc: Doc) -> set[int]:
    """Indexes of the heading lines a chunk span holds: from a titled heading with no body
    whose next heading is not deeper (nothing nests under it) up to the next heading with a
    body; after the last body, every heading line to the end (when some chunk exists)."""
    md, lines = doc.markdown, doc.heading_lines
    ends = [start for start, _ in lines[1:]] + [len(md)]

    def has_body(start: int, end: int) -> bool:
        return bool(strip_markers(md[start:end]).strip())

    last_body = -1 if lines and has_body(0, lines[0][0]) else None  # -1: the preamble
    absorbed: set[int] = set()
    pending = False
    for i, ((_, line_end), (level, titled)) in enumerate(zip(lines, doc.heading_info, strict=True)):
        body = has_body(line_end, ends[i])
        child = i + 1 < len(lines) and doc.heading_info[i + 1][0] > level
        if pending or (titled and not body and not child):
            absorbed.add(i)
            pending = not body
        if body:
            last_body = i
    if last_body is None:
        return set()
    if pending:  # the last span runs on to the end, over every heading after the last body
        absorbed |= set(range(last_body + 1, len(lines)))
    return absorbed


def check_coverage(doc: Doc, chunks: list[Chunk], packed: bool = False) -> None:
    """Every non-space character outside heading and marker lines is in exactly one span;
    heading lines are in none, except those of bodiless headings nothing nests under (and the
    headings between them and the next body), which are in exactly one, and (``packed``: short
    sections packed together) the heading lines of packed sections, in at most one."""
    md = doc.markdown
    covered = [0] * len(md)
    for c in chunks:
        for p in range(c.char_start, c.char_end):
            covered[p] += 1
    for a, b in zip(chunks, chunks[1:], strict=False):
        assert a.char_end <= b.char_start, (a, b)  # no table row (no character) in two chunks
    excluded = [False] * len(md)
    absorbed = absorbed_headings(doc)
    for i, (start, end) in enumerate(doc.heading_lines):
        for p in range(start, end):
            excluded[p] = True
            if not md[p].isspace():
                if packed and i not in absorbed:
                    assert covered[p] <= 1, (p, md[start:end])
                else:
                    assert covered[p] == (i in absorbed), (p, md[start:end], i in absorbed)
    for start, end, _ in doc.marker_lines:
        for p in range(start, end):
            excluded[p] = True
    for p, ch in enumerate(md):
        if not ch.isspace() and not excluded[p]:
            assert covered[p] == 1, (p, md[max(0, p - 30) : p + 30])


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    doc=documents(),
    max_tokens=st.sampled_from([16, 24, 60, 200]),
    max_depth=st.integers(1, 6),
)
def test_contract_and_coverage_approx(doc: Doc, max_tokens: int, max_depth: int) -> None:
    options = ChunkOptions(
        max_tokens=max_tokens, embedder="approx@512", max_depth=max_depth, start_page=doc.start_page
    )
    chunks = chunk_markdown(doc.markdown, options)
    check_contract(doc, chunks, options)
    if max_depth == 6:  # heading lines of deeper levels are body text otherwise
        check_coverage(doc, chunks, packed=True)
    assert chunk_markdown(doc.markdown, options) == chunks


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=documents(), max_tokens=st.sampled_from([16, 40, 120]))
def test_contract_and_coverage_tiktoken(doc: Doc, max_tokens: int) -> None:
    options = ChunkOptions(
        max_tokens=max_tokens, embedder="tiktoken:cl100k_base@512", start_page=doc.start_page
    )
    chunks = chunk_markdown(doc.markdown, options)
    counter = resolve_embedder(options.embedder).counter
    check_contract(doc, chunks, options)
    check_coverage(doc, chunks, packed=True)
    for c, after in itertools.pairwise(chunks):  # headings after the last body may end the last
        lines = [ln for ln in c.body.split("\n") if ln.strip()]
        fenced = c.body.startswith(("```", "~~~", "````"))  # code lines may start with '#'
        only_headings = not fenced and all(ln.startswith("#") for ln in lines)
        # a chunk of headings alone is one that does not fit with what follows
        joined = c.text + doc.markdown[c.char_end : after.char_end]
        assert not only_headings or counter.count(joined) > max_tokens, (c, after)
    check_coverage(doc, chunk_markdown(doc.markdown, options, pack_short=False))


@SETTINGS
@given(
    doc=documents(),
    tokenizer=st.sampled_from(["approx@512", "tiktoken:cl100k_base@512"]),
    max_tokens=st.sampled_from([20, 60, 150]),
    overlap=st.integers(1, 9),
    min_tokens=st.sampled_from([0, 0, 10, 50]),
)
def test_contract_with_overlap_and_merging(
    doc: Doc, tokenizer: str, max_tokens: int, overlap: int, min_tokens: int
) -> None:
    options = ChunkOptions(
        max_tokens=max_tokens,
        embedder=tokenizer,
        overlap_tokens=overlap,
        min_tokens=min(min_tokens, max_tokens),
        start_page=doc.start_page,
    )
    chunks = chunk_markdown(doc.markdown, options)
    check_contract(doc, chunks, options)
    starts = [c.char_start for c in chunks]
    assert starts == sorted(starts)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=documents(), overlap=st.sampled_from([0, 5]))
def test_fixed_baseline_contract(doc: Doc, overlap: int) -> None:
    options = ChunkOptions(
        max_tokens=32, overlap_tokens=overlap, embedder="approx@512", start_page=doc.start_page
    )
    chunks = FixedChunker(options).chunk(doc.markdown)
    check_contract(doc, chunks, options)
    assert all(c.heading_path == () for c in chunks)


PROSE = ["the", "pump", "is", "serviced", "yearly", "by", "supplier", "and", "every", "part"]
PROSE += ["of", "it", "gets", "checked", "for", "wear", "before", "winter", "comes", "again"]
_SENTENCE_END = (".", "!", "?")


def sentence(rng: random.Random, lo: int, hi: int) -> str:
    out = rng.choices(PROSE, k=rng.randint(lo, hi))
    for i in range(5, len(out) - 1, rng.randint(5, 12)):
        out[i] += ","
    return " ".join(out).capitalize() + rng.choice(_SENTENCE_END)


@st.composite
def prose_documents(draw: st.DrawFn) -> str:
    """Sections of paragraphs of sentences (some longer than a small window), with page
    markers between paragraphs and lead-in lines before some paragraphs."""
    rng = draw(st.randoms(use_true_random=False))
    parts: list[str] = []
    page = 1
    for _ in range(draw(st.integers(1, 4))):
        parts.append("#" * draw(st.integers(1, 3)) + " " + sentence(rng, 1, 4).rstrip(".!?"))
        for _ in range(draw(st.integers(1, 4))):
            if draw(st.booleans()):
                parts.append("The parts are as follows:")
            n = draw(st.integers(1, 12))
            parts.append(
                " ".join(sentence(rng, 3, draw(st.sampled_from([12, 40, 90]))) for _ in range(n))
            )
            if draw(st.booleans()):
                page += 1
                parts.append(marker(page))
    return "\n\n".join(parts) + "\n"


def cut_sentence(md: str, a: Chunk, b: Chunk) -> tuple[int, int] | None:
    """The span of the sentence a cut between chunks ``a`` and ``b`` falls in, or None when
    the cut is at a sentence end or between lines."""
    if a.body.endswith(_SENTENCE_END) or "\n" in md[a.char_end : b.char_start]:
        return None
    head = md[: a.char_end]
    start = max(head.rfind(e + " ") for e in _SENTENCE_END) + 2
    start = max(start, head.rfind("\n") + 1)
    ends = [md.find(e, b.char_start) for e in _SENTENCE_END]
    return start, min(e for e in ends if e >= 0) + 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(md=prose_documents(), max_tokens=st.sampled_from([40, 60, 120]))
def test_a_cut_falls_at_a_sentence_end_when_the_sentence_fits(md: str, max_tokens: int) -> None:
    """A section that fits is one chunk; a cut inside a section falls inside a sentence only
    when that sentence would not fit a chunk of its own under the path line, or the chunk
    before it would hold only lines introducing it (a lead-in line, a heading) or under ten
    words."""
    options = ChunkOptions(max_tokens=max_tokens, embedder="tiktoken:cl100k_base@512")
    counter = resolve_embedder(options.embedder).counter
    chunks = chunk_markdown(md, options)
    sections: dict[tuple[int, int], list[Chunk]] = {}
    for c in chunks:
        sections.setdefault(c.section_span, []).append(c)
    for same in sections.values():
        if len(same) > 1:  # a cut section does not fit whole under its path line
            head = same[0].text[: len(same[0].text) - len(same[0].body)]
            whole = strip_markers(md[same[0].char_start : same[-1].char_end]).strip()
            assert counter.count(head + whole) > max_tokens
        for a, b in zip(same, same[1:], strict=False):
            cut = cut_sentence(md, a, b)
            if cut is None:
                continue
            head = b.text[: len(b.text) - len(b.body)]
            lead_only = all(
                ln.endswith(":") or ln.startswith("#") or not ln.strip()
                for ln in strip_markers(md[a.char_start : cut[0]]).split("\n")
            )
            few = len(strip_markers(md[a.char_start : cut[0]]).split()) < 10  # pack.MIN_WORDS
            sentence = strip_markers(md[cut[0] : cut[1]]).strip()
            assert lead_only or few or counter.count(head + sentence) > max_tokens, (
                a.body[-80:],
                b.body[:80],
            )


HEAD_WORDS = ["Material", "properties **(1)**", "Hydraulic", "testing (2)", "Surveyor", "check"]
CELL_WORDS = ["W(C+M)", "X", "D > 300mm", "SC", "bearing", "shell", "12,5", "—", "n.a."]


@st.composite
def table_documents(draw: st.DrawFn) -> tuple[str, str, list[str]]:
    """A section of prose (maybe none), a caption (maybe none) and a table whose header row
    is from a few words to most of a small window wide, with rows of a few cells."""
    rng = draw(st.randoms(use_true_random=False))
    columns = draw(st.integers(2, 9))
    width = draw(st.integers(1, 6))
    header = "|" + "|".join(" ".join(rng.choices(HEAD_WORDS, k=width)) for _ in range(columns))
    rows = [
        "|"
        + "|".join(" ".join(rng.choices(CELL_WORDS, k=rng.randint(1, 3))) for _ in range(columns))
        + f"| {i} |"
        for i in range(draw(st.integers(3, 40)))
    ]
    header += "| No. |"
    prose = " ".join(sentence(rng, 5, 20) for _ in range(draw(st.integers(0, 12))))
    caption = draw(st.sampled_from(["", "**Table 8: Summary of required documentation**"]))
    parts = ["# Stage C", prose, caption, "\n".join([header, "|---" * (columns + 1) + "|", *rows])]
    return "\n\n".join(p for p in parts if p) + "\n", header, rows


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=table_documents())
def test_row_groups_are_under_the_header_row_that_fits_beside_them(
    doc: tuple[str, str, list[str]],
) -> None:
    """Every chunk holding rows of a split table holds the table's header row when it and
    the chunk's first row fit well within the window under the path line (the header is repeated however large a
    share of the window it takes); no chunk holds the header row or caption without a row
    when the table's head (header row, separator, first row) fits under the path line; no
    row is in two chunks."""
    md, header, rows = doc
    options = ChunkOptions()
    counter = resolve_embedder(options.embedder).counter
    limit = options_limit(options.embedder, options.max_tokens)
    chunks = chunk_markdown(md, options)
    table_head = md[md.index(header) : md.index(rows[0]) + len(rows[0])]
    seen: list[str] = []
    for c in chunks:
        held = [r for r in rows if r + "\n" in c.body + "\n"]
        seen += held
        head = c.text[: len(c.text) - len(c.body)]
        if (header in c.body or "**Table 8" in c.body) and md.index(header) < c.char_end:
            # the table's head (header row, separator, first row) with the lines before it
            assert held or counter.count(head + table_head) > limit, c.body
        if held:  # the piece's first row: the rows after one too wide for the header follow it
            beside = counter.count(head + table_head.rsplit("\n", 1)[0] + "\n" + held[0])
            assert header in c.body or beside > 0.8 * limit, (held[0], c.body)
    assert sorted(seen, key=rows.index) == seen and len(set(seen)) == len(seen)
