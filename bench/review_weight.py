"""How heavy a review page is: file size and time to first paint in headless Chromium.

    python bench/review_weight.py PAGE.html [PAGE.html ...] [--runs 3]
    python bench/review_weight.py --images PDF [PDF ...] [--every 4] [--dpi 72]

For each page: its size in MB and per page image (KB: the HTML's bytes over its images), and
(median of --runs fresh loads from disk) the seconds from navigation to the first contentful
paint (the chunk list), to the largest contentful paint (the first page image) and to the load
event, and the page images decoded at load, in Debian's Chromium (/usr/bin/chromium) driven by
Playwright. Figures depend on the machine's load: compare pages measured in one run, side by side.

With --images: for each PDF, every --every-th page rendered at --dpi and encoded both ways, side
by side, as the review page embeds them (base64 KB per page): the JPEG at quality 60 the review
used before (issue 45) and `citechunk.review.webp` as it stands (what `page_images` embeds), and
the ratio of their encoding times (each page rendered once, encoded both ways).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
PAINT = """() => new Promise(done => {
  const seen = () => performance.getEntriesByName('first-contentful-paint')[0];
  const wait = () => seen() ? done(seen().startTime / 1000) : setTimeout(wait, 20);
  wait();
})"""
LARGEST = """() => new Promise(done => {
  new PerformanceObserver(list => {
    const all = list.getEntries(); done(all[all.length - 1].startTime / 1000);
  }).observe({type: 'largest-contentful-paint', buffered: true});
})"""
DECODED = "Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0).length"


def measure(path: Path, runs: int) -> tuple[float, float, float, float, str]:
    """(MB, first-paint s, largest-paint s, load s, "decoded/images") of the page at `path`."""
    paints, largest, loads, decoded = [], [], [], ""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(runs):
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(path.resolve().as_uri(), wait_until="load", timeout=300_000)
            paints.append(page.evaluate(PAINT))
            largest.append(page.evaluate(LARGEST))
            decoded = f"{page.evaluate(DECODED)}/{page.evaluate('document.images.length')}"
            loads.append(
                page.evaluate("performance.getEntriesByType('navigation')[0].loadEventStart / 1000")
            )
            page.close()
        browser.close()
    mb = path.stat().st_size / 1e6
    med = statistics.median
    return mb, med(paints), med(largest), med(loads), decoded


def base64_kb(data: bytes) -> float:
    """KB the bytes take in a base64 data URI."""
    return 4 * ((len(data) + 2) // 3) / 1000


def image_weights(pdf: Path, every: int, dpi: int) -> tuple[int, int, float, float, float]:
    """(pages, pages measured, KB/page as JPEG q60, KB/page as the review encodes now, encoding
    seconds now / before): each measured page rendered once, encoded both ways."""
    import pymupdf

    from citechunk.review import webp

    with pymupdf.open(pdf) as doc:
        count = doc.page_count
        pixmaps = [doc[n].get_pixmap(dpi=dpi) for n in range(0, count, every)]
    started = time.perf_counter()
    before = [base64_kb(pix.tobytes("jpeg", jpg_quality=60)) for pix in pixmaps]
    middle = time.perf_counter()
    after = [base64_kb(webp(pix)) for pix in pixmaps]
    ratio = (time.perf_counter() - middle) / (middle - started)
    n = len(pixmaps)
    return count, n, sum(before) / n, sum(after) / n, ratio


def compare_images(pdfs: list[Path], every: int, dpi: int) -> None:
    print(
        f"| PDF | pages (measured) | JPEG q60 KB/page | now KB/page | now / before | encoding time now / before |  ({dpi} dpi)"
    )
    print("|---|---|---|---|---|---|")
    for pdf in pdfs:
        count, measured, before, after, ratio = image_weights(pdf, every, dpi)
        print(
            f"| {pdf.name} | {count} ({measured}) | {before:.1f} | {after:.1f} | "
            f"{after / before:.2f} | {ratio:.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--images", action="store_true", help="PAGES are PDFs: image weights.")
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--dpi", type=int, default=72)
    args = parser.parse_args()
    if args.images:
        compare_images(args.pages, args.every, args.dpi)
        return
    print("| page | MB | KB/page | first paint s | first page image s | load s | decoded at load |")
    print("|---|---|---|---|---|---|---|")
    for path in args.pages:
        mb, paint, largest, load, decoded = measure(path, args.runs)
        per_page = 1000 * mb / max(1, int(decoded.split("/")[1]))
        print(
            f"| {path.name} | {mb:.1f} | {per_page:.1f} | {paint:.2f} | {largest:.2f} | "
            f"{load:.2f} | {decoded} |"
        )


if __name__ == "__main__":
    main()
