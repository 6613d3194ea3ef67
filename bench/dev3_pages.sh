#!/bin/bash
# dev3 proxy for a before/after retrieval check when a full dev3 conversion (about 2,125 pages) does
# not fit: each filing is converted only on its question pages +-3 (the same pages for every
# checkout), one ingest per PDF, then ../shared/eval/check_retrieval.py --budget 1500 over all.
# Usage: bench/dev3_pages.sh CHECKOUT OUT   (CHECKOUT: a source tree whose src/ is imported)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared=$here/../shared/eval
checkout=$(cd "$1" && pwd); out=$2; mkdir -p "$out"
py=${PYTHON:-$here/.venv/bin/python}
export PYTHONPATH=$checkout/src
"$py" - "$out" "$shared/dev3/questions.jsonl" <<'PY'
import collections, json, sys
out, questions = sys.argv[1], sys.argv[2]
pages = collections.defaultdict(set)
for line in open(questions, encoding="utf-8"):
    q = json.loads(line)
    pages[q["pdf"]].update(range(max(1, q["page"] - 3), q["page"] + 4))
for pdf, ps in pages.items():
    with open(f"{out}/{pdf}.toml", "w", encoding="utf-8") as fh:
        fh.write(f'[convert]\npages = "{",".join(map(str, sorted(ps)))}"\n')
PY
for toml in "$out"/*.toml; do
  pdf=$(basename "$toml" .toml)
  "$py" -m citechunk --config "$toml" ingest "$shared/dev3/pdfs" --include "$pdf" \
    --out "$out/${pdf%.pdf}" --workers 1 > "$out/${pdf%.pdf}.log" 2>&1 || echo "failed: $pdf"
done
"$py" "$shared/check_retrieval.py" --questions "$shared/dev3/questions.jsonl" --chunks "$out" --budget 1500
