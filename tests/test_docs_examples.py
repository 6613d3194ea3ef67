"""Every command and Python snippet of README.md and docs/ runs, against sample_pdfs/.

A page's examples run in order in one working folder holding ``pdfs/`` (the sample PDFs: the
reader's folder of PDFs) and ``out/`` (an ingest of it, made once per session; not there for a
page marked ``<!-- docs-test: fresh-out -->``). The convention is in tests/docs_blocks.py. What is
compared is the shape: exit codes, each documented output line by `docs_blocks.shape` (numbers
as N), files the page says are written, chunk records field by field; never timings.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from docs_blocks import REPO, Block, all_blocks, blocks, commands, doc_pages, is_run, printed, shape

BIN = Path(sys.executable).parent
PAGES_WITH_EXAMPLES = [p for p in doc_pages() if any(is_run(b) or b.title for b in blocks(p))]


def env() -> dict[str, str]:
    """This checkout's citechunk first, offline, the venv's commands on PATH."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]),
        "PATH": os.pathsep.join([str(BIN), os.environ.get("PATH", "")]),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "RAY_USAGE_STATS_ENABLED": "0",
        "ANONYMIZED_TELEMETRY": "False",
        "NO_COLOR": "1",
    }


def copy_pdfs(sample_pdfs: Path, dest: Path) -> Path:
    dest.mkdir(parents=True)
    for pdf in sorted(sample_pdfs.glob("*.pdf")):
        shutil.copy2(pdf, dest / pdf.name)
    return dest


@pytest.fixture(scope="session")
def ingested(tmp_path_factory: pytest.TempPathFactory, sample_pdfs: Path) -> Path:
    """A folder with ``pdfs/`` and ``out/``: one ingest of sample_pdfs/ for every page."""
    root = tmp_path_factory.mktemp("docs-ingest")
    copy_pdfs(sample_pdfs, root / "pdfs")
    run = subprocess.run(
        [str(BIN / "citechunk"), "ingest", "pdfs", "--out", "out"],
        cwd=root,
        env=env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr
    return root


# `make` targets run in a clone of the repository, the reader's commands in their own folder
CLONE = "clone"


def workdir(page: Path, ingested: Path, tmp_path: Path) -> Path:
    """The page's working folder: pdfs/, out/ (unless fresh-out) and clone/, what the Makefile's
    `make demo` needs (sample_pdfs/, the Makefile, pyproject.toml, a .venv of this one)."""
    work = tmp_path / "work"
    shutil.copytree(ingested / "pdfs", work / "pdfs")
    if "<!-- docs-test: fresh-out -->" not in page.read_text(encoding="utf-8"):
        shutil.copytree(ingested / "out", work / "out")
    clone = work / CLONE
    shutil.copytree(ingested / "pdfs", clone / "sample_pdfs")
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy2(REPO / name, clone / name)
    (clone / ".venv").mkdir()
    (clone / ".venv" / "bin").symlink_to(BIN)
    (clone / ".venv" / ".base").touch()  # newer than pyproject.toml: nothing to install
    return work


def run_command(text: str, work: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", "set -o pipefail\n" + text],
        cwd=work,
        env=env(),
        capture_output=True,
        text=True,
        timeout=900,
    )


def check_console(block: Block, work: Path) -> int:
    done = 0
    for command in commands(block):
        where = work / CLONE if command.text.startswith("make ") else work
        run = run_command(command.text, where)
        said = (
            f"{block.where}: $ {command.text}\n--- stdout\n{run.stdout}\n--- stderr\n{run.stderr}"
        )
        assert run.returncode == command.exit_code, said
        got = [shape(line) for line in (run.stdout + run.stderr).splitlines()]
        for line in command.output:
            assert any(printed(line, g) for g in got), (
                f"documented line {line!r} not printed\n{said}"
            )
        done += 1
    return done


def check_python(block: Block, work: Path) -> int:
    run = subprocess.run(
        [sys.executable, "-"],
        input=block.body,
        cwd=work,
        env=env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, f"{block.where}:\n{block.body}\n--- stderr\n{run.stderr}"
    return 1


@pytest.mark.heavy
@pytest.mark.parametrize(
    "page", PAGES_WITH_EXAMPLES, ids=[str(p.relative_to(REPO)) for p in PAGES_WITH_EXAMPLES]
)
def test_page_examples_run(page: Path, ingested: Path, tmp_path: Path) -> None:
    work = workdir(page, ingested, tmp_path)
    ran = 0
    for block in blocks(page):
        if block.not_run:
            continue
        if block.title:
            target = work / block.title
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.body, encoding="utf-8")
        elif block.lang == "console":
            ran += check_console(block, work)
        elif block.lang == "python":
            ran += check_python(block, work)
    assert ran > 0


def record_blocks() -> list[Block]:
    return [b for b in all_blocks() if b.lang == "json" and '"chunk_id"' in b.body]


@pytest.mark.heavy
@pytest.mark.parametrize("block", record_blocks(), ids=lambda b: b.where)
def test_documented_record_is_what_ingest_writes(block: Block, ingested: Path) -> None:
    """A record shown in the docs has the fields of a real one, in order, with their types, and
    the same citation (file, index, pages, heading path, text) as that record."""
    import citechunk

    shown: dict[str, Any] = json.loads(block.body)
    real = next(
        r.to_dict()
        for r in citechunk.iter_records(ingested / "out")
        if (r.source_file, r.chunk_index) == (shown["source_file"], shown["chunk_index"])
    )
    assert list(shown) == list(real), "fields differ from ChunkRecord: update the shown record"
    for name, value in real.items():
        assert type(shown[name]) is type(value), name
    same = ("first_page", "last_page", "heading_path", "text", "tokenizer", "embedder", "role")
    for name in (*same, "backend", "schema_version", "markdown_file", "doc_id", "ocr_pages"):
        assert shown[name] == real[name], name


def test_examples_are_counted() -> None:
    """Most blocks run; the few that cannot each say why (see development.md)."""
    every = all_blocks()
    run = [b for b in every if is_run(b)]
    not_run = [b for b in every if b.not_run]
    assert len(run) >= 30 and len(not_run) <= 15, (len(run), [b.where for b in not_run])
