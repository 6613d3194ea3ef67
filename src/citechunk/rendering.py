"""Reports as text: the one way a report object and the CLI print it.

`show(console, renderable)` prints a rich table or panel fitted to a terminal, else at its
content's full width (off a terminal nothing is cut, folded or wrapped: one row per line).
`plain_text(draw)` runs a drawing function on a console writing into a string, no terminal, no
colour: what a report's ``render()`` / ``str()`` returns is what the command prints into a
file or a pipe. `plural` writes a count with its noun ("1 page", "3 pages").
"""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console, RenderableType
from rich.measure import Measurement

_UNLIMITED = 1_000_000  # columns to measure a renderable's natural width in


def show(console: Console, renderable: RenderableType) -> None:
    """Print `renderable`: fitted to a terminal, else at its content's full width."""
    if not console.is_terminal:
        options = console.options.update_width(_UNLIMITED)
        console.width = max(1, Measurement.get(console, options, renderable).maximum)
    console.print(renderable)


def plain_text(draw: Callable[[Console], None]) -> str:
    """What `draw` prints on a console that is not a terminal (no colour, no wrapping)."""
    buffer = io.StringIO()
    console = Console(
        file=buffer, force_terminal=False, color_system=None, soft_wrap=False, highlight=False
    )
    draw(console)
    return buffer.getvalue()


def plural(count: int, noun: str) -> str:
    """ "1 page", "0 pages", "3 pages": the count and its noun, an s added unless it is one."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
