"""Stores are entry points (group ``citechunk.stores``) named by URI scheme."""

from __future__ import annotations

import pytest

from citechunk.errors import ConfigError
from citechunk.stores import open_store
from citechunk.stores.lancedb import LanceDBStore
from citechunk.stores.registry import known, store_class


def test_builtin_stores_are_registered() -> None:
    assert {"lancedb"} <= set(known())
    assert store_class("lancedb") is LanceDBStore


def test_uri_scheme_picks_the_store_and_the_rest_is_its_location(tmp_path) -> None:
    store = open_store(f"lancedb:{tmp_path}/x", table="mine")
    assert isinstance(store, LanceDBStore)
    assert (store.location, store.table, store.uri) == (
        f"{tmp_path}/x",
        "mine",
        f"lancedb:{tmp_path}/x",
    )


@pytest.mark.parametrize("uri", ["nosuch:/tmp/x", "/tmp/plain/path", "lancedb:"])
def test_bad_uris_are_usage_errors_naming_the_known_stores(uri: str) -> None:
    with pytest.raises(ConfigError, match="lancedb") as err:
        open_store(uri)
    assert err.value.exit_code == 2
