"""Document labels against true titles, per PDF folder, without converting (issue 43).

The label (`conversion.title.pdf_label`) is read from the text layer of the first pages, the
metadata and the outline, as `conversion.base.read_facts` reads it in every conversion (the
same call, with the first pages' garbled-text check), so the label printed here is the label an
ingest puts at the head of every chunk's path line (``--ingest NAME=OUT`` checks that against
the labels an ingest output folder's provenance files record).

Per set (NAME=PDF_DIR:TITLES, TITLES a comma-separated list of tsv files with columns ``file``
and ``true_title``):
  good        labels whose token F1 with the true title is at least .5 (`label_f1` of the
              reference script ``faithful.py``: words are runs of letters or digits, the title
              is also tried without its parenthesised parts)
  file-name   labels built from the file name (source "file name", or cover facts ending with
              the readable file name) although page 1 has a text layer of 3+ words
  over-12     labels of more than `MAX_WORDS` words (blank-separated tokens holding a letter or
              digit)
  pieces      mean and largest count of the label's word pieces (the embedder's tokenizer,
              `chunking.embedder.DEFAULT_EMBEDDER`)
``--show`` prints each document: F1, source, words, pieces, label and true title.

Usage: python bench/labels.py NAME=PDF_DIR[:T1.tsv,T2.tsv] ... [--show] [--json FILE]
         [--faithful ../shared/eval/faithful.py] [--ingest NAME=OUT]
  e.g. bench/labels.py wide=../shared/eval/wide:../shared/eval/wide/biz_SOURCES.tsv,...
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pymupdf
from wide import load_titles

from citechunk.chunking.embedder import DEFAULT_EMBEDDER, resolve_embedder
from citechunk.conversion.base import text_layer_report
from citechunk.conversion.textlayer import TextLayer
from citechunk.conversion.title import TITLE_PAGES, pdf_label, readable_stem
from citechunk.textkeys import compact_key

log = logging.getLogger("bench.labels")

#: A label over this many words fails the issue's goal.
MAX_WORDS = 12
GOOD_F1 = 0.5


@dataclass(frozen=True)
class Row:
    """One PDF's label and its score."""

    file: str
    label: str
    source: str
    true_title: str
    f1: float | None
    words: int
    pieces: int
    from_file_name: bool


def _label_f1(path: Path) -> Callable[[str, str], float]:
    spec = importlib.util.spec_from_file_location("faithful", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.label_f1


def _words(label: str) -> int:
    return sum(1 for t in label.split() if any(ch.isalnum() for ch in t))


def _page_one_words(doc: Any) -> int:
    return len(doc[0].get_text("words")) if doc.page_count else 0


def label_of(path: Path) -> tuple[str, str, bool]:
    """(label, source, from the file name although page 1 has text) of the PDF at `path`."""
    with pymupdf.open(path) as doc:
        first = list(range(1, min(doc.page_count, TITLE_PAGES) + 1))
        _, garbled = text_layer_report(doc, first)
        label = pdf_label(doc, path, TextLayer.of_document(doc), skip=frozenset(garbled))
        printed = _page_one_words(doc) >= 3
    stem = compact_key(readable_stem(path))
    named = label.source == "file name" or (
        label.source == "cover facts" and bool(stem) and compact_key(label.text).endswith(stem)
    )
    return label.text, label.source, named and printed


def score_set(
    folder: Path, titles: dict[str, str], f1: Callable[[str, str], float], pieces: Any
) -> list[Row]:
    rows = []
    for path in sorted(folder.glob("*.pdf")):
        try:
            text, source, named = label_of(path)
        except (RuntimeError, ValueError) as err:  # pymupdf raises these for unreadable files
            log.warning("%s: %s", path.name, err)
            continue
        true = titles.get(path.name, "")
        score = f1(text, true) if true else None
        rows.append(
            Row(path.name, text, source, true, score, _words(text), pieces.count(text), named)
        )
    return rows


def summary(rows: list[Row]) -> dict[str, Any]:
    scored = [r for r in rows if r.f1 is not None]
    good = sum(1 for r in scored if r.f1 is not None and r.f1 >= GOOD_F1)
    counts = [r.pieces for r in rows] or [0]
    return {
        "docs": len(rows),
        "good": f"{good}/{len(scored)}",
        "good_share": round(good / len(scored), 3) if scored else None,
        "file_name": sum(r.from_file_name for r in rows),
        "over_12": sum(r.words > MAX_WORDS for r in rows),
        "pieces_mean": round(statistics.mean(counts), 1),
        "pieces_max": max(counts),
    }


def ingest_labels(out: Path) -> dict[str, str]:
    """{PDF file name: its label} of an ingest output folder, as its provenance files record
    it (``markdown/<stem>.md.json`` ``title``: the text every chunk's path line starts with)."""
    labels: dict[str, str] = {}
    for prov in sorted((out / "markdown").glob("*.md.json")):
        record = json.loads(prov.read_text(encoding="utf-8"))
        labels[Path(str(record.get("source", ""))).name] = str(record.get("title", ""))
    return labels


def _print(name: str, rows: list[Row], show: bool) -> None:
    if show:
        for r in rows:
            score = "  -  " if r.f1 is None else f"{r.f1:.2f}"
            mark = " FILE" if r.from_file_name else ""
            print(
                f"{name:5} {score} {r.source[:8]:8} w{r.words:<2} p{r.pieces:<3}{mark} "
                f"{r.file[:40]:40} | {r.label[:90]} || {r.true_title[:70]}"
            )
    print(name, json.dumps(summary(rows)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("sets", nargs="+", help="NAME=PDF_DIR[:T1.tsv,T2.tsv]")
    ap.add_argument("--faithful", default="../shared/eval/faithful.py")
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--json", help="write every row here")
    ap.add_argument("--ingest", nargs="*", default=[], help="NAME=OUT: compare with an ingest")
    a = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    f1 = _label_f1(Path(a.faithful))
    pieces = resolve_embedder(DEFAULT_EMBEDDER).counter
    every: dict[str, list[Row]] = {}
    for spec in a.sets:
        name, _, rest = spec.partition("=")
        folder, _, tsvs = rest.partition(":")
        every[name] = score_set(
            Path(folder), load_titles(Path(t) for t in tsvs.split(",") if t), f1, pieces
        )
        _print(name, every[name], a.show)
    _print("all", [r for rows in every.values() for r in rows], False)
    for spec in a.ingest:
        name, _, out = spec.partition("=")
        got = ingest_labels(Path(out))
        rows = [r for r in every.get(name, []) if r.file in got]
        same = [r for r in rows if got[r.file] == r.label]
        print(f"{name} ingest {out}: {len(same)}/{len(rows)} labels equal")
        for r in rows:
            if got[r.file] != r.label:
                print(f"  {r.file}: bench {r.label[:60]!r} ingest {got[r.file][:60]!r}")
    if a.json:
        Path(a.json).write_text(
            json.dumps({k: [asdict(r) for r in v] for k, v in every.items()}, indent=1),
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
