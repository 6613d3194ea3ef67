"""Test-only conversion backends for the runner tests (never shipped in src/).

They are registered at test time with `citechunk.conversion.registry.register(name,
"runner_backends:Class")`; worker processes import this module by name, which works because
pytest puts tests/ on sys.path and spawned children inherit the parent's sys.path (CLI
subprocesses get it through PYTHONPATH).

* `PageTextBackend` -- real PyMuPDF text extraction, one page-marked page per PDF page.
* `HangBackend` / `CrashBackend` / `AbortBackend` -- behave like the default backend ("pymupdf"),
  except on a file whose name contains "hang" / "crash" / "abort": sleep far past any timeout,
  kill their own process with SIGSEGV, or call abort().
"""

from __future__ import annotations

import hashlib
import os
import signal
import time
from pathlib import Path

import pymupdf

from citechunk.config import ConvertOptions
from citechunk.conversion.base import Backend
from citechunk.conversion.registry import get_backend
from citechunk.errors import ConversionError
from citechunk.markers import render_pages
from citechunk.models import ConvertedDocument, Provenance


class PageTextBackend(Backend):
    name = "pagetext"

    @classmethod
    def version(cls) -> str:
        return f"test-{pymupdf.VersionBind}"

    def convert(self, path: Path, options: ConvertOptions) -> ConvertedDocument:
        data = path.read_bytes()
        try:
            with pymupdf.open(stream=data, filetype="pdf") as doc:
                pages = [(i + 1, page.get_text()) for i, page in enumerate(doc)]
        except Exception as exc:  # noqa: BLE001 -- turned into the documented error
            raise ConversionError(path, f"cannot open PDF: {exc}") from exc
        prov = Provenance(
            source=str(path),
            source_sha256=hashlib.sha256(data).hexdigest(),
            backend=self.name,
            backend_version=self.version(),
            page_count=len(pages),
            pages=tuple(p for p, _ in pages),
        )
        return ConvertedDocument(render_pages(pages), prov)


class _Misbehaving(Backend):
    trigger = ""

    @classmethod
    def version(cls) -> str:
        return "test-1"

    def misbehave(self) -> None:
        raise NotImplementedError

    def convert(self, path: Path, options: ConvertOptions) -> ConvertedDocument:
        if self.trigger in path.name:
            self.misbehave()
        return get_backend("pymupdf").convert(path, options)


class HangBackend(_Misbehaving):
    name = "test-hang"
    trigger = "hang"

    def misbehave(self) -> None:
        time.sleep(3600)


class CrashBackend(_Misbehaving):
    name = "test-crash"
    trigger = "crash"

    def misbehave(self) -> None:
        os.kill(os.getpid(), signal.SIGSEGV)


class AbortBackend(_Misbehaving):
    name = "test-abort"
    trigger = "abort"

    def misbehave(self) -> None:
        os.abort()
