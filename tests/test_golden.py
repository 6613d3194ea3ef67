"""Golden snapshots: the sample PDFs' Markdown and chunk records, regenerated in a temporary
folder, equal the checked-in ``tests/golden/<backend>/`` files byte for byte.

A failure shows the diff. When the change is intended, run ``make golden`` and commit the new
snapshots with it (the diff is the review of the extraction change).
"""

from __future__ import annotations

import difflib
import importlib.util
import json
from pathlib import Path

import pytest

from citechunk.export.ids import chunk_id, section_id

pytestmark = pytest.mark.heavy

GOLDEN = Path(__file__).resolve().parent / "golden"
MAX_DIFF_LINES = 120


def _make_golden():  # the script is not a package module: load it by path
    spec = importlib.util.spec_from_file_location("make_golden", GOLDEN / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _diff(expected: Path, actual: Path) -> str:
    old = (
        expected.read_text(encoding="utf-8").splitlines(keepends=True) if expected.exists() else []
    )
    new = actual.read_text(encoding="utf-8").splitlines(keepends=True) if actual.exists() else []
    lines = list(difflib.unified_diff(old, new, f"golden/{expected.name}", f"now/{actual.name}"))
    cut = lines[:MAX_DIFF_LINES] + (
        [f"... {len(lines) - MAX_DIFF_LINES} more lines\n"] if len(lines) > MAX_DIFF_LINES else []
    )
    return "".join(cut)


@pytest.mark.parametrize("backend", ["pymupdf", "docling"])
def test_sample_outputs_match_the_golden_snapshots(backend: str, tmp_path: Path) -> None:
    if backend == "docling":
        pytest.importorskip("docling")
    make_golden = _make_golden()
    make_golden.build(backend, tmp_path)
    expected_dir = GOLDEN / backend
    names = sorted({p.name for p in tmp_path.iterdir()} | {p.name for p in expected_dir.iterdir()})
    assert names, f"no snapshots in {expected_dir}: run `make golden`"
    changed = [
        n
        for n in names
        if not (expected_dir / n).exists()
        or not (tmp_path / n).exists()
        or (expected_dir / n).read_bytes() != (tmp_path / n).read_bytes()
    ]
    diffs = "\n".join(_diff(expected_dir / n, tmp_path / n) for n in changed)
    assert not changed, (
        f"{backend} output differs from tests/golden/{backend}/ in {', '.join(changed)}"
        f" (intended? run `make golden` and commit the snapshots):\n{diffs}"
    )


def test_snapshot_records_check_each_id_against_its_definition() -> None:
    make_golden = _make_golden()
    record = json.loads(
        (GOLDEN / "pymupdf" / "incident_review.pdf.jsonl").read_text("utf-8").splitlines()[0]
    )
    right = chunk_id(
        record["doc_id"],
        record["source_sha256"],
        "0123456789abcdef",
        record["chunk_index"],
        record["char_start"],
        record["char_end"],
    )
    section = section_id(
        record["doc_id"],
        record["source_sha256"],
        "0123456789abcdef",
        record["section_char_start"],
        record["section_char_end"],
    )
    line = json.dumps({"chunk_id": right, **record, "section_id": section})
    assert (
        make_golden.snapshot_records(line, "0123456789abcdef")
        == json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
    )
    with pytest.raises(RuntimeError, match="wrong id"):
        make_golden.snapshot_records(line, "fedcba9876543210")
