"""Block processors: rules over the whole document's typed blocks (`blocks.Block`), one rule a
module, run in the order of `PROCESSORS` by `run`, after the blocks are read and before their
heading levels are set (`headings.level_headings`), in every backend (every page is read as blocks:
the pymupdf backend's layout model and fast path, OCR, docling).

A processor is a function ``(pages) -> pages`` over {page number: the page's blocks}: it
returns new frozen blocks (`dataclasses.replace`), never edits them, and records why it changed
a block in the block's ``evidence``. A heading it decides is no heading becomes a "text" block
(`common.demoted`), so it never enters the heading scale. ``citechunk passes`` lists them and
``--no-pass NAME`` turns one off; one that raises is skipped for the document (`passguard`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...models import PassFailure
from ..blocks import Block
from ..passguard import guarded
from .aside_headings import demote_aside_headings
from .author_lines import demote_author_lines
from .common import Pages
from .figure_tables import figure_tables
from .footnotes import footnote_blocks, footnotes_before_run_on
from .glued_punctuation import glued_punctuation
from .label_headings import demote_label_headings
from .list_heads import demote_list_heads
from .navigation_entries import demote_navigation_entries
from .numbered_leadins import promote_numbered_leadins
from .peer_headings import promote_peer_headings
from .quoted_items import quoted_items
from .raised_marks import flag_raised_marks
from .repeated_titles import demote_repeated_titles
from .run_in_labels import promote_run_in_labels
from .running_titles import demote_running_titles
from .sentence_headings import demote_sentence_headings
from .stacked_headings import split_stacked_headings
from .symbol_digits import symbol_digits
from .table_labels import demote_table_labels
from .table_titles import demote_table_titles

Rule = Callable[[Pages], dict[int, tuple[Block, ...]]]


@dataclass(frozen=True)
class Processor:
    """One named rule over the document's blocks."""

    name: str
    rule: Rule


PROCESSORS: tuple[Processor, ...] = (
    Processor("figure-tables", figure_tables),
    Processor("stacked-headings", split_stacked_headings),
    Processor("running-titles", demote_running_titles),
    Processor("repeated-titles", demote_repeated_titles),
    Processor("navigation-entries", demote_navigation_entries),
    Processor("table-titles", demote_table_titles),
    Processor("table-labels", demote_table_labels),
    Processor("label-headings", demote_label_headings),
    Processor("sentence-headings", demote_sentence_headings),
    Processor("aside-headings", demote_aside_headings),
    Processor("author-lines", demote_author_lines),
    Processor("list-heads", demote_list_heads),
    Processor("peer-headings", promote_peer_headings),
    Processor("run-in-labels", promote_run_in_labels),
    Processor("quoted-items", quoted_items),
    Processor("symbol-digits", symbol_digits),
    Processor("raised-marks", flag_raised_marks),
    Processor("glued-punctuation", glued_punctuation),
    Processor("footnote-blocks", footnote_blocks),
    Processor("footnotes-before-run-on", footnotes_before_run_on),
    Processor("numbered-leadins", promote_numbered_leadins),
)
NAMES = frozenset(p.name for p in PROCESSORS)


def run(
    pages: Pages,
    skip: Sequence[str] = (),
    failures: list[PassFailure] | None = None,
    source: str = "",
) -> dict[int, tuple[Block, ...]]:
    """Every processor of `PROCESSORS` not named in `skip`, in order, over `pages`; one that
    raises leaves the blocks as they were before it (its failure added to `failures`)."""
    current = {n: tuple(blocks) for n, blocks in pages.items()}
    failures = [] if failures is None else failures
    for step in PROCESSORS:
        if step.name not in skip:
            current = guarded(
                step.name, 0, functools.partial(step.rule, current), current, failures, source
            )
    return current
