"""A document's label: what names it and tells its chunks apart from other documents' chunks.

Chunks of two documents made from one template (two quarterly filings, two invoices) share
their headings, so nothing in a chunk says which document it belongs to. The label goes in
front of every chunk's heading path (`chunking.heading`), so readers and retrievers see it.

The rule (`document_label`), to apply by hand to a new document:

1. The display title. On the first page with readable text (of the first three; a garbled
   page is never read), the runs of consecutive horizontal lines set in one display size (at
   least `TITLE_RATIO` times the body size, the size holding most characters on those pages;
   sideways margin stamps ignored) are read largest size first, then top to bottom, stopping
   at a size that several runs share (the document's heading level). A run names a document
   when it has two or more words with letters, at most `MAX_TITLE_WORDS` words, and does not
   open with a section number. Passed over: a field ("Grand Total 319.00", "Ordered
   Through :") and a *kind* run, one that names only a kind of document ("Proposed Rules",
   "Data Sheet", "FORM 10-K", "ANNUAL REPORT 2022"; `coverfacts.is_kind` and its closed
   vocabulary), also as the last line of a banner ("UNITED STATES SECURITIES AND EXCHANGE
   COMMISSION / FORM 10-K"). A one-word run holding a letter and a digit is a model or part
   name: it is the title together with the line after it ("CX57C MINI EXCAVATOR"). The first
   other run that names a document is the title. It is *generic* when it is an issuer's name
   only ("MICROSOFT CORPORATION") or ends with a kind word and holds no digit ("National
   Transportation Safety Board Aviation Accident Final Report"); the search stops there. A
   title ending with a kind word takes the bold display-size lines of one size set right
   before it (a title over lines of two sizes: "Payment Card Industry (PCI)" / "Data Security
   Standard").
2. A banner gives way: when the largest run is a kind run and no specific title was found,
   the title is the first bold, not all-capitals run of at least `MIN_BOLD_TITLE_WORDS`
   words set at body size or larger that a regular body line follows (a notice's
   "Airworthiness Directives; The Boeing Company Airplanes" under "Proposed Rules").
3. A specific display title is the label (source "display title"). Else the outline's root
   (its only top-level entry), when it names a document specifically ("outline"). Else the
   metadata title, when it names the document (not a placeholder, a file name, an identifier,
   nor generic), and either no display title was found or it ends with a company's name
   ("metadata").
4. Else, without any display title, the text a subject label introduces on the first page
   ("Subject: Position of the Council ... (General Data Protection Regulation)"; "cover
   facts"). Else the cover facts (`coverfacts.cover_facts`: the first page's issuer, kind, number and
   date) complete what was found: the label is the issuer, the generic title (or the kind
   when the title is only an issuer or missing; a generic metadata title when nothing else),
   then the specific metadata title or else the metadata subject when one names the document,
   else the number and the date; parts that another part holds are left out, and the parts
   are joined by `LABEL_SEPARATOR` ("SQUARE, INC. — FORM 10-K — 001-37622 — December 31,
   2020"; source "cover facts"). A label that would be a kind or an issuer alone gets the
   readable file name added.
5. Else the metadata subject when it names a document, else the file name without its
   extension, underscores as spaces ("file name"). A label is never empty.

Text is NFKC-normalised (ligature glyphs spelled out, as in the body), control and
replacement characters are dropped and whitespace collapsed; the label is read from the text
layer, so it keeps its text's characters (a superscript is its character, never a footnote
mark: "I2C"), and is at most `MAX_TITLE_CHARS` characters, cut at a word. Two documents of a
set that share a template differ in their number or date, which generic titles carry.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..textkeys import compact_key
from .coverfacts import cover_facts, ends_with_kind, find_subject, is_field, is_issuer, is_kind
from .numbers import heading_number
from .outline import from_toc
from .textlayer import Line, TextLayer

#: The display title's font is at least this many times the body font size.
TITLE_RATIO = 1.15
#: A run of large lines longer than this is a page set in a large font, not a title.
MAX_TITLE_WORDS = 40
#: A title is cut (at a word) to at most this many characters.
MAX_TITLE_CHARS = 200
#: Pages searched for the first page with text, and measured for the body size.
TITLE_PAGES = 3

#: A bold title under a banner has at least this many words.
MIN_BOLD_TITLE_WORDS = 4
#: Between the parts of a label made of cover facts.
LABEL_SEPARATOR = " — "

LabelSource = Literal["display title", "outline", "metadata", "cover facts", "file name"]


@dataclass(frozen=True)
class Label:
    """A document's label (the head of every chunk's path line) and where it came from."""

    text: str
    source: LabelSource


_WORD_RE = re.compile(r"[^\W\d_]{2,}")
#: A word of a metadata title: a blank-separated token holding a letter ("3M", "10-K").
_LETTERED_RE = re.compile(r"\S*[^\W\d_]\S*")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\ufffd]")
_PLACEHOLDER_RE = re.compile(
    r"^(?:untitled|none|null|title|document\d*|microsoft (?:word|powerpoint|excel)\b.*"
    r"|.*\.(?:docx?|pdf|tex|dvi|indd|rtf|odt|pptx?|xlsx?))$",
    re.IGNORECASE,
)


def _size(line: Line) -> float:
    return round(line.size, 1)


def _horizontal(line: Line) -> bool:
    """False for a line set sideways (a margin stamp such as an arXiv identifier)."""
    x0, y0, x1, y1 = line.box
    return (x1 - x0) >= (y1 - y0) or len(line.text) < 2


def _body_size(pages: Sequence[Sequence[Line]]) -> float:
    """The font size holding the most characters on `pages`."""
    weight: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            weight[_size(line)] += len(line.text)
    return weight.most_common(1)[0][0] if weight else 0.0


def _runs(lines: Sequence[Line], display: float) -> list[tuple[float, str]]:
    """(size, text) of each run of consecutive lines set in one size of at least `display`."""
    runs: list[tuple[float, list[str]]] = []
    last = 0.0
    for line in lines:
        size = _size(line)
        if size < display:
            last = 0.0
            continue
        if runs and size == last:
            runs[-1][1].append(line.text)
        else:
            runs.append((size, [line.text]))
        last = size
    return [(size, "\n".join(clean(t) for t in texts)) for size, texts in runs]


def names_document(text: str) -> bool:
    """Two or more words with letters, at most `MAX_TITLE_WORDS` words, no section number."""
    words = len(text.split())
    return (
        len(_WORD_RE.findall(text)) >= 2 and words <= MAX_TITLE_WORDS and not heading_number(text)
    )


def _first_page(layer: TextLayer, skip: Collection[int]) -> tuple[list[Line], float]:
    """The first readable page's horizontal lines and the body size of the title pages."""
    numbers = [n for n in layer.numbers[:TITLE_PAGES] if n not in skip]
    pages = [[ln for ln in layer.page(n).lines if _horizontal(ln)] for n in numbers]
    first = next((lines for lines in pages if lines), [])
    return first, _body_size(pages)


