"""OCR for pages without a usable text layer: page selection, engines, typed blocks per page.

`recognise(path, doc, pages, options)` is the one entry point (`base.Backend.convert` calls it
with an open PyMuPDF document, before the backend extracts); it returns an `OcrOutcome` whose
`blocks` per page (`blocks.Block`) the backend takes in place of its own reading of the page,
so OCR text goes through the same block processors, heading stage, renderer, passes, markers,
chunking and export as born-digital text.

Rules:

* Page selection (`select_pages`): ``off`` -> none; ``force`` -> every selected page;
  ``auto`` -> a page whose text layer has no alphanumeric character and that is not blank
  (`is_blank`), or one where images cover at least `IMAGE_COVER` of the page and the text
  layer holds fewer than `NEGLIGIBLE_CHARS` alphanumeric characters (a scan with a stamped
  page number), or a page whose text layer is garbled (`is_garbled`). A born-digital page
  with readable text is never OCR'd under ``auto``.
* Engines (`convert.ocr_engine`), both offline, imported or run lazily:
  ``tesseract`` -- the Tesseract 5 command line (Debian ``tesseract-ocr`` + language packs),
  one process per document over all its pages, TSV output (words with confidences, blocks,
  paragraphs, lines); ``rapidocr`` -- ``rapidocr_onnxruntime`` (extra ``ocr``), whose wheel ships
  PP-OCRv4 detection/recognition and the text-line angle classifier (English and Chinese).
* Orientation and script: pages are rendered as displayed (``/Rotate`` applied). Tesseract
  reads every page with automatic orientation (``--psm 1``) in the configured languages, or
  under ``convert.ocr_languages = "auto"`` in those of the Latin script (`SCRIPT_LANGUAGES`).
  A page whose mean word confidence stays below `LOW_CONFIDENCE` gets Tesseract's
  orientation-and-script detection (``--psm 0``, the ``osd`` data), and is recognised again:
  rendered turned when it says "rotate", and under ``"auto"`` in each installed reading of the
  script it names (Thai -> tha; Han -> chi_sim, then chi_tra and jpn as further readings;
  Arabic -> ara, ...; a further reading only while none so far reaches `LOW_CONFIDENCE`). The
  reading with the highest mean confidence is kept, so a page in Latin script read confidently
  is never detected and reads exactly as with ``["eng"]`` (detection on every page would cost
  40-70% of an English reading per page, measured on four scans). A script whose language
  data is not installed keeps the Latin reading, with one warning per document naming the
  ``apt-get install tesseract-ocr-<lang>`` package; a script `SCRIPT_LANGUAGES` does not know
  keeps it silently. In a reading in a script's languages, lines of stray marks (lower
  than `MARK_LINE_HEIGHT` of the page's median character height, read with a mean confidence
  below `MARK_LINE_CONFIDENCE`) are dropped (`without_mark_lines`).
  RapidOCR: a probe at `PROBE_DPI` decides from the detected line boxes (mostly taller than
  wide: the page lies on its side) and the angle classifier's majority (0 or 180) how to turn
  the page before the real pass.
* Spaces: Tesseract's TSV gives a word per character (Thai) or run (Chinese) in scripts
  written without spaces; its text output, written in the same run, keeps the spaces the
  engine read. A word that follows the previous word of its line without a space there is
  merged into it (`join_unspaced`); in space-delimited scripts nothing changes.
* Words come back in the coordinates of the unrotated PDF page (PDF points, origin top-left), as
  a `textlayer.PageText`, so callers treat them like the PDF's own words.
* Blocks (`page_blocks`): one block per engine paragraph (Tesseract) or per run of lines
  without a gap larger than `PARAGRAPH_GAP` line heights or change of line height
  (RapidOCR), one line of one span per engine line, in page coordinates, the span's size the
  line's median word height in points (a word broken at a line end joined when the next line
  goes on in lower case: `join_lines`); a paragraph of at most two lines whose words are at
  least `HEADING_RATIO` times the page's median word height, with at most `HEADING_WORDS`
  words and no sentence-ending punctuation, read with a mean confidence of at least
  `HEADING_CONFIDENCE` (large type read poorly is a stamp, a logo or a signature), is a
  "section-header" of level 1 from `TITLE_RATIO`, else 2, its spans of no type size (the
  engine reads no font, so it takes no place in the document's heading scale:
  `headings.level_headings`), any other a "text" block.
* Threads: both engines get the process's ``OMP_NUM_THREADS`` (`thread_count`), else 1.
* A missing engine or language pack (`unavailable`) under ``auto`` leaves the pages empty and
  adds a warning naming them and the install command; under ``force`` it is a
  `ConversionError` for the file. An engine that fails at run time is handled the same way.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..config import ConvertOptions
from ..errors import ConversionError
from .blocks import CHAR_FILLED, Block, Kind, Span
from .blocks import Line as BlockLine
from .pagelist import page_ranges
from .textlayer import Line, PageText, Word, union_box

log = logging.getLogger(__name__)

#: Render resolution for recognition (dots per inch).
OCR_DPI = 200
#: Resolution of RapidOCR's orientation probe.
PROBE_DPI = 100
#: Share of the page area covered by images that makes a page with little text a scan.
IMAGE_COVER = 0.5
#: Fewer alphanumeric characters than this on an image-covered page: the text is negligible.
NEGLIGIBLE_CHARS = 40
#: A text layer is garbled with this many control/replacement characters, in this share of
#: its words.
GARBLED_CHARS = 20
GARBLED_SHARE = 0.2
_GARBAGE_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffd]")
_TOKEN_SPLIT_RE = re.compile(r"[ \t\n\r]+")
#: A page with no text is blank (nothing to recognise) when, rendered at BLANK_DPI, no pixel
#: is darker than BLANK_LEVEL.
BLANK_DPI = 36
BLANK_LEVEL = 200
#: Mean word confidence (0-100) below which Tesseract's orientation detection is consulted.
LOW_CONFIDENCE = 60.0
PARAGRAPH_GAP = 0.8
HEADING_RATIO = 1.3
TITLE_RATIO = 1.7
HEADING_WORDS = 12
#: Mean word confidence (0-100) an OCR'd paragraph needs to become a heading.
HEADING_CONFIDENCE = 80
#: Mean word confidence (0-100) an OCR'd line needs to be legible (read for the label).
LEGIBLE_CONFIDENCE = 80
#: An OCR'd line whose box is at least this many times taller than wide, holding at least
#: `SIDEWAYS_CHARS` characters, is set sideways (a stamp along the margin).
SIDEWAYS_RATIO = 2.0
SIDEWAYS_CHARS = 3
RAPIDOCR_LANGUAGES = ("eng", "chi_sim")
TESSERACT_APT = "apt-get install tesseract-ocr tesseract-ocr-eng"
RAPIDOCR_PIP = "pip install 'citechunk[ocr]'"
_ROTATE_RE = re.compile(r"Rotate:\s*(\d+)")
_SCRIPT_RE = re.compile(r"Script:\s*(\S+)")

#: Tesseract language codes per script its orientation-and-script detection names, as
#: alternative readings (each a "+"-joined set of codes); Debian ships each code as
#: ``tesseract-ocr-<code>``. A script several languages write has a reading per language (the
#: first is the one a warning names when none is installed). Han has several because the
#: detection cannot tell simplified from traditional characters (one model with both mixes
#: them: measured on a simplified exam sheet) and names Chinese pages "Japanese" too
#: (measured on a sample).
SCRIPT_LANGUAGES: dict[str, tuple[tuple[str, ...], ...]] = {
    "Latin": (("eng",),),
    "Han": (("chi_sim",), ("chi_tra",), ("jpn",)),
    "Japanese": (("jpn",), ("chi_sim",), ("chi_tra",)),
    "Hiragana": (("jpn",),),
    "Katakana": (("jpn",),),
    "Korean": (("kor",),),
    "Hangul": (("kor",),),
    "Thai": (("tha",),),
    "Lao": (("lao",),),
    "Khmer": (("khm",),),
    "Myanmar": (("mya",),),
    "Tibetan": (("bod",),),
    "Arabic": (("ara",), ("fas",), ("urd",)),
    "Hebrew": (("heb",),),
    "Syriac": (("syr",),),
    "Thaana": (("div",),),
    "Cyrillic": (("rus",), ("ukr",), ("bul",), ("srp",)),
    "Greek": (("ell",),),
    "Armenian": (("hye",),),
    "Georgian": (("kat",),),
    "Ethiopic": (("amh",),),
    "Cherokee": (("chr",),),
    "Devanagari": (("hin",), ("mar",), ("nep",)),
    "Bengali": (("ben",),),
    "Gurmukhi": (("pan",),),
    "Gujarati": (("guj",),),
    "Oriya": (("ori",),),
    "Tamil": (("tam",),),
    "Telugu": (("tel",),),
    "Kannada": (("kan",),),
    "Malayalam": (("mal",),),
    "Sinhala": (("sin",),),
}
#: The first reading of every page under ``ocr_languages = "auto"``.
LATIN = SCRIPT_LANGUAGES["Latin"][0]
#: In a reading in a detected script's languages, a line lower than this share of the page's
#: median character height and read with a mean confidence below `MARK_LINE_CONFIDENCE` is dropped.
MARK_LINE_HEIGHT = 0.5
MARK_LINE_CONFIDENCE = 75.0
_SENTENCE_END = (".", ",", ";", ":")


class OcrUnavailable(Exception):
    """The engine (or a language it needs) cannot run here; the message says how to install."""


@dataclass(frozen=True)
class OcrWord:
    """One recognised word: text, box in pixels of the image recognised, confidence 0-100,
    and its paragraph and line numbers within the page (engine numbering)."""

    text: str
    box: tuple[float, float, float, float]
    conf: float
    par: int
    line: int


@dataclass(frozen=True)
class RecognisedPage:
    """One OCR'd page: its blocks and its words (unrotated page coordinates), the mean word
    confidence (0-100) and the quarter turn (degrees clockwise) applied before recognition."""

    number: int
    blocks: tuple[Block, ...]
    words: PageText
    confidence: float
    turned: int = 0
    #: The lines read with a mean confidence of at least `LEGIBLE_CONFIDENCE` (`legible_text`).
    legible: PageText | None = None


@dataclass(frozen=True)
class OcrOutcome:
    """What `recognise` did for one document."""

    pages: tuple[RecognisedPage, ...] = ()
    seconds: float = 0.0
    warnings: tuple[str, ...] = ()
    engine: str = ""
    #: Pages selected for OCR, recognised or not (the warnings say why not).
    attempted: tuple[int, ...] = ()

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(p.number for p in self.pages)

    @property
    def blocks(self) -> dict[int, tuple[Block, ...]]:
        """The blocks of each recognised page."""
        return {p.number: p.blocks for p in self.pages}


# ----------------------------------------------------------------------------- page selection


def _alnum(text: str) -> int:
    return sum(ch.isalnum() for ch in text)


def _image_cover(page: Any) -> float:
    """Share of the page area covered by the union-free sum of image boxes (capped at 1)."""
    import pymupdf

    area = abs(page.rect) or 1.0
    covered = 0.0
    for info in page.get_image_info():
        box = pymupdf.Rect(info["bbox"]) & page.rect
        covered += abs(box)
    return min(1.0, covered / area)


def is_blank(page: Any) -> bool:
    """True when nothing visible is drawn: rendered at `BLANK_DPI`, no pixel is darker than
    `BLANK_LEVEL` (0 black - 255 white)."""
    import pymupdf

    pix = page.get_pixmap(dpi=BLANK_DPI, colorspace=pymupdf.csGRAY, alpha=False)
    return min(pix.samples, default=255) > BLANK_LEVEL


def is_garbled(text: str) -> bool:
    """A page text holding at least `GARBLED_CHARS` control or replacement characters, spread
    over at least `GARBLED_SHARE` of its words (blank-separated): a font without a usable
    Unicode map garbles every word, while dot leaders drawn in such a font sit in a few words
    of an otherwise readable page."""
    bad = len(_GARBAGE_RE.findall(text))
    if bad < GARBLED_CHARS:
        return False
    tokens = [t for t in _TOKEN_SPLIT_RE.split(text) if t]
    garbled = sum(1 for t in tokens if _GARBAGE_RE.search(t))
    return garbled >= GARBLED_SHARE * len(tokens)


def needs_ocr(page: Any) -> bool:
    """True when the page has no usable text layer (see the module rules for ``auto``)."""
    text = page.get_text("text")
    if is_garbled(text):
        return True
    chars = _alnum(text)
    if chars == 0:
        return not is_blank(page)
    return chars < NEGLIGIBLE_CHARS and _image_cover(page) >= IMAGE_COVER


def select_pages(doc: Any, pages: Sequence[int], mode: str) -> list[int]:
    """The 1-based pages to OCR under `mode` ("auto", "off" or "force")."""
    if mode == "off":
        return []
    if mode == "force":
        return list(pages)
    return [p for p in pages if needs_ocr(doc[p - 1])]


# ----------------------------------------------------------------------------- availability


def apt_package(language: str) -> str:
    """Debian package holding Tesseract's data for `language` ("chi_sim" -> tesseract-ocr-chi-sim)."""
    return "tesseract-ocr-" + language.lower().replace("_", "-")


