"""Seconds per named stage of one file's processing, for the run report.

A `StageClock` is created per file and handed down explicitly (never a global); each stage adds
its wall-clock seconds under its name, so a stage entered twice (the text layer is read in two
places) sums. `STAGES` fixes the names and the order reports list them in.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

Stage = Literal[
    "text layer", "extract", "ocr", "passes", "save", "source map", "chunking", "writing"
]
#: Every stage, in processing order: "extract" is the backend's own work (layout model, tables,
#: Markdown), "passes" the repairs and the text-layer self-check.
STAGES: tuple[Stage, ...] = (
    "text layer",
    "extract",
    "ocr",
    "passes",
    "save",
    "source map",
    "chunking",
    "writing",
)


@dataclass
class StageClock:
    """Accumulates seconds per stage (see the module docstring)."""

    seconds: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: Stage) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start

    def add(self, other: Mapping[str, float]) -> None:
        for name, secs in other.items():
            self.seconds[name] = self.seconds.get(name, 0.0) + secs

    def frozen(self) -> tuple[tuple[str, float], ...]:
        """(stage, seconds rounded to ms) in `STAGES` order, stages never entered left out."""
        return tuple((s, round(self.seconds[s], 3)) for s in STAGES if s in self.seconds)


def total_by_stage(rows: Iterator[tuple[tuple[str, float], ...]]) -> dict[str, float]:
    """Sum per stage over many files' `StageClock.frozen()` rows, in `STAGES` order."""
    sums: dict[str, float] = {}
    for row in rows:
        for name, secs in row:
            sums[name] = sums.get(name, 0.0) + secs
    return {s: round(sums[s], 3) for s in STAGES if s in sums}
