"""The fenced blocks of README.md and docs/**/*.md, read the way tests/test_docs_examples.py runs them.

The convention (docs/development.md, "Documented examples are tested"):

* ```` ```console ````: a shell session. A line starting with ``$ `` is a command (a line ending
  in ``\\`` continues it; a ``<<'EOF'`` here-document runs to its ``EOF`` line); the lines up to
  the next command are its output as documented, trimmed where a line reads ``...``. A command
  ending in ``# exits N`` must exit N, every other one 0.
  A ``make`` command runs in a copy of the clone (Makefile, sample_pdfs/, this .venv).
* ```` ```python ````: a script, run as it stands.
* a block with ``title="NAME"`` (any language) is a file the reader writes: it is written as NAME
  into the working folder, not run itself.
* ``<!-- not-run: REASON -->`` on the line before a block: it cannot run here (a cron line, a
  cluster address); it is counted, never run.
* ``toml`` and ``json`` blocks must parse; a ``json`` block holding a ``chunk_id`` is a chunk
  record and is compared with the record an ingest of sample_pdfs/ writes.
* any other shell block (``bash``, ``sh``) is an error: a command is either run or marked.
* ``<!-- docs-test: fresh-out -->`` anywhere in a page: its examples start without ``out/``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,})(?P<info>[^`]*)$")
NOT_RUN = re.compile(r"^<!-- not-run: (?P<reason>.+?) -->$")
TITLE = re.compile(r'title="(?P<title>[^"]+)"')
EXITS = re.compile(r"\s+# exits (?P<code>\d+)$")
SHELL_LANGS = {"bash", "sh", "shell", "zsh"}


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its language, title, body and not-run reason."""

    path: Path
    line: int  # 1-based line of the opening fence
    lang: str
    title: str
    body: str
    not_run: str = ""

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


@dataclass(frozen=True)
class Command:
    """A ``$`` command of a console block, its expected exit code and documented output."""

    text: str
    exit_code: int = 0
    output: tuple[str, ...] = field(default=())


def doc_pages() -> list[Path]:
    """README.md and every Markdown page of the documentation site."""
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of one Markdown file, in order (indented ones dedented)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = len(m["indent"]), m["fence"], m["info"].strip()
        start, body = i, []
        i += 1
        while i < len(lines) and lines[i].strip() != fence:
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        i += 1
        prev = next((lines[j].strip() for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        reason = NOT_RUN.match(prev)
        title = TITLE.search(info)
        found.append(
            Block(
                path=path,
                line=start + 1,
                lang=info.split()[0] if info else "",
                title=title["title"] if title else "",
                body="\n".join(body) + "\n",
                not_run=reason["reason"] if reason else "",
            )
        )
    return found


def all_blocks() -> list[Block]:
    return [b for page in doc_pages() for b in blocks(page)]


def is_run(block: Block) -> bool:
    """A console session or Python script that the tests execute."""
    return block.lang in {"console", "python"} and not block.title and not block.not_run


def commands(block: Block) -> list[Command]:
    """The commands of a console block with their documented output lines."""
    found: list[Command] = []
    lines = block.body.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            i += 1
            continue
        text = lines[i][2:]
        i += 1
        while text.endswith("\\") and i < len(lines):
            text = text + "\n" + lines[i]
            i += 1
        if heredoc := re.search(r"<<-?'?(\w+)'?", text):
            while i < len(lines) and lines[i] != heredoc.group(1):
                text += "\n" + lines[i]
                i += 1
            text += "\n" + heredoc.group(1)
            i += 1
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        code = EXITS.search(text.splitlines()[0])
        found.append(
            Command(
                text=text,
                exit_code=int(code["code"]) if code else 0,
                output=tuple(line for line in output if line.strip() not in {"", "...", "…"}),
            )
        )
    return found


BOX_CHARS = re.compile(r"[│┃┌┐└┘├┤┬┴┼─━┏┓┗┛┡┩╇┳┻╋]")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def shape(line: str) -> str:
    """A line of output as compared: table rules gone, numbers as N, spaces collapsed.

    The documented output is compared by shape, not by value: counts, sizes and timings move
    with the machine and the sample PDFs, the words around them do not."""
    return " ".join(NUMBER.sub("N", BOX_CHARS.sub(" ", line)).split())


def printed(documented: str, line_shape: str) -> bool:
    """A documented output line matches a printed one (by shape; ``...`` inside it stands for
    any text, such as the absolute path of the output folder)."""
    pieces = [re.escape(shape(piece)) for piece in documented.split("...")]
    return re.search(".*".join(pieces), line_shape) is not None