def _display_runs(first: Sequence[Line], body: float) -> list[tuple[float, str]]:
    """The display runs of `first`, largest first, then top to bottom, up to the first size
    that several runs share (the document's heading level: smaller runs are headings too)."""
    runs = _runs(first, TITLE_RATIO * body)
    sizes = Counter(size for size, _ in runs)
    ordered = sorted(enumerate(runs), key=lambda r: (-r[1][0], r[0]))
    found: list[tuple[float, str]] = []
    for _, (size, text) in ordered:
        if sizes[size] > 1:
            break
        found.append((size, text))
    return found


def generic(text: str) -> bool:
    """True when `text` says only what kind of document it is or who issued it (module rules):
    a kind phrase, an issuer's name, a title whose last line is a kind phrase ("... FORM
    10-K"), or a title ending with a kind word without a digit ("Aviation Accident Final
    Report")."""
    last = text.split("\n")[-1]
    return (
        is_kind(text)
        or is_issuer(text)
        or ends_with_kind(text)
        or (len(last.split()) > 1 and is_kind(last))
    )


def _pick(
    runs: Sequence[tuple[float, str]], first: Sequence[Line], body: float = 0.0
) -> tuple[str, bool]:
    """(title, generic) of the display runs (module rules): kind runs and fields are passed
    over, an issuer run ends the search as a generic title, a title ending in a kind word
    takes the bold lines set next to it (`_with_bold_neighbours`), a model or part name
    takes the line after it; ("", True) when no run names a document."""
    base = ""
    for _, text in runs:
        flat = clean(text)
        if _identifier(flat):
            following = _line_after(first, flat)
            if following:
                return clean(f"{flat} {following}"), False
            continue
        if not names_document(flat) or is_field(flat):
            continue
        last = text.split("\n")[-1]
        if is_kind(flat) or (len(last.split()) > 1 and is_kind(last)):
            base = base or (flat if is_kind(flat) else clean(last))
            continue
        if is_issuer(flat):
            return base or flat, True
        if ends_with_kind(flat):
            whole = _with_bold_neighbours(first, text, body)
            return whole, generic(whole)
        return flat, False
    return base, True