@cache
def _tesseract_languages(binary: str) -> frozenset[str]:
    out = subprocess.run(
        [binary, "--list-langs"], capture_output=True, text=True, check=False, timeout=60
    )
    lines = (out.stdout + out.stderr).splitlines()
    return frozenset(x.strip() for x in lines if x.strip() and " " not in x.strip())


def no_data(languages: Sequence[str]) -> str:
    """Tesseract has no data for `languages`: what to install."""
    packages = " ".join(apt_package(x) for x in languages)
    return (
        f"Tesseract has no language data for {', '.join(languages)} "
        f"(install it: apt-get install {packages})"
    )


def unavailable(engine: str, languages: Sequence[str]) -> str:
    """Why `engine` cannot read `languages` here, with the install command ("" when it can)."""
    if engine == "tesseract":
        binary = shutil.which("tesseract")
        if binary is None:
            return f"Tesseract is not installed (install it: {TESSERACT_APT})"
        missing = [x for x in languages if x not in _tesseract_languages(binary)]
        return no_data(missing) if missing else ""
    if engine == "rapidocr":
        import importlib.util

        if importlib.util.find_spec("rapidocr_onnxruntime") is None:
            return f"RapidOCR is not installed (install it: {RAPIDOCR_PIP})"
        other = [x for x in languages if x not in RAPIDOCR_LANGUAGES]
        if other:
            return (
                f"RapidOCR's shipped model reads English and Chinese only, not {', '.join(other)} "
                f"(use convert.ocr_engine = 'tesseract' and apt-get install "
                f"{' '.join(apt_package(x) for x in other)})"
            )
        return ""
    return f"unknown OCR engine {engine!r} (known: rapidocr, tesseract)"


