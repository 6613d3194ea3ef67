"""Seconds per named stage of one file's processing, for the run report.

A `StageClock` is created per file and handed down explicitly (never a global); each stage adds
its wall-clock seconds and this process's CPU seconds (``time.process_time``: all its threads,
so an ONNX session's threads count) under its name, so a stage entered twice (the text layer
is read in two places) sums. A stage measured inside another (the layout model inside
"extract") is moved out of it with `StageClock.carve`, so the stages never overlap and sum to
the file's time. `STAGES` fixes the names and the order reports list them in.
"""

from __future__ import annotations

import time
import typing
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

Stage = Literal[
    "text layer",
    "layout model",
    "extract",
    "ocr",
    "passes",
    "save",
    "source map",
    "chunking",
    "writing",
]
#: Every stage, in processing order: "layout model" is the layout model's inference alone,
#: "extract" the rest of the backend's own work (tables, Markdown), "passes" the repairs and
#: the text-layer self-check.
STAGES: tuple[Stage, ...] = typing.get_args(Stage)


@dataclass
class StageClock:
    """Accumulates seconds per stage (see the module docstring)."""

    seconds: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: Stage) -> Iterator[None]:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start
            self.cpu[name] = self.cpu.get(name, 0.0) + time.process_time() - cpu

    def add(self, other: Mapping[str, float], cpu: Mapping[str, float] | None = None) -> None:
        for name, secs in other.items():
            self.seconds[name] = self.seconds.get(name, 0.0) + secs
        for name, secs in (cpu or {}).items():
            self.cpu[name] = self.cpu.get(name, 0.0) + secs

    def carve(self, within: Stage, name: Stage, seconds: float, cpu: float) -> None:
        """Move `seconds` (wall) and `cpu` measured inside stage `within` to stage `name`."""
        if seconds <= 0 and cpu <= 0:
            return
        for book, amount in ((self.seconds, seconds), (self.cpu, cpu)):
            book[within] = max(0.0, book.get(within, 0.0) - amount)
            book[name] = book.get(name, 0.0) + amount

    def frozen(self) -> tuple[tuple[str, float], ...]:
        """(stage, seconds rounded to ms) in `STAGES` order, stages never entered left out."""
        return tuple((s, round(self.seconds[s], 3)) for s in STAGES if s in self.seconds)

    def frozen_cpu(self) -> tuple[tuple[str, float], ...]:
        """(stage, CPU seconds rounded to ms), as `frozen`."""
        return tuple((s, round(self.cpu[s], 3)) for s in STAGES if s in self.cpu)


def total_by_stage(rows: Iterator[tuple[tuple[str, float], ...]]) -> dict[str, float]:
    """Sum per stage over many files' `StageClock.frozen()` rows, in `STAGES` order."""
    sums: dict[str, float] = {}
    for row in rows:
        for name, secs in row:
            sums[name] = sums.get(name, 0.0) + secs
    return {s: round(sums[s], 3) for s in STAGES if s in sums}
