"""Worker thread limits (runner/threads.py), checked on real ONNX Runtime sessions built from
pymupdf-layout's own model files, in a fresh interpreter (the limit patches process state)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.heavy

ort = pytest.importorskip("onnxruntime")
layout = pytest.importorskip("pymupdf.layout")

PROBE = """
import json, os, sys
from pathlib import Path
import onnxruntime as ort
import pymupdf.layout
model = next(Path(pymupdf.layout.__file__).parent.rglob("*.onnx"))
if sys.argv[1] == "limit":
    from citechunk.runner.threads import limit_threads
    limit_threads(int(sys.argv[2]))
    limit_threads(int(sys.argv[2]) + 5)  # a second call changes nothing
explicit = ort.SessionOptions()
explicit.intra_op_num_threads = 3
sessions = [
    ort.InferenceSession(str(model), providers=["CPUExecutionProvider"]),
    ort.InferenceSession(str(model), sess_options=ort.SessionOptions()),
    ort.InferenceSession(str(model), explicit),
]
def spinning(session):
    try:
        return session.get_session_options().get_session_config_entry(
            "session.intra_op.allow_spinning"
        )
    except Exception:  # not set: ORT's default (spinning on)
        return None
print(json.dumps({
    "threads": [s.get_session_options().intra_op_num_threads for s in sessions],
    "spinning": [spinning(s) for s in sessions],
    "omp": os.environ.get("OMP_NUM_THREADS"),
}))
"""


def probe(*args: str, env: dict[str, str] | None = None) -> dict:
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, check=True
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def _env_without_omp() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}


def test_limit_sets_threads_and_turns_spinning_off() -> None:
    got = probe("limit", "1", env=_env_without_omp())
    assert got["threads"] == [1, 1, 3]  # an explicit thread count is the caller's choice
    assert got["spinning"] == ["0", "0", "0"]
    assert got["omp"] == "1"


def test_without_limit_sessions_keep_library_defaults() -> None:
    got = probe("none", "0", env=_env_without_omp())
    assert got["threads"] == [0, 0, 3]
    assert got["spinning"] == [None, None, None]
    assert got["omp"] is None


def test_user_set_omp_threads_are_kept() -> None:
    env = {**_env_without_omp(), "OMP_NUM_THREADS": "7"}
    got = probe("limit", "2", env=env)
    assert got["omp"] == "7"
    assert got["threads"][:2] == [2, 2]
