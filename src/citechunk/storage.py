"""Local paths and ``s3://`` URIs behind one small interface (pyarrow.fs).

Contract:
* `locate(uri)` maps a local path or an ``s3://bucket/prefix`` URI to a `Location` (a pyarrow
  filesystem and a path in it). Any other ``scheme://`` is a `ConfigError`.
* S3 settings come from the usual environment: credentials through the AWS default chain
  (``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY``/``AWS_SESSION_TOKEN``, profiles, instance
  roles), the endpoint from ``AWS_ENDPOINT_URL_S3`` or ``AWS_ENDPOINT_URL`` (for MinIO, moto,
  Ceph ...), the region from ``AWS_REGION`` or ``AWS_DEFAULT_REGION``.
* Writes are atomic for readers: a local file is written to a temporary sibling and renamed; an
  S3 object becomes visible only when its upload completes (one PUT, or a completed multipart
  upload), so a reader sees the old object or the new one, never a part.
* `staged(input, out, ...)` lets code that only knows local folders (the runner) work on S3: it
  mirrors a remote INPUT and OUT into a temporary folder, yields the local paths, and on success
  pushes OUT's changes back (new or changed files first, then deletions, then the commit files --
  manifest and run report -- last), so an interrupted push is redone by the next run.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlparse

from .errors import CitechunkError, ConfigError
from .fsutil import atomic_open, sha256_file

log = logging.getLogger(__name__)

_COPY_BLOCK = 1 << 20


@dataclass(frozen=True)
class FileEntry:
    """A file found under a location: path relative to it (POSIX), size, mtime in ns."""

    rel: str
    size: int
    mtime_ns: int


@dataclass(frozen=True)
class Location:
    """A local folder/file or an S3 prefix/object. `uri` is what the user gave (normalised)."""

    uri: str
    path: str  # path inside the filesystem: absolute local path, or "bucket/key"

    @property
    def remote(self) -> bool:
        return self.uri.startswith("s3://")

    @property
    def fs(self):  # -> pyarrow.fs.FileSystem (pyarrow stubs are loose, keep mypy quiet)
        return s3_filesystem() if self.remote else _local_filesystem()

    def child(self, rel: str) -> Location:
        """The location `rel` (POSIX, relative) below this one."""
        rel = rel.strip("/")
        if self.remote:
            return Location(f"{self.uri.rstrip('/')}/{rel}", f"{self.path.rstrip('/')}/{rel}")
        return Location(str(Path(self.path) / rel), str(Path(self.path) / rel))


def is_remote(uri: str | os.PathLike[str]) -> bool:
    """True for an ``s3://`` URI."""
    return str(uri).startswith("s3://")


def locate(uri: str | os.PathLike[str]) -> Location:
    """A `Location` for a local path or an ``s3://`` URI; other schemes raise `ConfigError`."""
    text = str(uri)
    if text.startswith("s3://"):
        parsed = urlparse(text)
        if not parsed.netloc:
            raise ConfigError(f"{text}: an S3 URI needs a bucket (s3://bucket/prefix)")
        key = parsed.path.strip("/")
        path = f"{parsed.netloc}/{key}" if key else parsed.netloc
        return Location(f"s3://{path}", path)
    if "://" in text:
        raise ConfigError(
            f"{text}: unsupported URI scheme (use a local path or s3://bucket/prefix)"
        )
    absolute = str(Path(text).expanduser().absolute())
    return Location(absolute, absolute)


@cache
def _local_filesystem():
    from pyarrow import fs

    return fs.LocalFileSystem()


def s3_settings() -> dict[str, str]:
    """`pyarrow.fs.S3FileSystem` keyword arguments taken from the environment (no secrets)."""
    settings: dict[str, str] = {}
    endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
    if endpoint:
        parsed = urlparse(endpoint if "://" in endpoint else f"https://{endpoint}")
        settings["endpoint_override"] = parsed.netloc
        settings["scheme"] = parsed.scheme
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    if region:
        settings["region"] = region
    return settings


def s3_filesystem():
    """An S3 filesystem configured from the environment (see the module docstring)."""
    return _s3_filesystem(tuple(sorted(s3_settings().items())))


@cache
def _s3_filesystem(settings: tuple[tuple[str, str], ...]):
    from pyarrow import fs

    return fs.S3FileSystem(**dict(settings))


