"""The embedder a chunk set is made for: its tokenizer and its window.

One setting, ``chunk.embedder``, names the model that will read the chunks; the token counter and
the size limit follow from it. Specs:

    ``all-MiniLM-L6-v2``        the default: the model `citechunk sync` and `eval --retriever
                                embedding` embed with (its tokenizer ships with citechunk).
    ``<model folder>``          a sentence-transformers or Hugging Face model folder holding a
                                ``tokenizer.json``; the window is ``max_seq_length`` of its
                                ``sentence_bert_config.json``, else ``model_max_length`` of its
                                ``tokenizer_config.json``, else ``max_position_embeddings`` of its
                                ``config.json`` (a BGE or E5 folder: 512).
    ``<tokenizer spec>@<window>`` an outside model: a `tokens` spec and the window in its tokens,
                                e.g. ``tiktoken:cl100k_base@8191`` (OpenAI's embedding models),
                                ``hf:/models/bge/tokenizer.json@512``, ``approx@512``.

Invariants: ``limit == window - special_tokens`` (the tokens the model adds around every text,
such as [CLS] and [SEP], are part of its window); a chunk whose text counts ``<= limit`` with
``counter`` is read whole by the model. Resolution is deterministic and cached per spec; a spec
that cannot be resolved raises `ConfigError` saying what to give instead.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError, TokenizerError
from .tokens import BUNDLED, TokenCounter, get_counter, tokenizer_file

DEFAULT_EMBEDDER = "all-MiniLM-L6-v2"
_FORMS = (
    f"'{DEFAULT_EMBEDDER}', a model folder holding tokenizer.json, or '<tokenizer>@<window>' "
    "such as 'tiktoken:cl100k_base@8191' or 'hf:/path/tokenizer.json@512'"
)


@dataclass(frozen=True)
class EmbedderSpec:
    """A resolved embedder: ``counter`` counts its tokens, ``window`` is its input size."""

    spec: str
    tokenizer: str  # the `tokens` spec of the counter
    window: int
    special_tokens: int

    @property
    def limit(self) -> int:
        """The most tokens a chunk's text may count and still be read whole."""
        return self.window - self.special_tokens

    @property
    def counter(self) -> TokenCounter:
        return get_counter(self.tokenizer)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def folder_window(folder: Path) -> int:
    """The window a model folder declares (see the module docstring), 0 when none is found."""
    for name, key in (
        ("sentence_bert_config.json", "max_seq_length"),
        ("tokenizer_config.json", "model_max_length"),
        ("config.json", "max_position_embeddings"),
    ):
        value = _read_json(folder / name).get(key)
        if isinstance(value, int) and 0 < value < 1_000_000:  # HF writes 1e30 for "none"
            return value
    return 0


def _special_tokens(tokenizer_file: Path) -> int:
    """How many tokens the tokenizer adds around a text (its post-processor's [CLS]/[SEP])."""
    from tokenizers import Tokenizer  # present: the counter for this file was just loaded

    tokenizer = Tokenizer.from_file(str(tokenizer_file))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return len(tokenizer.encode("").ids)


def _from_folder(spec: str, folder: Path, tokenizer: str) -> EmbedderSpec:
    """``tokenizer``: the counter spec recorded with the chunks (``hf:<name>`` for a bundled
    tokenizer, so records do not depend on where citechunk is installed)."""
    file = folder / "tokenizer.json"
    if not file.is_file():
        raise ConfigError(f"embedder {spec!r}: no tokenizer.json in {folder}; give {_FORMS}")
    window = folder_window(folder)
    if not window:
        raise ConfigError(
            f"embedder {spec!r}: {folder} states no window (max_seq_length, model_max_length or "
            f"max_position_embeddings); give it as 'hf:{file}@<window>'"
        )
    try:
        get_counter(tokenizer)
    except TokenizerError as exc:
        raise ConfigError(f"embedder {spec!r}: {exc}") from None
    return EmbedderSpec(spec, tokenizer, window, _special_tokens(file))


def _from_tokenizer(spec: str, tokenizer: str, window_text: str) -> EmbedderSpec:
    if not window_text.isdigit() or int(window_text) < 16:
        raise ConfigError(
            f"embedder {spec!r}: the window after '@' must be a whole number of tokens (16 or more)"
        )
    try:
        get_counter(tokenizer)
    except TokenizerError as exc:
        raise ConfigError(f"embedder {spec!r}: {exc}") from None
    special = _special_tokens(tokenizer_file(tokenizer)) if tokenizer.startswith("hf:") else 0
    return EmbedderSpec(spec, tokenizer, int(window_text), special)


@functools.lru_cache(maxsize=16)
def resolve_embedder(spec: str) -> EmbedderSpec:
    """The tokenizer and window of ``spec`` (forms in the module docstring)."""
    if (BUNDLED / spec).is_dir() and "/" not in spec:
        return _from_folder(spec, BUNDLED / spec, f"hf:{spec}")
    tokenizer, at, window = spec.rpartition("@")
    if at and tokenizer:
        return _from_tokenizer(spec, tokenizer, window)
    folder = Path(spec).expanduser()
    if folder.is_dir():
        return _from_folder(spec, folder, f"hf:{(folder / 'tokenizer.json').resolve()}")
    raise ConfigError(f"unknown embedder {spec!r}: give {_FORMS}")


def chunk_limit(embedder: EmbedderSpec, max_tokens: int) -> int:
    """The size limit of a chunk: ``max_tokens`` when given (0 = the embedder's limit), never
    over the embedder's limit."""
    if max_tokens > embedder.limit:
        raise ConfigError(
            f"chunk.max_tokens {max_tokens} is over the window of embedder {embedder.spec!r}: "
            f"{embedder.window} tokens, {embedder.limit} for text after its "
            f"{embedder.special_tokens} special tokens; use --max-tokens {embedder.limit} or less, "
            "or name the embedder that will read the chunks (--embedder)"
        )
    return max_tokens or embedder.limit


def options_limit(embedder: str, max_tokens: int) -> int:
    """`chunk_limit` for a ``chunk.embedder`` spec and ``chunk.max_tokens`` as configured."""
    return chunk_limit(resolve_embedder(embedder), max_tokens)
