"""Which Markdown passes change which documents: the audit behind deleting or moving a pass.

Converts every PDF of the folders given (default options) with the pipeline's debug log on
(`conversion.pipeline` logs "pass NAME changed N pages, M lines" for each pass that changed
anything) and prints, per pass of `PASSES`, the documents it changed and the lines it added,
rarest first. A pass that changes no document of a large, varied set is a candidate to delete;
one that changes a handful is a candidate to fold into the stage that owns its rule.

Usage: python bench/pass_changes.py [PDF_DIR ...] [--json F]   (default: ../shared/corpus/pdfs)
"""

from __future__ import annotations

import argparse
import json
import logging
import re
from collections import defaultdict
from pathlib import Path

from citechunk import ConvertOptions, convert
from citechunk.conversion.pipeline import PASSES
from citechunk.errors import CitechunkError

SHARED = Path(__file__).resolve().parents[2] / "shared"
DEFAULT_DIR = SHARED / "corpus" / "pdfs"
CHANGED = re.compile(r"pass (\S+) changed (\d+) pages, (\d+) lines")


class _Changes(logging.Handler):
    """Collects the pipeline's "pass changed" records of the current document."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.found: list[tuple[str, int]] = []

    def emit(self, record: logging.LogRecord) -> None:
        match = CHANGED.search(record.getMessage())
        if match:
            self.found.append((match.group(1), int(match.group(3))))


def audit(folders: list[Path]) -> dict[str, dict[str, int]]:
    """{pass name: {document: lines it added}} over every PDF of `folders`."""
    handler = _Changes()
    logger = logging.getLogger("citechunk.conversion.pipeline")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    changes: dict[str, dict[str, int]] = defaultdict(dict)
    for pdf in sorted(p for folder in folders for p in folder.glob("*.pdf")):
        handler.found.clear()
        try:
            convert(pdf, ConvertOptions())
        except CitechunkError as exc:
            logging.getLogger(__name__).warning("%s: %s", pdf.name, exc)
            continue
        for name, lines in handler.found:
            changes[name][pdf.name] = lines
    return changes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[DEFAULT_DIR])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    changes = audit(args.folders)
    for name in sorted((p.name for p in PASSES), key=lambda n: len(changes.get(n, {}))):
        docs = changes.get(name, {})
        sample = ", ".join(sorted(docs)[:4]) if len(docs) <= 4 else ""
        print(f"{name:22} {len(docs):4} docs {sum(docs.values()):6} lines  {sample}")
    if args.json:
        args.json.write_text(json.dumps(changes, indent=1, sort_keys=True), encoding="utf-8")


if __name__ == "__main__":
    main()
