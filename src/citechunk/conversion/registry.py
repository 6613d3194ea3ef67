"""Backend registry: entry points in group ``citechunk.backends``, imported lazily.

Built-in backends are registered through the same entry points (see pyproject.toml). Tests and
plugins may also call `register` directly. An unknown name lists the known ones; a known backend
whose extra is missing says which `pip install` brings it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points

from ..errors import BackendError
from ..plugins import load_plugin
from .base import Backend

log = logging.getLogger(__name__)
GROUP = "citechunk.backends"

# name -> "module:Class"; filled from entry points, extendable by `register`.
_extra_targets: dict[str, str] = {}


@dataclass(frozen=True)
class BackendInfo:
    name: str
    target: str
    available: bool
    version: str
    detail: str  # why unavailable, or "" when usable
    devices: str = ""  # where its models can run (`Backend.devices`), "" when it says nothing


def _targets() -> dict[str, str]:
    found = {ep.name: ep.value for ep in entry_points(group=GROUP)}
    found.update(_extra_targets)
    return found


def register(name: str, target: str) -> None:
    """Register a backend by import path ("package.module:Class") without an entry point."""
    _extra_targets[name] = target
    get_backend_class.cache_clear()


def known() -> list[str]:
    return sorted(_targets())


def registrations() -> dict[str, str]:
    """Backends added with `register` in this process (a child process must repeat them)."""
    return dict(_extra_targets)


@cache
def get_backend_class(name: str) -> type[Backend]:
    """The backend class for `name`; raises `BackendError` listing known names or the extra."""
    cls: type[Backend] = load_plugin("backend", name, _targets(), BackendError)
    return cls


@cache
def get_backend(name: str) -> Backend:
    """One backend instance per process and name (models load once)."""
    return get_backend_class(name)()


def describe() -> list[BackendInfo]:
    """Every registered backend with its version and whether it can be used here."""
    infos = []
    for name, target in sorted(_targets().items()):
        try:
            cls = get_backend_class(name)
            infos.append(BackendInfo(name, target, True, cls.version(), "", cls.devices()))
        except (BackendError, ImportError) as exc:
            infos.append(BackendInfo(name, target, False, "", str(exc)))
    return infos
