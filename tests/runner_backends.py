"""Test-only conversion backends for the runner tests (never shipped in src/).

Registered at test time with `citechunk.conversion.registry.register(name,
"runner_backends:Class")`. Worker processes import this module by name: pytest puts tests/ on
sys.path and spawned children inherit the parent's sys.path (a CLI subprocess gets PYTHONPATH).

`ChaosBackend` extracts like the default backend ("pymupdf"), except on a file whose name
contains "hang" (writes `<folder>.<file>.hanging` beside its folder, then sleeps far past any
timeout), "crash" (kills its own process with SIGSEGV, as a segfault in a C extension would) or
"abort" (calls abort()).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

from citechunk.config import ConvertOptions
from citechunk.conversion.base import Backend, Extraction, PdfFacts
from citechunk.conversion.registry import get_backend


class ChaosBackend(Backend):
    name = "test-chaos"

    @classmethod
    def version(cls) -> str:
        return "test-1"

    def extract(self, path: Path, pdf: Any, facts: PdfFacts, options: ConvertOptions) -> Extraction:
        if "hang" in path.name:
            hanging_mark(path).touch()
            time.sleep(3600)
        if "crash" in path.name:
            os.kill(os.getpid(), signal.SIGSEGV)
        if "abort" in path.name:
            os.abort()
        return get_backend("pymupdf").extract(path, pdf, facts, options)


def hanging_mark(path: Path) -> Path:
    """The file ChaosBackend writes once a worker is on `path` and hangs there: beside the input
    folder, not in it, so a listing of the input holds only the PDFs."""
    return path.parent.with_name(f"{path.parent.name}.{path.name}.hanging")


def chaos_input(folder: Path, sample_pdfs: Path, bad_names: tuple[str, ...]) -> list[Path]:
    """Fill `folder` with the first three sample PDFs and, under each of `bad_names`, a copy of
    the first one (ChaosBackend misbehaves by name). Returns the three good files' sources."""
    import shutil

    folder.mkdir()
    good = sorted(sample_pdfs.glob("*.pdf"))[:3]
    for p in good:
        shutil.copy(p, folder / p.name)
    for bad in bad_names:
        shutil.copy(good[0], folder / bad)
    return good
