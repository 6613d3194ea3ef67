"""The documentation matches the program, without building the site or running its examples.

Moved from the README (tests/test_cli_docs.py before issue 52): every command and option is
documented (help text for the generated CLI reference, and named in a page), every config key
and chunk field has its description for the generated references, and every flag the pages
mention exists. The block conventions are checked here; tests/test_docs_examples.py runs them.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import tomllib
from pathlib import Path
from types import ModuleType

import click
import pytest

from citechunk.cli import main
from citechunk.cli.options import HELP, config_keys, flag_name
from citechunk.config import Config
from citechunk.export.schema import FIELDS
from docs_blocks import (
    REPO,
    SHELL_LANGS,
    all_blocks,
    commands,
    doc_pages,
    is_run,
    printed,
    shape,
)

COMMANDS = sorted(main.commands)
PAGES = {p: p.read_text(encoding="utf-8") for p in doc_pages()}
GUIDES = "\n".join(t for p, t in PAGES.items() if p.name not in {"cli.md"})


@functools.cache
def generated() -> ModuleType:
    """docs/hooks/generated.py, the mkdocs hook that renders the reference pages."""
    spec = importlib.util.spec_from_file_location("generated", REPO / "docs/hooks/generated.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _long_flags(command: click.Command) -> list[str]:
    return [
        flag
        for p in command.params
        if isinstance(p, click.Option)
        for flag in (*p.opts, *p.secondary_opts)
        if flag.startswith("--") and flag != "--help"
    ]


def all_flags() -> set[str]:
    return {f for c in [main, *main.commands.values()] for f in _long_flags(c)}


# -- the CLI: the generated reference documents every option, the pages name every command ----


@pytest.mark.parametrize("name", ["(group)", *COMMANDS])
def test_every_command_and_option_has_help_for_the_reference(name: str) -> None:
    command = main if name == "(group)" else main.commands[name]
    assert (command.help or "").strip(), f"{name}: no help text"
    bare = [p.name for p in command.params if isinstance(p, click.Option) and not p.help]
    assert bare == [], f"{name}: options without help in the generated CLI reference"


def test_cli_reference_is_generated_from_the_program() -> None:
    page = PAGES[REPO / "docs/reference/cli.md"]
    assert ":module: citechunk.cli" in page and ":command: main" in page


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_is_used_in_a_page(name: str) -> None:
    assert f"citechunk {name}" in GUIDES


@pytest.mark.parametrize("name", ["(group)", *COMMANDS])
def test_every_option_is_named_in_the_pages(name: str) -> None:
    command = main if name == "(group)" else main.commands[name]
    text = generated().expand("\n".join(PAGES.values()))  # with the generated config table
    missing = [f for f in _long_flags(command) if not re.search(rf"{f}(?![\w-])", text)]
    assert missing == [], f"{name}: options no page names"


# flags of bench/ scripts and other programs the pages quote (not citechunk's)
OTHER_FLAGS = {
    "--index-url", "--name", "--pdfs", "--questions", "--markdown", "--chunks", "--variant",
    "--cache", "--images", "--src", "--threads", "--titles", "--show", "--path", "--port",
    "--now", "--strict", "--site-dir", "--no-deps", "--rapidocr-docs", "--check", "--psm",
}  # fmt: skip


def test_every_flag_the_pages_mention_exists() -> None:
    """A renamed or removed option fails here: the docs may only name flags the program has."""
    known = all_flags() | OTHER_FLAGS | {"--help", "--version", "--verbose", "--no-full"}
    text = "\n".join(PAGES.values())
    mentioned = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text))
    assert sorted(mentioned - known) == []


def test_synopsis_flags_belong_to_their_command() -> None:
    """Each `citechunk NAME ...` line of the CLI page's synopsis names NAME's own flags."""
    page = PAGES[REPO / "docs/reference/cli.md"]
    synopsis = next(b for b in all_blocks() if b.path.name == "cli.md" and b.lang == "text")
    current = None
    for line in synopsis.body.splitlines():
        if m := re.match(r"citechunk (\w+)", line.strip()):
            current = main.commands.get(m.group(1))
        if current is None:
            continue
        body = line.split("#")[0]
        flags = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", body))
        own = set(_long_flags(current)) | set(_long_flags(main)) | {"--help"}
        assert flags <= own, (current.name, sorted(flags - own))
    assert "citechunk ingest" in page


# -- config: the generated reference has every key, with its comment and default -------------


def test_config_reference_has_every_key_with_its_default_and_comment() -> None:
    rows = list(generated().config_rows())
    assert [r[0] for r in rows] == config_keys()
    defaults = Config().to_dict()
    for key, _kind, default, _flags, meaning in rows:
        section, name = key.split(".")
        assert json.loads(default.strip("`")) == defaults[section][name], key
        assert meaning, f"{key}: no comment in config/default.toml"


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
    flags = generated().config_flags()
    assert set(flags) == {key for _, key in seen.values()}


def test_config_page_expands_to_the_table() -> None:
    page = PAGES[REPO / "docs/reference/configuration.md"]
    expanded = generated().expand(page)
    for key in config_keys():
        assert f"| `{key}` |" in expanded


# -- chunk schema: every field described, no stale description ---------------------------------


def test_schema_page_describes_every_field_of_the_record() -> None:
    gen = generated()
    rows = list(gen.schema_rows())
    assert [r[0] for r in rows] == list(FIELDS)
    undescribed = [name for name, _, _, meaning in rows if not meaning]
    assert undescribed == [], "describe them in docs/hooks/fields.toml"
    assert set(gen.field_docs()) == set(FIELDS), "fields.toml describes fields the schema lacks"
    expanded = gen.expand(PAGES[REPO / "docs/schema.md"])
    assert all(f"| `{name}` |" in expanded for name in FIELDS)


def test_toml_comments_are_read_per_key() -> None:
    text = '[a]\n# first\n# second\nx = 1\n\ny = 2\n[b]\n# z\nz = "q"\n'
    assert generated().toml_comments(text) == {"a.x": "first second", "a.y": "", "b.z": "z"}


# -- the block conventions ---------------------------------------------------------------------


def test_every_shell_block_runs_or_says_why_not() -> None:
    unmarked = [
        b.where for b in all_blocks() if b.lang in SHELL_LANGS and not (b.not_run or b.title)
    ]
    assert unmarked == [], "make them ```console blocks or mark them <!-- not-run: REASON -->"


def test_toml_and_json_blocks_parse() -> None:
    for b in all_blocks():
        if b.lang == "toml":
            tomllib.loads(b.body)
        elif b.lang == "json":
            try:
                json.loads(b.body)
            except json.JSONDecodeError:  # JSON Lines
                [json.loads(line) for line in b.body.splitlines() if line.strip()]


def test_console_blocks_have_commands() -> None:
    for b in all_blocks():
        if b.lang == "console":
            assert commands(b), f"{b.where}: a console block without a `$ ` command"


def test_shape_compares_words_not_numbers() -> None:
    assert shape("│ chunks  │ 47 │") == shape("│ chunks │ 1,203 │") == "chunks N"
    assert shape("converted (1 page, 3 chunks, 0.2 s)") == "converted (N page, N chunks, N s)"
    assert printed(
        "output: .../out  (report: run.json)", shape("output: /tmp/x/out (report: run.json)")
    )
    assert not printed("output: .../out  (report: run.json)", shape("output: /tmp/x/other"))
    assert not printed("│ chunks │ 47 │", shape("│ chunk │ 47 │ tokens"))


def test_readme_is_short_and_names_the_two_commands_and_the_docs() -> None:
    readme = PAGES[REPO / "README.md"]
    assert len(readme.splitlines()) <= 200
    for needed in ("make demo", "make test", "make docs", "docs/guides/nightly.md", "--sync"):
        assert needed in readme, needed
    run = [
        c.text
        for b in all_blocks()
        if b.path.name == "README.md" and is_run(b)
        for c in commands(b)
    ]
    assert "make demo" in run and any(c.startswith("citechunk ingest") for c in run)


def test_readme_links_point_at_pages() -> None:
    readme = PAGES[REPO / "README.md"]
    for target in re.findall(r"\]\(((?!https?:)[^)#]+)", readme):
        assert (REPO / target).exists(), target


def test_every_page_is_in_the_nav() -> None:
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    pages = [p.relative_to(REPO / "docs").as_posix() for p in PAGES if p.parent != REPO]
    assert [p for p in pages if f": {p}" not in nav] == []


def test_makefile_builds_the_docs_strictly_in_make_test() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^test: .*\bdocs\b", makefile, re.MULTILINE)
    assert "mkdocs build --strict" in makefile
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert "font: false" in config and "- social" not in config and "- privacy" not in config


def test_docs_pages_are_the_ones_the_site_expects() -> None:
    assert Path(REPO / "docs/architecture.md").exists()
