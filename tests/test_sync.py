"""`citechunk sync` into a real LanceDB store (a temporary folder): the store ends up holding
exactly OUT's chunk ids whatever it held, unchanged rows are neither rewritten nor re-embedded,
a killed sync is finished by the next one, and a write the store rejects fails only its
document. Uses the shipped all-MiniLM-L6-v2."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import lancedb
import pyarrow as pa
import pytest
from click.testing import CliRunner

from citechunk.cli import main
from citechunk.errors import ModelMismatchError
from citechunk.stores import Embedder, query, sync
from citechunk.stores.base import DEFAULT_TABLE
from sync_helpers import (
    change_two,
    copy_tree,
    doc_id_of,
    make_pdf,
    out_ids,
    out_rows,
    run_ingest,
    store_ids,
)

pytestmark = pytest.mark.heavy

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory, sample_pdfs: Path) -> tuple[Path, Path]:
    """(INPUT, OUT): sample_pdfs ingested once; tests that change them work on copies."""
    base = tmp_path_factory.mktemp("ingested")
    src = copy_tree(sample_pdfs, base / "in")
    for extra in src.glob("*"):
        if extra.suffix != ".pdf":
            extra.unlink()
    out = base / "out"
    assert run_ingest(src, out).ok
    return src, out


@pytest.fixture
def work(tmp_path: Path, ingested: tuple[Path, Path]) -> tuple[Path, Path]:
    """A private copy of INPUT and OUT."""
    return copy_tree(ingested[0], tmp_path / "in"), copy_tree(ingested[1], tmp_path / "out")


def lance_uri(tmp_path: Path) -> str:
    return f"lancedb:{tmp_path / 'lance'}"


def table(uri: str) -> Any:
    return lancedb.connect(uri.removeprefix("lancedb:")).open_table(DEFAULT_TABLE)


def row_ids(uri: str) -> dict[str, int]:
    """chunk_id -> LanceDB row id (a rewritten row gets a new one)."""
    rows = table(uri).search().select(["chunk_id"]).with_row_id(True).limit(None).to_arrow()
    return dict(zip(rows["chunk_id"].to_pylist(), rows["_rowid"].to_pylist(), strict=True))


def test_sync_then_query_finds_the_chunk_and_page(
    tmp_path: Path, ingested: tuple[Path, Path]
) -> None:
    out, uri = ingested[1], lance_uri(tmp_path)
    report = sync(out, uri)
    rows = out_rows(out)
    assert report.exit_code == 0 and report.failed == ()
    assert report.inserted == report.embedded == report.verified == len(rows)
    assert store_ids(uri) == out_ids(out)
    stored = table(uri).to_arrow().to_pylist()[0]
    assert stored == {**rows[stored["chunk_id"]], "vector": stored["vector"]}
    assert len(stored["vector"]) == 384
    # a sentence from the cash-position section, which starts on page 2
    target = next(r for r in rows.values() if r["heading_path"][-1:] == ["Cash position"])
    sentence = target["text"].split("\n\n", 1)[1].split(". ")[0]
    hit = query(uri, sentence, k=3)[0]
    assert hit.record["chunk_id"] == target["chunk_id"]
    assert hit.record["first_page"] == target["first_page"] == 2
    again = sync(out, uri)
    assert (again.inserted, again.deleted, again.embedded, again.plans) == (0, 0, 0, ())
    assert again.verified == len(rows)


def test_changed_deleted_and_added_pdfs(tmp_path: Path, work: tuple[Path, Path]) -> None:
    src, out = work
    uri = lance_uri(tmp_path)
    sync(out, uri)
    before_ids, before_rows = out_ids(out), row_ids(uri)
    make_pdf(
        src / "refund_policy.pdf",
        "Refund Policy",
        [("Returns", "Returns are accepted within 45 days of delivery.")],
    )
    (src / "relocation_memo.pdf").unlink()
    make_pdf(
        src / "parking_rules.pdf",
        "Parking Rules",
        [("Visitors", "Visitor parking is on level two.")],
    )
    assert run_ingest(src, out).ok
    after = out_ids(out)
    embedder = Embedder()
    report = sync(out, uri, embedder=embedder)
    assert store_ids(uri) == after and report.exit_code == 0
    new = set().union(*after.values()) - set().union(*before_ids.values())
    assert embedder.embedded == report.inserted == len(new) > 0
    assert report.deleted == len(set().union(*before_ids.values()) - set().union(*after.values()))
    assert {p.name for p in report.plans} >= {"refund_policy.pdf", "parking_rules.pdf"}
    unchanged = set().union(*(ids for d, ids in after.items() if before_ids.get(d) == ids))
    assert unchanged and {i: before_rows[i] for i in unchanged} == {
        i: r for i, r in row_ids(uri).items() if i in unchanged
    }


def _foreign_rows(uri: str, doc_ids: Sequence[str]) -> pa.Table:
    """Rows nobody wrote through citechunk, carrying citechunk doc_ids."""
    t = table(uri)
    base = t.to_arrow().slice(0, 1).to_pylist()[0]
    rows = [{**base, "chunk_id": str(uuid.uuid4()), "doc_id": d, "text": "stale"} for d in doc_ids]
    return pa.Table.from_pylist(rows, schema=t.schema)


def test_store_converges_after_rows_vanish_and_foreign_rows_appear(
    tmp_path: Path, ingested: tuple[Path, Path]
) -> None:
    out, uri = ingested[1], lance_uri(tmp_path)
    sync(out, uri)
    ids = sorted(set().union(*out_ids(out).values()))
    gone = ids[::3]
    table(uri).delete("chunk_id IN (" + ", ".join(f"'{i}'" for i in gone) + ")")
    some_doc = next(iter(out_ids(out)))
    table(uri).add(_foreign_rows(uri, [some_doc, some_doc, str(uuid.uuid4())]))
    embedder = Embedder()
    report = sync(out, uri, embedder=embedder)
    assert store_ids(uri) == out_ids(out)
    assert (report.inserted, embedder.embedded, report.deleted) == (len(gone), len(gone), 3)
    table(uri).delete("true")
    assert store_ids(uri) == {}
    report = sync(out, uri)
    assert store_ids(uri) == out_ids(out) and report.inserted == len(ids)


def test_dry_run_writes_nothing_and_cli_prints_the_plan(
    tmp_path: Path, ingested: tuple[Path, Path]
) -> None:
    out, uri = ingested[1], lance_uri(tmp_path)
    result = CliRunner().invoke(main, ["sync", str(out), "--to", uri, "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "+" in result.output and "report_outline.pdf" in result.output
    assert store_ids(uri) == {}
    result = CliRunner().invoke(main, ["sync", str(out), "--to", uri])
    assert result.exit_code == 0, result.output
    assert store_ids(uri) == out_ids(out)
    result = CliRunner().invoke(main, ["query", uri, "hedging policy", "-k", "2"])
    assert result.exit_code == 0 and result.stdout.startswith("1. report_outline.pdf, p. ")


def test_another_model_is_an_error_until_rebuild(
    tmp_path: Path, ingested: tuple[Path, Path]
) -> None:
    out, uri = ingested[1], lance_uri(tmp_path)
    sync(out, uri, embed="none")
    assert "vector" not in table(uri).schema.names
    assert store_ids(uri) == out_ids(out)
    with pytest.raises(ModelMismatchError, match="holds vectors of none"):
        sync(out, uri)
    result = CliRunner().invoke(main, ["sync", str(out), "--to", uri])
    assert result.exit_code == 2 and "--rebuild" in result.output
    report = sync(out, uri, rebuild=True)
    assert report.embedded == report.inserted == report.verified == len(out_rows(out))
    assert table(uri).schema.field("vector").type.list_size == 384


def _wait_for_writes(uri: str, proc: subprocess.Popen[bytes], deadline: float) -> None:
    """Until the sync subprocess has committed some, not all, of its writes."""
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if table(uri).version >= 3:
                return
        except ValueError:  # no table yet
            pass
        time.sleep(0.05)
    pytest.fail("the sync subprocess wrote nothing in time, or finished first")


def test_killed_sync_is_finished_by_the_next(tmp_path: Path, ingested: tuple[Path, Path]) -> None:
    out, uri = ingested[1], lance_uri(tmp_path)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]),
    }
    cmd = [sys.executable, "-m", "citechunk", "sync", str(out), "--to", uri, "--batch", "1"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_writes(uri, proc, time.monotonic() + 120)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    partial = store_ids(uri)
    assert partial != out_ids(out)
    report = sync(out, uri)
    clean = lance_uri(tmp_path / "clean")
    sync(out, clean)
    assert store_ids(uri) == store_ids(clean) == out_ids(out)
    assert report.inserted == len(out_rows(out)) - sum(map(len, partial.values()))
    killed, clean_rows = _rows_by_id(uri), _rows_by_id(clean)
    assert killed.keys() == clean_rows.keys()
    for chunk, row in killed.items():  # a vector may differ in the last bits (other batches)
        other = clean_rows[chunk]
        assert {**row, "vector": None} == {**other, "vector": None}
        assert max(abs(a - b) for a, b in zip(row["vector"], other["vector"], strict=True)) < 1e-4


def _rows_by_id(uri: str) -> dict[str, dict[str, Any]]:
    return {r["chunk_id"]: r for r in table(uri).to_arrow().to_pylist()}


class _WrongSizeFor(Embedder):
    """The shipped model, but the vectors of texts containing `marker` lose a dimension, so
    the store rejects that document's write (a real LanceDB cast error)."""

    marker: str = ""

    def embed(self, texts: Sequence[str], batch: int) -> Any:
        vectors = super().embed(texts, batch)
        if any(self.marker in t for t in texts):
            return vectors[:, :-1]
        return vectors


def test_rejected_write_fails_only_that_document(tmp_path: Path, work: tuple[Path, Path]) -> None:
    src, out = work
    uri = lance_uri(tmp_path)
    sync(out, uri)
    old = store_ids(uri)
    change_two(src)
    assert run_ingest(src, out).ok
    new = out_ids(out)
    bad = _WrongSizeFor()
    bad.marker = "60 days"
    report = sync(out, uri, embedder=bad, batch=1)
    assert report.exit_code == 1
    assert [f.name for f in report.failed] == ["refund_policy.pdf"]
    assert "FixedSizeList" in report.failed[0].error or "cast" in report.failed[0].error.lower()
    held = store_ids(uri)
    refund, memo = doc_id_of(report, "refund_policy.pdf"), doc_id_of(report, "relocation_memo.pdf")
    assert held[refund] == old[refund] and held[memo] == new[memo]
    assert "FAILED refund_policy.pdf" in report.summary()
    retry = sync(out, uri)
    assert retry.exit_code == 0 and store_ids(uri) == new
    assert [p.name for p in retry.plans] == ["refund_policy.pdf"]
