"""Markdown syntax both the conversion and the chunking stage recognise (one definition each).

* `TABLE_SEPARATOR_RE`: a pipe-table delimiter row (``|---|:--:|``), matched with ``fullmatch``
  on one line without its newline (leading/trailing pipes optional, alignment colons allowed).
"""

from __future__ import annotations

import re

TABLE_SEPARATOR_RE = re.compile(r"[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*(?::?-+:?[ \t]*)?")
