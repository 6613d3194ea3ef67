"""Write the golden snapshots: the Markdown and the chunk records of every ``sample_pdfs/*.pdf``
for each backend, as `citechunk ingest` makes them with the default configuration (chunk files
as JSONL), into ``tests/golden/<backend>/<pdf name>.md`` and ``.jsonl``.

The snapshots hold what conversion and chunking decide (Markdown, chunk texts, heading paths,
pages, offsets, boxes), not ``chunk_id`` or ``section_id``: they hash the configuration fingerprint, which
names the library versions, so a dependency bump would rewrite every line. Each record's ids are
checked against their definitions (`citechunk.export.ids`) instead, while the snapshot is
written.

Run it (``make golden``) after a change that is meant to alter extraction or chunking, and
review the diff: ``tests/test_golden.py`` regenerates the snapshots in a temporary folder and
compares them byte for byte with the checked-in files.

    python tests/golden/make_golden.py [--backend pymupdf|docling ...] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from citechunk.config import load_config
from citechunk.export import chunks_relpath, config_fingerprint, markdown_relpath, run_metadata
from citechunk.export.ids import chunk_id, section_id
from citechunk.runner.ingest import output_config
from citechunk.runner.work import Job, run_job

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_pdfs"
GOLDEN = ROOT / "tests" / "golden"
BACKENDS = ("pymupdf", "docling")


def build(backend: str, dest: Path) -> list[Path]:
    """Write `backend`'s snapshots of every sample PDF into `dest` (created; stale snapshots
    removed); returns the files written. Raises RuntimeError when a sample fails."""
    config = load_config(None, {"convert": {"backend": backend}, "export": {"format": "jsonl"}})
    produced = output_config(config)
    fingerprint = config_fingerprint(produced)
    metadata = tuple(sorted(run_metadata(produced).items()))
    dest.mkdir(parents=True, exist_ok=True)
    for stale in [*dest.glob("*.md"), *dest.glob("*.jsonl")]:
        stale.unlink()
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        for pdf in sorted(SAMPLES.glob("*.pdf")):
            job = Job(
                source=str(pdf),
                source_file=pdf.name,
                out=tmp,
                convert=config.convert,
                chunk=config.chunk,
                fmt="jsonl",
                fingerprint=fingerprint,
                metadata=metadata,
            )
            result = run_job(job)
            if result.status != "converted":
                raise RuntimeError(f"{backend}: {pdf.name}: {result.error_class}: {result.error}")
            md = dest / (pdf.name + ".md")
            md.write_bytes((Path(tmp) / markdown_relpath(pdf.name)).read_bytes())
            records = (Path(tmp) / chunks_relpath(pdf.name, "jsonl")).read_text(encoding="utf-8")
            jsonl = dest / (pdf.name + ".jsonl")
            jsonl.write_text(snapshot_records(records, fingerprint), encoding="utf-8")
            written += [md, jsonl]
    return written


def snapshot_records(jsonl: str, fingerprint: str) -> str:
    """The JSONL chunk records without ``chunk_id`` and ``section_id`` (both hash the
    fingerprint), after checking each against its definition; raises RuntimeError naming the
    first record whose id does not match."""
    lines = []
    for line in jsonl.splitlines():
        record = json.loads(line)
        expected = chunk_id(
            record["doc_id"],
            record["source_sha256"],
            fingerprint,
            record["chunk_index"],
            record["char_start"],
            record["char_end"],
        )
        section = section_id(
            record["doc_id"],
            record["source_sha256"],
            fingerprint,
            record["section_char_start"],
            record["section_char_end"],
        )
        if record.pop("chunk_id") != expected or record.pop("section_id") != section:
            raise RuntimeError(f"{record['source_file']} chunk {record['chunk_index']}: wrong id")
        lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", action="append", choices=BACKENDS)
    parser.add_argument("--out", type=Path, default=GOLDEN, help="folder of <backend>/ folders")
    args = parser.parse_args(argv)
    for backend in args.backend or BACKENDS:
        for path in build(backend, args.out / backend):
            sys.stdout.write(f"{path}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
