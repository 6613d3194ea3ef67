"""`timing.StageClock`: seconds per named stage, summed when a stage is entered twice."""

from __future__ import annotations

import time

import pytest

from citechunk.timing import STAGES, StageClock, total_by_stage


def test_a_stage_entered_twice_sums_and_order_follows_stages() -> None:
    clock = StageClock()
    with clock.stage("passes"):
        time.sleep(0.01)
    with clock.stage("text layer"):
        time.sleep(0.01)
    with clock.stage("text layer"):
        time.sleep(0.01)
    frozen = dict(clock.frozen())
    assert list(frozen) == ["text layer", "passes"]  # STAGES order, not entry order
    assert frozen["text layer"] >= 0.02 and frozen["passes"] >= 0.01


def test_a_failing_stage_still_counts() -> None:
    clock = StageClock()
    with pytest.raises(ValueError), clock.stage("extract"):
        raise ValueError("bad page")
    assert "extract" in dict(clock.frozen())


def test_totals_sum_per_stage_over_files() -> None:
    rows = iter([(("extract", 1.0), ("chunking", 0.5)), (("extract", 2.0),)])
    assert total_by_stage(rows) == {"extract": 3.0, "chunking": 0.5}
    assert set(STAGES) >= {"extract", "chunking"}
