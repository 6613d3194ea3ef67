"""`citechunk eval`: retrieval quality of a chunk set on questions with verbatim answers."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Sequence

import click
from rich.console import Console
from rich.table import Table

from ..config import Config
from ..evaluation import EvalReport, evaluate
from ..evaluation.compare import CompareReport, compare
from ..evaluation.data import (
    ChunkSet,
    EvalChunk,
    Question,
    load_chunk_set,
    load_questions,
    unmatched_questions,
)
from ..evaluation.misses import cause_counts, miss_record, misses
from ..evaluation.retrieval import RETRIEVERS, make_retrievers
from . import State, main, pass_state
from .console import StdoutConsole
from .options import Overrides, config_flags

log = logging.getLogger("citechunk.eval")


def _pct(x: float) -> str:
    return f"{x:.3f}"


def summary_table(reports: Sequence[EvalReport]) -> Table:
    t = Table(title="Retrieval evaluation")
    t.add_column("retriever")
    heads = ("questions", "chunks", f"found{reports[0].cutoff}", "page-correct", "MRR", "intact")
    tail = ("in model window", "over window", "tokens/chunk", "tokens/context", "docs")
    for col in (*heads, *tail):
        t.add_column(col, justify="right")
    for r in reports:
        t.add_row(
            r.retriever,
            str(r.questions),
            str(len(r.chunk_set.chunks)),
            _pct(r.found),
            _pct(r.page_correct),
            _pct(r.mrr),
            _pct(r.answer_intact),
            "-" if r.answer_visible is None else _pct(r.answer_visible),
            "-" if r.over_window is None else str(r.over_window),
            f"{r.mean_chunk_tokens:.0f}",
            f"{r.mean_context_tokens:.0f}",
            f"{r.documents_covered}/{r.documents_asked}",
        )
    return t


def breakdown_table(reports: Sequence[EvalReport], field_name: str) -> Table:
    t = Table(title=f"By {field_name}")
    t.add_column(field_name)
    t.add_column("questions", justify="right")
    for r in reports:
        for col in (f"found{r.cutoff}", "page", "MRR"):
            t.add_column(f"{r.retriever} {col}", justify="right")
    groups = [r.breakdown(field_name) for r in reports]
    for row in zip(*groups, strict=True):
        cells = [row[0].group, str(row[0].questions)]
        for g in row:
            cells += [_pct(g.found), _pct(g.page_correct), _pct(g.mrr)]
        t.add_row(*cells)
    return t


def make_console() -> Console:
    """Rich output; wide enough for the tables when stdout is a file or a pipe."""
    console = StdoutConsole(soft_wrap=True)
    return console if console.is_terminal else StdoutConsole(soft_wrap=True, width=200)


def _snippet(text: str, width: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def print_misses(console: Console, report: EvalReport) -> None:
    missed = misses(report)
    console.print(f"[bold]{report.retriever}: {len(missed)} misses / wrong pages[/bold]")
    console.print(f"  causes: {cause_counts(missed)}", markup=False, highlight=False)
    chunks = report.chunk_set.chunks
    for r in missed:
        q = r.question
        what = r.reason if not r.found else f"found at rank {r.rank}, wrong page"
        console.print(f"\n[bold]{q.id or '-'}[/bold] {q.pdf} p. {q.page}: {what}", markup=True)
        console.print(f"  Q: {q.question}", markup=False, highlight=False)
        console.print(f"  A: {q.answer}", markup=False, highlight=False)
        if r.retrieved and r.hit is None:
            _print_chunk(console, "retrieved #1", chunks[r.retrieved[0]])
        holder = r.hit if r.hit is not None else r.answer_chunk
        if holder is not None:
            _print_chunk(console, f"answer chunk (rank {r.rank or r.answer_rank})", chunks[holder])


def _print_chunk(console: Console, label: str, c: EvalChunk) -> None:
    where = f"{c.document} {c.pages} [{' > '.join(c.heading_path)}] {c.token_count or '?'} tokens"
    console.print(f"  {label}: {where}", markup=False, highlight=False)
    console.print(f"    {_snippet(c.text)}", markup=False, highlight=False)


def compare_table(report: CompareReport) -> Table:
    t = Table(title=f"Chunking configurations compared (found{report.cutoff})")
    t.add_column("configuration")
    for col in ("chunks", "tokens/chunk", "intact"):
        t.add_column(col, justify="right")
    for name in report.retrievers:
        for col in (f"found{report.cutoff}", "page", "MRR", "tokens/context"):
            t.add_column(f"{name} {col}", justify="right")
    for row in report.rows:
        first = row.reports[0]
        cells = [row.name, str(len(first.chunk_set.chunks))]
        cells += [f"{first.mean_chunk_tokens:.0f}", _pct(first.answer_intact)]
        for rep in row.reports:
            cells += [_pct(rep.found), _pct(rep.page_correct), _pct(rep.mrr)]
            cells.append(f"{rep.mean_context_tokens:.0f}")
        t.add_row(*cells)
    return t


def _warn_unmatched(qs: Sequence[Question], chunk_set: ChunkSet) -> None:
    for warning in unmatched_questions(qs, chunk_set):
        log.warning("%s", warning)


def _retrievers(cfg: Config, names: tuple[str, ...]) -> list[str]:
    return list(dict.fromkeys(names)) if names else [cfg.eval.retriever]


@main.command("eval")
@click.argument("questions", type=click.Path(dir_okay=False, exists=True))
@click.option(
    "--chunks",
    "chunks_path",
    required=True,
    type=click.Path(exists=True),
    help="Ingest OUT folder (or a folder/file of chunk records).",
)
@click.option(
    "--retriever",
    "retrievers",
    multiple=True,
    type=click.Choice(RETRIEVERS),
    help="bm25, bm25-stem, embedding or hybrid; repeatable (default: config eval.retriever).",
)
@config_flags("eval.k", "eval.budget", "eval.model_path")
@click.option(
    "--compare",
    "do_compare",
    is_flag=True,
    help="Re-chunk OUT/markdown with several configurations and compare them.",
)
@click.option(
    "--misses",
    "show_misses",
    is_flag=True,
    help="Show each miss with the chunk retrieved instead and why.",
)
@click.option(
    "--by",
    "by_field",
    metavar="FIELD",
    help="Also break the figures down by a question field (pdf, or e.g. kind).",
)
@click.option(
    "--with-navigation",
    is_flag=True,
    help="Keep chunks marked navigation (contents pages, indexes) in the pool.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON lines instead of tables.")
@pass_state
def eval_cmd(
    state: State,
    questions: str,
    chunks_path: str,
    retrievers: tuple[str, ...],
    overrides: Overrides,
    do_compare: bool,
    show_misses: bool,
    by_field: str | None,
    with_navigation: bool,
    as_json: bool,
) -> None:
    """Measure how often a retriever finds the chunk holding each answer, on the right page."""
    cfg = state.config(overrides)
    names = _retrievers(cfg, retrievers)
    qs = load_questions(questions)
    console = make_console() if not as_json else None
    if do_compare:
        _warn_unmatched(qs, load_chunk_set(chunks_path, with_navigation=True))
        report = compare(qs, chunks_path, cfg, names, with_navigation=with_navigation)
        if console is None:
            for row in report.rows:
                for rep in row.reports:
                    click.echo(json.dumps({**rep.summary(), "label": row.name}))
        else:
            console.print(compare_table(report))
        return
    chunk_set = load_chunk_set(chunks_path, with_navigation=with_navigation)
    _warn_unmatched(qs, chunk_set)
    reports = []
    for retriever in make_retrievers(names, cfg.eval.model_path):
        reports.append(evaluate(qs, chunk_set, cfg.eval, retriever=retriever))
    if console is None:
        for rep in reports:
            click.echo(json.dumps(rep.summary()))
            for g in rep.breakdown(by_field) if by_field else ():
                group = {"retriever": rep.retriever, "by": by_field, **dataclasses.asdict(g)}
                click.echo(json.dumps(group, ensure_ascii=False))
            for r in misses(rep) if show_misses else ():
                click.echo(json.dumps(miss_record(rep, r), ensure_ascii=False))
        return
    console.print(summary_table(reports))
    if by_field:
        console.print(breakdown_table(reports, by_field))
    for rep in reports if show_misses else ():
        print_misses(console, rep)
