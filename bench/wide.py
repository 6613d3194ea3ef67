"""The wide check: an ingest of PDFs checked against each PDF's own text layer, true title and
withheld outline, per document and pooled. No questions needed.

For a folder of PDFs (default ../shared/eval/wide), ingest it once into OUT (reused when OUT's
run.json is finished and --reuse is given), then per document:
  failed      the ingest's error for the file (stage or pass named in it), or no chunk at all
  pass_fail   passes skipped on the document because they raised (run.json, when recorded)
  invented, glued, cut, reversed, cjk_spaces (per 1,000 words), coverage (share of the layer's
              words in the Markdown): `citechunk.evaluation.faithful.check_text`
  label       the first chunk's label (its path line before " > ") against the true title
              (`label_f1` >= .5 is good; titles from *_SOURCES.tsv or --titles TSV files with
              columns file, true_title); words in the label; from a file name while page 1 has text
  headings    for a PDF with >= 5 outline entries that list sections: a copy without its outline
              converted with the run's convert options (`bench/withheld.py`), its headings
              against the withheld outline (`heading_fidelity`: found, level order), and
              against only the entries printed on their page (`printed_entries`)
  span        for a 20+ page document: headings other than the label's whose section holds more
              than half of it without a top outline entry or numbering behind them
              (`evaluation.headings.long_spans`)
  furniture   chunks holding a running line of the PDF (a top or bottom line repeated on 3+ pages,
              digits blurred), margin line numbers of their pages (one a line at the line
              pitch: `line_numbers`), or strikethrough (~~)
  navigation  chunks marked navigation
Writes OUT/wide.json (one row per document). --compare BEFORE.json AFTER.json prints the documents
that got worse on any check, worst first.

Usage: .venv/bin/python bench/wide.py [PDF_DIR] --out OUT [--reuse] [--workers 2] [--titles TSV ...]
       .venv/bin/python bench/wide.py --compare OUT_A/wide.json OUT_B/wide.json
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pymupdf
from withheld import score_document

import citechunk
from citechunk.config import Config, ConvertOptions, load_config
from citechunk.conversion import read_markdown
from citechunk.conversion.outline import from_toc, lists_sections
from citechunk.evaluation.faithful import check_text, label_f1
from citechunk.evaluation.headings import long_spans
from citechunk.export import ChunkRecord, iter_records

SHARED = Path(__file__).resolve().parents[2] / "shared"
DEFAULT_DIR = SHARED / "eval" / "wide"
MIN_OUTLINE = 5
EDGE = 0.12
MAX_LABEL_WORDS = 12


def label_word_count(label: str) -> int:
    """Words of a label as `conversion.title` counts them: blank-separated tokens holding a
    letter or digit (a dash between parts is no word)."""
    return sum(1 for t in label.split() if any(ch.isalnum() for ch in t))


Row = dict[str, Any]


def load_titles(paths: Iterable[Path]) -> dict[str, str]:
    titles: dict[str, str] = {}
    for p in paths:
        with open(p, encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                if row.get("file") and row.get("true_title"):
                    titles[Path(row["file"]).name] = row["true_title"]
    return titles


def layer_pages(doc: pymupdf.Document) -> dict[int, str]:
    return {p.number + 1: p.get_text("text") for p in doc}


def edge_lines(page: pymupdf.Page) -> list[tuple[float, float, str]]:
    """(x0, y0, text) of the page's lines in its top and bottom margins."""
    h = page.rect.height or 1
    out = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            text = " ".join(s["text"] for s in line["spans"]).strip()
            x0, y0, _, y1 = line["bbox"]
            if text and (y1 < EDGE * h or y0 > (1 - EDGE) * h):
                out.append((x0, y0, text))
    return out


def _blur(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"\d+", "#", text.lower())).strip()


def running_lines(doc: pymupdf.Document) -> set[str]:
    """Margin lines (blurred) repeated on 3+ pages with 2+ words of letters."""
    pages: dict[str, set[int]] = defaultdict(set)
    for page in doc:
        for _, _, text in edge_lines(page):
            if len(re.findall(r"[^\W\d_]{2,}", text)) >= 2:
                pages[_blur(text)].add(page.number)
    return {sig for sig, seen in pages.items() if len(seen) >= 3 and len(sig) >= 10}


