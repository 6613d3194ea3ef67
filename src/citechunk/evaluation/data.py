"""Inputs of an evaluation: questions (JSONL) and a chunk set (an ingest OUT folder or files).

A question line (UTF-8) is a JSON object with ``pdf`` (file name), ``question``, ``answer``
(verbatim snippet), each a non-empty string, and ``page`` (1-based integer); other fields pass
through untouched in `Question.extra`. A line that breaks this is a `ConfigError` naming it.
`unmatched_questions` warns of questions that can only be misses (a ``pdf`` no chunk comes
from, a ``page`` past the document's chunks).

A chunk set is every record of ``OUT/chunks/*.parquet|*.jsonl`` (read through
`citechunk.export.read_chunks` when the folder is an ingest output), or of any folder / file of
such records. A record needs ``text``, ``source_file``, ``first_page`` and ``last_page``;
``heading_path``, ``token_count``, ``chunk_id``, ``markdown_file`` are used when present.
Chunks are matched to questions by the file name of ``source_file``. Records whose ``role`` is
"navigation" (contents pages, indexes: `citechunk.chunking.navigation`) are left out of the set
unless asked for (`load_chunk_set(..., with_navigation=True)`): they point at the text without
being it, and a question's answer is never in them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from ..errors import ConfigError

REQUIRED_QUESTION_FIELDS = ("pdf", "question", "answer", "page")
REQUIRED_CHUNK_FIELDS = ("text", "source_file", "first_page", "last_page")


@dataclass(frozen=True)
class Question:
    """One evaluation question; `extra` holds every other field of its JSON line."""

    pdf: str
    question: str
    answer: str
    page: int
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return str(self.extra.get("id", ""))

    def to_dict(self) -> dict[str, Any]:
        return {
            **dict(self.extra),
            "pdf": self.pdf,
            "question": self.question,
            "answer": self.answer,
            "page": self.page,
        }


@dataclass(frozen=True)
class EvalChunk:
    """The fields of a chunk record evaluation needs. `document` is the source file's name."""

    document: str
    text: str
    first_page: int
    last_page: int
    heading_path: tuple[str, ...] = ()
    token_count: int | None = None
    chunk_id: str = ""
    chunk_index: int = -1

    @property
    def pages(self) -> str:
        if self.first_page == self.last_page:
            return f"p. {self.first_page}"
        return f"pp. {self.first_page}-{self.last_page}"


@dataclass(frozen=True)
class ChunkSet:
    """Chunks in a fixed order plus, when known, each document's full text (by file name).

    `documents` maps a document name to its whole extracted text (the Markdown with page
    markers removed); it lets a miss be blamed on extraction or on a chunk boundary.
    """

    chunks: tuple[EvalChunk, ...]
    documents: Mapping[str, str] = field(default_factory=dict)


def question_from_dict(d: Any, where: str) -> Question:
    """A validated question: a JSON object whose ``pdf``, ``question`` and ``answer`` are
    non-empty strings and ``page`` a 1-based integer; else `ConfigError` naming `where`."""
    if not isinstance(d, Mapping):
        raise ConfigError(f"{where}: a question must be a JSON object, got {type(d).__name__}")
    missing = [f for f in REQUIRED_QUESTION_FIELDS if f not in d]
    if missing:
        raise ConfigError(f"{where}: question lacks {', '.join(missing)}")
    for name in ("pdf", "question", "answer"):
        value = d[name]
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"{where}: '{name}' must be a non-empty string, got {value!r}")
    page = d["page"]
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise ConfigError(f"{where}: 'page' must be a 1-based integer, got {page!r}")
    extra = {k: v for k, v in d.items() if k not in REQUIRED_QUESTION_FIELDS}
    return Question(
        PurePosixPath(str(d["pdf"]).replace("\\", "/")).name,
        str(d["question"]),
        str(d["answer"]),
        page,
        extra,
    )


def load_questions(source: str | os.PathLike[str] | Iterable[Mapping[str, Any]]) -> list[Question]:
    """Questions from a JSONL file, or from dicts already in memory. Raises ConfigError."""
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read questions: {exc.strerror}") from None
        out = []
        for n, raw in enumerate(data.split(b"\n"), 1):
            line = _decode(raw, f"{path}:{n}")
            if not line.strip():
                continue
            try:
                d = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{path}:{n}: not JSON: {exc.msg}") from None
            out.append(question_from_dict(d, f"{path}:{n}"))
        return out
    return [question_from_dict(d, f"question {i}") for i, d in enumerate(source, 1)]


def _decode(raw: bytes, where: str) -> str:
    """One line of a questions file as text (a UTF-8 byte order mark is allowed)."""
    try:
        return raw.decode("utf-8-sig" if where.endswith(":1") else "utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{where}: not UTF-8 text (byte {exc.start + 1} of the line is "
            f"{raw[exc.start : exc.start + 1]!r}); save the questions file as UTF-8"
        ) from None


