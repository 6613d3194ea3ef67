"""Test-only backend for the Ray executor tests: kills the Ray actor that runs the file.

`ActorKillerBackend` behaves like `runner_backends.ChaosBackend`, and on a file whose name
contains "killactor" it SIGKILLs its parent process -- under the Ray executor that is the
actor holding the isolated child, as an OOM kill or a lost node would. It must end as one
failed row after bounded retries, without taking other files along.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from citechunk.config import ConvertOptions
from citechunk.models import ConvertedDocument
from runner_backends import ChaosBackend


class ActorKillerBackend(ChaosBackend):
    name = "test-actor-killer"

    def convert(self, path: Path, options: ConvertOptions) -> ConvertedDocument:
        if "killactor" in path.name:
            os.kill(os.getppid(), signal.SIGKILL)
            time.sleep(60)  # the actor is gone; this child dies with it (PDEATHSIG)
        return super().convert(path, options)