def line_numbers(page: pymupdf.Page) -> set[str]:
    """Bare numbers left of all other text on the page, when 5+ of them, top to bottom, count
    up by one with no other line of text between them: one number a line at the line pitch (a
    table's index column numbers rows that may hold several lines)."""
    nums: list[tuple[Any, int]] = []
    others: list[Any] = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            text = " ".join(s["text"] for s in line["spans"]).strip()
            if text.isdigit():
                nums.append((line["bbox"], int(text)))
            elif text:
                others.append(line["bbox"])
    if not others:
        return set()
    left = min(box[0] for box in others)
    margin = sorted(((box, n) for box, n in nums if box[2] <= left), key=lambda m: m[0][1])
    middles = [(box[1] + box[3]) / 2 for box in others]
    steps = sum(
        1
        for (a, n), (b, m) in zip(margin, margin[1:], strict=False)
        if m == n + 1 and not any(a[3] < y < b[1] for y in middles)
    )
    return {str(n) for _, n in margin} if steps >= 4 else set()


def furniture(records: Sequence[ChunkRecord], doc: pymupdf.Document) -> dict[str, int]:
    running = running_lines(doc)
    numbers = {p.number + 1: line_numbers(p) for p in doc}
    counts = {"running_chunks": 0, "line_number_chunks": 0, "strike_chunks": 0}
    for r in records:
        body = r.text.split("\n\n", 1)[-1]
        blurred = _blur(body.replace("*", "").replace("#", " "))
        counts["running_chunks"] += any(sig in blurred for sig in running)
        page_nums = set().union(
            *(numbers.get(p, set()) for p in range(r.first_page, r.last_page + 1))
        )
        tokens = set(re.findall(r"(?<![\w.,])\d+(?![\w.,])", body))
        counts["line_number_chunks"] += len(page_nums & tokens) >= 5
        counts["strike_chunks"] += "~~" in body
    return counts


def withheld_headings(
    pdf: Path, out: Path, outline: Sequence[Any], options: ConvertOptions
) -> dict[str, int] | None:
    """The withheld-outline score (`bench/withheld.py`: a copy without its outline converted with
    the run's convert options; Markdown kept in OUT/withheld) for a PDF whose outline lists
    sections."""
    if len(outline) < MIN_OUTLINE or not lists_sections(outline):
        return None
    score = score_document(pdf, out / "withheld" / f"{pdf.name}.md", True, options)
    fid, printed = score.fidelity, score.printed
    assert fid is not None and printed is not None
    return {
        "entries": fid.entries,
        "found": fid.found,
        "pairs": fid.pairs,
        "ordered": fid.ordered,
        "printed": printed.entries,
        "printed_found": printed.found,
    }


def markdown_files(out: Path) -> dict[str, tuple[Path, dict[str, Any]]]:
    found = {}
    for meta_path in (out / "markdown").glob("*.md.json"):
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        found[Path(str(meta.get("source") or "")).name] = (meta_path.with_suffix(""), meta)
    return found


def file_errors(run: Mapping[str, Any]) -> dict[str, Row]:
    errors = {}
    for f in run.get("files", []):
        name = Path(str(f.get("source_file") or f.get("source") or "")).name
        errors[name] = f
    return errors


