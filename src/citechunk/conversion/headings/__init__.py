"""One heading stage for the whole document: the levels of its title and section-header blocks.

First the style scale (`scale.level_headings`, after the block processors); then, once the
written blocks are known (furniture layer, running sections, boxes), `settle_levels` runs
`STEPS` in order: numbered headings of one pattern are peers below their parents
(`siblings`), and in a document without an outline levels follow its decimal section numbers
(`numbering`). A step named in ``convert.skip_passes`` does not run; one that raises leaves the
blocks as they were (`passguard`). A PDF outline still sets levels after rendering (the
``outline`` pass).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...models import PassFailure
from ..blocks import Block
from ..passguard import guarded
from .common import Pages
from .numbering import repair_numbering
from .scale import MAX_LEVEL, level_headings, styles
from .siblings import level_numbered_siblings

if TYPE_CHECKING:
    from ...config import ConvertOptions

__all__ = ["MAX_LEVEL", "STEPS", "Step", "level_headings", "settle_levels", "styles"]


@dataclass(frozen=True)
class Step:
    """One named rule of the stage; a ``numbering`` step runs only with ``outline_repair``
    and no outline."""

    name: str
    rule: Callable[[Pages], dict[int, tuple[Block, ...]]]
    numbering: bool = False


STEPS = (
    Step("numbered-siblings", level_numbered_siblings),
    Step("numbering", repair_numbering, numbering=True),
)


def settle_levels(
    pages: Pages, options: ConvertOptions, outline: bool, failures: list[PassFailure]
) -> dict[int, tuple[Block, ...]]:
    """The enabled `STEPS` over the document's blocks, in order (module docstring); `outline`:
    the document has an outline (the ``outline`` pass follows it)."""
    current = {n: tuple(blocks) for n, blocks in pages.items()}
    numbering = options.outline_repair and not outline
    for step in STEPS:
        if step.name not in options.skip_passes and (numbering or not step.numbering):
            run = functools.partial(step.rule, current)
            current = guarded(step.name, 0, run, current, failures)
    return current
