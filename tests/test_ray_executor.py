"""`--executor ray`: same outputs as the local executor, faults contained, S3 in and out.

One private local Ray instance serves the whole module (started once by a fixture; ingest
joins the running instance). Starting and stopping Ray cleanly is covered by test_ray_session.py.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from citechunk.config import Config, load_config
from citechunk.conversion.registry import register
from citechunk.runner import RunReport, ingest
from runner_backends import chaos_input
from s3_server import get_tree, make_bucket, moto_s3, put_tree

pytest.importorskip("ray.data", reason="ray not installed (pip install 'citechunk[ray]')")

from citechunk.runner.ray_executor import ray_session  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.heavy]


@pytest.fixture(scope="module")
def s3() -> Iterator[str]:
    with moto_s3() as url:  # before Ray starts, so its workers inherit the endpoint
        make_bucket("corpus")
        make_bucket("datasets")
        yield url


@pytest.fixture(scope="module")
def ray_instance(s3: str) -> Iterator[None]:
    with ray_session("", num_cpus=2):
        yield


def configure(executor: str, **run: object) -> Config:
    cfg = load_config(None, {"run": {"workers": 2, **run}})
    return dataclasses.replace(cfg, run=dataclasses.replace(cfg.run, executor=executor))


def document_files(out: Path, report: RunReport) -> dict[str, bytes]:
    return {rel: (out / rel).read_bytes() for f in report.files for rel in f.outputs}


def run_both(src: Path, tmp: Path) -> tuple[RunReport, RunReport]:
    local = ingest(src, tmp / "local", configure("local"))
    ray = ingest(src, tmp / "ray", configure("ray"))
    assert local.ok and ray.ok
    return local, ray


def test_ray_matches_local_on_sample_pdfs(
    ray_instance: None, sample_pdfs: Path, tmp_path: Path
) -> None:
    local, ray = run_both(sample_pdfs, tmp_path)

    assert ray.count("converted") == len(list(sample_pdfs.glob("*.pdf"))) > 0
    assert document_files(tmp_path / "ray", ray) == document_files(tmp_path / "local", local)
    manifest = (tmp_path / "ray" / "manifest.json").read_bytes()
    assert manifest == (tmp_path / "local" / "manifest.json").read_bytes()

    again = ingest(sample_pdfs, tmp_path / "ray", configure("ray"))  # the driver decides
    assert again.count("skipped") == ray.count("converted") and again.count("converted") == 0


def test_ray_matches_local_on_a_corpus_slice(
    ray_instance: None, corpus_pdfs: list[Path], tmp_path: Path
) -> None:
    src = tmp_path / "in"
    src.mkdir()
    for pdf in sorted(corpus_pdfs, key=lambda p: p.stat().st_size)[:3]:
        shutil.copy(pdf, src / pdf.name)

    local, ray = run_both(src, tmp_path)

    assert ray.count("converted") == 3
    assert document_files(tmp_path / "ray", ray) == document_files(tmp_path / "local", local)


def test_crash_hang_and_a_killed_actor_are_reported_and_neighbours_written(
    ray_instance: None, sample_pdfs: Path, tmp_path: Path
) -> None:
    register("test-actor-killer", "ray_backends:ActorKillerBackend")
    src = tmp_path / "in"
    good = chaos_input(src, sample_pdfs, ("hang_me.pdf", "crash_me.pdf", "killactor_me.pdf"))
    cfg = configure("ray", timeout=60)  # generous: good files must finish even on a busy machine
    cfg = dataclasses.replace(
        cfg, convert=dataclasses.replace(cfg.convert, backend="test-actor-killer")
    )

    report = ingest(src, tmp_path / "out", cfg)

    rows = {f.source_file: f for f in report.files}
    assert set(rows) == {p.name for p in src.iterdir()}  # every file is a row
    assert rows["hang_me.pdf"].error_class == "WorkerError"
    assert "timed out after 60 s" in rows["hang_me.pdf"].error
    assert rows["crash_me.pdf"].status == "failed" and "SIGSEGV" in rows["crash_me.pdf"].error
    assert rows["killactor_me.pdf"].status == "failed"
    assert "Ray" in rows["killactor_me.pdf"].error
    for p in good:
        assert rows[p.name].status == "converted", rows[p.name]
        for rel in rows[p.name].outputs:
            assert (tmp_path / "out" / rel).stat().st_size > 0
    assert len(list((tmp_path / "out" / "chunks").iterdir())) == len(good)
    assert not report.ok


def test_ray_reads_and_writes_s3(
    ray_instance: None, s3: str, sample_pdfs: Path, tmp_path: Path
) -> None:
    put_tree(sample_pdfs, "s3://corpus/ray-in")
    local = ingest(sample_pdfs, tmp_path / "local", configure("local"))

    report = ingest("s3://corpus/ray-in", "s3://datasets/ray-out", configure("ray"))

    assert report.ok and report.count("converted") == local.count("converted")
    remote = get_tree("s3://datasets/ray-out")
    assert {"manifest.json", "run.json"} < set(remote)
    assert {k: remote[k] for k in document_files(tmp_path / "local", local)} == document_files(
        tmp_path / "local", local
    )
