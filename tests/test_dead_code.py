"""No dead code in src/: every module-level function and class is used somewhere, and no
private module-level function takes a parameter it ignores."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "citechunk"


def _modules() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(SRC.rglob("*.py"))}


def _is_command(node: ast.FunctionDef | ast.ClassDef) -> bool:
    """A click command: registered by its decorator, never called by name."""
    return any(
        isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "command"
        for d in node.decorator_list
    )


def test_every_module_level_definition_is_used() -> None:
    files = [*ROOT.joinpath("src").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")]
    files += [*ROOT.joinpath("bench").rglob("*.py"), ROOT / "pyproject.toml"]
    words = Counter(w for p in files for w in re.findall(r"\w+", p.read_text(encoding="utf-8")))
    unused = [
        f"{path.relative_to(ROOT)}: {node.name}"
        for path, tree in _modules().items()
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.ClassDef)
        and not _is_command(node)
        and words[node.name] <= 1  # the definition only
    ]
    assert unused == []


def test_private_functions_use_every_parameter() -> None:
    ignored = []
    for path, tree in _modules().items():
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef) or not node.name.startswith("_"):
                continue
            args = node.args
            params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
            used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            ignored += [
                f"{path.relative_to(ROOT)}: {node.name}({p})" for p in params if p not in used
            ]
    assert ignored == []
