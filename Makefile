# citechunk: `make demo` and `make test` work on a fresh machine with Python 3.11, pip and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# torch must come from the CPU wheel before anything that needs it (docling, sentence-transformers)
TORCH  := torch==2.13.0
EXTRAS := docling,ray,eval,hf,ocr,lancedb,chroma,dev

.PHONY: demo test test-fast lint docs docs-serve bench clean samples golden

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.base: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.all: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q $(TORCH)
	$(BIN)/pip install -q -e '.[$(EXTRAS)]'
	touch $@ $(VENV)/.base

demo: $(VENV)/.base
	rm -rf out
	$(BIN)/citechunk -v ingest sample_pdfs --out out
	$(BIN)/citechunk inspect out --doc report_outline.pdf --chunk 1
	@echo "review page (open it in a browser):"
	$(BIN)/citechunk review out --doc report_outline.pdf

lint: $(VENV)/.all
	$(BIN)/ruff check src tests bench sample_pdfs
	$(BIN)/ruff format --check src tests bench sample_pdfs
	$(BIN)/mypy

# the documentation site into site/ (mkdocs-material, the dev extra): offline, any warning fails
# (--strict: broken links, pages missing from the nav); the reference pages are generated from
# the code (docs/hooks/generated.py, mkdocs-click, mkdocstrings)
DOCS_ENV := NO_MKDOCS_2_WARNING=1 PYTHONPATH=$(CURDIR)/src
docs: $(VENV)/.all
	$(DOCS_ENV) $(BIN)/mkdocs build --strict --site-dir site

docs-serve: $(VENV)/.all
	$(DOCS_ENV) $(BIN)/mkdocs serve --strict

# the whole suite on 2 xdist workers (tests are independent: each writes into its own tmp_path)
test: $(VENV)/.all lint docs
	$(BIN)/python -m pytest -q -n 2

# the edit loop: the pure units (conversion rules, chunking, schema); no test marked heavy, corpus
# or slow (`make test` stays the full CI suite)
test-fast: $(VENV)/.all
	$(BIN)/python -m pytest -q -n 2 -m "not heavy and not corpus and not slow"

samples: $(VENV)/.base
	$(BIN)/python sample_pdfs/make_samples.py

# rewrite tests/golden/<backend>/ (Markdown + JSONL chunk records of sample_pdfs/, both backends)
golden: $(VENV)/.all
	$(BIN)/python tests/golden/make_golden.py

bench: $(VENV)/.all
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) out site .pytest_cache .mypy_cache .ruff_cache
