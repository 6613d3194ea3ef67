"""Chunk records as LangChain `Document`s or LlamaIndex `TextNode`s (optional extras).

The framework is imported only when an adapter is called; when it is missing, ConfigError says
which extra to install. Content is the record's ``text`` (what to embed); the metadata is every
other record field (``heading_path`` as a list) plus ``citation`` (see `ChunkRecord.citation`),
so a retrieved chunk can be cited and traced to ``OUT/<markdown_file>[char_start:char_end]``.
The framework id is the record's ``chunk_id``, so re-adding the same chunk is idempotent.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from types import ModuleType
from typing import Any, TypeAlias

import pyarrow as pa

from ..errors import ConfigError
from .schema import FIELDS, ChunkRecord, table_to_records

Records: TypeAlias = Iterable[ChunkRecord] | pa.Table


def _records(records: Records) -> list[ChunkRecord]:
    return table_to_records(records) if isinstance(records, pa.Table) else list(records)


def _require(module: str, extra: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ConfigError(
            f"this adapter needs {module}: pip install 'citechunk[{extra}]'"
        ) from None


def citation_metadata(record: ChunkRecord) -> dict[str, Any]:
    """Every field except ``text``, JSON-ready, plus the human-readable ``citation``."""
    meta = {k: v for k, v in record.to_dict().items() if k != "text"}
    meta["citation"] = record.citation
    return meta


METADATA_KEYS: tuple[str, ...] = (*(f for f in FIELDS if f != "text"), "citation")


def to_langchain(records: Records) -> list[Any]:
    """LangChain ``langchain_core.documents.Document`` per record (``id`` = chunk_id)."""
    documents = _require("langchain_core.documents", "langchain")
    return [
        documents.Document(page_content=r.text, metadata=citation_metadata(r), id=r.chunk_id)
        for r in _records(records)
    ]


def to_llamaindex(records: Records) -> list[Any]:
    """LlamaIndex ``TextNode`` per record: ``id_`` = chunk_id, SOURCE relationship = doc_id,
    char indices into the Markdown file; metadata is kept out of the embedded text (``text``
    already starts with the heading path)."""
    schema = _require("llama_index.core.schema", "llamaindex")
    nodes = []
    for r in _records(records):
        node = schema.TextNode(
            id_=r.chunk_id,
            text=r.text,
            metadata=citation_metadata(r),
            start_char_idx=r.char_start,
            end_char_idx=r.char_end,
            excluded_embed_metadata_keys=list(METADATA_KEYS),
            excluded_llm_metadata_keys=[k for k in METADATA_KEYS if k != "citation"],
        )
        node.relationships[schema.NodeRelationship.SOURCE] = schema.RelatedNodeInfo(
            node_id=r.doc_id
        )
        nodes.append(node)
    return nodes
