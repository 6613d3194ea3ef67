"""One run per output folder at a time: an exclusive, non-blocking `flock` on OUT/.citechunk.lock.

Contract: `OutputLock(out)` used as a context manager either holds the lock for the whole block
or raises `LockedError` naming the holder (pid, host, command) without touching anything. The
kernel drops the lock when the holder dies (even by `kill -9`), so a stale file never blocks a
later run. The lock file is removed on a clean exit; it holds no timestamp.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import sys
from pathlib import Path
from types import TracebackType

from ..errors import LockedError

LOCK_NAME = ".citechunk.lock"


def _holder_text() -> str:
    return f"pid {os.getpid()} on {socket.gethostname()}: {' '.join(sys.argv)[:300]}\n"


class OutputLock:
    """Exclusive lock on an output folder (created if missing)."""

    def __init__(self, out: str | os.PathLike[str]) -> None:
        self.path = Path(out) / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise LockedError(self._locked_message()) from None
            if self._same_file(fd):  # not unlinked by a finishing holder in between
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, _holder_text().encode("utf-8"))
        self._fd = fd

    def _same_file(self, fd: int) -> bool:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return False
        own = os.fstat(fd)
        return (st.st_dev, st.st_ino) == (own.st_dev, own.st_ino)

    def _locked_message(self) -> str:
        try:
            holder = self.path.read_text(encoding="utf-8").strip() or "unknown process"
        except OSError:
            holder = "unknown process"
        return (
            f"{self.path.parent}: another citechunk run is using this output folder "
            f"({holder}); wait for it to finish or choose another --out"
        )

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        os.close(self._fd)  # closing drops the flock
        self._fd = None

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
