"""`citechunk.ingest` end to end with the default backend on real PDFs: layout, determinism,
incremental reruns."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from citechunk import ingest
from citechunk.config import Config, load_config
from citechunk.conversion import read_markdown
from citechunk.export import ARROW_SCHEMA, ChunkRecord, offset_problems, read_chunks
from citechunk.runner import RunReport
from citechunk.timing import STAGES
from conftest import output_tree

pytestmark = pytest.mark.heavy


def config(**overrides: dict[str, Any]) -> Config:
    layered: dict[str, dict[str, Any]] = {"run": {"workers": 2, "timeout": 300}}
    for section, values in overrides.items():
        layered[section] = {**layered.get(section, {}), **values}
    return load_config(None, layered)


def statuses(report: RunReport) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in report.files:
        out.setdefault(f.status, []).append(f.source_file)
    return out


def copy_samples(sample_pdfs: Path, dest: Path) -> Path:
    dest.mkdir(parents=True)
    for p in sorted(sample_pdfs.glob("*.pdf")):
        shutil.copy2(p, dest / p.name)
    return dest


def test_layout_records_and_byte_identical_reruns(tmp_path: Path, sample_pdfs: Path) -> None:
    pdfs = sorted(p.name for p in sample_pdfs.glob("*.pdf"))
    first = ingest(sample_pdfs, tmp_path / "a", config())
    second = ingest(sample_pdfs, tmp_path / "b", config())

    assert first.ok and statuses(first) == {"converted": pdfs}
    a = output_tree(tmp_path / "a")
    assert a == output_tree(tmp_path / "b")
    assert sorted(a) == sorted(
        ["manifest.json"] + [o for f in first.files for o in f.outputs]
    )  # nothing else: no journal, no lock, no temp file
    table = read_chunks(tmp_path / "a")
    assert table.schema.equals(ARROW_SCHEMA)
    assert table.num_rows == first.chunks == second.chunks > len(pdfs)
    assert len(set(table.column("chunk_id").to_pylist())) == table.num_rows
    for row in table.to_pylist():
        record = ChunkRecord.from_dict(row)
        markdown = read_markdown(tmp_path / "a" / record.markdown_file)
        assert offset_problems(record, markdown) == []
    meta = pq.read_schema(tmp_path / "a" / first.files[0].outputs[0]).metadata
    chunk_config = json.loads(meta[b"citechunk.config"])["chunk"]
    assert (chunk_config["embedder"], chunk_config["max_tokens"]) == ("all-MiniLM-L6-v2", 0)
    report = json.loads((tmp_path / "a" / "run.json").read_text(encoding="utf-8"))
    assert report["state"] == "finished" and report["counts"]["converted"] == len(pdfs)
    assert report["memory"]["workers"] and all(
        w["peak_rss_mb"] > 0 for w in report["memory"]["workers"]
    )
    stages = report["stage_seconds"]  # per stage, summed over files, in processing order
    assert list(stages) == [s for s in STAGES if s in stages]
    assert {"text layer", "extract", "passes", "source map", "chunking", "writing"} <= set(stages)
    for row in report["files"]:
        # each figure is rounded to 3 places: allow half a millisecond of rounding per figure
        slack = 0.0005 * (len(row["stage_seconds"]) + 1)
        assert 0 < sum(row["stage_seconds"].values()) <= row["seconds"] + slack
    assert stages["extract"] == pytest.approx(
        sum(r["stage_seconds"]["extract"] for r in report["files"]), abs=0.01
    )
    # the layout model on its own line: its seconds, and the pages it ran on (all, by default)
    assert "layout model" in stages and list(report["stage_cpu_seconds"]) == [
        s for s in STAGES if s in report["stage_cpu_seconds"]
    ]
    model = report["layout_model"]
    assert model["pages"] == model["of_pages"] == report["pages"] and model["share"] == 1.0
    assert model["seconds"] == stages["layout model"] and model["device"] == "cpu"


def test_jsonl_format_single_pdf_input(tmp_path: Path, sample_pdfs: Path) -> None:
    pdf = sorted(sample_pdfs.glob("*.pdf"))[0]
    report = ingest(pdf, tmp_path / "out", config(export={"format": "jsonl"}))
    assert report.ok and [f.source_file for f in report.files] == [pdf.name]
    (chunk_file,) = (tmp_path / "out" / "chunks").iterdir()
    assert chunk_file.suffix == ".jsonl"
    lines = chunk_file.read_text(encoding="utf-8").splitlines()
    assert len(lines) == report.chunks and json.loads(lines[0])["source_file"] == pdf.name


def test_incremental_reruns_do_only_what_changed(tmp_path: Path, sample_pdfs: Path) -> None:
    src = copy_samples(sample_pdfs, tmp_path / "in")
    out = tmp_path / "out"
    names = sorted(p.name for p in src.iterdir())
    assert statuses(ingest(src, out, config())) == {"converted": names}

    assert statuses(ingest(src, out, config())) == {"skipped": names}

    touched = src / names[0]
    st = touched.stat()
    os.utime(touched, ns=(st.st_atime_ns, st.st_mtime_ns + 10**10))  # same bytes, new mtime
    assert statuses(ingest(src, out, config())) == {"skipped": names}

    changed = src / names[1]
    shutil.copyfile(src / names[2], changed)  # different content, same name
    assert statuses(ingest(src, out, config())) == {
        "converted": [names[1]],
        "skipped": [n for n in names if n != names[1]],
    }

    (src / names[3]).unlink()
    report = ingest(src, out, config())
    assert statuses(report)["removed"] == [names[3]]
    assert not any(names[3] in p.name for p in out.rglob("*"))
    left = [n for n in names if n != names[3]]

    smaller = config(chunk={"max_tokens": 128})
    report = ingest(src, out, smaller)
    assert statuses(report) == {"converted": left}
    assert report.chunks > sum(f.chunks for f in report.files if f.status == "skipped")

    clean = ingest(src, tmp_path / "clean", smaller)  # the same state built in one go
    assert clean.chunks == report.chunks
    assert output_tree(out) == output_tree(tmp_path / "clean")

    assert statuses(ingest(src, out, config(chunk={"max_tokens": 128}, run={"full": True}))) == {
        "converted": left
    }


def test_empty_input_never_wipes_earlier_outputs(tmp_path: Path, sample_pdfs: Path) -> None:
    """An empty (or unmounted) INPUT folder on a nightly run is refused, not read as "every
    source was deleted"; the outputs stay byte-identical. A fresh OUT may start empty."""
    import pytest

    from citechunk.errors import ConfigError

    src = copy_samples(sample_pdfs, tmp_path / "in")
    out = tmp_path / "out"
    names = sorted(p.name for p in src.iterdir())
    ingest(src, out, config(run={"workers": 1}, export={"include": [names[0]]}))
    before = output_tree(out)
    empty = tmp_path / "mnt"
    empty.mkdir()
    with pytest.raises(ConfigError, match="refusing to remove them all"):
        ingest(empty, out, config())
    with pytest.raises(ConfigError, match="no PDFs found"):
        ingest(src, out, config(export={"include": ["*.nothing"]}))
    assert output_tree(out) == before
    fresh = ingest(empty, tmp_path / "fresh", config())
    assert fresh.ok and not fresh.files
