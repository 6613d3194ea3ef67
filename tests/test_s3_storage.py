"""s3:// INPUT and OUT through `citechunk.storage`, against a real S3 server (moto) on loopback,
with the local executor. (The Ray executor on S3 is in test_ray_executor.py.)"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from citechunk import storage
from citechunk.config import Config, load_config
from citechunk.errors import CitechunkError, ConfigError
from citechunk.runner import ingest
from s3_server import get_tree, make_bucket, moto_s3, put_tree

pytestmark = pytest.mark.heavy

pytest.importorskip("moto", reason="moto[server] not installed (pip install 'citechunk[ray]')")


@pytest.fixture(scope="module")
def s3() -> Iterator[str]:
    with moto_s3() as url:
        make_bucket("corpus")
        make_bucket("datasets")
        yield url


@pytest.fixture(scope="module")
def config() -> Config:
    return load_config(None, {"run": {"workers": 2}})


@pytest.fixture(scope="module")
def local_reference(
    tmp_path_factory: pytest.TempPathFactory, sample_pdfs: Path, config: Config
) -> dict[str, bytes]:
    """Every document output (chunks, Markdown, provenance) of a local run over sample_pdfs."""
    out = tmp_path_factory.mktemp("reference")
    report = ingest(sample_pdfs, out, config)
    assert report.ok
    return {rel: (out / rel).read_bytes() for f in report.files for rel in f.outputs}


def documents(tree: dict[str, bytes]) -> dict[str, bytes]:
    """The chunk and Markdown files of an OUT tree (manifest mtimes differ on S3 by design)."""
    return {k: v for k, v in tree.items() if k.startswith(("chunks/", "markdown/"))}


def test_locate_parses_uris_and_rejects_other_schemes(tmp_path: Path) -> None:
    loc = storage.locate("s3://bucket/some/prefix/")
    assert (loc.uri, loc.path, loc.remote) == (
        "s3://bucket/some/prefix",
        "bucket/some/prefix",
        True,
    )
    assert loc.child("a/b.pdf").uri == "s3://bucket/some/prefix/a/b.pdf"
    assert storage.locate("s3://bucket").path == "bucket"
    local = storage.locate(tmp_path / "x")
    assert not local.remote and local.path == str(tmp_path / "x")
    with pytest.raises(ConfigError, match="unsupported URI scheme"):
        storage.locate("gs://bucket/x")
    with pytest.raises(ConfigError, match="needs a bucket"):
        storage.locate("s3:///x")


def test_write_list_fetch_delete_round_trip(s3: str, tmp_path: Path) -> None:
    base = storage.locate("s3://datasets/roundtrip")
    storage.write_bytes(base.child("a.txt"), b"alpha")
    storage.write_bytes(base.child("deep/er/b.PDF"), b"%PDF-1.7 beta")
    entries = storage.list_files(base)
    assert [(e.rel, e.size) for e in entries] == [("a.txt", 5), ("deep/er/b.PDF", 13)]
    only_pdf = storage.list_files(base, lambda rel: rel.lower().endswith(".pdf"))
    assert [e.rel for e in only_pdf] == ["deep/er/b.PDF"]

    local = storage.fetch(base.child("deep/er/b.PDF"), tmp_path / "b.pdf", entries[1].mtime_ns)
    assert local.read_bytes() == b"%PDF-1.7 beta"
    assert local.stat().st_mtime_ns == entries[1].mtime_ns

    storage.delete(base.child("a.txt"))
    storage.delete(base.child("a.txt"))  # already gone: not an error
    assert [e.rel for e in storage.list_files(base)] == ["deep/er/b.PDF"]
    with pytest.raises(ConfigError, match="not found"):
        storage.list_files(storage.locate("s3://datasets/nothing-here"))
    with pytest.raises(CitechunkError, match="cannot read"):
        storage.read_bytes(storage.locate("s3://datasets/roundtrip/missing.bin"))


def test_ingest_s3_to_s3_matches_local_and_is_incremental(
    s3: str, sample_pdfs: Path, config: Config, local_reference: dict[str, bytes]
) -> None:
    names = put_tree(sample_pdfs, "s3://corpus/samples")
    pdfs = [n for n in names if n.endswith(".pdf")]

    report = ingest("s3://corpus/samples", "s3://datasets/run", config)

    assert report.ok and report.count("converted") == len(pdfs)
    assert (report.input, report.out) == ("s3://corpus/samples", "s3://datasets/run")
    remote = get_tree("s3://datasets/run")
    assert {"run.json", "manifest.json"} < set(remote)
    assert documents(remote) == local_reference
    assert not any(Path(k).name.startswith(".") for k in remote)  # no lock or temp objects

    again = ingest("s3://corpus/samples", "s3://datasets/run", config)
    assert again.count("skipped") == len(pdfs) and again.count("converted") == 0

    gone = pdfs[0]
    storage.delete(storage.locate(f"s3://corpus/samples/{gone}"))
    third = ingest("s3://corpus/samples", "s3://datasets/run", config)
    rows = {f.source_file: f for f in third.files}
    assert rows[gone].status == "removed"
    assert rows[gone].outputs
    kept = {k: v for k, v in local_reference.items() if k not in rows[gone].outputs}
    assert documents(get_tree("s3://datasets/run")) == kept


def test_ingest_one_s3_object_into_a_local_folder(
    s3: str, sample_pdfs: Path, tmp_path: Path, config: Config, local_reference: dict[str, bytes]
) -> None:
    pdf = sorted(sample_pdfs.glob("*.pdf"))[1]
    storage.upload(pdf, storage.locate(f"s3://corpus/single/{pdf.name}"))

    report = ingest(f"s3://corpus/single/{pdf.name}", tmp_path / "out", config)

    assert report.ok and [f.source_file for f in report.files] == [pdf.name]
    for rel in report.files[0].outputs:
        assert (tmp_path / "out" / rel).read_bytes() == local_reference[rel]


def test_local_input_to_s3_output_and_a_missing_bucket(
    s3: str, sample_pdfs: Path, tmp_path: Path, config: Config
) -> None:
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(sorted(sample_pdfs.glob("*.pdf"))[0], src)
    report = ingest(src, "s3://datasets/from-local", config)
    assert report.ok
    assert set(report.files[0].outputs) < set(get_tree("s3://datasets/from-local"))

    with pytest.raises(ConfigError, match="not found"):
        ingest("s3://no-such-bucket/pdfs", tmp_path / "out2", config)
