"""Text set in a typewriter font is read as text: prose fences become paragraphs, numbered
titles headings, and a plain-text page's own header and footer lines go."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf

from citechunk.chunking import chunk_markdown
from citechunk.chunking.navigation import chunk_role
from citechunk.config import ChunkOptions, ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.repairs.typewriter import read_typewriter_text
from citechunk.conversion.runninglines import find_running
from citechunk.conversion.textlayer import TextLayer

PROSE = (
    "   The widget exchange protocol lets a client ask a server for the\n"
    "   current state of a widget and lets the server push changes back to\n"
    "   every client that holds a lease on it; clients ask again.\n"
)


def test_a_prose_fence_becomes_a_paragraph_and_code_stays() -> None:
    code = "```\nretry = 5\nbackoff = 0.5 # seconds, doubled after each attempt of the client\n```"
    tagged = "```text\n" + PROSE + "```"
    page = f"```\n3.1.  Leases\n```\n\n```\n{PROSE}```\n\n{code}\n\n{tagged}\n\n`2.  Scope of it`"
    assert read_typewriter_text([page]) == [
        "### 3.1. Leases\n\n"
        "The widget exchange protocol lets a client ask a server for the current state of a "
        "widget and lets the server push changes back to every client that holds a lease on it; "
        f"clients ask again.\n\n{code}\n\n{tagged}\n\n## 2. Scope of it"
    ]


def test_an_outdented_title_inside_prose_is_a_heading() -> None:
    page = f"```\n4.  Security Considerations\n\n{PROSE}```"
    out = read_typewriter_text([page])[0]
    assert out.startswith("## 4. Security Considerations\n\nThe widget exchange protocol")
    assert "```" not in out


def test_a_printed_plain_text_reads_as_text(sample_pdfs: Path) -> None:
    """The sample sets a plain-text specification in a typewriter font, with its own page
    header and footer lines where its text pages broke (mid-page on the PDF's pages)."""
    pdf = sample_pdfs / "printed_spec.pdf"
    with pymupdf.open(pdf) as doc:
        running = find_running(TextLayer.of_document(doc)).signatures
    assert "okafor informational [page #]" in running
    assert "rfc # widget exchange protocol march #" in running
    md = convert(pdf, ConvertOptions(backend="pymupdf")).markdown
    assert "```" not in md and "`" not in md
    assert "[Page" not in md and "RFC 9999" not in md
    headings = re.findall(r"^#+ (.*)$", md, re.M)
    assert headings[-4:] == [
        "1. Introduction",
        "2. Leases",
        "3. Registration Template",
        "4. Security Considerations",
    ]
    chunks = chunk_markdown(md, ChunkOptions())
    roles = {c.heading_path[-1]: chunk_role(c.body) for c in chunks}
    assert roles["Table of Contents"] == "navigation"
    assert roles["2. Leases"] == "content"