def check_document(pdf: Path, ctx: Mapping[str, Any]) -> Row:
    row: Row = {"file": pdf.name, "set": pdf.name.split("_", 1)[0]}
    entry = ctx["errors"].get(pdf.name, {})
    row["pass_fail"] = len(entry.get("pass_failures") or [])
    records = ctx["chunks"].get(pdf.name, [])
    md = ctx["markdown"].get(pdf.name)
    if md is None or not records:
        row["failed"] = str(entry.get("error") or entry.get("status") or "no output")
        return row
    md_path, meta = md
    markdown = read_markdown(md_path)
    with pymupdf.open(pdf) as doc:
        layer = layer_pages(doc)
        row.update(dataclasses.asdict(check_text(layer, markdown, meta.get("ocr_pages") or ())))
        row.update(furniture(records, doc))
        outline = from_toc(doc.get_toc(simple=False))
    page1 = layer.get(1, "").strip()
    label = records[0].text.split("\n\n", 1)[0].split(" > ")[0]
    title = ctx["titles"].get(pdf.name)
    row.update(
        label=label, label_words=label_word_count(label), label_source=meta.get("title_source")
    )
    row["label_f1"] = None if title is None else round(label_f1(label, title), 3)
    row["label_from_file"] = meta.get("title_source") == "file name" and bool(page1)
    spans = long_spans(markdown, str(meta.get("title") or ""), outline)
    row["span"] = [f"{s.title[:60]} ({s.pages}/{s.page_count} p.)" for s in spans]
    row["navigation_chunks"] = sum(r.role == "navigation" for r in records)
    row["chunks"] = len(records)
    headings = (
        withheld_headings(pdf, ctx["out"], outline, ctx["config"].convert)
        if ctx["headings"]
        else None
    )
    if headings:
        row["headings"] = headings
    return row


def pooled(rows: Sequence[Row]) -> Row:
    ok = [r for r in rows if "failed" not in r]
    total = sum(r["words"] for r in ok) or 1
    labelled = [r for r in ok if r.get("label_f1") is not None]
    heads = [r["headings"] for r in ok if "headings" in r]
    pool: Row = {"documents": len(rows), "failed": len(rows) - len(ok)}
    for k in ("invented", "glued", "cut", "reversed", "cjk_spaces"):
        pool[k + "/1000"] = round(sum(r[k] * r["words"] for r in ok) / total, 2)
    pool["worst invented/1000"] = round(max((r["invented"] for r in ok), default=0), 1)
    pool["coverage"] = round(
        sum(r["covered"] for r in ok) / max(1, sum(r["coverable"] for r in ok)), 4
    )
    pool["labels good"] = f"{sum(r['label_f1'] >= 0.5 for r in labelled)}/{len(labelled)}"
    pool["labels from file name (page 1 has text)"] = sum(r["label_from_file"] for r in ok)
    pool[f"labels over {MAX_LABEL_WORDS} words"] = sum(
        r["label_words"] > MAX_LABEL_WORDS for r in ok
    )
    ent, pairs = sum(h["entries"] for h in heads), sum(h["pairs"] for h in heads)
    pool["headings (outline withheld) found"] = (
        f"{sum(h['found'] for h in heads) / max(1, ent):.3f} of {ent} in {len(heads)} docs"
    )
    printed = sum(h.get("printed", 0) for h in heads)
    pool["headings found of those printed on their page"] = (
        f"{sum(h.get('printed_found', 0) for h in heads) / max(1, printed):.3f} of {printed}"
    )
    pool["headings level order"] = (
        f"{sum(h['ordered'] for h in heads) / max(1, pairs):.3f} of {pairs}"
    )
    pool["span flags"] = sum(len(r["span"]) for r in ok)
    for k in (
        "running_chunks",
        "line_number_chunks",
        "strike_chunks",
        "navigation_chunks",
        "chunks",
        "pass_fail",
    ):
        pool[k] = sum(r.get(k, 0) for r in rows)
    return pool


def print_rows(rows: Sequence[Row]) -> None:
    head = f"{'file':44} {'inv':>6} {'glue':>5} {'cut':>5} {'rev':>5} {'cjk':>5} {'cov':>6} {'lab':>5} {'head':>9} span furn  label"
    print(head)
    for r in rows:
        if "failed" in r:
            print(f"{r['file'][:44]:44} FAILED {r['failed'][:120]}")
            continue
        h = r.get("headings")
        hs = f"{h['found']}/{h['entries']}" if h else "-"
        lab = "-" if r["label_f1"] is None else f"{r['label_f1']:.2f}"
        furn = r["running_chunks"] + r["line_number_chunks"] + r["strike_chunks"]
        print(
            f"{r['file'][:44]:44} {r['invented']:6.1f} {r['glued']:5.1f} {r['cut']:5.1f} {r['reversed']:5.1f} "
            f"{r['cjk_spaces']:5.1f} {r['coverage']:6.3f} {lab:>5} {hs:>9} {len(r['span']):4} {furn:4}  {r['label'][:60]}"
        )


