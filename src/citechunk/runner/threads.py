"""Cap the threads each worker process's libraries start, so N workers use N cores.

Contract: `limit_threads(n)` is called once in a fresh worker process, before a backend is
imported. Afterwards, in that process only:
- OpenMP/BLAS pools (torch, numpy; used by Docling) get `n` threads, unless the user already set
  the variable;
- every ONNX Runtime session (pymupdf-layout's models) runs with `n` intra-op threads and with
  spinning off. pymupdf-layout builds its sessions without thread options, and by default ORT
  starts one thread per core that busy-waits between calls: on 2 cores one worker then burns
  ~1.8 cores for ~1.2 cores of work, and two workers fight over the same cores. ORT has no
  environment variable for this, so the session class is wrapped.
The parent process and library users calling `citechunk.convert` directly are never touched.
"""

from __future__ import annotations

import logging
import os
from typing import Any

log = logging.getLogger(__name__)

_ENV_VARS = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")
_SPINNING = "session.intra_op.allow_spinning"


def limit_threads(threads: int) -> None:
    """Give OpenMP/BLAS and ONNX Runtime `threads` threads each in this process."""
    for name in _ENV_VARS:
        os.environ.setdefault(name, str(threads))
    _limit_onnxruntime(threads)


def _limit_onnxruntime(threads: int) -> None:
    try:
        import onnxruntime as ort
    except ImportError:  # backends without ONNX models
        return
    base = ort.InferenceSession
    if getattr(base, "_citechunk_threads", None) is not None:
        return

    class LimitedSession(base):  # type: ignore[misc, valid-type]
        _citechunk_threads = threads

        def __init__(self, path_or_bytes: Any, sess_options: Any = None, *args: Any, **kw: Any):
            options = sess_options if sess_options is not None else ort.SessionOptions()
            if options.intra_op_num_threads == 0:  # 0 = ORT's default: one per core
                options.intra_op_num_threads = threads
            options.add_session_config_entry(_SPINNING, "0")
            super().__init__(path_or_bytes, options, *args, **kw)

    ort.InferenceSession = LimitedSession
    log.debug("onnxruntime sessions limited to %d thread(s), no spinning", threads)
