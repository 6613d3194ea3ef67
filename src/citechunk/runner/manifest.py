"""Incremental state of an output folder: what each source was when its outputs were made.

Files: ``OUT/manifest.json`` (the committed state, sorted, no timestamps) and, during a run,
``OUT/manifest.journal`` (one JSON line per finished file, fsynced). Contract:

* `Manifest.load(out)` = manifest.json with the journal replayed over it; a torn last journal
  line (a run killed mid-write) is ignored. So after `kill -9` at any moment, every file whose
  journal line reached the disk counts as done, and any other is simply processed again.
* `put`/`drop` append to the journal; `commit` rewrites manifest.json atomically, then removes
  the journal. Both files only ever hold whole, valid states.
* An entry records size, mtime (ns), sha256, the configuration fingerprint, the chunk format,
  the status and the output files (relative to OUT). `unchanged` decides skipping: size+mtime
  equal -> unchanged without hashing; otherwise the sha256 decides.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..fsutil import atomic_write_text
from ..models import PassFailure

log = logging.getLogger(__name__)

MANIFEST_NAME = "manifest.json"
JOURNAL_NAME = "manifest.journal"
MANIFEST_VERSION = 1


@dataclass(frozen=True)
class Entry:
    """The recorded state of one source (keyed by its path relative to INPUT)."""

    source_file: str
    size: int
    mtime_ns: int
    sha256: str
    fingerprint: str
    format: str
    status: str  # "converted" or "failed" (failed entries are retried)
    outputs: tuple[str, ...] = ()
    pages: int = 0
    chunks: int = 0
    warnings: tuple[str, ...] = ()
    error_class: str = ""
    error: str = ""
    word_coverage: float | None = None
    pass_failures: tuple[PassFailure, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["outputs"], d["warnings"] = list(self.outputs), list(self.warnings)
        d["pass_failures"] = [f.to_dict() for f in self.pass_failures]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Entry:
        names = {f.name for f in dataclasses.fields(cls)}
        values = {k: v for k, v in d.items() if k in names}
        values["outputs"] = tuple(values.get("outputs", ()))
        values["warnings"] = tuple(values.get("warnings", ()))
        values["pass_failures"] = tuple(
            PassFailure.from_dict(f) for f in values.get("pass_failures", ())
        )
        return cls(**values)


class Manifest:
    """Entries of one output folder plus the journal that makes updates durable one by one."""

    def __init__(self, out: str | os.PathLike[str], entries: dict[str, Entry]) -> None:
        self.out = Path(out)
        self.entries = entries

    @property
    def path(self) -> Path:
        return self.out / MANIFEST_NAME

    @property
    def journal_path(self) -> Path:
        return self.out / JOURNAL_NAME

    @classmethod
    def load(cls, out: str | os.PathLike[str]) -> Manifest:
        m = cls(out, {})
        if m.path.exists():
            m.entries = _read_manifest(m.path)
        for op, value in _read_journal(m.journal_path):
            if op == "put":
                entry = Entry.from_dict(value)
                m.entries[entry.source_file] = entry
            else:
                m.entries.pop(value["source_file"], None)
        return m

    def get(self, source_file: str) -> Entry | None:
        return self.entries.get(source_file)

    def put(self, entry: Entry) -> None:
        self.entries[entry.source_file] = entry
        self._append({"op": "put", "entry": entry.to_dict()})

    def drop(self, source_file: str) -> None:
        self.entries.pop(source_file, None)
        self._append({"op": "drop", "source_file": source_file})

    def _append(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n"
        self.out.mkdir(parents=True, exist_ok=True)
        with open(self.journal_path, "a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())

    def commit(self) -> None:
        """Write manifest.json atomically (sorted, deterministic), then drop the journal."""
        data = {
            "manifest_version": MANIFEST_VERSION,
            "entries": {k: self.entries[k].to_dict() for k in sorted(self.entries)},
        }
        atomic_write_text(
            self.path, json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        )
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.journal_path)

    def outputs(self) -> set[str]:
        """Every output file (relative to OUT) some entry owns."""
        return {o for e in self.entries.values() for o in e.outputs}


def _read_manifest(path: Path) -> dict[str, Entry]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("manifest_version") != MANIFEST_VERSION:
            raise ValueError(f"unsupported manifest_version {data.get('manifest_version')!r}")
        return {k: Entry.from_dict(v) for k, v in data["entries"].items()}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ConfigError(
            f"{path}: unreadable manifest ({exc}); delete it to rebuild the folder from scratch"
        ) from None


def _read_journal(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(op, value) pairs of the journal; stops at the first torn or invalid line."""
    if not path.exists():
        return
    with open(path, encoding="utf-8", errors="replace") as fh:
        for number, line in enumerate(fh, 1):
            try:
                if not line.endswith("\n"):
                    raise ValueError("torn line")
                record = json.loads(line)
                op = record["op"]
                yield op, record["entry"] if op == "put" else record
            except (ValueError, KeyError, TypeError) as exc:
                log.warning("%s:%d: ignoring the rest of the journal (%s)", path, number, exc)
                return
