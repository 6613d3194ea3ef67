"""Configuration: defaults < --config file < flags, clear errors, default.toml == dataclasses."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from citechunk.config import ChunkOptions, Config, ConvertOptions, load_config
from citechunk.errors import ConfigError

DEFAULT_TOML = Path(__file__).resolve().parents[1] / "config" / "default.toml"


def write(tmp_path: Path, text: str, name: str = "user.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path | None, overrides: dict[str, dict[str, Any]] | None = None) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(path, overrides)
    return str(info.value)


# ---------------------------------------------------------------- default.toml


def test_default_toml_equals_dataclass_defaults() -> None:
    with DEFAULT_TOML.open("rb") as fh:
        parsed = tomllib.load(fh)
    assert parsed == Config().to_dict()


def test_default_toml_lists_every_key_of_every_stage() -> None:
    with DEFAULT_TOML.open("rb") as fh:
        parsed = tomllib.load(fh)
    defaults = Config()
    for section in dataclasses.fields(defaults):
        keys = {f.name for f in dataclasses.fields(getattr(defaults, section.name))}
        assert set(parsed[section.name]) == keys, section.name


def test_every_default_key_has_a_comment_line_above_it() -> None:
    lines = DEFAULT_TOML.read_text(encoding="utf-8").splitlines()
    keys = [i for i, line in enumerate(lines) if re.match(r"^[a-z_]+\s*=", line)]
    assert keys
    for i in keys:
        assert lines[i - 1].startswith("# ") and len(lines[i - 1]) > 6, lines[i]


def test_loading_default_toml_as_user_file_changes_nothing() -> None:
    assert load_config(DEFAULT_TOML) == Config()


# ---------------------------------------------------------------- layering


def test_no_file_and_no_flags_gives_defaults() -> None:
    assert load_config() == Config()
    assert load_config(None, {"chunk": {"max_tokens": None}}) == Config()


def test_file_overrides_defaults_and_flags_override_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[chunk]\nmax_tokens = 300\nmin_tokens = 40\n[convert]\nbackend = "docling"\n',
    )
    from_file = load_config(path)
    assert from_file.chunk.max_tokens == 300
    assert from_file.chunk.min_tokens == 40
    assert from_file.convert.backend == "docling"
    assert from_file.chunk.embedder == ChunkOptions().embedder  # untouched keys keep defaults

    layered = load_config(path, {"chunk": {"max_tokens": 200, "min_tokens": None}})
    assert layered.chunk.max_tokens == 200  # the flag wins over the file
    assert layered.chunk.min_tokens == 40  # a flag left unset (None) keeps the file's value
    assert layered.convert == dataclasses.replace(ConvertOptions(), backend="docling")


def test_values_are_coerced_to_the_field_type(tmp_path: Path) -> None:
    path = write(tmp_path, '[run]\ntimeout = 30\n[export]\ninclude = ["*.PDF", "reports/*.pdf"]\n')
    config = load_config(path)
    assert config.run.timeout == 30.0 and isinstance(config.run.timeout, float)
    assert config.export.include == ("*.PDF", "reports/*.pdf")
    assert dataclasses.is_dataclass(config.export) and hash(config)  # frozen and hashable


def test_ocr_languages_is_auto_or_a_list_of_codes(tmp_path: Path) -> None:
    assert load_config(None).convert.ocr_languages == "auto"
    listed = load_config(write(tmp_path, '[convert]\nocr_languages = ["eng", "chi_sim"]\n'))
    assert listed.convert.ocr_languages == ("eng", "chi_sim")
    auto = load_config(write(tmp_path, '[convert]\nocr_languages = "auto"\n'))
    assert auto.convert.ocr_languages == "auto"
    # a repeatable flag given once as the word: --ocr-language auto
    flag = load_config(None, {"convert": {"ocr_languages": ("auto",)}})
    assert flag.convert.ocr_languages == "auto"
    assert load_config(None, {"convert": {"ocr_languages": ("tha",)}}).convert.ocr_languages == (
        "tha",
    )


# ---------------------------------------------------------------- errors name key and file


def test_unknown_key_names_the_key_and_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[chunk]\nmax_token = 100\n")
    message = error_of(path)
    assert str(path) in message
    assert "chunk.max_token" in message
    assert "max_tokens" in message  # the known keys are listed as a hint


def test_unknown_section_names_the_section_and_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[chunking]\nmax_tokens = 100\n")
    message = error_of(path)
    assert str(path) in message and "chunking" in message


@pytest.mark.parametrize(
    ("toml", "key"),
    [
        ('[chunk]\nmax_tokens = "512"\n', "chunk.max_tokens"),
        ("[chunk]\nmax_tokens = 512.5\n", "chunk.max_tokens"),
        ("[chunk]\nmax_tokens = true\n", "chunk.max_tokens"),
        ('[convert]\noutline_repair = "yes"\n', "convert.outline_repair"),
        ("[convert]\nbackend = 3\n", "convert.backend"),
        ('[export]\nformat = "csv"\n', "export.format"),
        ('[export]\ninclude = "*.pdf"\n', "export.include"),
        ("[export]\nexclude = [1, 2]\n", "export.exclude"),
        ('[run]\ntimeout = "10s"\n', "run.timeout"),
        ('[run]\nexecutor = "dask"\n', "run.executor"),
        ('[convert]\nocr_languages = "eng"\n', "convert.ocr_languages"),
        ('[convert]\nocr_languages = ["eng", "auto"]\n', "convert.ocr_languages"),
        ("[convert]\nocr_languages = []\n", "convert.ocr_languages"),
    ],
)
def test_wrong_type_names_the_key_and_the_file(tmp_path: Path, toml: str, key: str) -> None:
    path = write(tmp_path, toml)
    message = error_of(path)
    assert str(path) in message and f"'{key}'" in message


def test_section_that_is_not_a_table_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "chunk = 5\n")
    message = error_of(path)
    assert str(path) in message and "chunk" in message


def test_wrong_type_on_the_command_line_names_the_source() -> None:
    message = error_of(None, {"chunk": {"max_tokens": "many"}})
    assert "command line" in message and "chunk.max_tokens" in message


def test_invalid_toml_and_missing_file_name_the_file(tmp_path: Path) -> None:
    broken = write(tmp_path, "[chunk\nmax_tokens = 1\n")
    assert str(broken) in error_of(broken) and "TOML" in error_of(broken)
    missing = tmp_path / "nope.toml"
    assert str(missing) in error_of(missing) and "not found" in error_of(missing)


def test_config_error_exits_with_code_two() -> None:
    assert ConfigError.exit_code == 2


# ---------------------------------------------------------------- cross-field validation


@pytest.mark.parametrize(
    ("section", "values", "key"),
    [
        ("chunk", {"max_tokens": 8}, "chunk.max_tokens"),
        ("chunk", {"max_tokens": 100, "overlap_tokens": 50}, "chunk.overlap_tokens"),
        ("chunk", {"overlap_tokens": -1}, "chunk.overlap_tokens"),
        ("chunk", {"max_tokens": 100, "min_tokens": 101}, "chunk.min_tokens"),
        ("chunk", {"max_depth": 0}, "chunk.max_depth"),
        ("chunk", {"max_depth": 7}, "chunk.max_depth"),
        ("chunk", {"start_page": 0}, "chunk.start_page"),
        ("run", {"workers": -1}, "run.workers"),
        ("run", {"threads_per_worker": 0}, "run.threads_per_worker"),
        ("run", {"timeout": 0}, "run.timeout"),
        ("eval", {"k": 0}, "eval.k"),
    ],
)
def test_cross_field_validation(
    tmp_path: Path, section: str, values: dict[str, int], key: str
) -> None:
    body = "\n".join(f"{k} = {v}" for k, v in values.items())
    path = write(tmp_path, f"[{section}]\n{body}\n")
    message = error_of(path)
    assert str(path) in message and key in message


def test_boundary_values_are_accepted(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "[chunk]\nmax_tokens = 16\noverlap_tokens = 7\nmin_tokens = 16\nmax_depth = 1\n"
        "[run]\nworkers = 0\n[eval]\nk = 1\n",
    )
    config = load_config(path)
    assert (config.chunk.max_tokens, config.chunk.overlap_tokens) == (16, 7)


def test_validation_sees_the_merged_layers(tmp_path: Path) -> None:
    """A file value and a flag value that are fine alone but not together are rejected."""
    path = write(tmp_path, "[chunk]\noverlap_tokens = 100\n")
    assert load_config(path).chunk.overlap_tokens == 100
    message = error_of(path, {"chunk": {"max_tokens": 150}})
    assert "command line" in message and "chunk.overlap_tokens" in message
