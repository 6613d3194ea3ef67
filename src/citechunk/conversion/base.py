"""The backend interface: one method turning a PDF into page-marked Markdown plus provenance."""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from pathlib import Path
from typing import ClassVar

from ..config import ConvertOptions
from ..errors import ConfigError
from ..models import ConvertedDocument


class Backend(ABC):
    """A conversion backend.

    Subclasses set `name`, `extra` (the pip extra that installs their dependencies, "" for none)
    and `requires` (top-level modules that must import). They are registered under the
    entry-point group ``citechunk.backends`` and constructed once per process; `convert` may be
    called many times. Output: Markdown with a page marker before each converted page
    (written with `citechunk.markers.render_pages`).
    """

    name: ClassVar[str]
    extra: ClassVar[str] = ""
    requires: ClassVar[tuple[str, ...]] = ()

    @classmethod
    @abstractmethod
    def version(cls) -> str:
        """Version string of the underlying library (part of the configuration fingerprint)."""

    @abstractmethod
    def convert(self, path: Path, options: ConvertOptions) -> ConvertedDocument:
        """Convert one PDF. Raises `ConversionError` (naming the file and cause) on bad input."""


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def parse_pages(spec: str, page_count: int) -> list[int]:
    """1-based page numbers selected by `spec` ("" = all; "3-7"; "1,3,5-6"; "4-" to the end).

    The result is normalised: ascending and without repeats, whatever the written order
    ("5-6,1,5" -> [1, 5, 6]), so pages, markers and chunk page ranges always run forward.
    A malformed part or a page outside the document is an error naming the spec.
    """
    if not spec.strip():
        return list(range(1, page_count + 1))
    pages: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo_s, hi_s = part.split("-", 1)
                lo, hi = int(lo_s), int(hi_s) if hi_s.strip() else page_count
            else:
                lo = hi = int(part)
        except ValueError:
            raise ConfigError(f"pages {spec!r}: '{part}' is not a page or range like 3-7") from None
        if lo < 1 or hi < lo or hi > page_count:
            raise ConfigError(f"pages {spec!r}: '{part}' is outside 1-{page_count}")
        pages.update(range(lo, hi + 1))
    return sorted(pages)
