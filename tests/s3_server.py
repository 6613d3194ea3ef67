"""Test helper: a real S3-compatible server (moto's server mode) on 127.0.0.1, never elsewhere.

`moto_s3()` starts it on a free loopback port and points the AWS_* environment at it (dummy
credentials, no profile, no instance metadata), so `citechunk.storage` and every process started
meanwhile (spawned workers, a local Ray instance) use it. It restores the environment and stops
the server on exit. Skips the test when moto is not installed (``pip install 'citechunk[ray]'``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from citechunk import storage

_ENV_DROP = ("AWS_PROFILE", "AWS_ENDPOINT_URL_S3", "AWS_SESSION_TOKEN", "AWS_CONFIG_FILE")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def moto_s3() -> Iterator[str]:
    """Run the server for the block; yields its endpoint URL (http://127.0.0.1:PORT)."""
    server_mod = pytest.importorskip("moto.server", reason="moto[server] not installed")
    port = _free_port()
    server = server_mod.ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
    server.start()
    url = f"http://127.0.0.1:{port}"
    env = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": url,
        "AWS_EC2_METADATA_DISABLED": "true",
    }
    saved = {k: os.environ.get(k) for k in (*env, *_ENV_DROP)}
    for key in _ENV_DROP:
        os.environ.pop(key, None)
    os.environ.update(env)
    try:
        yield url
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old
        server.stop()


def make_bucket(name: str) -> None:
    """Create a bucket on the current endpoint (citechunk itself never creates buckets)."""
    from pyarrow import fs

    settings = storage.s3_settings()
    fs.S3FileSystem(allow_bucket_creation=True, **settings).create_dir(name)  # type: ignore[arg-type]


def put_tree(local: Path, uri: str) -> list[str]:
    """Upload every file below `local` to `uri`; returns the relative paths."""
    base = storage.locate(uri)
    rels = sorted(p.relative_to(local).as_posix() for p in local.rglob("*") if p.is_file())
    for rel in rels:
        storage.upload(local / rel, base.child(rel))
    return rels


def get_tree(uri: str) -> dict[str, bytes]:
    """Every object below `uri`: relative path -> bytes."""
    base = storage.locate(uri)
    return {e.rel: storage.read_bytes(base.child(e.rel)) for e in storage.list_files(base)}
