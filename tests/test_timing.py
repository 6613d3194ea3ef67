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


def test_carve_moves_an_inner_stage_out_of_its_parent_in_wall_and_cpu_seconds() -> None:
    clock = StageClock()
    with clock.stage("extract"):
        sum(i * i for i in range(200_000))  # CPU work, so the CPU clock moves too
    wall, cpu = dict(clock.frozen())["extract"], dict(clock.frozen_cpu())["extract"]
    assert cpu > 0
    clock.carve("extract", "layout model", wall / 2, cpu / 2)
    frozen, frozen_cpu = dict(clock.frozen()), dict(clock.frozen_cpu())
    assert list(frozen) == ["layout model", "extract"]  # STAGES order
    assert frozen["layout model"] + frozen["extract"] == pytest.approx(wall, abs=0.002)
    assert frozen_cpu["layout model"] == pytest.approx(cpu / 2, abs=0.002)
