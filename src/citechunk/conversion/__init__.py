"""Convert stage: PDF -> page-marked Markdown through a pluggable backend.

`convert(path, options)` returns a `ConvertedDocument`; `save(doc, md_path)` writes the Markdown
and its provenance (``<md_path>.json``) atomically; `load(md_path)` reads both back.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..config import ConvertOptions
from ..errors import ConversionError
from ..fsutil import atomic_write_text
from ..models import ConvertedDocument, Provenance
from .registry import describe, get_backend, register

__all__ = [
    "convert",
    "save",
    "load",
    "describe",
    "register",
    "provenance_path",
    "read_markdown",
    "saved_title",
]


def convert(
    path: str | os.PathLike[str], options: ConvertOptions | None = None
) -> ConvertedDocument:
    """Convert one PDF with the backend named in `options` (default: pymupdf)."""
    options = options or ConvertOptions()
    p = Path(path)
    if not p.is_file():
        raise ConversionError(p, "file not found")
    return get_backend(options.backend).convert(p, options)


def provenance_path(md_path: str | os.PathLike[str]) -> Path:
    return Path(str(md_path) + ".json")


def save(doc: ConvertedDocument, md_path: str | os.PathLike[str]) -> None:
    """Write the Markdown, then its provenance JSON beside it; each write is atomic."""
    atomic_write_text(md_path, doc.markdown)
    atomic_write_text(
        provenance_path(md_path),
        json.dumps(doc.provenance.to_dict(), indent=2, sort_keys=True, ensure_ascii=False) + "\n",
    )


def read_markdown(md_path: str | os.PathLike[str]) -> str:
    """The Markdown exactly as saved (no newline translation, so offsets stay true)."""
    with open(md_path, encoding="utf-8", newline="") as fh:
        return fh.read()


def saved_title(md_path: str | os.PathLike[str]) -> str:
    """The document title recorded in `md_path`'s provenance file ("" when there is none)."""
    path = provenance_path(md_path)
    if not path.is_file():
        return ""
    return str(json.loads(path.read_text(encoding="utf-8")).get("title", ""))


def load(md_path: str | os.PathLike[str]) -> ConvertedDocument:
    md = read_markdown(md_path)
    prov = json.loads(provenance_path(md_path).read_text(encoding="utf-8"))
    return ConvertedDocument(md, Provenance.from_dict(prov))
