"""Shared by the sync tests: an ingested copy of sample_pdfs, small PDFs made with PyMuPDF, and
what OUT and a store hold."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pymupdf

from citechunk import ingest, read_chunks
from citechunk.config import load_config
from citechunk.runner import RunReport
from citechunk.stores import open_store


def make_pdf(path: Path, title: str, sections: list[tuple[str, str]]) -> Path:
    """A one-page PDF: a 20 pt title, then per section a 15 pt heading and a 10.5 pt body."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), title, fontsize=20, fontname="hebo")
    y = 120.0
    for heading, body in sections:
        page.insert_text((72, y), heading, fontsize=15, fontname="hebo")
        rect = pymupdf.Rect(72, y + 10, 520, y + 120)
        page.insert_textbox(rect, body, fontsize=10.5, fontname="helv")
        y += 140
    doc.save(path)
    doc.close()
    return path


def change_two(src: Path) -> None:
    """Rewrite two of the sample PDFs in `src`: the refund policy now says 60 days, the
    relocation memo names another floor."""
    make_pdf(
        src / "refund_policy.pdf",
        "Refund Policy",
        [("Returns", "Returns are accepted within 60 days.")],
    )
    make_pdf(
        src / "relocation_memo.pdf",
        "Relocation Memo",
        [("Moving", "The office moves to the fourth floor.")],
    )


def doc_id_of(report: Any, name: str) -> str:
    """The doc_id a sync report plans for the file `name`."""
    return next(p.doc_id for p in report.plans if p.name == name)


def run_ingest(src: Path, out: Path) -> RunReport:
    config = load_config(
        None, {"run": {"workers": 1, "timeout": 300}, "export": {"format": "jsonl"}}
    )
    return ingest(src, out, config)


def copy_tree(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest)
    return dest


def stored_rows(out: Path) -> list[dict[str, Any]]:
    """OUT's records a sync stores by default: all but navigation (contents pages, indexes)."""
    return [r for r in read_chunks(out).to_pylist() if r["role"] != "navigation"]


def out_ids(out: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for r in stored_rows(out):
        found.setdefault(r["doc_id"], set()).add(r["chunk_id"])
    return found


def store_ids(uri: str) -> dict[str, set[str]]:
    return open_store(uri).ids()


def out_rows(out: Path) -> dict[str, dict[str, Any]]:
    return {r["chunk_id"]: r for r in stored_rows(out)}
