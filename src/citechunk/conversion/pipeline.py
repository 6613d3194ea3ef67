"""The conversion repairs, in the order they run: one list, three phases (and the layout
passes and block processors before them).

A backend reads every page as typed blocks its own way (the pymupdf backend's layout path
fixes the layout model's boxes first: ``layout`` passes, `layoutpasses.LAYOUT_PASSES`), the
``block`` processors (`processors.PROCESSORS`) run over the whole document's blocks before
their heading levels are set, and each page is rendered to Markdown; everything after that is
`run_passes` over `PASSES`, the same for every backend:

* ``page`` passes see one page's Markdown at a time (`rule(text) -> text`);
* ``document`` passes see every page's Markdown, for what crosses a page break or repeats
  across pages (`rule(pages, ctx) -> pages`; `_texts_only` adapts a `rule(texts) -> texts`);
* ``structure`` passes see (page number, Markdown) pairs and the run's `PassContext` (the PDF
  outline, the options, warnings to report) and decide what is a heading and at which level.

A pass runs when its enabling option (a boolean field of `ConvertOptions`, if any) is true, its
outline condition holds, and its name is not in ``ConvertOptions.skip_passes`` (the
``--no-pass NAME`` debug switch). At debug level (``-vv``) each pass logs how many pages and
lines it changed. A pass that raises is skipped (`passguard`): a page pass on that page
only, a document or structure pass on the whole document (every page as it was before it;
``table-words`` guards each page itself); the failure is recorded in `PassContext.failures`.
`pass_table` renders both lists for ``docs/architecture.md`` (a test keeps the two equal;
``citechunk passes`` prints it); ``--no-pass`` takes any name of either.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from ..errors import ConfigError
from .layoutpasses import LAYOUT_PASSES
from .passcontext import Pages, PassContext
from .passguard import guarded
from .processors import PROCESSORS
from .repairs.contents import level_contents
from .repairs.cover import raise_below_cover
from .repairs.documents import split_second_documents
from .repairs.glyphs import repair_glyphs
from .repairs.leaders import shorten_leaders
from .repairs.listwraps import join_list_wraps
from .repairs.numbering import repair_numbering
from .repairs.outline import apply_outline
from .repairs.pagebreaks import join_page_hyphens, join_page_tables
from .repairs.restore import restore_dropped_lines
from .repairs.running import strip_running_lines
from .repairs.sentences import join_broken_sentences
from .repairs.siblings import level_numbered_siblings
from .repairs.strikethrough import drop_unshown_strikes
from .repairs.textflow import footnote_quotes, join_soft_breaks, join_wrapped_identifiers
from .repairs.tidy import tidy_page
from .repairs.typewriter import read_typewriter_text
from .tables.table_words import PASS_NAME as TABLE_WORDS
from .tables.table_words import check_table_words

log = logging.getLogger(__name__)

Phase = Literal["page", "document", "structure"]
OutlineCondition = Literal["any", "present", "absent"]


Rule = Callable[[Pages, PassContext], Pages]
T = TypeVar("T")


@dataclass(frozen=True)
class Pass:
    """One named repair: its phase, its rule, and when it runs (module docstring)."""

    name: str
    phase: Phase
    rule: Callable[..., object]
    option: str = ""
    outline: OutlineCondition = "any"

    def enabled(self, ctx: PassContext) -> bool:
        if self.name in ctx.options.skip_passes:
            return False
        if self.option and not getattr(ctx.options, self.option):
            return False
        return self.outline == "any" or (self.outline == "present") == bool(ctx.outline)

    def apply(self, pages: Pages, ctx: PassContext) -> Pages:
        """The rule over `pages`; where it raises, its input unchanged (`passguard.guarded`:
        per page for a page pass, else for the whole document), the failure in `ctx`."""
        if self.phase == "page":
            page_rule: Callable[[str], str] = self.rule  # type: ignore[assignment]
            return [(n, self._guard(n, functools.partial(page_rule, t), t, ctx)) for n, t in pages]
        structure_rule: Rule = self.rule  # type: ignore[assignment]
        run = functools.partial(_same_pages, structure_rule, pages, ctx)
        return self._guard(0, run, pages, ctx)

    def _guard(self, page: int, run: Callable[[], T], unchanged: T, ctx: PassContext) -> T:
        return guarded(self.name, page, run, unchanged, ctx.failures, ctx.source)

    @property
    def summary(self) -> str:
        """The first sentence of the rule's docstring."""
        return _summary(self.rule)


def _same_pages(rule: Rule, pages: Pages, ctx: PassContext) -> Pages:
    """`rule` over a copy of `pages`; a result that is not the same pages, in the same
    order, raises `ValueError` (the pass failed: its result is not used)."""
    out = rule(list(pages), ctx)
    if [n for n, _ in out] != [n for n, _ in pages]:
        raise ValueError(f"returned {len(out)} pages for {len(pages)}, or others")
    return out


def _summary(rule: Callable[..., object]) -> str:
    doc = " ".join((rule.__doc__ or "").split())
    first = doc.split(". ")[0].replace(" (module docstring)", "")
    return first.rstrip(".") + "." if doc else ""


