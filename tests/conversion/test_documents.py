"""A second document inside one PDF starts its own top-level section."""

from __future__ import annotations

from citechunk.chunking import chunk_markdown
from citechunk.config import ChunkOptions
from citechunk.conversion.repairs.documents import split_second_documents
from citechunk.markers import render_pages

COVER = "### DEPARTMENT OF HARBOURS\n\n### Harbour Administration\n\n**[Docket No. H–2020–01]**\n\n"
FIRST = COVER + "### Mooring Rules; North Basin\n\n#### SUMMARY\n\nThe agency proposes rules.\n"
SECOND = (
    COVER + "**Mooring Rules; South**\n\n**Basin Piers**\n\n#### SUMMARY\n\nIt proposes more.\n"
)


def test_a_repeated_cover_run_starts_a_new_document_with_its_title():
    pages = split_second_documents([(1, FIRST), (2, "Body of the first rule.\n\n" + SECOND)])
    assert pages[0] == (1, FIRST)
    assert pages[1][1].startswith("Body of the first rule.\n\n# Mooring Rules; South Basin Piers\n")
    assert "**Mooring Rules; South**" not in pages[1][1]
    chunks = chunk_markdown(render_pages(pages), ChunkOptions())
    last = chunks[-1]
    assert last.heading_path[0] == "Mooring Rules; South Basin Piers"
    assert "Mooring Rules; North Basin" not in last.heading_path


def test_headings_repeated_before_body_text_start_no_document():
    page = "### Scope\n\n### Terms\n\nThe terms apply.\n"
    pages = [(1, page), (2, page)]
    assert split_second_documents(pages) == pages
