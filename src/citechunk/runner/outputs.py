"""Housekeeping of the per-document output folders ``OUT/markdown`` and ``OUT/chunks``.

Contract: these two folders belong to citechunk. After a run, they hold exactly the files the
manifest lists (`sweep`): outputs of vanished sources, of failed files, of an older format or
left by a killed run are removed, and so are temporary files of interrupted atomic writes
(``.<name>.<random>.tmp``, see `citechunk.fsutil`), also those of ``OUT/run.json`` and
``OUT/manifest.json``. Nothing else in OUT is touched. Callers hold the output lock.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterable
from pathlib import Path

from ..export import CHUNKS_DIR, MARKDOWN_DIR, RUN_REPORT
from .manifest import MANIFEST_NAME

log = logging.getLogger(__name__)
OUTPUT_DIRS = (MARKDOWN_DIR, CHUNKS_DIR)
TOP_LEVEL = (RUN_REPORT, MANIFEST_NAME)  # written atomically at OUT's top level


def _files(out: Path) -> list[str]:
    """Files of the output folders, plus temporary files of the top-level files
    (``OUT/.run.json.<random>.tmp``, ``OUT/.manifest.json.<random>.tmp``)."""
    found = [p.name for p in out.glob(".*.tmp") if p.is_file() and _top_level_temp(p.name)]
    for sub in OUTPUT_DIRS:
        folder = out / sub
        if folder.is_dir():
            found.extend(
                f"{sub}/{p.name}" for p in folder.iterdir() if p.is_file() or p.is_symlink()
            )
    return sorted(found)


def _top_level_temp(name: str) -> bool:
    return any(name.startswith(f".{top}.") for top in TOP_LEVEL)


def is_temp(rel: str) -> bool:
    """True for a leftover temporary file of `citechunk.fsutil.atomic_open`."""
    name = rel.rsplit("/", 1)[-1]
    return name.startswith(".") and name.endswith(".tmp")


def remove(out: str | os.PathLike[str], rels: Iterable[str]) -> None:
    """Delete output files (relative to OUT); missing ones are fine."""
    for rel in sorted(set(rels)):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(Path(out) / rel)


def is_temp_of(rel: str, targets: Iterable[str]) -> bool:
    """True for a temporary file being (or left) written for one of `targets` (relative)."""
    folder, _, name = rel.rpartition("/")
    return is_temp(rel) and any(
        folder == t.rpartition("/")[0] and name.startswith(f".{t.rpartition('/')[2]}.")
        for t in targets
    )


def remove_temp_files(
    out: str | os.PathLike[str], targets: Iterable[str] | None = None
) -> list[str]:
    """Delete leftover temporary files in the output folders -- all of them, or only those of
    `targets` (while other workers may be writing theirs); returns what was removed."""
    wanted = None if targets is None else tuple(targets)
    stale = [
        rel
        for rel in _files(Path(out))
        if is_temp(rel) and (wanted is None or is_temp_of(rel, wanted))
    ]
    remove(out, stale)
    return stale


def sweep(out: str | os.PathLike[str], keep: set[str]) -> list[str]:
    """Delete every file of the output folders not in `keep`; returns what was removed."""
    orphans = [rel for rel in _files(Path(out)) if rel not in keep and "/" in rel]
    if orphans:
        log.info("removing %d file(s) no source owns: %s", len(orphans), ", ".join(orphans[:5]))
    remove(out, orphans)
    return orphans


def missing(out: str | os.PathLike[str], rels: Iterable[str]) -> bool:
    """True when any of the files (relative to OUT) does not exist."""
    return any(not (Path(out) / rel).is_file() for rel in rels)
