"""A damaged PDF whose page tree is lost still holds its pages.

A PDF reaches its pages through the catalog's page tree (``/Root /Pages``). When that object
is gone or broken in a file MuPDF had to repair, MuPDF finds no page, though the page objects
(``/Type /Page``, each with its contents and resources) are still in the file. `rebuild` gives
the open document a new flat page tree of those page objects, in object-number order (the
only order the file still gives), so their text converts instead of the document being lost.
A file that needs no repair is never touched: a page object outside its page tree is a page
its author removed.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)


def _is_page(pdf: Any, xref: int) -> bool:
    try:
        return bool(pdf.xref_get_key(xref, "Type") == ("name", "/Page"))
    except Exception:  # noqa: BLE001 -- MuPDF raises its own error classes; unreadable: no page
        return False


def rebuild(pdf: Any) -> int:
    """Pages of the open, repaired, pageless `pdf` after giving it a page tree of its page
    objects (module docstring); 0 when it is not such a file, holds no page object, or
    MuPDF cannot write the new tree into it."""
    if pdf.page_count or not pdf.is_repaired or not pdf.is_pdf:
        return 0
    try:
        return _rebuild(pdf)
    except Exception:  # noqa: BLE001 -- MuPDF's own error classes: the file stays pageless
        log.debug("page tree not rebuilt", exc_info=True)
        return 0


def _rebuild(pdf: Any) -> int:
    pages = [x for x in range(1, pdf.xref_length()) if _is_page(pdf, x)]
    if not pages:
        return 0
    tree = pdf.get_new_xref()
    kids = " ".join(f"{x} 0 R" for x in pages)
    pdf.update_object(tree, f"<</Type/Pages/Kids[{kids}]/Count {len(pages)}>>")
    pdf.xref_set_key(pdf.pdf_catalog(), "Pages", f"{tree} 0 R")
    for x in pages:
        pdf.xref_set_key(x, "Parent", f"{tree} 0 R")
    log.info("page tree lost: rebuilt from %d page objects", len(pages))
    return int(pdf.page_count)