def _storage_error(loc: Location, action: str, exc: Exception) -> CitechunkError:
    return CitechunkError(f"{loc.uri}: cannot {action}: {' '.join(str(exc).split())[:300]}")


def list_files(loc: Location, accept: Callable[[str], bool] | None = None) -> list[FileEntry]:
    """Every file below `loc` (recursively), sorted by relative path, filtered by `accept`.

    `loc` may also be a single file (its entry's `rel` is then the file name). S3 "folder"
    marker objects (keys ending in "/") are not files. Raises `ConfigError` if nothing is there.
    """
    from pyarrow import fs

    try:
        info = loc.fs.get_file_info(loc.path)
        if info.type == fs.FileType.File:
            name = loc.path.rsplit("/", 1)[-1]
            return [FileEntry(name, info.size, _mtime_ns(info))]
        if info.type != fs.FileType.Directory:
            raise ConfigError(f"{loc.uri}: not found (expected a file or a folder)")
        infos = loc.fs.get_file_info(fs.FileSelector(loc.path, recursive=True))
    except OSError as exc:
        raise _storage_error(loc, "list", exc) from exc
    base = loc.path.rstrip("/") + "/"
    entries = [
        FileEntry(i.path[len(base) :], i.size, _mtime_ns(i))
        for i in infos
        if i.type == fs.FileType.File and i.path.startswith(base) and not i.path.endswith("/")
    ]
    return sorted((e for e in entries if accept is None or accept(e.rel)), key=lambda e: e.rel)


def _mtime_ns(info) -> int:
    return int(info.mtime_ns or 0)


def fetch(loc: Location, local_path: str | os.PathLike[str], mtime_ns: int | None = None) -> Path:
    """Copy the file at `loc` to `local_path` (atomically); set its mtime when given."""
    target = Path(local_path)
    try:
        with loc.fs.open_input_stream(loc.path) as src, atomic_open(target, "wb") as dst:
            shutil.copyfileobj(src, dst, _COPY_BLOCK)
    except OSError as exc:
        raise _storage_error(loc, "read", exc) from exc
    if mtime_ns is not None:
        os.utime(target, ns=(mtime_ns, mtime_ns))
    return target


def read_bytes(loc: Location) -> bytes:
    try:
        with loc.fs.open_input_stream(loc.path) as src:
            return bytes(src.read())
    except OSError as exc:
        raise _storage_error(loc, "read", exc) from exc


def write_bytes(loc: Location, data: bytes) -> None:
    """Write a whole file: temporary sibling + rename locally, one complete object on S3."""
    if not loc.remote:
        with atomic_open(loc.path, "wb") as fh:
            fh.write(data)
        return
    try:
        with loc.fs.open_output_stream(loc.path) as dst:
            dst.write(data)
    except OSError as exc:
        raise _storage_error(loc, "write", exc) from exc


def upload(local_path: str | os.PathLike[str], loc: Location) -> None:
    """Copy a local file to `loc` with the atomicity of `write_bytes`, streaming."""
    if not loc.remote:
        with open(local_path, "rb") as src, atomic_open(loc.path, "wb") as dst:
            shutil.copyfileobj(src, dst, _COPY_BLOCK)
        return
    try:
        with open(local_path, "rb") as src, loc.fs.open_output_stream(loc.path) as dst:
            shutil.copyfileobj(src, dst, _COPY_BLOCK)
    except OSError as exc:
        raise _storage_error(loc, "write", exc) from exc


def delete(loc: Location) -> None:
    """Remove a file; a missing file is not an error."""
    from pyarrow import fs

    try:
        if loc.fs.get_file_info(loc.path).type == fs.FileType.File:
            loc.fs.delete_file(loc.path)
    except OSError as exc:
        raise _storage_error(loc, "delete", exc) from exc


@dataclass(frozen=True)
class Staged:
    """Local stand-ins for a run's INPUT and OUT (the originals when both are local).

    `origins` maps each mirrored local source file (absolute path) to its remote URI, so an
    executor whose workers cannot see this machine's disk (a Ray cluster) fetches from there.
    """

    input: str
    out: str
    origins: dict[str, str]


def is_file(loc: Location) -> bool:
    from pyarrow import fs

    try:
        return bool(loc.fs.get_file_info(loc.path).type == fs.FileType.File)
    except OSError as exc:
        raise _storage_error(loc, "look up", exc) from exc