def _with_bold_neighbours(first: Sequence[Line], run: str, body: float) -> str:
    """`run` with the bold display-size lines (not larger than the run, of one size) read right
    before it: a title set over lines of two sizes ("Payment Card Industry (PCI)" / "Data
    Security Standard"). Lines after it are not taken: they may be the first heading."""
    texts = run.split("\n")
    start = next(
        (i for i in range(len(first)) if clean(first[i].text) == texts[0]),
        None,
    )
    if start is None:
        return clean(" ".join(texts))
    size = _size(first[start])
    end = start + len(texts)

    def joins(line: Line, side: Line) -> bool:
        return (
            line.bold
            and TITLE_RATIO * body <= _size(line) <= size
            and _size(line) == _size(side)
            and not is_field(clean(line.text))
        )

    if start > 0:
        side = first[start - 1]
        while start > 0 and joins(first[start - 1], side):
            start -= 1
    whole = clean(" ".join(line.text for line in first[start:end]))
    return whole if len(whole.split()) <= MAX_TITLE_WORDS else clean(" ".join(texts))


def _identifier(text: str) -> bool:
    """One word holding a letter and a digit: a model or part name ("CX57C", "ADNS-5020")."""
    return (
        len(text.split()) == 1
        and any(ch.isdigit() for ch in text)
        and len(_WORD_RE.findall(text)) >= 1
    )


def _line_after(first: Sequence[Line], text: str) -> str:
    """The line after the first line reading `text`, when it holds two words with letters."""
    for i, line in enumerate(first[:-1]):
        if clean(line.text) == text:
            after = clean(first[i + 1].text)
            return after if len(_WORD_RE.findall(after)) >= 2 and not is_field(after) else ""
    return ""


def _banner(runs: Sequence[tuple[float, str]]) -> bool:
    """True when the largest display run is only a kind of document ("Proposed Rules")."""
    return bool(runs) and is_kind(clean(runs[0][1]))


def bold_title(first: Sequence[Line], body: float) -> str:
    """The title a notice sets in bold at body size under a banner: the first run of
    consecutive bold lines of one size (at least the body size), not in capitals only (an
    all-capitals line is a banner: it ends a run and joins none), of at least
    `MIN_BOLD_TITLE_WORDS` words that name a document, directly followed by a regular (not
    bold) line of at least the body size."""
    run: list[Line] = []
    for line in [*first, None]:
        titled = line is not None and line.bold and _size(line) >= body
        if run and (not titled or line is None or _size(line) != _size(run[0]) or _caps(line)):
            text = clean(" ".join(ln.text for ln in run))
            follows = line is not None and not line.bold and _size(line) >= body
            if (
                follows
                and len(text.split()) >= MIN_BOLD_TITLE_WORDS
                and names_document(text)
                and not generic(text)
            ):
                return text
            run = []
        if line is not None and titled and not _caps(line):
            run.append(line)
    return ""


def _caps(line: Line) -> bool:
    return line.text.isupper()


def display_title(layer: TextLayer, skip: Collection[int] = ()) -> str:
    """The display title of the first readable page (see module rules), generic or not;
    `skip`: garbled pages."""
    first, body = _first_page(layer, skip)
    return _pick(_display_runs(first, body), first, body)[0] if first else ""


def meaningful_metadata_title(title: str, source: Path) -> str:
    """`title` from the PDF's metadata when it names the document (see module rules), else ""."""
    title = clean(title)
    if len(_LETTERED_RE.findall(title)) < 2 or _PLACEHOLDER_RE.match(title):
        return ""
    if " " not in title or compact_key(title) == compact_key(source.stem):
        return ""
    return title


def document_title(
    layer: TextLayer, metadata_title: str, source: Path, skip: Collection[int] = ()
) -> str:
    """The label's text (`document_label`)."""
    return document_label(layer, metadata_title, source, skip).text


