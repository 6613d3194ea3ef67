"""Find the PDFs of one run: INPUT is a PDF file or a folder searched recursively.

Contract: `discover` returns `Source`s sorted by `rel` (POSIX path relative to INPUT; for a single
file, its name). In a folder, a file is kept when its relative path matches one `include` glob
and no `exclude` glob; matching is case-insensitive, and a glob without "/" may also match the
file name alone (so "*.pdf" finds "a/b/c.PDF"). Symlinked folders are not followed (no cycles);
`skip` (the output folder, when it lies inside INPUT) is never entered. A selected name that is
a symbolic link to nothing (dangling, or a loop) is a file the user meant to ingest: it is
kept as a `Source` whose `broken` says why (and a warning names it), so the run reports it as
a failed row instead of skipping it in silence.
"""

from __future__ import annotations

import errno
import fnmatch
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from ..config import ExportOptions
from ..errors import ConfigError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Source:
    """One input file: absolute path, path relative to INPUT (POSIX), size and mtime (ns);
    `broken` is why a symbolic link cannot be read ("" for a readable file; size is then -1)."""

    path: str
    rel: str
    size: int
    mtime_ns: int
    broken: str = ""


def matches(rel: str, patterns: tuple[str, ...]) -> bool:
    """True when `rel` matches one glob (case-insensitive; a glob without \"/\" also matches
    the file name alone)."""
    low = rel.lower()
    name = low.rsplit("/", 1)[-1]
    for pattern in patterns:
        pat = pattern.lower()
        if fnmatch.fnmatchcase(low, pat) or ("/" not in pat and fnmatch.fnmatchcase(name, pat)):
            return True
    return False


def selected(rel: str, options: ExportOptions) -> bool:
    """True when a relative path passes the include/exclude globs."""
    return matches(rel, options.include) and not matches(rel, options.exclude)


def _link_problem(path: Path, exc: OSError) -> str:
    """Why the symbolic link `path` cannot be read."""
    if exc.errno == errno.ELOOP:
        return "symbolic link loop (it never reaches a file)"
    return f"dangling symbolic link (its target {os.readlink(path)!r} does not exist)"


def _source(path: Path, rel: str) -> Source | None:
    """The file's Source, a broken one for a link to nothing, or None when it vanished since
    the folder was listed."""
    try:
        st = path.stat()
    except OSError as exc:
        if not path.is_symlink():
            if isinstance(exc, FileNotFoundError):
                return None
            raise
        problem = _link_problem(path, exc)
        log.warning("%s: %s; not ingested", path, problem, extra={"file": rel})
        return Source(str(path), rel, -1, 0, problem)
    return Source(str(path), rel, st.st_size, st.st_mtime_ns)


def _walk(root: Path, skip: Path | None) -> list[tuple[Path, str]]:
    found: list[tuple[Path, str]] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if skip is None or (here / d).resolve() != skip)
        for name in filenames:
            full = here / name
            if full.is_file() or (full.is_symlink() and not full.exists()):
                found.append((full, full.relative_to(root).as_posix()))
    return found


def discover(
    input_path: str | os.PathLike[str],
    options: ExportOptions,
    skip: str | os.PathLike[str] | None = None,
) -> list[Source]:
    """The sources of a run, sorted by relative path. Raises `ConfigError` if INPUT is missing."""
    root = Path(input_path).resolve()
    if root.is_file():
        single = _source(root, root.name)
        return [single] if single else []
    if not root.is_dir():
        raise ConfigError(f"{input_path}: input not found (expected a PDF file or a folder)")
    skip_dir = Path(skip).resolve() if skip is not None else None
    found = [_source(p, rel) for p, rel in _walk(root, skip_dir) if selected(rel, options)]
    sources = sorted((s for s in found if s is not None), key=lambda s: s.rel)
    if not sources:
        log.warning("%s: no files match %s", input_path, ", ".join(options.include))
    return sources