def unmatched_questions(questions: Sequence[Question], chunk_set: ChunkSet) -> list[str]:
    """Warnings for questions that can only count as misses: their ``pdf`` is no chunk's
    document (with the count and the names), or their ``page`` lies after the last page any
    chunk of that document cites."""
    last: dict[str, int] = {}
    for c in chunk_set.chunks:
        last[c.document] = max(last.get(c.document, 0), c.last_page)
    unknown: dict[str, int] = {}
    for q in questions:
        if q.pdf not in last:
            unknown[q.pdf] = unknown.get(q.pdf, 0) + 1
    beyond = [q for q in questions if q.pdf in last and q.page > last[q.pdf]]
    warnings = []
    if unknown:
        names = ", ".join(f"{name} ({n})" for name, n in sorted(unknown.items()))
        warnings.append(
            f"{sum(unknown.values())} question(s) name a PDF no chunk comes from, so they "
            f"count as misses: {names}"
        )
    if beyond:
        where = ", ".join(f"{q.id or q.pdf} (p. {q.page} > {last[q.pdf]})" for q in beyond[:20])
        warnings.append(
            f"{len(beyond)} question(s) ask for a page after the last page their PDF's chunks "
            f"cite: {where}" + (" ..." if len(beyond) > 20 else "")
        )
    return warnings


def chunk_from_dict(d: Mapping[str, Any], where: str) -> EvalChunk:
    missing = [f for f in REQUIRED_CHUNK_FIELDS if d.get(f) is None]
    if missing:
        raise ConfigError(f"{where}: chunk record lacks {', '.join(missing)}")
    tokens = d.get("token_count")
    return EvalChunk(
        document=PurePosixPath(str(d["source_file"]).replace("\\", "/")).name,
        text=str(d["text"]),
        first_page=int(d["first_page"]),
        last_page=int(d["last_page"]),
        heading_path=tuple(d.get("heading_path") or ()),
        token_count=None if tokens is None else int(tokens),
        chunk_id=str(d.get("chunk_id") or ""),
        chunk_index=int(d.get("chunk_index", -1)),
    )


def _record_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    files = [*path.rglob("*.parquet"), *path.rglob("*.jsonl")]
    return sorted(files, key=lambda p: p.as_posix())


def _read_file(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
        return rows
    rows = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                d = json.loads(line)
                if "text" in d:
                    rows.append(d)
    return rows


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Every chunk record under `path` (a file, a folder, or an ingest OUT folder), in file
    order (files sorted by path) then row order. Raises ConfigError when there is none."""
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"{p}: no such chunk file or folder")
    rows: list[dict[str, Any]] = []
    for f in _record_files(p):
        try:
            rows.extend(_read_file(f))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{f}: cannot read chunk records: {exc}") from None
    if not rows:
        raise ConfigError(f"{p}: no chunk records (*.parquet or *.jsonl) found")
    return rows


def _markdown_texts(out_dir: Path, rows: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Document name -> its Markdown with page markers removed, for files that exist."""
    from ..conversion import read_markdown
    from ..markers import strip_markers

    texts: dict[str, str] = {}
    for row in rows:
        rel, src = row.get("markdown_file"), row.get("source_file")
        if not rel or not src:
            continue
        name = PurePosixPath(str(src).replace("\\", "/")).name
        md_path = out_dir / str(rel)
        if name not in texts and md_path.is_file():
            texts[name] = strip_markers(read_markdown(md_path))
    return texts


def _read_ingest_output(out_dir: Path) -> list[dict[str, Any]]:
    from ..export import read_chunks

    rows: list[dict[str, Any]] = read_chunks(out_dir).to_pylist()
    if not rows:
        raise ConfigError(f"{out_dir}: no chunk records under {out_dir / 'chunks'}")
    return rows


def is_navigation(row: Mapping[str, Any]) -> bool:
    """Whether a chunk record is marked navigation (a record without ``role`` is content)."""
    return row.get("role") == "navigation"


def load_chunk_set(path: str | os.PathLike[str], *, with_navigation: bool = False) -> ChunkSet:
    """The chunk set under `path`, with document texts when `path` is an ingest OUT folder.

    An ingest OUT folder (one with ``chunks/``) is read with `citechunk.export.read_chunks`
    (full schema, rows by source file then chunk index); any other folder or file is read
    leniently (only `REQUIRED_CHUNK_FIELDS` needed), files sorted by path. Navigation records
    are left out unless `with_navigation`; the document texts are read from all records.
    """
    p = Path(path)
    every = _read_ingest_output(p) if (p / "chunks").is_dir() else read_records(p)
    rows = every if with_navigation else [r for r in every if not is_navigation(r)]
    chunks = tuple(chunk_from_dict(r, f"{p} record {i}") for i, r in enumerate(rows))
    documents = _markdown_texts(p, every) if p.is_dir() else {}
    return ChunkSet(chunks, documents)