def thread_count() -> int:
    """Threads for one OCR call: ``OMP_NUM_THREADS`` (set by citechunk workers), else 1."""
    try:
        return max(1, int(os.environ.get("OMP_NUM_THREADS", "1")))
    except ValueError:
        return 1


# ----------------------------------------------------------------------------- rendering


@dataclass(frozen=True)
class Rendered:
    """A page image (PNG bytes or pixel samples) and the matrix mapping its pixels back to
    unrotated page coordinates."""

    pixmap: Any
    to_page: Any  # pymupdf.Matrix: image pixel -> unrotated page point
    turned: int


def render(page: Any, dpi: int = OCR_DPI, turn: int = 0) -> Rendered:
    """`page` as displayed, in grey at `dpi`, turned a further `turn` degrees clockwise."""
    import pymupdf

    zoom = dpi / 72.0
    matrix = pymupdf.Matrix(zoom, zoom).prerotate(turn)
    pix = page.get_pixmap(matrix=matrix, colorspace=pymupdf.csGRAY, alpha=False)
    shift = pymupdf.Matrix(1, 0, 0, 1, pix.x, pix.y)  # pixel -> rendered space
    to_page = shift * ~matrix * page.derotation_matrix
    return Rendered(pix, to_page, turn % 360)


def _page_box(
    box: tuple[float, float, float, float], to_page: Any
) -> tuple[float, float, float, float]:
    import pymupdf

    rect = pymupdf.Rect(box) * to_page
    rect.normalize()
    return (round(rect.x0, 2), round(rect.y0, 2), round(rect.x1, 2), round(rect.y1, 2))


