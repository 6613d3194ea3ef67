"""The layout model's own cost per page by ONNX Runtime lever, side by side in one run (ratios).

Every `--every`-th page of a folder (default ../shared/corpus/pdfs) goes through pymupdf-layout's
analyzer for `--model` (default text+image: the image CNN is most of its cost) once per variant
per round, the variants interleaved page by page in rotating order so load from other processes
hits all alike; each (page, variant) keeps its least CPU (this process's CPU time: the sessions
run in this process). Every session gets one intra-op thread and no spinning, as in a worker
(`runner.threads`), unless the variant says otherwise. Variants:

  library          the sessions as pymupdf-layout builds them (memory arena off)
  arena            citechunk's setting: fixed-shape sessions with the arena (`layoutsessions`)
  arena 2 threads  the same, two intra-op threads per session (spinning off)
  arena extended   graph optimisation level "extended" (no layout transforms) instead of "all"
  arena parallel   execution mode parallel (inter-op threads 2)
  arena int8       the image CNN and the graph network quantised to int8 with
                   ``onnxruntime.quantization.quantize_dynamic`` (made once here, in a
                   temporary folder, from the installed model files)

Printed per variant: CPU ms per page, the ratio to `library`, and the pages whose layout (box
classes, boxes to 0.01 pt, table cells) differs from `library`'s. Then batching: the image CNN
run on `--batch` page rasters in one call against one at a time (CPU per page; the graph network
and table CNN take one page or crop per call in pymupdf-layout, so only the CNN could batch).

Usage: .venv/bin/python bench/layout_sessions.py [PDF_DIR] [--model text+image] [--every 3]
           [--rounds 1] [--only "library,arena"]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pymupdf

from citechunk.conversion.layoutsessions import Slot, fixed_shape_slots, rebuilt, with_arena
from citechunk.conversion.pymupdf import FEATURE_SETS
from citechunk.runner.threads import limit_threads

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pdfs"


def _slots(analyzer: Any) -> list[Slot]:
    """Every session the analyzer runs: the graph network and the fixed-shape ones."""
    model = analyzer._model
    return [Slot("graph network", model, "session", model.model_path)] + list(
        fixed_shape_slots(analyzer)
    )


def _tuned(analyzer: Any, **options: Any) -> Any:
    for slot in _slots(analyzer):
        setattr(slot.owner, slot.attribute, rebuilt(slot, **options))
    return analyzer


def _quantised(feature_set: str, folder: Path) -> Any:
    """An analyzer whose image CNN and graph network are dynamic int8 copies of the installed
    models (the table-grid CNN stays as shipped)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from pymupdf.layout import DocumentLayoutAnalyzer

    shipped = DocumentLayoutAnalyzer.get_model(feature_set_name=feature_set)._model
    paths = {}
    for name, source in (("gnn", shipped.model_path), ("imf", shipped.imf_model_path)):
        paths[name] = str(folder / f"{name}_int8.onnx")
        quantize_dynamic(source, paths[name], weight_type=QuantType.QUInt8)
    return DocumentLayoutAnalyzer.get_model(
        feature_set_name=feature_set,
        config_path=shipped.config_path,
        model_path=paths["gnn"],
        imf_model_path=paths["imf"],
    )


def variants(feature_set: str, folder: Path) -> dict[str, Callable[[], Any]]:
    import onnxruntime as ort
    from pymupdf.layout import DocumentLayoutAnalyzer

    def library() -> Any:
        return DocumentLayoutAnalyzer.get_model(feature_set_name=feature_set)

    return {
        "library": library,
        "arena": lambda: with_arena(library()),
        "arena 2 threads": lambda: _tuned(with_arena(library()), intra_op_num_threads=2),
        "arena extended": lambda: _tuned(
            with_arena(library()),
            graph_optimization_level=ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
        ),
        "arena parallel": lambda: _tuned(
            with_arena(library()),
            execution_mode=ort.ExecutionMode.ORT_PARALLEL,
            inter_op_num_threads=2,
        ),
        "arena int8": lambda: with_arena(_quantised(feature_set, folder)),
    }


