"""`review(out, doc=...)`: one self-contained HTML page per document showing its chunks' boxes.

Each page of the PDF (or of the `pages` range) is rendered with PyMuPDF and embedded as a WebP
data URI (`DEFAULT_DPI` 72, `WEBP_QUALITY` 40: body text stays readable, and a page weighs
0.60-0.70 of the JPEG at quality 60 it replaces, `bench/review_weight.py --images`) in an ``<img loading="lazy" decoding="async">`` whose width and
height are given, so the browser lays every page out at once but decodes an image only when it
scrolls into view; each chunk's boxes (`ChunkRecord.boxes`, else computed from the saved source map) are drawn over it as
absolutely positioned rectangles, placed in percent of the page so they scale with the image.
Chunks get distinct hues (golden-angle steps). Hovering a box shows the chunk's index, heading
path, pages, token count and text; clicking pins it; the chunk list links to each chunk's first
box and highlights all of its boxes (on every page it crosses). The page needs no server, no
network and no outside script: its small script and style are inline.

The PDF is found as the run's INPUT (``OUT/run.json``) joined with the record's ``source_file``
(or in the folder given as `input`); a PDF whose bytes no longer match the records' sha256 is
refused, since the boxes would point at another text; reviewing every document, such a
document is skipped and the others are written (`ReviewError` names the skipped ones).
"""

from __future__ import annotations

import base64
import html
import io
import json
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .conversion.base import parse_pages
from .errors import CitechunkError, ConfigError, ReviewError
from .export import RUN_REPORT, ChunkRecord, document_stem, sourcemap
from .export.inspect import LoadedDocument, find_document, load_documents
from .export.sourcemap import Box
from .fsutil import atomic_write_text, sha256_file

log = logging.getLogger(__name__)

REVIEW_DIR = "review"
DEFAULT_DPI = 72
#: WebP quality of the page images (Pillow's scale, 0-100).
WEBP_QUALITY = 40
#: WebP encoder effort (0-6): 2 encodes a page about as fast as the JPEG encoder did, for a few
#: percent more bytes than the default 4, which takes twice as long.
WEBP_METHOD = 2


@dataclass(frozen=True)
class PageImage:
    """One rendered page: its number, size in points (as displayed), WebP bytes and pixels."""

    number: int
    width: float
    height: float
    image: bytes
    rotation: tuple[float, ...]  # the page's rotation matrix (unrotated -> displayed)
    pixels: tuple[int, int] = (0, 0)  # the image's width and height


def _source_pdf(out: Path, source_file: str, input: str | os.PathLike[str] | None) -> Path:
    if input is None:
        report = out / RUN_REPORT
        if not report.is_file():
            raise ConfigError(f"{out}: no {RUN_REPORT}; pass the input folder (--input)")
        input = json.loads(report.read_text(encoding="utf-8"))["input"]
    base = Path(input)
    pdf = base if base.is_file() else base / source_file
    if not pdf.is_file():
        raise ConfigError(f"{source_file}: source PDF not found at {pdf} (pass --input)")
    return pdf


def page_images(
    pdf: Path, dpi: int = DEFAULT_DPI, numbers: Sequence[int] | None = None
) -> list[PageImage]:
    """The pages `numbers` (1-based; every page when None) of `pdf` as WebP images at `dpi`."""
    import pymupdf

    pages = []
    with pymupdf.open(pdf) as doc:
        for n in numbers if numbers is not None else range(1, doc.page_count + 1):
            page = doc[n - 1]
            pix = page.get_pixmap(dpi=dpi)
            m = page.rotation_matrix
            pages.append(
                PageImage(
                    n,
                    page.rect.width,
                    page.rect.height,
                    webp(pix),
                    (m.a, m.b, m.c, m.d, m.e, m.f),
                    (pix.width, pix.height),
                )
            )
    return pages


def webp(pix: Any, quality: int = WEBP_QUALITY) -> bytes:
    """An RGB PyMuPDF pixmap as WebP bytes (Pillow, effort `WEBP_METHOD`)."""
    from PIL import Image

    image = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
    buffer = io.BytesIO()
    image.save(buffer, "WEBP", quality=quality, method=WEBP_METHOD)
    return buffer.getvalue()


def page_count(pdf: Path) -> int:
    import pymupdf

    with pymupdf.open(pdf) as doc:
        return int(doc.page_count)


def displayed(box: Box, page: PageImage) -> tuple[float, float, float, float]:
    """`box` (unrotated page coordinates) in the displayed page's coordinates."""
    a, b, c, d, e, f = page.rotation
    xs, ys = [], []
    for x, y in ((box.x0, box.y0), (box.x1, box.y0), (box.x0, box.y1), (box.x1, box.y1)):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return min(xs), min(ys), max(xs), max(ys)