# ----------------------------------------------------------------------------- Tesseract


def _tesseract_env() -> dict[str, str]:
    return {**os.environ, "OMP_THREAD_LIMIT": str(thread_count())}


def parse_tsv(text: str, pages: int) -> list[list[OcrWord]]:
    """Words per image from Tesseract's TSV output (``page_num`` is 1-based in list order)."""
    out: list[list[OcrWord]] = [[] for _ in range(pages)]
    for row in text.splitlines():
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5" or not cols[11].strip():
            continue
        page, block, par, line = (int(c) for c in cols[1:5])
        left, top, width, height = (float(c) for c in cols[6:10])
        if not 1 <= page <= pages:
            continue
        out[page - 1].append(
            OcrWord(
                cols[11].strip(),
                (left, top, left + width, top + height),
                float(cols[10]),
                block * 1000 + par,
                (block * 1000 + par) * 1000 + line,
            )
        )
    return out


def _run_tesseract(args: list[str]) -> str:
    binary = shutil.which("tesseract")
    if binary is None:
        raise OcrUnavailable(f"Tesseract is not installed (install it: {TESSERACT_APT})")
    try:
        done = subprocess.run(
            [binary, *args], capture_output=True, text=True, env=_tesseract_env(), check=False
        )
    except OSError as exc:
        raise OcrUnavailable(f"Tesseract could not start: {exc}") from exc
    if done.returncode != 0:
        raise OcrUnavailable(f"Tesseract failed: {' '.join(done.stderr.split())[:300]}")
    return done.stdout


def _merged(first: OcrWord, second: OcrWord) -> OcrWord:
    """Two words of one line as one: texts joined, boxes united, confidence weighted by length."""
    n1, n2 = len(first.text), len(second.text)
    box = (
        min(first.box[0], second.box[0]),
        min(first.box[1], second.box[1]),
        max(first.box[2], second.box[2]),
        max(first.box[3], second.box[3]),
    )
    conf = (first.conf * n1 + second.conf * n2) / (n1 + n2)
    return OcrWord(first.text + second.text, box, conf, first.par, first.line)