def run(pdf_dir: Path, out: Path, args: argparse.Namespace) -> list[Row]:
    config = load_config(args.config) if args.config else Config()
    config = dataclasses.replace(config, run=dataclasses.replace(config.run, workers=args.workers))
    finished = (out / "run.json").exists() and json.loads((out / "run.json").read_text())[
        "state"
    ] == "finished"
    if not (args.reuse and finished):
        citechunk.ingest(pdf_dir, out, config)
    chunks: dict[str, list[ChunkRecord]] = defaultdict(list)
    for r in iter_records(out / "chunks"):
        chunks[Path(r.source_file).name].append(r)
    for recs in chunks.values():
        recs.sort(key=lambda r: r.chunk_index)
    titles = load_titles(list(pdf_dir.glob("*_SOURCES.tsv")) + [Path(t) for t in args.titles])
    ctx = {
        "errors": file_errors(json.loads((out / "run.json").read_text())),
        "chunks": chunks,
        "markdown": markdown_files(out),
        "titles": titles,
        "out": out,
        "config": config,
        "headings": not args.no_headings,
    }
    return [check_document(pdf, ctx) for pdf in sorted(pdf_dir.glob("*.pdf"))]


def worse(a: Row, b: Row) -> list[str]:
    """The checks on which document row `b` is worse than `a`."""
    if "failed" in b:
        return [] if "failed" in a else [f"failed: {b['failed'][:80]}"]
    if "failed" in a:
        return []
    out = [
        f"{k} {a[k]:.1f} -> {b[k]:.1f}"
        for k in ("invented", "glued", "cut", "reversed", "cjk_spaces")
        if b[k] > a[k] + 0.2
    ]
    if b["coverage"] < a["coverage"] - 0.002:
        out.append(f"coverage {a['coverage']:.3f} -> {b['coverage']:.3f}")
    if a.get("label_f1") is not None and b["label_f1"] < a["label_f1"] - 0.05:
        out.append(
            f"label {a['label_f1']:.2f} -> {b['label_f1']:.2f} ({a['label'][:40]!r} -> {b['label'][:40]!r})"
        )
    ha, hb = a.get("headings"), b.get("headings")
    if ha and hb and (hb["found"] < ha["found"] or hb["ordered"] < ha["ordered"]):
        out.append(f"headings {ha['found']}/{ha['ordered']} -> {hb['found']}/{hb['ordered']}")
    for k in ("running_chunks", "line_number_chunks", "strike_chunks"):
        if b.get(k, 0) > a.get(k, 0):
            out.append(f"{k} {a[k]} -> {b[k]}")
    if len(b["span"]) > len(a["span"]):
        out.append(f"span {len(a['span'])} -> {len(b['span'])}")
    return out


def compare(before: Path, after: Path) -> None:
    a = {r["file"]: r for r in json.loads(before.read_text())["documents"]}
    b = {r["file"]: r for r in json.loads(after.read_text())["documents"]}
    for name, rows in (("before", list(a.values())), ("after", list(b.values()))):
        print(name, json.dumps(pooled(rows)))
    got_worse = [(name, worse(a[name], b[name])) for name in sorted(a.keys() & b.keys())]
    got_worse = sorted((w for w in got_worse if w[1]), key=lambda w: -len(w[1]))
    print(f"\n{len(got_worse)} documents worse on some check:")
    for name, what in got_worse:
        print(f"  {name}: {'; '.join(what)}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("pdf_dir", nargs="?", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--reuse", action="store_true", help="use OUT's finished ingest as it is")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--config", type=Path)
    ap.add_argument("--titles", nargs="*", default=[])
    ap.add_argument(
        "--no-headings", action="store_true", help="skip the withheld-outline conversions"
    )
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args(argv)
    if args.compare:
        compare(*args.compare)
        return 0
    if args.out is None:
        ap.error("--out is required")
    rows = run(args.pdf_dir, args.out, args)
    rows.sort(key=lambda r: ("failed" not in r, -r.get("invented", 0)))
    print_rows(rows)
    pool = pooled(rows)
    print(json.dumps(pool, indent=1))
    (args.out / "wide.json").write_text(
        json.dumps({"pooled": pool, "documents": rows}, indent=1), encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
