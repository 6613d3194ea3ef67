"""Running headers and footers."""

from __future__ import annotations

from citechunk.conversion.repairs.running import strip_running_lines


def test_strip_running_lines_drops_repeats_only() -> None:
    topics = ["cash", "debt", "risk", "staff", "plans", "audit"]
    pages = [
        f"Acme Annual Report 2024\n\nBody about {t}.\n\nPage {i}" for i, t in enumerate(topics, 1)
    ]
    pages[2] = "| Acme Annual Report 2024 |\n\n" + pages[2]
    out = strip_running_lines(pages)
    assert all("Body" in p and "Page" not in p for p in out)
    assert "| Acme Annual Report 2024 |" in out[2]
    assert sum("Acme Annual Report 2024" in p for p in out) == 1