def join_unspaced(pages: list[list[OcrWord]], text: str) -> list[list[OcrWord]]:
    """`pages` (TSV words, in output order) with each word that `text` (Tesseract's text output
    of the same run) shows without a space before it merged into the previous word of its line.
    Where the two outputs do not align, the words are returned as they are."""
    pos, out = 0, []
    for page in pages:
        kept: list[OcrWord] = []
        for word in page:
            start = pos
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if not text.startswith(word.text, pos):
                log.debug("Tesseract's text and TSV outputs differ at %r", word.text)
                return pages
            pos += len(word.text)
            if kept and pos - len(word.text) == start and kept[-1].line == word.line:
                kept[-1] = _merged(kept[-1], word)
            else:
                kept.append(word)
        out.append(kept)
    return out


def tesseract_words(
    images: Sequence[Rendered], languages: Sequence[str], psm: int = 1
) -> list[list[OcrWord]]:
    """Recognise `images` in one Tesseract process (page segmentation mode `psm`), words
    joined where the engine read no space (`join_unspaced`)."""
    with tempfile.TemporaryDirectory(prefix="citechunk-ocr-") as tmp:
        names = []
        for i, image in enumerate(images):
            name = Path(tmp) / f"p{i:05d}.png"
            image.pixmap.save(str(name))
            names.append(str(name))
        listing = Path(tmp) / "pages.txt"
        listing.write_text("\n".join(names) + "\n", encoding="utf-8")
        lang = "+".join(languages)
        base = Path(tmp) / "out"
        _run_tesseract([str(listing), str(base), "-l", lang, "--psm", str(psm), "tsv", "txt"])
        table = base.with_suffix(".tsv").read_text(encoding="utf-8")
        text = base.with_suffix(".txt").read_text(encoding="utf-8")
    return join_unspaced(parse_tsv(table, len(images)), text)


@dataclass(frozen=True)
class Detection:
    """Tesseract's orientation-and-script detection of one page: degrees clockwise to turn it
    upright and the script's name ("" when it cannot tell)."""

    turn: int = 0
    script: str = ""


def parse_osd(text: str) -> Detection:
    """A `Detection` from Tesseract's ``--psm 0`` output."""
    rotate, script = _ROTATE_RE.search(text), _SCRIPT_RE.search(text)
    return Detection(int(rotate.group(1)) % 360 if rotate else 0, script.group(1) if script else "")


def tesseract_osd(image: Rendered) -> Detection:
    """Orientation and script of `image` (a `Detection` of nothing when Tesseract cannot tell:
    too few characters)."""
    with tempfile.TemporaryDirectory(prefix="citechunk-osd-") as tmp:
        name = Path(tmp) / "page.png"
        image.pixmap.save(str(name))
        try:
            text = _run_tesseract([str(name), "stdout", "--psm", "0"])
        except OcrUnavailable as exc:
            log.debug("orientation detection failed: %s", exc)
            return Detection()
    return parse_osd(text)


def script_readings(script: str, installed: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """The readings of `SCRIPT_LANGUAGES` for `script` whose language data is `installed`."""
    return tuple(
        r for r in SCRIPT_LANGUAGES.get(script, ()) if all(code in installed for code in r)
    )


def confidence(words: Sequence[OcrWord]) -> float:
    """Mean word confidence weighted by alphanumeric length (0 without such words)."""
    weights = [(_alnum(w.text), w.conf) for w in words if _alnum(w.text)]
    total = sum(n for n, _ in weights)
    return sum(n * c for n, c in weights) / total if total else 0.0


@dataclass(frozen=True)
class TesseractRun:
    """The readings kept per page, and the scripts detected whose data is not installed."""

    results: list[tuple[Rendered, list[OcrWord]]]
    missing: dict[str, list[int]]  # script -> pages that kept the first reading for want of it


def _tesseract_pages(
    doc: Any, numbers: Sequence[int], languages: Sequence[str] | str
) -> TesseractRun:
    first = LATIN if languages == "auto" else tuple(languages)
    images = [render(doc[n - 1]) for n in numbers]
    results = list(zip(images, tesseract_words(images, first), strict=True))
    missing: dict[str, list[int]] = {}
    for i, (image, words) in enumerate(results):
        if confidence(words) >= LOW_CONFIDENCE:
            continue
        found = tesseract_osd(image)
        readings: tuple[tuple[str, ...], ...] = (first,)
        if languages == "auto":
            installed = _tesseract_languages(shutil.which("tesseract") or "tesseract")
            readings = script_readings(found.script, installed)
            if found.script in SCRIPT_LANGUAGES and not readings:
                missing.setdefault(found.script, []).append(numbers[i])
            readings = readings or (first,)
        turned = render(doc[numbers[i] - 1], turn=found.turn) if found.turn else image
        for reading in readings:
            if found.turn == 0 and reading == first:
                continue
            if confidence(results[i][1]) >= LOW_CONFIDENCE:
                break  # a further reading of the script is tried only while none is good
            again = tesseract_words([turned], reading, psm=3 if found.turn else 1)[0]
            if reading != first:
                again = without_mark_lines(again)
            if confidence(again) > confidence(results[i][1]):
                results[i] = (turned, again)
    return TesseractRun(results, missing)


def without_mark_lines(words: list[OcrWord]) -> list[OcrWord]:
    """`words` without the lines of stray marks: lower than `MARK_LINE_HEIGHT` of the page's
    median character height and read with a mean confidence below `MARK_LINE_CONFIDENCE`
    (Tesseract's layout analysis splits marks stacked above or below a line, as in Thai, off
    as lines of their own, which the model then reads as noise). The median is taken over
    characters, not words: a script written without spaces has few, long words."""
    heights = [w.box[3] - w.box[1] for w in words for _ in range(max(1, _alnum(w.text)))]
    body = statistics.median(heights) if heights else 0.0
    return [
        w
        for line in _groups(words, "line")
        if _height(line) >= MARK_LINE_HEIGHT * body or confidence(line) >= MARK_LINE_CONFIDENCE
        for w in line
    ]


def _missing_warnings(missing: dict[str, list[int]]) -> tuple[str, ...]:
    """One warning per script detected without installed language data."""
    return tuple(
        f"pages {page_ranges(pages)} look {script} but were read as "
        f"{'+'.join(LATIN)}: {no_data(SCRIPT_LANGUAGES[script][0])}"
        for script, pages in missing.items()
    )


# ----------------------------------------------------------------------------- RapidOCR


@cache
def _rapidocr(threads: int) -> Any:
    from rapidocr_onnxruntime import RapidOCR

    return RapidOCR(intra_op_num_threads=threads, inter_op_num_threads=1)


def _array(image: Rendered) -> Any:
    import numpy as np

    pix = image.pixmap
    grey = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.h, pix.w)
    return np.ascontiguousarray(np.dstack([grey, grey, grey]))


