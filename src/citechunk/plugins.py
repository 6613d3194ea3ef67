"""Loading one plugin class named by an entry point ("module:Class"), the same way for every
plugin kind (conversion backends, vector stores), and the install line of missing modules.

`load_plugin` imports the class only when asked; an unknown name lists the known ones, and a
class whose `requires` modules are missing names exactly those modules and the `pip install`
that brings them (`install_line`: its `extra`, else the modules themselves; the CPU build of
torch first when the extra needs torch and torch is not installed, since pip would otherwise
fetch the CUDA build, gigabytes, on a machine without a GPU).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# the CPU build of torch (the version the Makefile installs), for extras that import torch
TORCH_CPU = "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"
TORCH_EXTRAS = frozenset({"docling", "eval", "lancedb", "chroma"})


def missing_modules(modules: Iterable[str]) -> list[str]:
    """The modules of `modules` that cannot be imported here, in the given order."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def install_line(extra: str, missing: Sequence[str]) -> str:
    """The command(s) that install `missing`: ``pip install 'citechunk[EXTRA]'`` (else the
    modules by name), preceded by `TORCH_CPU` when the extra needs torch and torch is absent."""
    line = f"pip install 'citechunk[{extra}]'" if extra else "pip install " + " ".join(missing)
    needs_torch = extra in TORCH_EXTRAS or "torch" in missing
    if needs_torch and missing_modules(["torch"]):
        return f"{TORCH_CPU}, then {line}"
    return line


def missing_message(who: str, missing: Sequence[str], extra: str) -> str:
    """ "WHO needs a, b (not installed); install with: ...": the one wording of every
    missing-dependency error (backends, stores, sync's embedder, evaluation)."""
    return f"{who} needs {', '.join(missing)} (not installed); install with: " + install_line(
        extra, missing
    )


def load_plugin(kind: str, name: str, targets: Mapping[str, str], error: type[Exception]) -> Any:
    """The class `targets[name]` points at; `error` naming the `kind` when `name` is unknown or
    the class's required modules are not installed (only the missing ones named)."""
    if name not in targets:
        raise error(f"unknown {kind} {name!r}; known {kind}s: {', '.join(sorted(targets))}")
    module_name, _, attr = targets[name].partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    missing = missing_modules(cls.requires)
    if missing:
        raise error(missing_message(f"{kind} {name!r}", missing, getattr(cls, "extra", "")))
    return cls