def _texts_only(rule: Callable[[Sequence[str]], list[str]]) -> Rule:
    """A document rule over the page texts alone, as a `Rule`."""

    @functools.wraps(rule)
    def run(pages: Pages, ctx: PassContext) -> Pages:
        texts = rule([text for _, text in pages])
        return list(zip((n for n, _ in pages), texts, strict=True))

    return run


def _pages_only(rule: Callable[[Sequence[tuple[int, str]]], Pages]) -> Rule:
    """A structure rule that needs nothing but the pages, as a `Rule`."""

    @functools.wraps(rule)
    def run(pages: Pages, ctx: PassContext) -> Pages:
        return rule(pages)

    return run


PASSES: tuple[Pass, ...] = (
    Pass("tidy", "page", tidy_page),
    Pass("strikethrough", "page", drop_unshown_strikes),
    Pass("leaders", "page", shorten_leaders),
    Pass("footnote-quotes", "page", footnote_quotes),
    Pass("wrapped-identifiers", "page", join_wrapped_identifiers),
    Pass("running-lines", "document", strip_running_lines, option="strip_headers_footers"),
    Pass("typewriter-text", "document", _texts_only(read_typewriter_text)),
    Pass("page-hyphens", "document", _texts_only(join_page_hyphens)),
    Pass("page-tables", "document", _texts_only(join_page_tables)),
    Pass(TABLE_WORDS, "structure", check_table_words),
    Pass("numbered-siblings", "structure", _pages_only(level_numbered_siblings)),
    Pass("outline", "structure", apply_outline, option="outline_repair", outline="present"),
    Pass(
        "numbering",
        "structure",
        _pages_only(repair_numbering),
        option="outline_repair",
        outline="absent",
    ),
    Pass("contents", "structure", level_contents),
    Pass("second-documents", "structure", _pages_only(split_second_documents)),
    Pass("cover-headings", "structure", raise_below_cover),
    Pass("restore-text", "structure", restore_dropped_lines, option="restore_text"),
    Pass("glyphs", "structure", repair_glyphs),
    Pass("list-wraps", "structure", _pages_only(join_list_wraps)),
    Pass("broken-sentences", "structure", join_broken_sentences),
    Pass("soft-breaks", "structure", _texts_only(join_soft_breaks)),
)
PASS_NAMES = (
    tuple(p.name for p in LAYOUT_PASSES)
    + tuple(p.name for p in PROCESSORS)
    + tuple(p.name for p in PASSES)
)


def check_pass_names(names: Sequence[str]) -> None:
    """Raise `ConfigError` for a name that is not a pass."""
    unknown = [n for n in names if n not in PASS_NAMES]
    if unknown:
        raise ConfigError(
            f"convert.skip_passes: unknown pass {', '.join(unknown)}; passes: {', '.join(PASS_NAMES)}"
        )


def run_passes(pages: Sequence[tuple[int, str]], ctx: PassContext) -> Pages:
    """Every enabled pass of `PASSES`, in order, over (page number, raw page Markdown)."""
    check_pass_names(ctx.options.skip_passes)
    current = list(pages)
    for step in PASSES:
        if step.enabled(ctx):
            before, current = current, step.apply(current, ctx)
            _log_change(step.name, before, current, ctx.source)
    return current


def _log_change(name: str, before: Pages, after: Pages, source: str) -> None:
    if not log.isEnabledFor(logging.DEBUG):
        return
    changed = [(a, b) for (_, a), (_, b) in zip(before, after, strict=True) if a != b]
    if changed:
        lines = sum(len(set(b.split("\n")) - set(a.split("\n"))) for a, b in changed)
        log.debug("%s: pass %s changed %d pages, %d lines", source, name, len(changed), lines)


def pass_table() -> str:
    """`LAYOUT_PASSES`, the block processors (`processors.PROCESSORS`) and `PASSES` as a
    Markdown table (the list in ``docs/architecture.md``)."""
    rows = [
        "| # | pass | phase | runs when | rule |",
        "|---|---|---|---|---|",
    ]
    steps: list[tuple[str, str, list[str], Callable[..., object]]] = [
        (p.name, "layout", ["pymupdf `use_layout`"], p.rule) for p in LAYOUT_PASSES
    ]
    steps += [(p.name, "block", [], p.rule) for p in PROCESSORS]
    for step in PASSES:
        when = [f"`{step.option}`"] if step.option else []
        when += [] if step.outline == "any" else [f"outline {step.outline}"]
        steps.append((step.name, step.phase, when, step.rule))
    for i, (name, phase, when, rule) in enumerate(steps, 1):
        parts = 2 if phase == "block" else 1  # "processors.running_titles": not the pass's module
        where = f"`{'.'.join(rule.__module__.split('.')[-parts:])}.{rule.__name__}`"
        rows.append(
            f"| {i} | `{name}` | {phase} | {', '.join(when) or 'always'} | "
            f"{where}: {_escape_pipes(_summary(rule))} |"
        )
    return "\n".join(rows)


def _escape_pipes(text: str) -> str:
    return text.replace("|", "\\|")
