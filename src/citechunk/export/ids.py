"""Deterministic ids for documents, chunks and configurations. No randomness, no clocks.

* ``doc_id(source_file)`` = UUIDv5(`ID_NAMESPACE`, ``"doc\\0" + source_file``).  Depends on the
  source path relative to INPUT only, so it survives content changes: a vector store deletes a
  document's old chunks with ``doc_id == X`` before inserting the new ones.
* ``chunk_id(...)`` = UUIDv5(`ID_NAMESPACE`, ``"chunk"`` then doc_id, source_sha256,
  config_fingerprint, chunk_index, char_start, char_end joined by NUL).  Unique across a dataset
  (doc_id is unique per source path, chunk_index per document) and the same for the same input
  bytes and configuration; any change of content or of output-affecting options gives new ids.
* ``section_id(...)`` = UUIDv5(`ID_NAMESPACE`, ``"section"`` then doc_id, source_sha256,
  config_fingerprint and the section's character span joined by NUL): every chunk of one
  section carries the same id.
* ``config_fingerprint(config)`` = first 16 hex digits of SHA-256 over the canonical JSON of
  everything that changes output (sorted keys, no whitespace, ASCII).

UUID strings are accepted as point ids by common vector stores (Qdrant, Weaviate, Chroma, ...).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from typing import Any

ID_NAMESPACE = uuid.UUID("819583ab-ee0a-5921-9603-8bcbf52e7b15")
"""uuid5(NAMESPACE_URL, "citechunk:ids:v1"); changing it changes every id."""


def doc_id(source_file: str) -> str:
    """The id of the document at `source_file` (relative to INPUT, POSIX separators)."""
    return str(uuid.uuid5(ID_NAMESPACE, "doc\0" + source_file))


def chunk_id(
    doc: str,
    source_sha256: str,
    config_fingerprint: str,
    chunk_index: int,
    char_start: int,
    char_end: int,
) -> str:
    """The id of one chunk; see the module docstring for what it depends on."""
    parts = ("chunk", doc, source_sha256, config_fingerprint, chunk_index, char_start, char_end)
    return str(uuid.uuid5(ID_NAMESPACE, "\0".join(map(str, parts))))


def section_id(
    doc: str, source_sha256: str, config_fingerprint: str, char_start: int, char_end: int
) -> str:
    """The id of one section of a document; see the module docstring."""
    parts = ("section", doc, source_sha256, config_fingerprint, char_start, char_end)
    return str(uuid.uuid5(ID_NAMESPACE, "\0".join(map(str, parts))))


def canonical_json(value: Mapping[str, Any]) -> str:
    """Sorted-key, whitespace-free, ASCII JSON; tuples become lists. Raises TypeError on values
    JSON cannot represent (pass strings, numbers, bools, lists and dicts only)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def config_fingerprint(config: Mapping[str, Any]) -> str:
    """A stable 16-hex-digit hash of an output-affecting configuration mapping.

    The caller decides what goes in (the runner: backend name and version, convert and chunk
    options, tokenizer, `SCHEMA_VERSION`); key order does not matter, values do.
    """
    return hashlib.sha256(canonical_json(config).encode("ascii")).hexdigest()[:16]
