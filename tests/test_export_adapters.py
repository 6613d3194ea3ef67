"""LangChain / LlamaIndex adapters: real framework objects carrying the citation metadata."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from citechunk.export import read_chunks, write_chunks
from citechunk.export.adapters import METADATA_KEYS, citation_metadata, to_langchain, to_llamaindex
from test_export import records_for


def test_citation_metadata_has_every_field_but_text() -> None:
    _, records = records_for("docs/a.pdf")
    meta = citation_metadata(records[1])
    assert set(meta) == set(METADATA_KEYS) and "text" not in meta
    assert meta["heading_path"] == ["Intro", "Scope"]
    assert meta["citation"] == "docs/a.pdf, p. 1, § Intro > Scope"


def test_langchain_documents_from_a_read_back_table(tmp_path: Path) -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document

    _, records = records_for("docs/a.pdf")
    write_chunks(records, tmp_path / "a.parquet", "parquet")
    docs = to_langchain(read_chunks(tmp_path))
    assert all(isinstance(d, Document) for d in docs)
    assert [d.id for d in docs] == [r.chunk_id for r in records]
    assert [d.page_content for d in docs] == [r.text for r in records]
    assert (
        docs[2].metadata["first_page"] == 2 and docs[2].metadata["char_end"] == records[2].char_end
    )


@pytest.mark.skipif(
    importlib.util.find_spec("llama_index") is None, reason="llama-index-core not installed"
)
def test_llamaindex_nodes() -> None:
    from llama_index.core.schema import MetadataMode, NodeRelationship

    _, records = records_for("docs/a.pdf")
    nodes = to_llamaindex(records)
    assert [n.node_id for n in nodes] == [r.chunk_id for r in records]
    assert nodes[0].relationships[NodeRelationship.SOURCE].node_id == records[0].doc_id
    assert nodes[0].get_content(metadata_mode=MetadataMode.EMBED) == records[0].text
