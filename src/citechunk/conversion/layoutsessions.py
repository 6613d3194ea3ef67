"""The layout model's ONNX Runtime sessions, set up for many pages in one process.

Rule: a session whose input has one fixed shape (all but the batch axis) runs with ONNX
Runtime's CPU memory arena on; the others keep the library's setting. pymupdf-layout builds
every session with the arena off, so that a long-lived process does not keep the peak memory
of its largest input; for a fixed-shape model every page needs the same memory, so the arena
never grows past one page's need and saves mapping the tensors afresh on every run. The
output is bit-identical (`bench/layout_sessions.py` compares every page). The graph network,
whose input grows with the page's text, keeps the arena off.

pymupdf-layout offers no hook for session options, so `with_arena` is an adapter over the
analyzer's attributes (as of pymupdf 2.0: the image feature extractor's ``_session`` and the
table-grid extractor's ``_grid_sess``), rebuilding each such session from the same model file
with the same options, providers and threads but the arena. Where an attribute is missing
(another version of the library) it leaves that session as built and logs it once: slower,
never different.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Slot:
    """Where one of the analyzer's sessions lives (`owner`.`attribute`) and its model file."""

    name: str
    owner: Any
    attribute: str
    path: str


def fixed_shape_slots(analyzer: Any) -> Iterator[Slot]:
    """The analyzer's sessions whose input shape is fixed but for the batch axis: the image
    feature CNN (feature sets with "imf"; the others load it but never run it) and the
    table-grid CNN."""
    model = getattr(analyzer, "_model", None)
    extractor = getattr(model, "feature_extractor", None)
    grid = getattr(model, "table_grid_extractor", None)
    wanted = [("table grid", grid, "_grid_sess", getattr(grid, "grid_onnx_path", None))]
    if "imf" in str(getattr(model, "feature_set_name", "")):
        wanted.insert(
            0, ("image CNN", extractor, "_session", getattr(model, "imf_model_path", None))
        )
    for name, owner, attribute, path in wanted:
        session = getattr(owner, attribute, None)
        if session is None or path is None or not _fixed_shape(session):
            log.debug("layout model: no fixed-shape %s session found; left as built", name)
            continue
        yield Slot(name, owner, attribute, str(path))


def _fixed_shape(session: Any) -> bool:
    """True when every input's axes but the first (the batch) are numbers."""
    return all(all(isinstance(d, int) for d in i.shape[1:]) for i in session.get_inputs())


def rebuilt(slot: Slot, **options: Any) -> Any:
    """A new session for `slot`'s model file: the current session's options (threads and
    configuration entries included) and providers, with `options` set on top."""
    import onnxruntime as ort

    current = getattr(slot.owner, slot.attribute)
    settings = current.get_session_options()
    for key, value in options.items():
        setattr(settings, key, value)
    return ort.InferenceSession(slot.path, settings, providers=current.get_providers())


def with_arena(analyzer: Any) -> Any:
    """`analyzer` with its fixed-shape sessions rebuilt with the CPU memory arena on (module
    docstring); returned for chaining."""
    for slot in fixed_shape_slots(analyzer):
        setattr(slot.owner, slot.attribute, rebuilt(slot, enable_cpu_mem_arena=True))
        log.debug("layout model: %s session runs with the memory arena", slot.name)
    return analyzer
