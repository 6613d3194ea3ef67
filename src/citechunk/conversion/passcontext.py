"""What a structure pass reads besides the pages, and where it reports (`PassContext`).

Its own module so that the repairs, which take it, and `pipeline`, which lists the repairs and
builds it, do not import each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..models import PassFailure
from .runninglines import RunningLines

if TYPE_CHECKING:
    from ..config import ConvertOptions
    from .outline import OutlineEntry
    from .textlayer import TextLayer

#: A document's pages as (page number, Markdown) pairs.
Pages = list[tuple[int, str]]


@dataclass
class PassContext:
    """What a structure pass may read besides the pages, and where it reports.

    `warnings` collects what a pass tells the user (it ends up in the provenance), `restored`
    the per-page counts of the text-layer self-check."""

    options: ConvertOptions
    outline: Sequence[OutlineEntry] = ()
    source: str = ""
    #: The document's whole title (`title.document_label`: the label, or the title it was
    #: shortened from), "" when unknown.
    title: str = ""
    warnings: list[str] = field(default_factory=list)
    #: The PDF's own text per page (None: no self-check against it).
    text_layer: TextLayer | None = None
    #: The running lines of the document's text layer (`runninglines.find_running`).
    running: RunningLines = field(default_factory=RunningLines)
    #: Lines restored from the text layer, per page number (`restore.restore_dropped_lines`).
    restored: dict[int, int] = field(default_factory=dict)
    #: Pages whose first paragraph goes on with the previous page's last
    #: (`sentences.join_broken_sentences`; `markers.render_pages` keeps them one paragraph).
    continued: set[int] = field(default_factory=set)
    #: Passes that raised and were skipped (`passguard.guarded`), in the order they ran.
    failures: list[PassFailure] = field(default_factory=list)
