"""Command-line flags built from the config dataclasses: one declaration per option.

A flag is named after its config key (``chunk.max_tokens`` -> ``--max-tokens``) and typed from
the dataclass field: ``int``/``float``/``str`` as such, a ``Literal`` as a choice, a ``bool``
as ``--x/--no-x``, a ``tuple[str, ...]`` (or a word of a ``Literal`` instead of one, as
``"auto" | tuple[str, ...]``) as a repeatable option. Every flag defaults to "not
given" (None), so the layering defaults < ``--config FILE`` < flags holds: `config_flags`
collects the given flags into one ``overrides`` mapping ({section: {key: value}}) for
`load_config`. `HELP` holds each flag's help text; `EXTRA` the few click settings a type
cannot say (ranges checked at parse time).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import click

from ..config import Config

Overrides = dict[str, dict[str, Any]]
T = TypeVar("T")

HELP: dict[str, str] = {
    "convert.backend": "Conversion backend (see `citechunk backends`).",
    "convert.pages": "Pages to convert, 1-based: 3-7 or 1,3,5-6 (converted in page order).",
    "convert.password": "Password for encrypted PDFs (or set CITECHUNK_PASSWORD); never saved.",
    "convert.outline_repair": "Fix heading levels from the PDF outline, else the section numbers.",
    "convert.layout_model": (
        "pymupdf backend: layout model on the text layer alone (text), also a page image, or "
        "the image model only on pages with images, drawn grids or columns (auto)."
    ),
    "convert.layout": (
        "pymupdf backend: run the layout model on every page, only on pages that are not plain "
        "one-column text (auto), or on none."
    ),
    "convert.layout_gpu": "pymupdf backend: run the layout model on CUDA when onnxruntime has it.",
    "convert.docling_layout": (
        "docling backend: built-in weight-free layout stage, or docling's layout model."
    ),
    "convert.docling_artifacts_path": "docling backend: folder with docling's model weights.",
    "convert.skip_passes": (
        "Skip a conversion pass by name (repeatable; `citechunk passes` lists them), to bisect."
    ),
    "convert.ocr": "OCR pages without a usable text layer (auto), every page (force) or none (off).",
    "convert.ocr_engine": "OCR engine.",
    "convert.ocr_languages": (
        "Tesseract language code (repeatable), e.g. eng, deu; or auto: each page in the "
        "languages of its script."
    ),
    "chunk.max_tokens": (
        "Hard limit per chunk, heading path included, in the embedder's tokens "
        "(0 = the embedder's window)."
    ),
    "chunk.min_tokens": "Merge smaller sibling sections up to this size.",
    "chunk.overlap_tokens": "Overlap between size-fallback pieces.",
    "chunk.embedder": (
        "The model that reads the chunks (its tokenizer and window size them): "
        "all-MiniLM-L6-v2 | a model folder | <tokenizer>@<window>, e.g. tiktoken:cl100k_base@8191."
    ),
    "export.format": "Chunk file format.",
    "export.include": "Glob of files to ingest (repeatable).",
    "export.exclude": "Glob of files to leave out (repeatable).",
    "run.workers": "Parallel processes (0 = all cores).",
    "run.threads_per_worker": (
        "Threads each worker's libraries may use (default 1: N workers use N cores)."
    ),
    "run.timeout": "Seconds per file, at least (run.timeout_per_page scales it with pages).",
    "run.full": "Reprocess every file (--no-full: only changed ones).",
    "run.executor": "local processes, or Ray (pip install 'citechunk[ray]').",
    "run.ray_address": "Ray cluster to join (default: a private local Ray).",
    "run.log_format": "Log line format on stderr (default: run.log_format of the config, text).",
    "run.passwords_file": (
        'TOML file of "glob" = "password" pairs for encrypted PDFs (first match wins).'
    ),
    "eval.k": "Top-k chunks a question may be found in.",
    "eval.budget": "Instead of top-k: ranked chunks while their tokens (characters/4) fit, at least one.",
    "eval.model_path": "Local sentence-transformers model folder for --retriever embedding.",
}

EXTRA: dict[str, dict[str, Any]] = {
    "run.workers": {"type": click.IntRange(min=0)},
    "run.threads_per_worker": {"type": click.IntRange(min=1)},
    "run.timeout": {"type": click.FloatRange(min=0, min_open=True)},
    "convert.password": {"envvar": "CITECHUNK_PASSWORD", "show_envvar": True},
    "run.passwords_file": {"type": click.Path(exists=True, dir_okay=False)},
}


def _hint(key: str) -> Any:
    section, name = key.split(".")
    section_type = typing.get_type_hints(Config)[section]
    return typing.get_type_hints(section_type)[name]


# keys whose flag reads better than the key's own name
FLAG_NAMES: dict[str, str] = {
    "convert.skip_passes": "--no-pass",
    "convert.ocr_languages": "--ocr-language",
    "run.passwords_file": "--passwords",
}


def flag_name(key: str) -> str:
    """``--max-tokens`` for ``chunk.max_tokens`` (`FLAG_NAMES` where a key has its own)."""
    return FLAG_NAMES.get(key, "--" + key.split(".")[1].replace("_", "-"))


def _param(key: str) -> str:
    return "config__" + key.replace(".", "__")


def _option(key: str) -> tuple[list[str], dict[str, Any]]:
    """click.option's declarations and settings for config key `key`."""
    hint, flag = _hint(key), flag_name(key)
    attrs: dict[str, Any] = {"default": None, "help": HELP[key]}
    decls = [flag, _param(key)]
    if hint is bool:
        decls[0] = f"{flag}/--no-{flag[2:]}"
    elif typing.get_origin(hint) is Literal:
        attrs["type"] = click.Choice(typing.get_args(hint))
    elif typing.get_origin(hint) in (tuple, typing.Union, types.UnionType):
        attrs.update(multiple=True, default=())
    else:
        attrs["type"] = hint
    attrs.update(EXTRA.get(key, {}))
    return decls, attrs


def config_flags(*keys: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Add a flag per config key (``"section.name"``) to a click command; the command receives
    the given ones as ``overrides`` (flags left out are absent, so the config file's value or
    the default stays)."""

    def decorate(command: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(command)
        def collect(*args: Any, **kwargs: Any) -> T:
            overrides: Overrides = {}
            for key in keys:
                value = kwargs.pop(_param(key))
                if value is not None and value != ():
                    section, name = key.split(".")
                    overrides.setdefault(section, {})[name] = value
            return command(*args, overrides=overrides, **kwargs)

        wrapped: Callable[..., T] = collect
        for key in reversed(keys):
            decls, attrs = _option(key)
            wrapped = click.option(*decls, **attrs)(wrapped)
        return wrapped

    return decorate


def config_keys() -> list[str]:
    """Every config key as ``section.name``, in dataclass order."""
    return [
        f"{section.name}.{f.name}"
        for section in dataclasses.fields(Config)
        for f in dataclasses.fields(typing.get_type_hints(Config)[section.name])
    ]
