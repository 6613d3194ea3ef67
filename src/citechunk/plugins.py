"""Loading one plugin class named by an entry point ("module:Class"), the same way for every
plugin kind (conversion backends, vector stores).

`load_plugin` imports the class only when asked; an unknown name lists the known ones, and a
class whose `requires` modules are missing says which `pip install` brings them (its `extra`,
else the modules themselves).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from typing import Any


def load_plugin(kind: str, name: str, targets: Mapping[str, str], error: type[Exception]) -> Any:
    """The class `targets[name]` points at; `error` naming the `kind` when `name` is unknown or
    the class's required modules are not installed."""
    if name not in targets:
        raise error(f"unknown {kind} {name!r}; known {kind}s: {', '.join(sorted(targets))}")
    module_name, _, attr = targets[name].partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    missing = [m for m in cls.requires if importlib.util.find_spec(m) is None]
    if missing:
        extra = getattr(cls, "extra", "")
        hint = f"pip install 'citechunk[{extra}]'" if extra else "pip install " + " ".join(missing)
        raise error(
            f"{kind} {name!r} needs {', '.join(missing)}, which is not installed; "
            f"install it with: {hint}"
        )
    return cls