def _mirror_input(
    loc: Location, root: Path, accept: Callable[[str], bool] | None
) -> tuple[str, dict[str, str]]:
    """Download `loc` (a file, or the accepted files below a folder) into `root`, keeping
    sizes and mtimes. Returns (local INPUT, local path -> remote URI)."""
    root.mkdir(parents=True, exist_ok=True)
    single = is_file(loc)
    entries = list_files(loc, None if single else accept)
    origins: dict[str, str] = {}
    for entry in entries:
        src = loc if single else loc.child(entry.rel)
        local = fetch(src, root / entry.rel, entry.mtime_ns)
        origins[str(local)] = src.uri
    log.info("mirrored %d input file(s) from %s", len(entries), loc.uri)
    return (str(root / entries[0].rel) if single else str(root)), origins


def _mirror_out(loc: Location, root: Path) -> dict[str, str]:
    """Download everything below `loc` into `root`; returns rel -> sha256 of what was there."""
    from pyarrow import fs

    root.mkdir(parents=True, exist_ok=True)
    if loc.fs.get_file_info(loc.path).type == fs.FileType.NotFound:
        return {}
    before: dict[str, str] = {}
    for entry in list_files(loc):
        before[entry.rel] = sha256_file(fetch(loc.child(entry.rel), root / entry.rel))
    return before


def _local_files(root: Path, skip: Callable[[str], bool]) -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if not skip(rel):
            found[rel] = sha256_file(path)
    return found


def push_changes(
    root: Path,
    loc: Location,
    before: dict[str, str],
    commit_last: tuple[str, ...] = (),
    skip: Callable[[str], bool] = lambda rel: False,
) -> tuple[int, int]:
    """Make `loc` hold what `root` holds: upload new/changed files, delete vanished ones, then
    upload `commit_last` files (in order). Returns (uploaded, deleted)."""
    after = _local_files(root, skip)
    changed = [r for r, d in after.items() if before.get(r) != d and r not in commit_last]
    gone = [r for r in before if r not in after and not skip(r)]
    for rel in changed:
        upload(root / rel, loc.child(rel))
    for rel in gone:
        delete(loc.child(rel))
    commits = [r for r in commit_last if r in after and before.get(r) != after[r]]
    for rel in commits:
        upload(root / rel, loc.child(rel))
    log.info(
        "pushed %d file(s), deleted %d under %s", len(changed) + len(commits), len(gone), loc.uri
    )
    return len(changed) + len(commits), len(gone)


def _is_scratch(rel: str) -> bool:
    """Lock and temporary files never leave the staging folder."""
    name = rel.rsplit("/", 1)[-1]
    return name == ".citechunk.lock" or (name.startswith(".") and name.endswith(".tmp"))


@contextlib.contextmanager
def staged(
    input_uri: str | os.PathLike[str],
    out_uri: str | os.PathLike[str],
    accept: Callable[[str], bool] | None = None,
    commit_last: tuple[str, ...] = (),
) -> Iterator[Staged]:
    """Local folders standing in for a remote INPUT and/or OUT (see the module docstring).

    Both local: yields them unchanged and does nothing else. A remote INPUT is mirrored (only
    files passing `accept(rel)`), with sizes and mtimes kept so incremental runs still skip
    unchanged files. A remote OUT is mirrored whole, and pushed back only when the block ends
    without an exception. The temporary folder is always removed.
    """
    in_loc, out_loc = locate(input_uri), locate(out_uri)
    if not in_loc.remote and not out_loc.remote:
        yield Staged(in_loc.path, out_loc.path, {})
        return
    with tempfile.TemporaryDirectory(prefix="citechunk-stage-") as tmp:
        root = Path(tmp)
        origins: dict[str, str] = {}
        local_in = in_loc.path
        if in_loc.remote:
            local_in, origins = _mirror_input(in_loc, root / "input", accept)
        local_out, before = out_loc.path, {}
        if out_loc.remote:
            local_out = str(root / "out")
            before = _mirror_out(out_loc, root / "out")
        yield Staged(local_in, local_out, origins)
        if out_loc.remote:
            push_changes(Path(local_out), out_loc, before, commit_last, _is_scratch)
