"""One plugin loader for backends and stores: unknown names and missing libraries say what to do."""

from __future__ import annotations

import pytest

from citechunk.errors import BackendError, ConfigError
from citechunk.plugins import load_plugin


class Ready:
    requires = ("json",)
    extra = ""


class NeedsExtra:
    requires = ("json", "no_such_module_citechunk")
    extra = "lancedb"


class NeedsModules:
    requires = ("no_such_module_citechunk",)
    extra = ""


TARGETS = {n: f"{__name__}:{n}" for n in ("Ready", "NeedsExtra", "NeedsModules")}


def test_a_known_plugin_is_its_class() -> None:
    assert load_plugin("store", "Ready", TARGETS, ConfigError) is Ready


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(BackendError, match="unknown backend 'x'; known backends: NeedsExtra, "):
        load_plugin("backend", "x", TARGETS, BackendError)


def test_a_missing_library_names_the_install_command() -> None:
    with pytest.raises(
        ConfigError,
        match=r"store 'NeedsExtra' needs no_such_module_citechunk \(not installed\); "
        r"install with: (.*, then )?pip install 'citechunk\[lancedb\]'",
    ):
        load_plugin("store", "NeedsExtra", TARGETS, ConfigError)
    with pytest.raises(BackendError, match="install with: pip install no_such_module_citechunk$"):
        load_plugin("backend", "NeedsModules", TARGETS, BackendError)