def signature(groups: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """A page's layout as compared: class, box to 0.01 pt and table cells of each group."""
    return [
        (
            g["class_name"],
            tuple(round(float(c), 2) for c in g["group_bbox"][:4]),
            repr(g.get("table_cells")),
        )
        for g in groups
    ]


def measure(
    pages: list[Any], analyzers: dict[str, Any], rounds: int
) -> tuple[dict[str, float], dict[str, int]]:
    """Sum over pages of each variant's least CPU seconds; pages differing from "library"."""
    best: dict[tuple[str, int], float] = {}
    layouts: dict[tuple[str, int], list[tuple[Any, ...]]] = {}
    names = list(analyzers)
    for r in range(rounds):
        for i, page in enumerate(pages):
            k = (r + i) % len(names)
            for name in names[k:] + names[:k]:
                cpu = time.process_time()
                groups = analyzers[name].predict(page, return_raw=True)
                spent = time.process_time() - cpu
                best[(name, i)] = min(best.get((name, i), float("inf")), spent)
                layouts[(name, i)] = signature(groups)
    totals = {n: sum(best[(n, i)] for i in range(len(pages))) for n in names}
    differ = {
        n: sum(layouts[(n, i)] != layouts[(names[0], i)] for i in range(len(pages))) for n in names
    }
    return totals, differ


def batching(analyzer: Any, batch: int, rounds: int = 5) -> tuple[float, float]:
    """CPU seconds per page of the image CNN: one raster per call, then `batch` per call."""
    session = analyzer._model.feature_extractor._session
    name = session.get_inputs()[0].name
    one = np.random.default_rng(0).random((1, 1, 300, 300), dtype=np.float32)
    many = np.repeat(one, batch, axis=0)
    single = batched = float("inf")
    for _ in range(rounds):
        cpu = time.process_time()
        for _ in range(batch):
            session.run(None, {name: one})
        single = min(single, (time.process_time() - cpu) / batch)
        cpu = time.process_time()
        session.run(None, {name: many})
        batched = min(batched, (time.process_time() - cpu) / batch)
    return single, batched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--model", default="text+image", choices=list(FEATURE_SETS))
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--only", default="", help="comma-separated variant names")
    args = parser.parse_args()
    limit_threads(1)  # as in a worker: one intra-op thread, no spinning
    feature_set = FEATURE_SETS[args.model]
    docs = [pymupdf.open(p) for p in sorted(args.folder.glob("*.pdf"))]
    pages = [doc[i] for doc in docs for i in range(doc.page_count)][:: args.every]
    with tempfile.TemporaryDirectory() as folder:
        made = variants(feature_set, Path(folder))
        chosen = [n for n in made if not args.only or n in args.only.split(",") or n == "library"]
        analyzers = {n: made[n]() for n in chosen}
        totals, differ = measure(pages, analyzers, args.rounds)
    base = totals["library"]
    print(
        f"{len(pages)} pages (every {args.every}th of {len(docs)} PDFs), model {args.model}, "
        f"best of {args.rounds}\n\n| variant | CPU ms/page | x library | pages differing |"
        "\n|---|---|---|---|"
    )
    for name, secs in totals.items():
        print(
            f"| {name} | {1000 * secs / len(pages):.1f} | {secs / base:.2f} | "
            f"{differ[name]}/{len(pages)} |"
        )
    if "imf" in feature_set:
        single, batched = batching(analyzers.get("arena", analyzers["library"]), args.batch)
        print(
            f"\nimage CNN, CPU ms/page: one raster per call {1000 * single:.1f}, {args.batch} per "
            f"call {1000 * batched:.1f} ({batched / single:.2f}x)"
        )


if __name__ == "__main__":
    main()
