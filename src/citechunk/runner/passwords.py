"""Passwords for encrypted PDFs, per file: `run.passwords_file` maps globs to passwords.

The file is TOML of top-level ``"glob" = "password"`` pairs. A glob matches a source's path
relative to INPUT as `export.include` does (case-insensitive; a glob without "/" also matches
the bare file name); the first matching pair in file order wins, else ``convert.password``
(``--password``, ``CITECHUNK_PASSWORD``). A password travels only inside the job's
`ConvertOptions` to the worker that opens the file: no output, log, manifest or ``run.json``
holds one (they record `ConvertOptions.redacted` and whether a password was given), and no
error message quotes one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..config import read_toml
from ..errors import ConfigError
from .discover import matches


@dataclass(frozen=True)
class Passwords:
    """The password for each source: `by_glob` in file order, else `default`."""

    default: str = ""
    by_glob: tuple[tuple[str, str], ...] = ()

    def __repr__(self) -> str:  # never show a password, even in a debugger or traceback
        return f"Passwords({len(self.by_glob)} glob(s), default given: {bool(self.default)})"

    def for_file(self, rel: str) -> str:
        for glob, password in self.by_glob:
            if matches(rel, (glob,)):
                return password
        return self.default


def load_passwords(path: str | os.PathLike[str] | None, default: str = "") -> Passwords:
    """The passwords of the TOML file at `path` (none when empty or None) over `default`.
    Raises `ConfigError` naming the file and the glob (never the password) when it is unusable."""
    if not path:
        return Passwords(default)
    pairs = []
    for glob, password in read_toml(path).items():
        if not isinstance(password, str) or not password:
            raise ConfigError(
                f"{path}: {glob!r} must map to a password string "
                '(the file holds top-level "glob" = "password" pairs)'
            )
        pairs.append((glob, password))
    return Passwords(default, tuple(pairs))
