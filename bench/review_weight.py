"""How heavy a review page is: file size and time to first paint in headless Chromium.

    python bench/review_weight.py PAGE.html [PAGE.html ...] [--runs 3]

For each page: its size in MB, and (median of --runs fresh loads from disk) the seconds from
navigation to the first contentful paint (the chunk list), to the largest contentful paint (the
first page image) and to the load event, and the page images decoded at load, in Debian's Chromium
(/usr/bin/chromium) driven by Playwright. Figures depend on the machine's load: compare pages
measured in one run, side by side.
"""

from __future__ import annotations

import argparse
import statistics
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print("| page | MB | first paint s | first page image s | load s | images decoded at load |")
    print("|---|---|---|---|---|---|")
    for path in args.pages:
        mb, paint, largest, load, decoded = measure(path, args.runs)
        print(f"| {path.name} | {mb:.1f} | {paint:.2f} | {largest:.2f} | {load:.2f} | {decoded} |")


if __name__ == "__main__":
    main()