def _chunk_boxes(out: Path, records: Sequence[ChunkRecord]) -> list[tuple[Box, ...]]:
    """Each record's boxes; computed from the saved source map for records without any."""
    if not records or any(r.boxes for r in records):
        return [r.boxes for r in records]
    smap = sourcemap.load(out / records[0].markdown_file)
    if smap is None:
        return [() for _ in records]
    return [tuple(smap.boxes(r.char_start, r.char_end)) for r in records]


def _hue(index: int) -> int:
    return round(index * 137.508) % 360


def _box_divs(index: int, boxes: Sequence[Box], page: PageImage) -> list[str]:
    divs = []
    for k, box in enumerate(b for b in boxes if b.page == page.number):
        x0, y0, x1, y1 = displayed(box, page)
        style = (
            f"left:{100 * x0 / page.width:.3f}%;top:{100 * y0 / page.height:.3f}%;"
            f"width:{100 * (x1 - x0) / page.width:.3f}%;height:{100 * (y1 - y0) / page.height:.3f}%;"
            f"--h:{_hue(index)}"
        )
        divs.append(
            f'<div class="box" id="b{index}-{page.number}-{k}" data-chunk="{index}" '
            f'style="{style}"></div>'
        )
    return divs


def _page_section(page: PageImage, chunk_boxes: Sequence[tuple[Box, ...]]) -> str:
    data = base64.b64encode(page.image).decode("ascii")
    width, height = page.pixels
    divs = [d for i, boxes in enumerate(chunk_boxes) for d in _box_divs(i, boxes, page)]
    return (
        f'<section class="page" id="page-{page.number}" data-page="{page.number}" '
        f'style="aspect-ratio:{page.width:.2f}/{page.height:.2f}">'
        f'<img alt="page {page.number}" loading="lazy" decoding="async" width="{width}" '
        f'height="{height}" src="data:image/webp;base64,{data}">'
        + "".join(divs)
        + f'<span class="pno">page {page.number}</span></section>'
    )


def _chunk_data(r: ChunkRecord, boxes: Sequence[Box]) -> dict[str, Any]:
    return {
        "index": r.chunk_index,
        "heading_path": list(r.heading_path),
        "pages": r.pages,
        "tokens": r.token_count,
        "text": r.text,
        "boxes": len(boxes),
        "hue": _hue(r.chunk_index),
    }


def _list_item(r: ChunkRecord, boxes: Sequence[Box]) -> str:
    path = " > ".join(r.heading_path) or "(no heading)"
    target = f"#b{r.chunk_index}-{boxes[0].page}-0" if boxes else "#"
    return (
        f'<li><a href="{target}" data-chunk="{r.chunk_index}" style="--h:{_hue(r.chunk_index)}">'
        f"<b>#{r.chunk_index}</b> {html.escape(r.pages)} · {r.token_count} tok · "
        f"{html.escape(path)}</a></li>"
    )


_STYLE = """
body{margin:0;font:14px system-ui,sans-serif;display:flex;height:100vh}
#list{width:320px;overflow:auto;border-right:1px solid #ccc;padding:8px;box-sizing:border-box}
#list ol{list-style:none;padding:0;margin:0}
#list a{display:block;padding:3px 6px;margin:2px 0;border-left:6px solid hsl(var(--h) 80% 45%);
 color:#222;text-decoration:none;font-size:12px}
#list a.on{background:hsl(var(--h) 80% 90%)}
main{flex:1;overflow:auto;background:#888;padding:12px}
.page{position:relative;max-width:900px;margin:0 auto 16px;background:#fff;box-shadow:0 1px 4px #0006}
.page img{display:block;width:100%;height:100%}
.pno{position:absolute;right:4px;bottom:2px;font-size:11px;color:#555}
.box{position:absolute;box-sizing:border-box;border:2px solid hsl(var(--h) 80% 40%);
 background:hsl(var(--h) 80% 55% / .18);cursor:pointer}
.box.on{background:hsl(var(--h) 80% 55% / .42);border-width:3px}
#info{position:fixed;right:12px;bottom:12px;width:420px;max-height:45vh;overflow:auto;
 background:#fffff4;border:1px solid #999;padding:8px;font-size:12px;white-space:pre-wrap;display:none}
"""

_SCRIPT = """
(function(){
var chunks=JSON.parse(document.getElementById('chunk-data').textContent);
var byIndex={};chunks.forEach(function(c){byIndex[c.index]=c;});
var info=document.getElementById('info');var pinned=null;
function mark(i,on){document.querySelectorAll('[data-chunk="'+i+'"]').forEach(function(e){
 e.classList.toggle('on',on);});}
function show(i){var c=byIndex[i];if(!c){return;}info.style.display='block';
 info.textContent='chunk #'+c.index+'  '+c.pages+'  '+c.tokens+' tokens  '+c.boxes+' boxes\\n'+
 (c.heading_path.join(' > ')||'(no heading)')+'\\n\\n'+c.text;}
function hide(){if(pinned===null){info.style.display='none';}else{show(pinned);}}
document.querySelectorAll('.box').forEach(function(b){var i=b.dataset.chunk;
 b.addEventListener('mouseenter',function(){mark(i,true);show(i);});
 b.addEventListener('mouseleave',function(){if(pinned!==i){mark(i,false);}hide();});
 b.addEventListener('click',function(){if(pinned!==null){mark(pinned,false);}
  pinned=(pinned===i)?null:i;if(pinned!==null){mark(i,true);show(i);}else{hide();}});});
document.querySelectorAll('#list a').forEach(function(a){var i=a.dataset.chunk;
 a.addEventListener('click',function(){if(pinned!==null){mark(pinned,false);}pinned=i;
  mark(i,true);show(i);});});
})();
"""


