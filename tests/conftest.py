"""Shared test fixtures: the bundled sample PDFs and the optional real corpus beside the repo.

The real corpus lives in ``<repo parent>/shared`` (read-only, never copied into the repo). Fixtures
that need it skip the test cleanly when it is absent, so a clone without it still passes.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLE_DIR = REPO / "sample_pdfs"
SHARED_DIR = Path(__file__).resolve().parents[2] / "shared"


def _load_expected() -> dict[str, Any]:
    data = json.loads((SAMPLE_DIR / "expected.json").read_text(encoding="utf-8"))
    return {name: entry for name, entry in data.items() if not name.startswith("_")}


# The sample PDFs by name, in expected.json order (for parametrize, where fixtures cannot go).
SAMPLE_NAMES = tuple(_load_expected())


def output_tree(out: Path) -> dict[str, bytes]:
    """Every file under an ingest OUT except the run report (the only file with timestamps)."""
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.name != "run.json"
    }


def _require(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} not available (the shared corpus sits beside the repository)")
    return path


def wide_pdf(name: str) -> Path:
    """``shared/eval/wide/<name>``; skips the test when absent."""
    return _require(SHARED_DIR / "eval" / "wide" / name)


@pytest.fixture(scope="session")
def sample_pdfs() -> Path:
    """The folder of generated sample PDFs (always present in the repository)."""
    return SAMPLE_DIR


@pytest.fixture(scope="session")
def sample_expected() -> dict[str, Any]:
    """sample_pdfs/expected.json without its ``_about`` note: file name -> ground truth."""
    return _load_expected()


def load_make_samples() -> ModuleType:
    """``sample_pdfs/make_samples.py`` loaded as a module (its writers of single PDFs)."""
    spec = importlib.util.spec_from_file_location("make_samples", SAMPLE_DIR / "make_samples.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def make_samples() -> ModuleType:
    """``sample_pdfs/make_samples.py`` as a module (`load_make_samples`)."""
    return load_make_samples()


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``<repo parent>/shared``; skips the test when absent."""
    return _require(SHARED_DIR)


@pytest.fixture(scope="session")
def corpus_pdfs() -> list[Path]:
    """The real PDFs of ``shared/corpus/pdfs``, sorted; skips the test when absent."""
    pdfs = sorted(_require(SHARED_DIR / "corpus" / "pdfs").glob("*.pdf"))
    if not pdfs:
        pytest.skip(f"no PDFs in {SHARED_DIR / 'corpus' / 'pdfs'}")
    return pdfs


@pytest.fixture(scope="session")
def corpus_bad() -> Path:
    """``shared/corpus/bad`` (corrupt, encrypted, empty, scanned, garbled); skips when absent."""
    return _require(SHARED_DIR / "corpus" / "bad")


@pytest.fixture(scope="session")
def dev_questions() -> list[dict[str, Any]]:
    """The records of ``shared/eval/dev_questions.jsonl``; skips the test when absent."""
    path = _require(SHARED_DIR / "eval" / "dev_questions.jsonl")
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]