def rapidocr_turn(engine: Any, image: Rendered) -> int:
    """Degrees clockwise to turn the page upright: line boxes mostly taller than wide mean a
    page on its side; the angle classifier's majority (RapidOCR turns tall crops a quarter
    counter-clockwise before classifying) tells which way."""
    import numpy as np

    img = _array(image)
    boxes, _ = engine.text_det(img)
    if boxes is None or len(boxes) == 0:
        return 0
    tall = sum(1 for b in boxes if np.linalg.norm(b[0] - b[3]) > 1.5 * np.linalg.norm(b[0] - b[1]))
    _, labels, _ = engine.text_cls(engine.get_crop_img_list(img, boxes))
    flipped = sum(1 for label, _score in labels if label == "180") > len(labels) / 2
    if tall > len(boxes) / 2:
        return 90 if flipped else 270
    return 180 if flipped else 0


def rapidocr_words(engine: Any, image: Rendered) -> list[OcrWord]:
    """Recognised lines split into words (boxes shared out by character count); paragraphs
    are runs of lines without a vertical gap over `PARAGRAPH_GAP` line heights."""
    result, _ = engine(_array(image))
    lines = []
    for points, text, score in result or []:
        xs = [float(p[0]) for p in points]
        ys = [float(p[1]) for p in points]
        lines.append(((min(xs), min(ys), max(xs), max(ys)), str(text), float(score) * 100))
    lines.sort(key=lambda x: (x[0][1], x[0][0]))
    median_h = statistics.median([b[3] - b[1] for b, _, _ in lines]) if lines else 0.0
    words: list[OcrWord] = []
    par, previous = 0, None
    for number, (box, text, score) in enumerate(lines):
        if previous is not None and _new_paragraph(previous, box, median_h):
            par += 1
        previous = box
        words.extend(_split_line(box, text, score, par, number))
    return words


def _new_paragraph(
    previous: tuple[float, float, float, float], box: tuple[float, float, float, float], h: float
) -> bool:
    """A gap over `PARAGRAPH_GAP` line heights, or a line height change over a quarter."""
    gap = box[1] - previous[3]
    before, now = previous[3] - previous[1], box[3] - box[1]
    return gap > PARAGRAPH_GAP * h or abs(now - before) > 0.25 * max(before, now)


def _split_line(
    box: tuple[float, float, float, float], text: str, score: float, par: int, line: int
) -> list[OcrWord]:
    parts = text.split()
    total = sum(len(p) for p in parts) + max(0, len(parts) - 1)
    x, out = box[0], []
    unit = (box[2] - box[0]) / total if total else 0.0
    for part in parts:
        width = unit * len(part)
        out.append(OcrWord(part, (x, box[1], x + width, box[3]), score, par, line))
        x += width + unit
    return out


