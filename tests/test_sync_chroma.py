"""`citechunk sync` into a real Chroma server (``chroma run`` started here on 127.0.0.1, stopped
after) and an embedded Chroma folder: the same convergence, a server stopped mid-run fails the
documents not yet written (their old rows stay) and the next sync finishes the work."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import chromadb
import pytest
from click.testing import CliRunner

from citechunk.cli import main
from citechunk.stores import Embedder, open_store, sync
from citechunk.stores.base import DEFAULT_TABLE
from citechunk.stores.plan import DocPlan
from sync_helpers import (
    change_two,
    copy_tree,
    doc_id_of,
    out_ids,
    out_rows,
    run_ingest,
    store_ids,
)

pytestmark = pytest.mark.heavy


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ChromaServer:
    path: Path
    port: int
    proc: subprocess.Popen[bytes] | None = None

    @property
    def uri(self) -> str:
        return f"chroma:http://127.0.0.1:{self.port}"

    def start(self) -> None:
        exe = shutil.which("chroma") or str(Path(sys.executable).parent / "chroma")
        cmd = [
            exe,
            "run",
            "--path",
            str(self.path),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
        ]
        env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
        self.proc = subprocess.Popen(
            cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                assert self.proc.poll() is None, "chroma run exited"
                time.sleep(0.2)
        pytest.fail("chroma run did not listen within 60 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
        self.proc = None

    def collection(self) -> chromadb.Collection:
        settings = chromadb.Settings(anonymized_telemetry=False)
        client = chromadb.HttpClient(host="127.0.0.1", port=self.port, settings=settings)
        return client.get_collection(DEFAULT_TABLE, embedding_function=None)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ChromaServer]:
    s = ChromaServer(tmp_path / "chroma", _free_port())
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory, sample_pdfs: Path) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("ingested")
    src = base / "in"
    src.mkdir()
    for p in sample_pdfs.glob("*.pdf"):
        shutil.copy2(p, src / p.name)
    out = base / "out"
    assert run_ingest(src, out).ok
    return src, out


def test_sync_query_and_records_round_trip(
    server: ChromaServer, ingested: tuple[Path, Path]
) -> None:
    out = ingested[1]
    report = sync(out, server.uri)
    rows = out_rows(out)
    assert report.exit_code == 0 and report.verified == report.inserted == len(rows)
    assert store_ids(server.uri) == out_ids(out)
    result = CliRunner().invoke(main, ["query", server.uri, "hedging policy", "--k", "2"])
    assert result.exit_code == 0 and result.stdout.startswith("1. report_outline.pdf, p. 1")
    target = next(r for r in rows.values() if r["heading_path"][-1:] == ["Cash position"])
    sentence = target["text"].split("\n\n", 1)[1].split(". ")[0]
    vector = Embedder().embed([sentence], 1)[0]
    hit = open_store(server.uri).search([float(x) for x in vector], 1)[0]
    assert dict(hit.record) == {**target, "boxes": hit.record["boxes"]}
    assert hit.record["boxes"] == [dict(b) for b in target["boxes"]]
    again = sync(out, server.uri)
    assert (again.inserted, again.deleted, again.embedded) == (0, 0, 0)


def test_converges_after_rows_vanish_and_foreign_rows_appear(
    server: ChromaServer, ingested: tuple[Path, Path]
) -> None:
    out = ingested[1]
    sync(out, server.uri)
    gone = sorted(set().union(*out_ids(out).values()))[::3]
    col = server.collection()
    col.delete(ids=gone)
    doc = next(iter(out_ids(out)))
    col.add(
        ids=["foreign-1", "foreign-2"],
        embeddings=[[0.1] * 384, [0.2] * 384],
        metadatas=[{"doc_id": doc}, {"doc_id": str(uuid.uuid4())}],
        documents=["stale", "stale"],
    )
    col.add(ids=["not-ours"], embeddings=[[0.3] * 384], documents=["no doc_id"])
    embedder = Embedder()
    report = sync(out, server.uri, embedder=embedder)
    assert store_ids(server.uri) == out_ids(out)
    assert (report.inserted, embedder.embedded, report.deleted) == (len(gone), len(gone), 2)
    assert col.get(ids=["not-ours"])["ids"] == ["not-ours"]
    col.delete(ids=list(set().union(*out_ids(out).values())))
    assert sync(out, server.uri).inserted == len(out_rows(out))
    assert store_ids(server.uri) == out_ids(out)


class _StopAfterFirst:
    """Sync progress that stops the Chroma server once the first document is written."""

    def __init__(self, server: ChromaServer) -> None:
        self.server = server
        self.done: list[str] = []

    def planned(self, rows: int) -> None:
        pass

    def written(self, plan: DocPlan) -> None:
        self.done.append(plan.name)
        if len(self.done) == 1:
            self.server.stop()


def test_server_stopped_mid_run(
    server: ChromaServer, ingested: tuple[Path, Path], tmp_path: Path
) -> None:
    src, out = copy_tree(ingested[0], tmp_path / "in"), copy_tree(ingested[1], tmp_path / "out")
    sync(out, server.uri)
    old = store_ids(server.uri)
    change_two(src)
    assert run_ingest(src, out).ok
    new = out_ids(out)
    progress = _StopAfterFirst(server)
    report = sync(out, server.uri, progress=progress, batch=1)
    assert report.exit_code == 1
    assert {f.name for f in report.failed} == {"refund_policy.pdf", "relocation_memo.pdf"}
    assert "relocation_memo.pdf" in report.summary()
    server.start()
    held = store_ids(server.uri)
    refund, memo = doc_id_of(report, "refund_policy.pdf"), doc_id_of(report, "relocation_memo.pdf")
    assert held[memo] == old[memo]  # its write was refused: the old rows stay
    assert held[refund] == new[refund]  # written before the stop, only not read back
    retry = sync(out, server.uri)
    assert retry.exit_code == 0 and store_ids(server.uri) == new


def test_embedded_folder(tmp_path: Path, ingested: tuple[Path, Path]) -> None:
    out, uri = ingested[1], f"chroma:{tmp_path / 'chroma'}"
    result = CliRunner().invoke(main, ["sync", str(out), "--to", uri, "--batch", "16"])
    assert result.exit_code == 0, result.output
    assert store_ids(uri) == out_ids(out)
