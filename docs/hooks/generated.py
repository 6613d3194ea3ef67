"""Reference pages generated from the code at build time, so they cannot drift from it.

A page holds a marker comment, ``<!-- generated: NAME -->``, on a line of its own; `on_page_markdown`
replaces it with the Markdown `GENERATORS[NAME]` renders:

* ``config``: every configuration key from the `Config` dataclasses (type, default), its comment
  in ``config/default.toml`` and the flags that set it on each command (click introspection);
* ``schema``: every chunk-record field of `ChunkRecord` (order, Arrow type from `ARROW_SCHEMA`,
  the version that added it) with its meaning from ``docs/hooks/fields.toml``.

A field or key without a description is a build warning, so ``mkdocs build --strict`` fails
until it is described (``tests/test_docs.py`` checks the same without building the site).
The command-line reference is rendered by mkdocs-click (``docs/reference/cli.md``), the Python
API by mkdocstrings (``docs/reference/api.md``).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import sys
import tomllib
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parents[2]
# the checkout being documented, ahead of any installed citechunk (mkdocs-click imports it too)
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))
FIELDS_TOML = Path(__file__).with_name("fields.toml")
MARKER = re.compile(r"^<!-- generated: (\w+) -->$", re.MULTILINE)
log = logging.getLogger("mkdocs.plugins.citechunk")


# -- configuration -------------------------------------------------------------------------


def toml_comments(text: str) -> dict[str, str]:
    """``section.key`` -> the comment lines right above ``key = ...`` in a TOML file, joined."""
    comments: dict[str, str] = {}
    section, pending = "", []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            pending.append(stripped.lstrip("#").strip())
        elif m := re.match(r"^\[(\w+)\]$", stripped):
            section, pending = m.group(1), []
        elif m := re.match(r"^(\w+)\s*=", stripped):
            if section:
                comments[f"{section}.{m.group(1)}"] = " ".join(pending)
            pending = []
        else:
            pending = []
    return comments


def type_name(hint: Any) -> str:
    """A config field's type as a reader writes it in TOML."""
    if typing.get_origin(hint) is Literal:
        return " \\| ".join(f'`"{a}"`' for a in typing.get_args(hint))
    if typing.get_origin(hint) is tuple:
        return "list of strings"
    if typing.get_origin(hint) is typing.Union:
        return " or ".join(type_name(h) for h in typing.get_args(hint))
    return {bool: "boolean", int: "integer", float: "float", str: "string"}[hint]


def config_flags() -> dict[str, list[tuple[str, str]]]:
    """``section.key`` -> [(flag as declared, command)] for every command-line flag setting it."""
    import click

    from citechunk.cli import main

    found: dict[str, list[tuple[str, str]]] = {}
    commands = [("citechunk", main), *sorted(main.commands.items())]
    for name, command in commands:
        for p in command.params:
            if isinstance(p, click.Option) and p.name and p.name.startswith("config__"):
                key = p.name.removeprefix("config__").replace("__", ".")
                flag = "/".join([p.opts[0], *p.secondary_opts])
                found.setdefault(key, []).append((flag, name))
    return found


def config_rows() -> Iterator[tuple[str, str, str, str, str]]:
    """(key, type, default, flags, meaning) for every configuration key, in dataclass order."""
    from citechunk.config import Config

    defaults = Config().to_dict()
    comments = toml_comments((ROOT / "config" / "default.toml").read_text(encoding="utf-8"))
    flags = config_flags()
    for section in dataclasses.fields(Config):
        section_type = typing.get_type_hints(Config)[section.name]
        for name, hint in typing.get_type_hints(section_type).items():
            key = f"{section.name}.{name}"
            by_flag: dict[str, list[str]] = {}
            for flag, command in flags.get(key, []):
                by_flag.setdefault(flag, []).append(command)
            flag_text = "; ".join(
                f"`{flag}` ({', '.join(commands)})" for flag, commands in by_flag.items()
            )
            default = json.dumps(defaults[section.name][name], ensure_ascii=False)
            yield key, type_name(hint), f"`{default}`", flag_text or "-", comments.get(key, "")


def render_config() -> str:
    lines = ["| key | type | default | flag (commands) | meaning |", "|---|---|---|---|---|"]
    for key, kind, default, flags, meaning in config_rows():
        if not meaning:
            log.warning("config key %s has no comment in config/default.toml", key)
        lines.append(f"| `{key}` | {kind} | {default} | {flags} | {escape_cell(meaning)} |")
    return "\n".join(lines)


# -- chunk schema ---------------------------------------------------------------------------


def arrow_type(field: Any) -> str:
    """An Arrow field's type as the schema page writes it (``list<string>``, ``int32``...)."""
    text = re.sub(r"\b(item|element): ", "", str(field.type))
    return re.sub(r"\s*not null", "", text)


def field_docs() -> dict[str, dict[str, str]]:
    """The description of each chunk-record field (``docs/hooks/fields.toml``)."""
    return tomllib.loads(FIELDS_TOML.read_text(encoding="utf-8"))["fields"]


def schema_rows() -> Iterator[tuple[str, str, str, str]]:
    """(field, Arrow type, added in, meaning) for every `ChunkRecord` field, in column order."""
    from citechunk.export.schema import ARROW_SCHEMA, FIELDS

    docs = field_docs()
    for name in FIELDS:
        doc = docs.get(name, {})
        added = doc.get("added", "1.0")
        yield name, arrow_type(ARROW_SCHEMA.field(name)), added, doc.get("meaning", "")


def render_schema() -> str:
    from citechunk.export.schema import FIELDS, SCHEMA_VERSION

    lines = [
        f"Schema version **{SCHEMA_VERSION}**: {len(FIELDS)} fields, in column order.",
        "",
        "| field | type | added in | meaning |",
        "|---|---|---|---|",
    ]
    for name, kind, added, meaning in schema_rows():
        if not meaning:
            log.warning("chunk field %s has no meaning in docs/hooks/fields.toml", name)
        lines.append(f"| `{name}` | `{kind}` | {added} | {escape_cell(meaning)} |")
    stale = sorted(set(field_docs()) - set(FIELDS))
    if stale:
        log.warning("docs/hooks/fields.toml describes fields the schema lacks: %s", stale)
    return "\n".join(lines)


def escape_cell(text: str) -> str:
    """Table-cell safe text: pipes outside code spans escaped, one line."""
    return " ".join(text.replace("|", "\\|").split())


GENERATORS: dict[str, Callable[[], str]] = {"config": render_config, "schema": render_schema}


def expand(markdown: str) -> str:
    """`markdown` with every ``<!-- generated: NAME -->`` line replaced by its rendering."""

    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in GENERATORS:
            log.warning("unknown generated section %r", name)
            return m.group(0)
        return GENERATORS[name]()

    return MARKER.sub(one, markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """mkdocs hook: expand the generated sections of a page."""
    return expand(markdown)