def _rapidocr_pages(doc: Any, numbers: Sequence[int]) -> list[tuple[Rendered, list[OcrWord]]]:
    engine = _rapidocr(thread_count())
    out = []
    for n in numbers:
        turn = rapidocr_turn(engine, render(doc[n - 1], dpi=PROBE_DPI))
        image = render(doc[n - 1], turn=turn)
        out.append((image, rapidocr_words(engine, image)))
    return out


# ----------------------------------------------------------------------------- Markdown


def _groups(words: Iterable[OcrWord], key: str) -> list[list[OcrWord]]:
    """Consecutive words grouped by `key` ("par" or "line"), in order of first appearance."""
    groups: dict[int, list[OcrWord]] = {}
    for w in words:
        groups.setdefault(getattr(w, key), []).append(w)
    return list(groups.values())


def _height(words: Sequence[OcrWord]) -> float:
    return statistics.median([w.box[3] - w.box[1] for w in words]) if words else 0.0


def join_lines(lines: Sequence[str]) -> str:
    """Lines of one paragraph as one string; "conver-" + "sion" -> "conversion"."""
    out = ""
    for line in lines:
        if _broken(out, line):
            out = out[:-1] + line
        else:
            out = f"{out} {line}" if out else line
    return out


def _kept(words: Sequence[OcrWord]) -> list[OcrWord]:
    """Words without noise: a word with no letter or digit needs a confident reading."""
    return [w for w in words if _alnum(w.text) or w.conf >= 50]


def heading_level(words: Sequence[OcrWord], lines: Sequence[str], body_height: float) -> int:
    """The level of a paragraph of `words` (its `lines` of text) that is a heading (module
    rules): 1 from `TITLE_RATIO` times the body height, else 2; 0 for no heading."""
    text = join_lines(lines)
    ratio = _height(words) / body_height if body_height else 1.0
    heading = (
        ratio >= HEADING_RATIO
        and len(lines) <= 2
        and len(text.split()) <= HEADING_WORDS
        and sum(ch.isalpha() for ch in text) >= 3
        and not text.endswith(_SENTENCE_END)
        and confidence(words) >= HEADING_CONFIDENCE
    )
    if not heading:
        return 0
    return 1 if ratio >= TITLE_RATIO else 2


def page_blocks(number: int, words: Sequence[OcrWord], to_page: Any) -> tuple[Block, ...]:
    """Page `number`'s words as typed blocks in unrotated page coordinates (module rules);
    `to_page` maps the image's pixels to page points."""
    words = _kept(words)
    body = _height([w for w in words if _alnum(w.text) >= 2])
    paragraphs = enumerate(_groups(words, "par"))
    blocks = (_block(number, i, par, body, to_page) for i, par in paragraphs)
    return tuple(b for b in blocks if b is not None)


def _block(
    number: int, index: int, words: list[OcrWord], body: float, to_page: Any
) -> Block | None:
    """One paragraph's block (none without a letter or digit): a heading of its level
    (`heading_level`) whose spans have no type size (the engine reads none; so it takes no
    place in the document's heading scale), or text whose spans have their lines' measured
    size."""
    groups = _groups(words, "line")
    texts = [" ".join(w.text for w in line) for line in groups]
    if not _alnum(join_lines(texts)):
        return None
    level = heading_level(words, texts, body)
    lines = []
    for i, (group, text) in enumerate(zip(groups, texts, strict=True)):
        lines.append(_line(group, text, (index, _line_id(texts, i)), not level, to_page))
    kind: Kind = "section-header" if level else "text"
    box = union_box(ln.bbox for ln in lines)
    return Block(number, box, kind, tuple(lines), level=level or None)


def _line_id(texts: Sequence[str], index: int) -> int:
    """The line number the spans of line `index` of a paragraph's `texts` carry: the number
    of words broken at a line end before it (`join_lines`' rule), so the renderer joins a
    broken word's halves and reads every other line end as a space."""
    return sum(1 for a, b in zip(texts[:index], texts[1 : index + 1], strict=True) if _broken(a, b))


def _broken(line: str, following: str) -> bool:
    """`line` ends in a word broken by a hyphen that `following` continues in lower case."""
    return line.endswith("-") and len(line) > 1 and line[-2].isalpha() and following[:1].islower()


def _line(
    words: list[OcrWord], text: str, place: tuple[int, int], sized: bool, to_page: Any
) -> BlockLine:
    """One engine line as a line of one span at (block, line) `place`, its size (when
    `sized`) the words' median height in points, else 0."""
    box = _page_box(union_box(w.box for w in words), to_page)
    size = round(abs(to_page.a or to_page.b) * _height(words), 2) if sized else 0.0
    span = Span(
        text,
        size=size,
        char_flags=CHAR_FILLED,
        bbox=box,
        origin=(box[0], box[3]),
        block=place[0],
        line=place[1],
    )
    return BlockLine(box, (span,))


