"""Every file of the odd set (many producers) ingests: text kept; the encrypted one, without
its password, fails clearly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citechunk import ingest, load_config
from citechunk.config import ConvertOptions
from citechunk.conversion import convert

ODD = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "odd"
ENCRYPTED = "005-libreoffice-writer-password_libreoffice-writer-password.pdf"
DAMAGED = "017-unreadable-meta-data_unreadablemetadata.pdf"
# a run of glyphs whose font maps them to control characters: one word of six is unreadable
GARBLED_GLYPHS = {"015-arabic_habibi.pdf", "015-arabic_habibi-oneline-cmap.pdf"}


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not ODD.is_dir():
        pytest.skip(f"{ODD} not available (the shared corpus sits beside the repository)")
    out = tmp_path_factory.mktemp("odd") / "out"
    ingest(ODD, out, load_config(None, {"run": {"workers": 2}}))
    return out


@pytest.mark.corpus
def test_good_files_keep_their_text_and_bad_ones_fail_clearly(ingested: Path) -> None:
    files = {f["source_file"]: f for f in json.loads((ingested / "run.json").read_text())["files"]}
    assert {n for n, f in files.items() if f["status"] == "failed"} == {ENCRYPTED}
    assert "password" in files[ENCRYPTED]["error"]
    # its page tree is lost: rebuilt from its page objects (`conversion.pagetree`)
    assert files[DAMAGED]["pages"] == 3 and any("damaged" in w for w in files[DAMAGED]["warnings"])
    for name, f in files.items():
        if f["status"] != "converted":
            continue
        assert not any("gave no Markdown" in w for w in f["warnings"]), name
        floor = 0.8 if name in GARBLED_GLYPHS else 0.98
        assert f["word_coverage"] >= floor, (name, f["word_coverage"])


@pytest.mark.corpus
def test_the_encrypted_file_converts_with_its_password() -> None:
    path = ODD / ENCRYPTED
    if not path.exists():
        pytest.skip(f"{path} not available")
    doc = convert(path, ConvertOptions(password="openpassword"))
    assert doc.provenance.word_coverage is not None and doc.provenance.word_coverage >= 0.98
    assert sum(c.isalpha() for c in doc.markdown) > 50
