"""Native libraries' own log lines into citechunk's logging.

Some libraries log from native code straight to the process's standard error (file descriptor
2), past Python's `logging`: LanceDB's Rust core writes "WARN lance::dataset::write::insert] No
existing dataset ..., it will be created" on the first sync. `native_stderr_to_log` sends what
file descriptor 2 receives during a block to a logger at DEBUG, line by line, so the user sees
it with ``-vv`` and a log line of its own format (``--log-format json`` included), never as
stray text.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
from collections.abc import Iterator


@contextlib.contextmanager
def native_stderr_to_log(logger: logging.Logger) -> Iterator[None]:
    """During the block, what is written to file descriptor 2 goes to `logger` at DEBUG after
    the block (nothing is lost; a process without a usable descriptor 2 is left alone)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.flush()  # Python-level writes of the block belong to it too
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            for line in sink.read().decode("utf-8", "replace").splitlines():
                if line.strip():
                    logger.debug("%s", line)