def render_html(
    title: str,
    records: Sequence[ChunkRecord],
    boxes: Sequence[tuple[Box, ...]],
    pages: Sequence[PageImage],
) -> str:
    """The review page for one document (see the module docstring)."""
    data = json.dumps([_chunk_data(r, b) for r, b in zip(records, boxes, strict=True)])
    data = data.replace("</", "<\\/")
    items = "".join(_list_item(r, b) for r, b in zip(records, boxes, strict=True))
    sections = "".join(_page_section(p, boxes) for p in pages)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>citechunk review: {html.escape(title)}</title><style>{_STYLE}</style></head>"
        f'<body><nav id="list"><h3>{html.escape(title)}</h3>'
        f"<p>{len(records)} chunks, {len(pages)} pages</p><ol>{items}</ol></nav>"
        f'<main id="pages">{sections}</main><div id="info"></div>'
        f'<script type="application/json" id="chunk-data">{data}</script>'
        f"<script>{_SCRIPT}</script></body></html>\n"
    )


def review_document(
    out: Path,
    loaded: LoadedDocument,
    target: Path,
    input: str | os.PathLike[str] | None,
    dpi: int,
    pages: str = "",
) -> Path:
    """Write one document's review page: the pages `pages` selects (``convert.pages`` syntax,
    "" = all) and the chunks with a page among them."""
    records = sorted(loaded.records, key=lambda r: r.chunk_index)
    pdf = _source_pdf(out, loaded.source_file, input)
    if records and sha256_file(pdf) != records[0].source_sha256:
        raise CitechunkError(f"{pdf}: changed since it was ingested (sha256 differs); re-ingest")
    numbers = parse_pages(pages, page_count(pdf))
    if pages.strip():
        shown = set(numbers)
        records = [r for r in records if shown & set(range(r.first_page, r.last_page + 1))]
    boxes = _chunk_boxes(out, records)
    page_html = render_html(loaded.source_file, records, boxes, page_images(pdf, dpi, numbers))
    atomic_write_text(target, page_html)
    log.info("%s: review page %s", loaded.source_file, target)
    return target


def review(
    out: str | os.PathLike[str],
    doc: str | None = None,
    output: str | os.PathLike[str] | None = None,
    input: str | os.PathLike[str] | None = None,
    dpi: int = DEFAULT_DPI,
    pages: str = "",
) -> list[Path]:
    """Write the review page of document `doc` (every document when None) and return the paths.

    `pages` ("3-7", "1,3,5-6", "40-"; "" = all) limits each page to those pages and the chunks
    on them: the way to a light page of a very long document.

    Pages go to ``OUT/review/<stem>.html`` unless `output` names the file (one document only).
    `input` is the folder (or PDF) the documents were ingested from, when not the run's INPUT.
    Raises ConfigError for an unknown document or `output` with several documents. One
    document that cannot be reviewed (its PDF missing or changed since the ingest) raises its
    error when it is the one asked for; among all documents it is skipped with an error log,
    the others are written, and `ReviewError` at the end names every skipped one.
    """
    root = Path(out)
    docs = [find_document(root, doc)] if doc else load_documents(root)
    if output is not None and len(docs) != 1:
        raise ConfigError(f"-o names one file but {root} holds {len(docs)} documents; pass --doc")
    if doc is not None or output is not None:
        target = Path(output or _target(root, docs[0]))
        return [review_document(root, docs[0], target, input, dpi, pages)]
    paths: list[Path] = []
    skipped: list[str] = []
    for loaded in docs:
        try:
            paths.append(review_document(root, loaded, _target(root, loaded), input, dpi, pages))
        except (CitechunkError, OSError) as exc:
            log.error("%s: skipped: %s", loaded.source_file, exc)
            skipped.append(f"{loaded.source_file} ({exc})")
    if skipped:
        raise ReviewError(
            f"review pages written for {len(paths)} of {len(docs)} documents; skipped "
            f"{len(skipped)}: {'; '.join(skipped)}",
            tuple(paths),
        )
    return paths


def _target(out: Path, loaded: LoadedDocument) -> Path:
    return out / REVIEW_DIR / f"{document_stem(loaded.source_file)}.html"
