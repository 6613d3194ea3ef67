"""Before a sync writes: every chunk fits the window of the model the store embeds with.

Rule: a chunk set is refused, before anything is written, when a record names another embedder
than the store's model (its ``embedder`` field, schema 1.2) or when a chunk's text counts more
of the store model's tokens than its window holds after its special tokens. The model would
silently embed only the start of such a chunk. Records written before the field (``embedder``
empty) are judged by their counts alone. ``--embed none`` embeds nothing and checks nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa

from ..chunking.embedder import DEFAULT_EMBEDDER, EmbedderSpec, resolve_embedder
from ..errors import ChunkFitError


def same_model(a: str, b: str) -> bool:
    """Whether two embedder specs name one model (folders compared by their real path)."""

    def norm(spec: str) -> str:
        if spec == DEFAULT_EMBEDDER or "@" in spec:
            return spec
        return str(Path(spec).expanduser().resolve())

    return norm(a) == norm(b)


def over_window(texts: Sequence[str], embedder: EmbedderSpec) -> int:
    """How many of `texts` the model would cut (more tokens than its window holds)."""
    count, limit = embedder.counter.count, embedder.limit
    return sum(1 for text in texts if count(text) > limit)


def check_fit(records: pa.Table, embed: str, out: str) -> None:
    """Raise `ChunkFitError` (one line naming the re-chunk command) when OUT's chunks were made
    for another embedder than `embed` or exceed its window; see the module docstring."""
    if not records.num_rows:
        return
    model = resolve_embedder(embed)
    redo = f"re-chunk for it: citechunk ingest INPUT --out {out} --embedder {embed}"
    made_for = sorted({e for e in records["embedder"].to_pylist() if e} - {""})
    other = [e for e in made_for if not same_model(e, embed)]
    if other:
        raise ChunkFitError(
            f"{out}: the chunks were sized for embedder {other[0]!r}, the store embeds with "
            f"{embed!r}; {redo}"
        )
    n = over_window(records["text"].to_pylist(), model)
    if n:
        raise ChunkFitError(
            f"{out}: {n} of {records.num_rows} chunks are longer than {embed!r} reads "
            f"({model.limit} tokens after its {model.special_tokens} special tokens) and would "
            f"be embedded cut; {redo}"
        )