def page_text(number: int, words: Sequence[OcrWord], to_page: Any) -> PageText:
    """The words as a `PageText` in unrotated page coordinates (block = paragraph)."""
    blocks = {par: i for i, par in enumerate(dict.fromkeys(w.par for w in words))}
    line_ids = {ln: i for i, ln in enumerate(dict.fromkeys(w.line for w in words))}
    out_words = tuple(
        Word(w.text, _page_box(w.box, to_page), blocks[w.par], line_ids[w.line]) for w in words
    )
    lines = []
    for line in _groups(words, "line"):
        box = _page_box(union_box(w.box for w in line), to_page)
        text = " ".join(w.text for w in line)
        turned = _sideways(box, text)
        size = abs(to_page.a or to_page.b) * (_width(line) if turned else _height(line))
        lines.append(Line(text, box, blocks[line[0].par], round(size, 2), False, turned))
    return PageText(number, out_words, tuple(lines))


def _sideways(box: tuple[float, float, float, float], text: str) -> bool:
    """True for a line the engine read set sideways: its box at least `SIDEWAYS_RATIO` times
    taller than wide while it holds `SIDEWAYS_CHARS` or more characters (a word of three
    letters set across is wider than tall)."""
    x0, y0, x1, y1 = box
    chars = sum(not ch.isspace() for ch in text)
    return chars >= SIDEWAYS_CHARS and (y1 - y0) >= SIDEWAYS_RATIO * max(x1 - x0, 0.0) > 0


def _width(words: Sequence[OcrWord]) -> float:
    """The words' median width: the type size of a line set sideways."""
    return statistics.median([w.box[2] - w.box[0] for w in words]) if words else 0.0


def legible_text(number: int, words: Sequence[OcrWord], to_page: Any) -> PageText:
    """`page_text` of the lines read with a mean confidence (`confidence`) of at least
    `LEGIBLE_CONFIDENCE`: what the document's label may be read from (text in a script the
    engine has no data for, a stamp or a signature is read with low confidence)."""
    lines = _groups(_kept(words), "line")
    return page_text(
        number,
        [w for line in lines if confidence(line) >= LEGIBLE_CONFIDENCE for w in line],
        to_page,
    )


# ----------------------------------------------------------------------------- entry point


def _engine_pages(
    doc: Any, numbers: Sequence[int], options: ConvertOptions
) -> tuple[list[tuple[Rendered, list[OcrWord]]], tuple[str, ...]]:
    """The engine's reading per page and its warnings."""
    if options.ocr_engine == "tesseract":
        run = _tesseract_pages(doc, numbers, options.ocr_languages)
        return run.results, _missing_warnings(run.missing)
    return _rapidocr_pages(doc, numbers), ()


def _first_languages(options: ConvertOptions) -> Sequence[str]:
    """The languages every page is read in first (`LATIN` under "auto"; RapidOCR's model
    under "auto" with that engine)."""
    if options.ocr_languages != "auto":
        return options.ocr_languages
    return LATIN if options.ocr_engine == "tesseract" else RAPIDOCR_LANGUAGES


def _fail(path: Path, options: ConvertOptions, numbers: Sequence[int], why: str) -> OcrOutcome:
    if options.ocr == "force":
        raise ConversionError(path, f"OCR (convert.ocr = 'force') impossible: {why}")
    where = page_ranges(numbers)
    warning = f"pages without a text layer, not OCR'd: {where}: {why}"
    return OcrOutcome(warnings=(warning,), attempted=tuple(numbers))


def recognise(path: Path, doc: Any, pages: Sequence[int], options: ConvertOptions) -> OcrOutcome:
    """OCR the pages of open `doc` that `options.ocr` selects (see the module rules)."""
    numbers = select_pages(doc, pages, options.ocr)
    if not numbers:
        return OcrOutcome()
    why = unavailable(options.ocr_engine, _first_languages(options))
    if why:
        return _fail(path, options, numbers, why)
    start = time.perf_counter()
    try:
        results, notes = _engine_pages(doc, numbers, options)
    except OcrUnavailable as exc:
        return _fail(path, options, numbers, str(exc))
    recognised = tuple(
        RecognisedPage(
            n,
            page_blocks(n, words, image.to_page),
            page_text(n, words, image.to_page),
            confidence(words),
            image.turned,
            legible_text(n, words, image.to_page),
        )
        for n, (image, words) in zip(numbers, results, strict=True)
    )
    seconds = time.perf_counter() - start
    log.info(
        "%s: OCR (%s) of %d page(s) in %.1f s", path, options.ocr_engine, len(numbers), seconds
    )
    empty = [p.number for p in recognised if not p.blocks]
    warnings = notes + (
        (f"pages OCR'd without any text found: {page_ranges(empty)}",) if empty else ()
    )
    return OcrOutcome(recognised, seconds, warnings, options.ocr_engine, tuple(numbers))
