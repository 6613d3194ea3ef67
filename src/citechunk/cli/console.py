"""Standard output that its reader may close early (`citechunk inspect OUT | head`).

A closed pipe on stdout means the reader has all it wanted: it is not an error. A command's
`BrokenPipeError` counts as that only when stdout's reader is really gone (`stdout_closed`); stdout
is then pointed at the null device (`silence_stdout`), so the interpreter's final flush does not
fail again, and the command ends with the exit status its work earned (0 for a listing).
Commands print through `StdoutConsole`, whose broken pipe reaches `closed_pipe_ok` (rich's
own handler would exit 1).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import select
import sys
from collections.abc import Iterator

from rich.console import Console

log = logging.getLogger(__name__)


def stdout_closed() -> bool:
    """True when stdout is a pipe (or socket) whose reading end is closed."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(events & select.POLLERR for _, events in poller.poll(0))


def silence_stdout() -> None:
    """Send whatever is still written to stdout to the null device."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


@contextlib.contextmanager
def closed_pipe_ok() -> Iterator[None]:
    """Stop writing quietly when stdout's reader went away; re-raise any other broken pipe."""
    try:
        yield
    except BrokenPipeError:
        if not stdout_closed():
            raise
        silence_stdout()
        log.debug("stdout closed by its reader; output stopped")


class StdoutConsole(Console):
    """A rich console on stdout whose closed pipe raises `BrokenPipeError` (see the module
    docstring) instead of rich's ``SystemExit(1)``."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError(errno.EPIPE, "stdout closed by its reader")
