"""Write the golden snapshots: the Markdown and the chunk records of every ``sample_pdfs/*.pdf``
for each backend, as `citechunk ingest` makes them with the default configuration (chunk files
as JSONL), into ``tests/golden/<backend>/<pdf name>.md`` and ``.jsonl``.

Run it (``make golden``) after a change that is meant to alter extraction or chunking, and
review the diff: ``tests/test_golden.py`` regenerates the snapshots in a temporary folder and
compares them byte for byte with the checked-in files. Chunk ids hash the citechunk and backend
versions, so a version bump also changes the ``.jsonl`` files.

    python tests/golden/make_golden.py [--backend pymupdf|docling ...] [--out DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from citechunk.config import load_config
from citechunk.export import chunks_relpath, config_fingerprint, markdown_relpath, run_metadata
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
            for rel, suffix in (
                (markdown_relpath(pdf.name), ".md"),
                (chunks_relpath(pdf.name, "jsonl"), ".jsonl"),
            ):
                target = dest / (pdf.name + suffix)
                shutil.copyfile(Path(tmp) / rel, target)
                written.append(target)
    return written


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
