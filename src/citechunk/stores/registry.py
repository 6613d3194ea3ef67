"""Store registry: entry points in group ``citechunk.stores``, named by URI scheme.

`open_store("lancedb:/data/lance")` imports the plugin registered as ``lancedb`` and opens the
location after the first colon. An unknown scheme lists the known ones; a known store whose
library is missing says which `pip install` brings it.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from ..errors import ConfigError
from ..plugins import load_plugin
from .base import DEFAULT_TABLE, Store

GROUP = "citechunk.stores"


def _targets() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


def known() -> list[str]:
    return sorted(_targets())


def store_class(scheme: str) -> type[Store]:
    """The plugin class for `scheme`; ConfigError for an unknown scheme or a missing library."""
    cls: type[Store] = load_plugin("store", scheme, _targets(), ConfigError)
    return cls


def open_store(uri: str, table: str = DEFAULT_TABLE) -> Store:
    """The store at `uri` (``SCHEME:LOCATION``), table or collection `table`."""
    scheme, sep, location = uri.partition(":")
    if not sep or not location:
        raise ConfigError(f"store URI {uri!r} is not SCHEME:LOCATION (known: {', '.join(known())})")
    return store_class(scheme)(location, table)
