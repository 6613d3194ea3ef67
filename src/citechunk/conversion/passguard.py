"""No document is lost to a rule: a conversion pass that raises is skipped where it raised.

Every pass (the layout passes over a page's boxes, the page, document and structure passes
over the Markdown, `pipeline`) runs through `guarded`. When the rule raises an `Exception`,
its input is kept as the output (a page pass: that page only; a layout pass: that page's
boxes as though the pass were not listed, `layoutpasses.run_layout_passes`; a document or structure pass: every page as it was
before the pass), a `PassFailure` naming the pass, the page and the exception is recorded
(it becomes a provenance warning and is counted in ``run.json``) and the traceback is logged
at debug level. The passes after it still run.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from ..models import PassFailure

log = logging.getLogger(__name__)

T = TypeVar("T")


def guarded(
    name: str,
    page: int,
    run: Callable[[], T],
    unchanged: T,
    failures: list[PassFailure],
    source: str = "",
) -> T:
    """`run()`, or `unchanged` when it raises (the failure appended to `failures`); `page`
    is the page the pass ran on, 0 for a pass over the whole document."""
    try:
        return run()
    except Exception as exc:  # noqa: BLE001 -- a failing rule costs its change, not the document
        failure = PassFailure(name, page, _error_text(exc))
        failures.append(failure)
        log.debug("%s: %s", source, failure.describe(), exc_info=True)
        return unchanged


def _error_text(exc: Exception) -> str:
    """ "IndexError: list index out of range", on one line, at most 300 characters."""
    message = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {message}"[:300] if message else type(exc).__name__
