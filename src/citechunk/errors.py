"""One exception tree for citechunk. The CLI maps `exit_code` to the process exit status.

Every error that concerns a file names the file and the cause in its message.
"""

from __future__ import annotations

from pathlib import Path


class CitechunkError(Exception):
    """Base class. `exit_code` is what the CLI exits with when this escapes a command."""

    exit_code = 1


class ConfigError(CitechunkError):
    """Bad configuration or usage: an unknown key, a wrong type, an impossible combination."""

    exit_code = 2


class BackendError(ConfigError):
    """An unknown backend name, or a known one whose optional dependencies are missing."""


class TokenizerError(ConfigError):
    """A tokenizer spec that cannot be loaded; the message says how to get it."""


class ConversionError(CitechunkError):
    """A PDF could not be converted. Carries the file path and a short cause."""

    def __init__(self, path: str | Path, cause: str) -> None:
        self.path = str(path)
        self.cause = cause
        super().__init__(f"{self.path}: {cause}")


class EncryptedPDFError(ConversionError):
    """The PDF is encrypted and no (or a wrong) password was given."""


class WorkerError(ConversionError):
    """A per-file worker timed out or its process died (for example a segfault in a C extension)."""


class OutputError(CitechunkError):
    """The output folder cannot be created or written (read-only, permission denied, a path
    through a file, ...): the message names the folder and the operating system's cause."""

    exit_code = 2


class ReviewError(CitechunkError):
    """`review` wrote some documents' pages and skipped others; names each skipped one and why.
    `written` holds the pages that were written."""

    def __init__(self, message: str, written: tuple[Path, ...] = ()) -> None:
        self.written = written
        super().__init__(message)


class LockedError(CitechunkError):
    """Another run holds the output folder's lock."""

    exit_code = 2


class StoreError(CitechunkError):
    """A vector store could not be opened, read or written; the message has the store's own."""


class ChunkFitError(StoreError):
    """The chunks were made for another embedder, or exceed the store model's window."""

    exit_code = 2


class ModelMismatchError(StoreError):
    """The store records another embedding model (or dimension) than the one asked for."""

    exit_code = 2
