"""The README documents every command, every option and every config key (checked by click
introspection and the config dataclasses, so a new flag or key cannot go undocumented)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest

from citechunk.cli import main
from citechunk.cli.options import HELP, config_keys, flag_name
from citechunk.config import Config

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
COMMANDS = sorted(main.commands)


def _long_flags(command: click.Command) -> list[str]:
    return [
        flag
        for p in command.params
        if isinstance(p, click.Option)
        for flag in (*p.opts, *p.secondary_opts)
        if flag.startswith("--") and flag != "--help"
    ]


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_is_documented(name: str) -> None:
    assert f"citechunk {name}" in README


@pytest.mark.parametrize("name", ["(group)", *COMMANDS])
def test_every_option_is_documented(name: str) -> None:
    command = main if name == "(group)" else main.commands[name]
    missing = [f for f in _long_flags(command) if not re.search(rf"{f}(?![\w-])", README)]
    assert missing == [], f"{name}: options missing from README.md"


def test_every_config_key_is_documented() -> None:
    missing = [key for key in config_keys() if f"`{key}`" not in README]
    assert missing == []


def test_config_flags_are_declared_once_and_named_after_their_key() -> None:
    """A flag built from a config key has the same name and help on every command."""
    seen: dict[str, tuple[str | None, str]] = {}
    for command in [main, *main.commands.values()]:
        for p in command.params:
            if isinstance(p, click.Option) and p.name and p.name.startswith("config__"):
                key = p.name.removeprefix("config__").replace("__", ".")
                assert p.opts[0] == flag_name(key) and p.help == HELP[key]
                assert seen.setdefault(p.opts[0], (p.help, key)) == (p.help, key)
    assert set(HELP) <= set(config_keys())
    assert {"--max-tokens", "--backend", "--log-format"} <= set(seen)


def test_readme_config_table_defaults_match_the_dataclasses() -> None:
    defaults = Config().to_dict()
    rows = re.findall(r"^\| `(\w+)\.(\w+)` \| `([^`]*)` \|", README, re.MULTILINE)
    assert sorted(f"{s}.{k}" for s, k, _ in rows) == sorted(config_keys())
    for section, key, default in rows:
        assert json.loads(default) == defaults[section][key], f"{section}.{key}"
