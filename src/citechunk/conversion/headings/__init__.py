"""One heading stage for the whole document: the levels of its title and section-header blocks.

The stage runs over every page's blocks at once, in two steps:

1. the style scale (`scale.level_headings`): each heading's level is the rank of its style
   (type size, number depth) among the document's heading styles, after the block processors
   (`processors`) and before the running sections and boxes (`runningsections`, `sidebars`)
   add their headings;
2. the numbering (`settle_levels`, once the written blocks are known: the furniture layer set,
   the running sections opened, the boxes scoped), `STEPS` in order: numbered headings of one
   pattern are peers below their parents (`siblings`), and, for a document without an outline
   whose headings carry decimal section numbers, levels follow the numbers and missed
   numbered headings are taken (`numbering`). A step named in ``convert.skip_passes`` does not
   run; one that raises leaves the blocks as they were before it (`passguard`).

The PDF outline, where the document has one, still sets levels after rendering (the
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

Rule = Callable[[Pages], dict[int, tuple[Block, ...]]]


@dataclass(frozen=True)
class Step:
    """One named rule of the heading stage; ``numbering`` steps run only when the options ask
    for outline repair and the document has no outline to follow."""

    name: str
    rule: Rule
    numbering: bool = False

    def enabled(self, options: ConvertOptions, outline: bool) -> bool:
        if self.name in options.skip_passes:
            return False
        return not self.numbering or (options.outline_repair and not outline)


STEPS: tuple[Step, ...] = (
    Step("numbered-siblings", level_numbered_siblings),
    Step("numbering", repair_numbering, numbering=True),
)


def settle_levels(
    pages: Pages,
    options: ConvertOptions,
    outline: bool,
    failures: list[PassFailure] | None = None,
    source: str = "",
) -> dict[int, tuple[Block, ...]]:
    """Every enabled step of `STEPS` over the document's blocks, in order (module docstring);
    `outline`: the document has an outline the ``outline`` pass follows."""
    current = {n: tuple(blocks) for n, blocks in pages.items()}
    failures = [] if failures is None else failures
    for step in STEPS:
        if step.enabled(options, outline):
            run = functools.partial(step.rule, current)
            current = guarded(step.name, 0, run, current, failures, source)
    return current
