"""The `citechunk` command group: help, version, `python -m`, --config handling, `backends`."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from citechunk import __version__
from citechunk.cli import main
from citechunk.conversion import describe

LONG_SECTION = " ".join(
    f"Sentence {i} of the retry guide explains one more detail about backoff." for i in range(20)
)
MARKDOWN = f"# Configuring retries\n\n{LONG_SECTION}\n"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def markdown_file(tmp_path: Path) -> Path:
    path = tmp_path / "doc.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    return path


def test_help_lists_commands_and_global_options() -> None:
    result = run("--help")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Usage:")
    for word in ("convert", "chunk", "backends", "--config", "--version", "--verbose"):
        assert word in result.output


@pytest.mark.parametrize("command", ["convert", "chunk", "backends"])
def test_each_command_has_help(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0, result.output
    assert (
        f"Usage: main {command}" in result.output or f"Usage: citechunk {command}" in result.output
    )


def test_version_matches_the_installed_distribution() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.output == f"citechunk, version {__version__}\n"
    assert __version__ == version("citechunk")


@pytest.mark.heavy
def test_python_dash_m_citechunk_runs_the_same_cli() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "citechunk", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Usage:" in proc.stdout and "backends" in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "citechunk", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0 and __version__ in proc.stdout


def test_unknown_config_key_exits_2_naming_key_and_file(
    tmp_path: Path, markdown_file: Path
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[chunk]\nmax_tokenz = 100\n", encoding="utf-8")
    result = run("--config", str(bad), "chunk", str(markdown_file))
    assert result.exit_code == 2
    assert str(bad) in result.stderr and "chunk.max_tokenz" in result.stderr
    assert result.stdout == ""


def test_wrong_config_type_exits_2_naming_key_and_file(tmp_path: Path, sample_pdfs: Path) -> None:
    bad = tmp_path / "types.toml"
    bad.write_text('[convert]\noutline_repair = "yes"\n', encoding="utf-8")
    result = run("--config", str(bad), "convert", str(sample_pdfs / "refund_policy.pdf"))
    assert result.exit_code == 2
    assert str(bad) in result.stderr and "convert.outline_repair" in result.stderr


def test_missing_config_file_exits_2(tmp_path: Path, markdown_file: Path) -> None:
    missing = tmp_path / "missing.toml"
    result = run("--config", str(missing), "chunk", str(markdown_file))
    assert result.exit_code == 2
    assert str(missing) in result.stderr


def test_flag_and_file_are_validated_together(tmp_path: Path, markdown_file: Path) -> None:
    config = tmp_path / "overlap.toml"
    config.write_text("[chunk]\noverlap_tokens = 100\n", encoding="utf-8")
    result = run("--config", str(config), "chunk", str(markdown_file), "--max-tokens", "150")
    assert result.exit_code == 2
    assert "chunk.overlap_tokens" in result.stderr


def test_cli_layers_defaults_file_and_flags(tmp_path: Path, markdown_file: Path) -> None:
    """Defaults (MiniLM's 254 word pieces) split the section least; the file's limit splits it
    more; the flag's more again."""
    config = tmp_path / "small.toml"
    config.write_text('[chunk]\nmax_tokens = 80\nembedder = "approx@512"\n', encoding="utf-8")

    def token_counts(*args: str) -> list[int]:
        result = run(*args)
        assert result.exit_code == 0, result.output
        return [json.loads(line)["token_count"] for line in result.stdout.splitlines()]

    defaults = token_counts("chunk", str(markdown_file))
    from_file = token_counts("--config", str(config), "chunk", str(markdown_file))
    with_flag = token_counts(
        "--config", str(config), "chunk", str(markdown_file), "--max-tokens", "40"
    )
    assert max(defaults) <= 254
    assert len(defaults) < len(from_file) < len(with_flag)
    assert max(from_file) <= 80 and max(from_file) > 40
    assert max(with_flag) <= 40


def test_backends_lists_every_registered_backend() -> None:
    result = run("backends")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    infos = describe()
    assert len(lines) == len(infos)
    for info, line in zip(infos, lines, strict=True):
        assert line.split()[0] == info.name
        if info.available:
            assert f"ok {info.version}" in line
        else:
            assert "unavailable" in line and info.detail in line
    pymupdf_line = next(line for line in lines if line.split()[0] == "pymupdf")
    assert "ok" in pymupdf_line and "pymupdf4llm" in pymupdf_line
