"""`citechunk ingest` through click's CliRunner: exit codes, summary, logs, bad inputs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from citechunk.cli import main
from citechunk.runner.lock import OutputLock

pytestmark = pytest.mark.heavy


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_ok_run_exit_0_summary_and_plain_log_lines(tmp_path: Path, sample_pdfs: Path) -> None:
    pdf = sample_pdfs / "refund_policy.pdf"
    args = ["--out", str(tmp_path / "o"), "--workers", "1", "--include", "RE*.PDF"]
    args += ["--exclude", "*memo*", "--exclude", "*outline*", "--exclude", "retry_*"]
    code, out, err = invoke("ingest", str(sample_pdfs), *args)
    assert code == 0, err
    assert "chunks" in out and "failed" in out and "FAILED" not in out
    assert f"{pdf.name}: converted" in err  # one plain line per file when not a terminal
    assert "1 file(s) found" in err

    code, out, err = invoke(
        "--log-format",
        "json",
        "ingest",
        str(pdf),
        "--out",
        str(tmp_path / "o"),
        "--full",
        "--format",
        "jsonl",
        "--max-tokens",
        "200",
        "--threads-per-worker",
        "2",
    )
    assert code == 0, err
    lines = [json.loads(line) for line in err.splitlines()]
    assert any(r.get("file") == pdf.name and r.get("status") == "converted" for r in lines)
    assert [p.suffix for p in (tmp_path / "o" / "chunks").iterdir()] == [".jsonl"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["nowhere", "--out", "{o}"], "input not found"),
        (["{pdf}", "--out", "{o}", "--format", "xml"], "Invalid value for '--format'"),
        (["{pdf}", "--out", "{o}", "--backend", "nope"], "unknown backend 'nope'"),
        (["{pdf}", "--out", "{o}", "--max-tokens", "3"], "max_tokens"),
        (["{pdf}"], "Missing option '-o' / '--out'"),
        (["{pdf}", "--out", "{o}", "--threads-per-worker", "0"], "--threads-per-worker"),
    ],
)
def test_usage_and_config_errors_exit_2(
    tmp_path: Path, sample_pdfs: Path, args: list[str], message: str
) -> None:
    pdf = str(sorted(sample_pdfs.glob("*.pdf"))[0])
    filled = [a.format(pdf=pdf, o=tmp_path / "o") for a in args]
    code, _, err = invoke("ingest", *filled)
    assert code == 2 and message in err
    assert not (tmp_path / "o" / "chunks").exists()


def test_locked_output_exit_2_and_untouched(tmp_path: Path, sample_pdfs: Path) -> None:
    with OutputLock(tmp_path / "o"):
        code, _, err = invoke("ingest", str(sample_pdfs), "--out", str(tmp_path / "o"))
    assert code == 2 and "another citechunk run is using this output folder" in err
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == []


def test_bad_corpus_mixed_with_good_files(
    tmp_path: Path, sample_pdfs: Path, corpus_bad: Path
) -> None:
    src = tmp_path / "in"
    src.mkdir()
    good = sorted(p.name for p in sample_pdfs.glob("*.pdf"))[:2]
    for name in good:
        shutil.copy(sample_pdfs / name, src / name)
    bad = sorted(p.name for p in corpus_bad.iterdir())
    for name in bad:
        shutil.copy(corpus_bad / name, src / name)
    out = tmp_path / "out"

    code, stdout, err = invoke("ingest", str(src), "--out", str(out), "--workers", "2")

    assert code == 1, err
    rows = {r["source_file"]: r for r in json.loads((out / "run.json").read_text())["files"]}
    for name in good:
        assert rows[name]["status"] == "converted" and not rows[name]["warnings"]
        assert all((out / o).is_file() for o in rows[name]["outputs"])
    for name in bad:  # each bad file: a clear failure, or converted with a warning
        row = rows[name]
        if row["status"] == "failed":
            assert row["error_class"] and row["error"], row
            assert f"FAILED {name}: {row['error_class']}" in stdout
            assert not any(name in p.name for p in out.rglob("*") if p.parent != out)
        else:
            assert row["status"] == "converted" and row["warnings"], row
    for name in ("corrupted_not_pdf.pdf", "empty_zero_bytes.pdf", "encrypted_password_test.pdf"):
        assert rows[name]["status"] == "failed"
    assert "password" in rows["encrypted_password_test.pdf"]["error"].lower()

    code, _, _ = invoke("ingest", str(src), "--out", str(out), "--workers", "2")
    again = {
        r["source_file"]: r["status"] for r in json.loads((out / "run.json").read_text())["files"]
    }
    assert code == 1
    for name, row in rows.items():  # failed files are retried, the rest skipped
        assert again[name] == ("failed" if row["status"] == "failed" else "skipped")


def test_log_format_from_the_config_file_reaches_parent_and_workers(
    tmp_path: Path, sample_pdfs: Path
) -> None:
    """`run.log_format = "json"` in TOML (no flag): every log line, the workers' included, is
    JSON; `--log-format text` on the command line wins over the file."""
    cfg = tmp_path / "cfg.toml"
    cfg.write_text('[run]\nlog_format = "json"\n', encoding="utf-8")
    pdf = str(sample_pdfs / "report_outline.pdf")
    base = [sys.executable, "-m", "citechunk", "--config", str(cfg), "-vv"]
    run = subprocess.run(
        [*base, "ingest", pdf, "--out", str(tmp_path / "o"), "--workers", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in run.stderr.splitlines() if line.strip()]
    loggers = {r["logger"] for r in lines}
    assert "citechunk.runner.ingest" in loggers  # the parent
    assert any(name.startswith("citechunk.conversion") for name in loggers)  # a worker

    run = subprocess.run(
        [*base, "--log-format", "text", "ingest", pdf, "--out", str(tmp_path / "o2")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith(("DEBUG ", "INFO ")) and '"logger"' not in run.stderr