def readable_stem(source: Path) -> str:
    """The file name without its extension, underscores and runs of separators as spaces."""
    return clean(re.sub(r"[_\s]+|(?<=\w)[-.](?=[A-Za-z])", " ", source.stem)) or source.name


def document_label(
    layer: TextLayer,
    metadata_title: str,
    source: Path,
    skip: Collection[int] = (),
    outline_root: str = "",
    metadata_subject: str = "",
) -> Label:
    """The document's label and where it came from (module rules, in their order)."""
    first, body = _first_page(layer, skip)
    runs = _display_runs(first, body) if first else []
    title, is_generic = _pick(runs, first, body)
    if is_generic and _banner(runs):
        bold = bold_title(first, body)
        if bold:
            return Label(bold, "display title")
    if title and not is_generic:
        return Label(title, "display title")
    root = _named(outline_root)
    if root and not generic(root):
        return Label(root, "outline")
    meta = meaningful_metadata_title(metadata_title, source)
    named_meta = meta if names_document(meta) or _issued(meta) else ""
    meta = named_meta if named_meta and not generic(named_meta) else ""
    facts = cover_facts([ln.text for ln in first], [clean(t) for _, t in runs])
    if meta and not title and (not facts.issuer or _issued(meta)):
        return Label(meta, "metadata")
    stated = _named(find_subject(first))
    if stated and not title and not generic(stated):
        return Label(stated, "cover facts")
    subject = _named(meaningful_metadata_title(metadata_subject, source))
    subject = subject if subject and not generic(subject) else ""
    base = title or root or ("" if facts.kind else named_meta)
    kind = "" if base and not is_issuer(base) else facts.kind
    tail = [meta or subject] if meta or subject else [facts.number, facts.date]
    parts = _distinct([facts.issuer, base, kind, *tail])
    if base or facts.issuer or facts.kind:
        if len(parts) == 1 and (is_kind(parts[0]) or is_issuer(parts[0])):
            parts.append(readable_stem(source))
        return Label(clean(LABEL_SEPARATOR.join(parts)), "cover facts")
    if subject:
        return Label(subject, "metadata")
    return Label(readable_stem(source), "file name")


def _issued(text: str) -> bool:
    """True when `text` ends with an organisation's name ("10-K - 02/07/2019 - 3M Company")."""
    return bool(text.split()) and is_issuer(text.split()[-1])


def _named(text: str) -> str:
    text = clean(text)
    return text if names_document(text) and "://" not in text else ""


def _distinct(parts: Sequence[str]) -> list[str]:
    """`parts` without empty ones and without one whose words another part holds."""
    kept = [clean(p) for p in parts if clean(p)]
    keys = [compact_key(p) for p in kept]
    return [
        p
        for i, p in enumerate(kept)
        if keys[i]
        and not any(
            j != i and keys[i] in keys[j] and (keys[i] != keys[j] or j < i)
            for j in range(len(kept))
        )
    ]


def pdf_label(
    doc: Any, source: Path, layer: TextLayer | None = None, skip: Collection[int] = ()
) -> Label:
    """`document_label` of an open PyMuPDF document (`layer`: its text layer, if read)."""
    metadata = doc.metadata or {}
    layer = layer or TextLayer.of_document(doc)
    roots = [entry for entry in from_toc(doc.get_toc(simple=True)) if entry.level == 1]
    root = roots[0].title if len(roots) == 1 else ""
    return document_label(
        layer,
        str(metadata.get("title") or ""),
        source,
        skip,
        outline_root=root,
        metadata_subject=str(metadata.get("subject") or ""),
    )


def pdf_title(
    doc: Any, source: Path, layer: TextLayer | None = None, skip: Collection[int] = ()
) -> str:
    """The text of `pdf_label`."""
    return pdf_label(doc, source, layer, skip).text


def clean(text: str) -> str:
    """NFKC, control and replacement characters dropped, whitespace collapsed, cut at a word
    to `MAX_TITLE_CHARS`."""
    text = " ".join(_CONTROL_RE.sub(" ", unicodedata.normalize("NFKC", text)).split())
    if len(text) <= MAX_TITLE_CHARS:
        return text
    cut = text[: MAX_TITLE_CHARS + 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-")
