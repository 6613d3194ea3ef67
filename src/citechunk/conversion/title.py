"""A document's label: what names it and tells its chunks apart from other documents' chunks.

Chunks of two documents made from one template (two quarterly filings, two invoices) share
their headings, so nothing in a chunk says which document it belongs to. The label goes in
front of every chunk's heading path (`chunking.heading`), so readers and retrievers see it.

The rule (`document_label`), the same for every document, to apply by hand:

1. Candidates. Each is a text that may name the document, with the source it comes from.
   - The *display title*. On the first page with readable text (of the first three; a garbled
     page is never read), the runs of consecutive lines set in the page's main direction in one
     display size (at least `TITLE_RATIO` times the body size, the size holding most characters
     on those pages; a margin stamp set across the text is ignored; a page turned sideways is
     read in its sideways lines; a line within `SAME_TYPE` of the size of the line above it,
     starting within one line spacing under it, is in its type: a recogniser measures one type a
     little differently line by line) are read largest size first, then top to bottom, stopping
     at a size that several runs with letters share (the document's heading level). Two
     exceptions: a shared size whose runs all stand above the page's first body line is one
     title set in pieces (read joined, in page order), and the smaller runs set above the first
     run of the heading level are read after the others (a title set smaller than its section
     headings). A contents list's title is no run. A run names a document when it has two or
     more words with letters (a run of `UNSPACED_WORDS` letters of a script written without
     blanks holds two), at most `MAX_TITLE_WORDS` words, and does not open with a section number
     (a run of one line: a run of several lines may open with a figure). Passed over: a field
     ("Ordered Through :"), a contents list's title, a *kind* run, one that names only a kind of
     document ("Data Sheet", "FORM 10-K"; `coverfacts.is_kind`), also as the last line of a
     banner, a line stating figures (`figures_only`) and an institution's banner
     (`coverfacts.is_institution`): the issuer, the title is read after it; and a question (a
     run ending with a question mark asks the reader, it names nothing). A run opening with a
     bibliographic field code (a bracketed two-digit number, WIPO ST.9) is a field, except the
     title's code `TITLE_FIELD_CODE`, read without its code. A one-word run holding a letter and
     a digit is a model or part name: it is the title together with the line after it. The first
     other run that names a document is the title. A title of at most `SHORT_TITLE_WORDS` words
     takes the smaller display run set right after it when that names a document and holds no
     date (its subtitle, not a byline). A title of at most `STACKED_TITLE_WORDS` words set in
     lines of two sizes is read whole: the display run stacked right under it in at least
     `STACKED_RATIO` of its size, with the smaller lines standing between them (a conjunction
     set small), top to bottom; else, when its words after the first are in lower case (a title
     of common words, naming no one), it takes the smaller display run set right after it whose
     every line is a labelled field holding a name ("Product: X", "Client: Y": what it is
     about), after `LABEL_SEPARATOR`; else it takes the regular line set right under it (within
     `LINE_SPACING` type sizes) larger than the body but below display size, when that names a
     document, is no field, holds no date and is not wholly in brackets (a note on the title). A
     run of pieces standing side by side on one row is read from right to left when its letters
     are mostly right-to-left. It is *generic* when it is an issuer's name only or ends with a
     kind word and holds no digit. A title ending with a kind word takes the bold display-size
     lines of one size set right before it. When the largest run is a kind run and no specific
     title was found, the title is the first bold, not all-capitals run of at least
     `MIN_BOLD_TITLE_WORDS` words set at body size or larger that a regular body line follows
     (`bold_title`). Only a specific (not generic) display title is a candidate.
   - The *outline's root* (its only top-level entry), when it names a document specifically.
   - The *metadata title*, unless it is a placeholder ("untitled", a scanner's "Scanned
     image" in any language), the file name, an identifier (letters fewer than
     `MIN_LETTER_SHARE` of its letters and digits, unless it ends with an organisation's
     name; a copy mark "(1)"; a long digit group), one word, or generic. It is *printed
     large* when the first page prints at least 80% of its words and a display-size run of
     the page that names a document specifically shares half its words (token F1 >=
     `AGREEING_F1`) while it does not agree with the display title: then it competes with
     the display title; one that agrees with the display title is a weak candidate (it lends
     its agreement). Else it is a candidate only when the page has no display title at all
     and names no other issuer; it is *printed* when the page prints half its words. A
     metadata title that is a file name (its last part after " - " ends with a file
     extension) gives that name, as a weak candidate (stronger when the page prints half its
     words).
   - The *subject line* (`coverfacts.find_subject`; run on over the lines set in a hanging
     indent under it), without a display title.
   - The *cover facts* (`coverfacts.cover_facts`: the first page's issuer, kind, the
     document's own number and date) completing what was found: the issuer, the generic title
     (or the kind when the title is only an issuer or missing; a generic metadata title when
     nothing else), then the specific metadata title (when the page prints half its words) or
     else the metadata subject when one names the document (and the page prints half its
     words), else the number and the date; parts another part holds are left out and the parts
     are joined by `LABEL_SEPARATOR`. When that leaves a kind or an issuer alone, the readable
     file name is added and the candidate is weak.
   - The *opening lines*, without a display title (`opening_lines`): the first text block's
     lines at body size or larger in the size of its first line (of the next block when the
     first is an institution's banner), when they stand on top of the page's text (a line
     that is only a page number aside), are at
     most `MAX_OPENING_LINES` lines, name a document (not only a kind or an issuer), are no
     field nor a contents list's title and hold no web address and no sentence end. Bold
     opening lines continue with the first line of the next text block when that is bold,
     in their size and centred on their axis (a title centred in two blocks: the kind of
     document, then its name). Opening lines that are a breadcrumb trail (`TRAIL_PARTS` or
     more parts of two or more words joined by slashes) are read by its last part.
   - The metadata subject when it names a document specifically and the page prints half its
     words, and the *file name* without its extension, underscores as spaces.
2. Evidence. Each candidate scores its source's weight (`EVIDENCE`), plus `AGREEMENT` when a
   candidate of another source read on its own (not the cover facts, made of the others, nor
   the file name) shares half its words (token F1 >= `AGREEING_F1`). The highest score is the
   label (the first listed on a tie), so the file name (0) is the last resort and a label is
   never empty.
3. Running lines, banner and repetition. The running lines are headers and footers: texts
   printed in a page's top or bottom `RUNNING_MARGIN` at one height on two or more of the
   first `RUNNING_PAGES` pages, a page number aside. A display title that a running line ends
   after words of its own, within `MAX_LABEL_WORDS` words, gives way to that line (the issuer
   the cover leaves out). A display title naming a part of a larger document (a part word and
   its number, `_PART_RE`) follows the undated running lines that share no word with it,
   which name the whole. A phrase repeated right after itself is said once. A display title
   or opening lines read under an institution's banner take the banner's first line after
   `LABEL_SEPARATOR` when the label does not already agree with it and both fit
   `MAX_LABEL_WORDS` words.
4. Length. A label of more than `MAX_LABEL_WORDS` words (blank-separated tokens holding a
   letter or digit) that ends with its short title in brackets (`_short_title`: a bracketed
   name of a document repeating a word of `SHORT_TITLE_SHARED` or more letters of the title
   before it; not a kind, an issuer, figures or a date) is that short title after the
   figures the title opens with (its number); such a display title is read whole, past
   `MAX_TITLE_CHARS`. Else it is cut at the last clause mark (",", ";", ":", a dash) after at least
   `MIN_CUT_WORDS` words within the first `MAX_LABEL_WORDS`, else after `MAX_LABEL_WORDS`
   words, without a last word of one or two characters (a particle left hanging); the whole
   title is kept as `Label.full` (the record's provenance `full_title`).

Text is NFKC-normalised (`clean`), in the document's own language, read from the text layer;
right-to-left text a producer stored in visual order is read in logical order first
(`visualorder.logical_order`) and the stretching stroke (tatweel) is dropped.
When OCR reads the page the label is read from (or a page before it: a cover only OCR reads),
the label is read again from the lines the
engine read with confidence (`base.relabelled`) and replaces the text layer's only with more
evidence. A line the engine read sideways (`ocr.page_text`: a box at least twice as tall as
wide, a stamp along the margin) is set sideways there too, so it is no display run.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..textkeys import compact_key
from .coverfacts import (
    CoverFacts,
    cover_facts,
    ends_with_kind,
    find_date,
    find_subject,
    is_field,
    is_institution,
    is_issuer,
    is_kind,
)
from .numbers import heading_number
from .outline import from_toc
from .rawlines import right_to_left
from .repairs.contents import is_list_title
from .runninglines import is_page_number
from .textlayer import Line, TextLayer, body_size, union_box
from .visualorder import logical_order

#: The display title's font is at least this many times the body font size.
TITLE_RATIO = 1.15
#: A run of large lines longer than this is a page set in a large font, not a title.
MAX_TITLE_WORDS = 40
#: A title is cut (at a word) to at most this many characters.
MAX_TITLE_CHARS = 200
#: Pages searched for the first page with text, and measured for the body size.
TITLE_PAGES = 3

#: A display title of at most this many words takes the smaller display run set right after
#: it (its subtitle).
SHORT_TITLE_WORDS = 2
#: A display run right after the title in at least this share of its size continues it (a
#: title set in lines of two sizes).
STACKED_RATIO = 0.8
#: ... when the title has at most this many words.
STACKED_TITLE_WORDS = 4
#: A line's spacing in times its type size (a line right under a title starts within it).
LINE_SPACING = 1.2
#: Lines of sizes within this share of each other, one under the other at one line spacing,
#: are set in one type.
SAME_TYPE = 0.03
#: A bold title under a banner has at least this many words.
MIN_BOLD_TITLE_WORDS = 4
#: A full stop after a letter, before a blank or the end (a sentence when the letter is lower-case).
_SENTENCE_END_RE = re.compile(r"([^\W\d_])\.(?:\s|$)", re.U)
#: The opening lines of a page are a title when their text block has at most this many lines.
MAX_OPENING_LINES = 3
#: A label holds at most this many words (blank-separated tokens with a letter or digit).
MAX_LABEL_WORDS = 12
#: A shortened label ends at a clause mark (",", ";", ":", a dash) after at least this many
#: words, else after `MAX_LABEL_WORDS` words.
MIN_CUT_WORDS = 4
#: A metadata title whose letters are fewer than this share of its letters and digits is
#: an identifier ("Meta-03.31.2024 - Exhibit 99.1").
MIN_LETTER_SHARE = 0.6
#: A front page's bibliographic field code (a bracketed two-digit number opening a line,
#: WIPO ST.9: "(12) United States Patent", "(45) Date of Patent"); the field with this code
#: holds the title ("(54) Method for node ranking in a linked database").
TITLE_FIELD_CODE = "54"
_FIELD_CODE_RE = re.compile(r"^\((?P<code>\d{2})\)\s*")
#: A title naming a part of a larger document: a part word and its number or letter.
_PART_RE = re.compile(
    r"^(?:section|chapter|part|annex|appendix|kapitel|abschnitt|chapitre|capitolo|capítulo|"
    r"sección|sezione|teil|anhang|annexe)\s+[\dIVXLC]+[A-Z]?\b",
    re.IGNORECASE,
)
#: Pages searched for running lines (headers and footers).
RUNNING_PAGES = 6
#: Running lines stand in this share of the page's height at its top or bottom.
RUNNING_MARGIN = 0.12
#: Running lines on two pages start within this many points of the same height.
RUNNING_TOLERANCE = 4.0
#: Between the parts of a label made of cover facts.
LABEL_SEPARATOR = " — "

LabelSource = Literal[
    "display title", "outline", "metadata", "cover facts", "opening lines", "file name"
]


@dataclass(frozen=True)
class Label:
    """A document's label, where it came from, the whole title when the label is shortened
    (`full`) and the score it won with (`evidence`, module rules, step 2)."""

    text: str
    source: LabelSource
    full: str = ""
    evidence: float = field(default=0.0, compare=False)


_WORD_RE = re.compile(r"[^\W\d_]{2,}")
#: A word of a metadata title: a blank-separated token holding a letter ("3M", "10-K").
_LETTERED_RE = re.compile(r"\S*[^\W\d_]\S*")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\ufffd]")
#: A title a producer or a scanner writes for any document: a placeholder ("untitled") or a
#: scanned page's generic name ("Scanned image", "Immagine scansionata", "Image numérisée").
_PLACEHOLDER_RE = re.compile(
    r"^(?:untitled|none|null|title|document\d*"
    r"|(?:scan(?:ned)?|digitali[sz]ed) (?:image|document|page|file)s?(?: \d+)?|scan \d+"
    r"|immagine (?:scansionata|acquisita)|documento (?:scansionato|escaneado|digitalizado)"
    r"|imagen escaneada|image numérisée|document numérisé|gescannte[sn]? (?:bild|dokument)"
    r"|scan(?:ned)? (?:from|by) .*)$",
    re.IGNORECASE,
)
_EXTENSIONS = r"docx?|pdf|tex|dvi|indd|rtf|odt|pptx?|xlsx?|pub|ps|txt|html?"
#: A metadata title holding a file name: its last part after " - " ends with an extension.
_FILE_NAME_RE = re.compile(rf"^(?:.* - )?(?P<stem>[^/\\]+?)\.(?:{_EXTENSIONS})$", re.IGNORECASE)
#: A copy mark or a long digit group: a title made from a file name ("TOS 4124-8263 (1)").
_COPY_RE = re.compile(r"\(\d\)$|\d{4}-\d{4}")
_TOKEN_RE = re.compile(r"[^\W_]+")
#: A spacing accent (after NFKC: a blank and a combining mark) set before its letter.
_ACCENT_RE = re.compile(r" ([\u0300-\u036f])(\w)")
_DASHES = frozenset("-–—")
_WEB_RE = re.compile(r"://|\bwww\.", re.IGNORECASE)


def _size(line: Line) -> float:
    return round(line.size, 1)


def _horizontal(line: Line) -> bool:
    """False for a line set sideways (a margin stamp such as an arXiv identifier): the text
    layer writes it in another direction than left to right and its box is taller than wide
    (a short word in a large type may stand in a box taller than wide)."""
    x0, y0, x1, y1 = line.box
    return not line.vertical or (x1 - x0) >= (y1 - y0) or len(line.text) < 2


def _main_direction(lines: Sequence[Line]) -> list[Line]:
    """The horizontal lines, or on a page turned sideways (more characters in sideways lines
    than in horizontal ones) the sideways lines: a margin stamp is set across the page's
    text."""
    across = [ln for ln in lines if _horizontal(ln)]
    sideways = [ln for ln in lines if not _horizontal(ln)]
    if sum(len(ln.text) for ln in sideways) > sum(len(ln.text) for ln in across):
        return sideways
    return across


def _runs(lines: Sequence[Line], display: float) -> list[tuple[float, str]]:
    """(size, text) of each run of consecutive lines set in one size of at least `display`,
    pieces of a right-to-left row read from right to left (`_row_order`)."""
    return [(size, _text(run)) for size, run in _line_runs(lines, display)]


def _line_runs(lines: Sequence[Line], display: float) -> list[tuple[float, list[Line]]]:
    """(size, lines) of each run of consecutive lines set in one size of at least `display`
    (the size of its first line; `_same_type`)."""
    runs: list[tuple[float, list[Line]]] = []
    last: Line | None = None
    for line in lines:
        if _size(line) < display:
            last = None
            continue
        if runs and last is not None and _same_type(last, line):
            runs[-1][1].append(line)
        else:
            runs.append((_size(line), [line]))
        last = line
    return runs


def _same_type(above: Line, line: Line) -> bool:
    """True when `line` after `above` is set in its type: the same size, or a size within
    `SAME_TYPE` of it on the next line down, starting within one line spacing
    (`LINE_SPACING` type sizes) of its top (a recogniser measures one type a little
    differently line by line)."""
    if _size(above) == _size(line):
        return True
    near = abs(line.size - above.size) <= SAME_TYPE * above.size
    step = line.box[1] - above.box[1]
    return near and 0 < step <= LINE_SPACING * above.size


def _text(lines: Sequence[Line]) -> str:
    return "\n".join(clean(ln.text) for ln in _row_order(lines))


def _row_order(lines: Sequence[Line]) -> list[Line]:
    """`lines` with each row of consecutive lines standing side by side (their heights
    overlapping by half the smaller) in reading order: right to left when the row's letters
    are mostly of right-to-left scripts, else as stored."""
    rows: list[list[Line]] = []
    for line in lines:
        if rows and _side_by_side(rows[-1][-1], line):
            rows[-1].append(line)
        else:
            rows.append([line])
    ordered: list[Line] = []
    for row in rows:
        rtl = len(row) > 1 and right_to_left("".join(ln.text for ln in row))
        ordered += sorted(row, key=lambda ln: -ln.box[2]) if rtl else row
    return ordered


def _side_by_side(a: Line, b: Line) -> bool:
    """Lines of one size whose heights overlap by half the smaller."""
    if _size(a) != _size(b):
        return False
    overlap = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
    return overlap >= 0.5 * min(a.box[3] - a.box[1], b.box[3] - b.box[1]) > 0


def names_document(text: str, numbered: bool = False) -> bool:
    """Two or more words with letters, at most `MAX_TITLE_WORDS` words, no section number
    (unless `numbered`: a run of several lines may open with a figure, "2 MHz ...")."""
    words = len(text.split())
    return (
        _named_words(text) and words <= MAX_TITLE_WORDS and (numbered or not heading_number(text))
    )


def _first_page(layer: TextLayer, skip: Collection[int]) -> tuple[list[Line], float]:
    """The first readable page's lines set in its main direction and the body size of the
    title pages."""
    numbers = [n for n in layer.numbers[:TITLE_PAGES] if n not in skip]
    pages = [_main_direction(layer.page(n).lines) for n in numbers]
    first = next((lines for lines in pages if lines), [])
    return first, body_size(ln for lines in pages for ln in lines)


def title_page(layer: TextLayer, skip: Collection[int] = ()) -> int | None:
    """The page the label is read from: the first of the first `TITLE_PAGES` pages, `skip`
    aside, that holds a line (None when none does)."""
    numbers = [n for n in layer.numbers[:TITLE_PAGES] if n not in skip]
    return next((n for n in numbers if _main_direction(layer.page(n).lines)), None)


def _display_runs(first: Sequence[Line], body: float) -> list[tuple[float, str]]:
    """The display runs of `first` a title is looked for in, in reading order (module rules,
    step 1: largest first, up to the heading level)."""
    runs = [r for r in _runs(first, TITLE_RATIO * body) if not is_list_title(clean(r[1]))]
    lettered = [r for r in runs if _WORD_RE.search(r[1])]
    sizes = Counter(size for size, _ in lettered)
    ordered = sorted(enumerate(runs), key=lambda r: (-r[1][0], r[0]))
    found: list[tuple[float, str]] = []
    joined = 0.0
    for _, (size, text) in ordered:
        if size == joined:
            continue
        if sizes[size] > 1:
            pieces = [t for s, t in runs if s == size]
            if not found and _above_body(first, pieces, body):
                found.append((size, "\n".join(pieces)))
                joined = size
                continue
            level = min(i for i, (s, t) in enumerate(runs) if s == size and _WORD_RE.search(t))
            found += [r for r in runs[:level] if r[0] < size and sizes[r[0]] <= 1]
            break
        found.append((size, text))
    return found


def _above_body(first: Sequence[Line], pieces: Sequence[str], body: float) -> bool:
    """True when every run of `pieces` starts above the first line set at body size (or
    smaller) that holds two words with letters."""
    body_tops = [
        ln.box[1] for ln in first if _size(ln) < TITLE_RATIO * body and _named_words(ln.text)
    ]
    starts = [ln.box[1] for ln in first if clean(ln.text) in {p.split("\n")[0] for p in pieces}]
    return bool(body_tops) and bool(starts) and max(starts) < min(body_tops)


def _lettered(text: str) -> set[str]:
    """The words of `text` of two or more letters, case-folded."""
    return {w for w in _tokens(text) if _WORD_RE.fullmatch(w)}


def _named_words(text: str) -> bool:
    """True when `text` holds two or more words with letters; a run of `UNSPACED_WORDS` or
    more letters of a script written without blanks (Chinese, Japanese, Thai) holds two."""
    return len(_WORD_RE.findall(text)) >= 2 or _UNSPACED_RE.search(text) is not None


#: A run of this many letters of a script written without blanks holds two or more words.
UNSPACED_WORDS = 4
_UNSPACED_RE = re.compile(
    rf"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{{{UNSPACED_WORDS},}}"
)


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
    """(title, generic) of the display runs (module rules, step 1); ("", True) when no run
    names a document."""
    base = ""
    for size, text in runs:
        flat = clean(text)
        code = _FIELD_CODE_RE.match(flat)
        if code and code.group("code") != TITLE_FIELD_CODE:
            continue
        flat = flat[code.end() :] if code else flat
        text = text[text.index(")") + 1 :].strip() if code else text
        if _identifier(flat):
            following = _line_after(first, flat)
            if following:
                return clean(f"{flat} {following}"), False
            continue
        if not names_document(flat, numbered="\n" in text) or is_field(flat):
            continue
        if is_list_title(flat) or figures_only(flat) or is_institution(flat) or _asks(flat):
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
        if len(flat.split()) <= SHORT_TITLE_WORDS:
            return clean(f"{flat} {_subtitle(first, text, body)}"), False
        if len(flat.split()) <= STACKED_TITLE_WORDS:
            fields = _fields_under(first, text, body)
            under = f"{LABEL_SEPARATOR.strip()} {fields}" if fields else ""
            under = under or _line_under(first, text, body)  # a named field, else a line
            return _stacked(first, text, size, body) or clean(f"{flat} {under}"), False
        whole = clean(text, limit=0)
        return (whole if _short_title(whole) else flat), False
    return base, True


def _line_under(first: Sequence[Line], run: str, body: float) -> str:
    """The line set right under the display run `run`: the next line of the page, starting
    within one line spacing (`LINE_SPACING` times the run's type size) below its last line,
    in regular type larger than the body but below display size (a display run is read by the
    display rules), when it names a document, is no field, holds no
    date and is not wholly in brackets (a note on the title); else ""."""
    texts = run.split("\n")
    at = next((i for i, ln in enumerate(first) if clean(ln.text) == texts[-1]), None)
    if at is None or at + 1 >= len(first):
        return ""
    last, under = first[at], first[at + 1]
    sized = body < _size(under) < TITLE_RATIO * body
    if under.bold or not sized or under.box[1] > last.box[3] + LINE_SPACING * last.size:
        return ""
    text = clean(under.text)
    noted = bool(_BRACKETED_RE.fullmatch(text)) or bool(find_date([text]))
    return text if names_document(text) and not is_field(text) and not noted else ""


def _fields_under(first: Sequence[Line], run: str, body: float) -> str:
    """The display run set right after `run`, in a smaller size, when `run` names no one (its
    words after the first are in lower case: a title of common words, "Summary report of
    security tests") and every line of that run is a labelled field holding a name
    (`_NAMED_FIELD_RE`: "Product: X", "Client: Y"), what the title is about; else ""."""
    runs = _runs(first, TITLE_RATIO * body)
    at = next((i for i, (_, t) in enumerate(runs) if t == run), None)
    if at is None or at + 1 >= len(runs) or runs[at + 1][0] >= runs[at][0]:
        return ""
    if any(not word.islower() for word in clean(run).split()[1:]):
        return ""
    fields = runs[at + 1][1].split("\n")
    return clean(", ".join(fields)) if all(_NAMED_FIELD_RE.match(f) for f in fields) else ""


#: A field holding a name: a label of one or two words, a colon, a capitalised value.
_NAMED_FIELD_RE = re.compile(r"^[^\W\d_]+(?: [^\W\d_]+)?:\s+[^\W\d_]*[A-Z]\w*")


def _stacked(first: Sequence[Line], run: str, size: float, body: float) -> str:
    """The title set in lines of two display sizes: `run` (of `size`) and the display run
    right after it, stacked under it (starting within one of its own line heights of the
    run's last line) in a size of at least `STACKED_RATIO` times `size`, with the smaller
    lines standing between their lines (a conjunction set small), read top to bottom; ""
    when no such run follows."""
    runs = _line_runs(first, TITLE_RATIO * body)
    at = next((i for i, (s, lines) in enumerate(runs) if s == size and _text(lines) == run), None)
    if at is None or at + 1 >= len(runs):
        return ""
    (_, lines), (after, below) = runs[at], runs[at + 1]
    height = below[0].box[3] - below[0].box[1]
    if not STACKED_RATIO * size <= after < size or below[0].box[1] > lines[-1].box[3] + height:
        return ""
    block = [*lines, *below]
    x0, y0, x1, y1 = union_box(ln.box for ln in block)
    between = [
        ln
        for ln in first
        if ln not in block
        and _size(ln) < after
        and x0 <= ln.box[0]
        and ln.box[2] <= x1
        and y0 <= ln.box[1]
        and ln.box[3] <= y1
    ]
    text = clean(" ".join(_text(sorted([*block, *between], key=lambda ln: ln.box[1])).split("\n")))
    return text if names_document(text, numbered=True) else ""


def _asks(text: str) -> bool:
    """True for a run that ends with a question mark: it asks the reader, it names nothing."""
    return text.rstrip().endswith(("?", "？", "؟"))


def figures_only(text: str) -> bool:
    """True for a line that states figures, not a name: a unit line wholly in brackets ("(In
    crores of Rupees)", "[in EUR m]") or a statement of counts (two or more figures, the first
    opening the line before a lower-case word: "267 people from 57 countries applied")."""
    figures = _FIGURE_RE.findall(text)
    words = text.split()
    counted = (
        len(figures) >= 2
        and len(words) > 1
        and _FIGURE_RE.fullmatch(words[0]) is not None
        and words[1][:1].islower()
    )
    return bool(_BRACKETED_RE.fullmatch(text)) or counted


_FIGURE_RE = re.compile(r"\d[\d.,]*")
_BRACKETED_RE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def _subtitle(first: Sequence[Line], run: str, body: float) -> str:
    """The display run set right after `run` on the page, in a smaller size, when it names a
    document, is no field and holds no date (a byline); else "" (a short title's subtitle)."""
    runs = _runs(first, TITLE_RATIO * body)
    at = next((i for i, (_, t) in enumerate(runs) if t == run), None)
    if at is None or at + 1 >= len(runs) or runs[at + 1][0] >= runs[at][0]:
        return ""
    after = clean(runs[at + 1][1])
    byline = bool(find_date([after]))
    return after if names_document(after) and not is_field(after) and not byline else ""


def _with_bold_neighbours(first: Sequence[Line], run: str, body: float) -> str:
    """`run` with the bold display-size lines (not larger than the run, of one size) read right
    before it (a title set in two sizes); lines after it may be the first heading."""
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


def meaningful_metadata_title(title: str, source: Path) -> str:
    """`title` from the PDF's metadata when it names the document (see module rules), else ""."""
    title = clean(title)
    if len(_LETTERED_RE.findall(title)) < 2 or _PLACEHOLDER_RE.match(title):
        return ""
    if _FILE_NAME_RE.match(title) or _COPY_RE.search(title):
        return ""
    if _letter_share(title) < MIN_LETTER_SHARE and not _issued(title):
        return ""
    if " " not in title or compact_key(title) == compact_key(source.stem):
        return ""
    return title


def _letter_share(text: str) -> float:
    """Letters over letters and digits of `text` (1.0 without either)."""
    letters = sum(ch.isalpha() for ch in text)
    digits = sum(ch.isdigit() for ch in text)
    return letters / (letters + digits) if letters + digits else 1.0


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
    """The document's label and where it came from (module rules): the candidate with the
    most evidence, shortened to `MAX_LABEL_WORDS` words."""
    first, body = _first_page(layer, skip)
    runs = _display_runs(first, body) if first else []
    title, is_generic = _pick(runs, first, body)
    if is_generic and _banner(runs):
        bold = bold_title(first, body)
        title, is_generic = (bold, False) if bold else (title, is_generic)
    printed = _printed_words(first)
    large = [clean(t) for _, t in _runs(first, TITLE_RATIO * body)] if first else []
    large = [run for run in large if names_document(run) and not generic(run)]
    facts = cover_facts([ln.text for ln in first], [clean(t) for _, t in runs])
    found: list[Candidate] = []
    if title and not is_generic:
        found.append(Candidate(title, "display title", EVIDENCE["display"]))
    root = _named(outline_root)
    if root and not generic(root):
        found.append(Candidate(root, "outline", EVIDENCE["outline"]))
    found += _metadata_candidates(metadata_title, source, printed, large, title, facts.issuer)
    stated = _named(find_subject(first))
    if stated and not title and not generic(stated):
        found.append(Candidate(stated, "cover facts", EVIDENCE["subject"]))
    subject = _named(meaningful_metadata_title(metadata_subject, source))
    printed_subject = subject and _printed_share(subject, printed) >= 0.5
    subject = subject if printed_subject and not generic(subject) else ""
    printed_meta = metadata_title if _printed_share(metadata_title, printed) >= 0.5 else ""
    found += _facts_candidate(title, root, printed_meta, source, subject, facts)
    opening = "" if title else opening_lines(first, body)
    if opening:
        weight = EVIDENCE["generic opening" if generic(opening) else "opening"]
        found.append(Candidate(opening, "opening lines", weight))
    if subject:
        found.append(Candidate(subject, "metadata", EVIDENCE["metadata subject"]))
    found.append(Candidate(readable_stem(source), "file name", 0.0))
    scores = [c.score + (AGREEMENT if _agrees(c, found) else 0.0) for c in found]
    evidence = max(scores)
    best = found[scores.index(evidence)]
    if best.source == "display title":
        running = running_lines(layer, skip)
        fuller = _fuller_running_line(best.text, running) or _part_of_whole(best.text, running)
        best = Candidate(fuller, best.source, best.score) if fuller else best
    return _shortened(_with_banner(best, banner(first, body)), best.source, evidence)


#: The evidence a candidate's source gives it (module rules, step 2).
EVIDENCE = {
    "metadata printed large": 6.5,
    "display": 6.0,
    "outline": 5.0,
    "metadata printed": 4.0,
    "subject": 3.5,
    "cover facts": 3.0,
    "opening": 2.4,
    "metadata": 2.2,
    "generic opening": 2.0,
    "metadata subject": 1.5,
    "metadata file name printed": 2.5,
    "metadata file name": 1.0,
    "cover facts with file name": 1.0,
}
#: Added to a candidate that another source's candidate agrees with (token F1 of at least
#: `AGREEING_F1`).
AGREEMENT = 1.0
AGREEING_F1 = 0.5


@dataclass(frozen=True)
class Candidate:
    """A text that may be the label, where it came from and the evidence for it."""

    text: str
    source: LabelSource
    score: float


def _metadata_candidates(
    metadata_title: str,
    source: Path,
    printed: Collection[str],
    large: Sequence[str],
    title: str,
    issuer: str,
) -> list[Candidate]:
    """The metadata title as a candidate (module rules): printed large on the first page, it
    competes with the display title; else it names the document only when the page has no
    display title and names no other issuer."""
    named_file = _metadata_file_name(metadata_title)
    if named_file:
        share = _printed_share(named_file, printed)
        score = EVIDENCE["metadata file name" + (" printed" if share >= 0.5 else "")]
        return [Candidate(named_file, "metadata", score)] if _named(named_file) else []
    meta = meaningful_metadata_title(metadata_title, source)
    meta = meta if (names_document(meta) or _issued(meta)) and not generic(meta) else ""
    if not meta:
        return []
    share = _printed_share(meta, printed)
    agrees = _f1(meta, title) >= AGREEING_F1
    if share >= 0.8 and not agrees and any(_f1(meta, run) >= AGREEING_F1 for run in large):
        return [Candidate(meta, "metadata", EVIDENCE["metadata printed large"])]
    if agrees:
        return [Candidate(meta, "metadata", EVIDENCE["metadata"])]
    if title or (issuer and not _issued(meta)):
        return []
    kind = "metadata printed" if share >= 0.5 else "metadata"
    return [Candidate(meta, "metadata", EVIDENCE[kind])]


def _facts_candidate(
    title: str, root: str, metadata_title: str, source: Path, subject: str, facts: CoverFacts
) -> list[Candidate]:
    """The cover facts completing what was found (module rules, step 2)."""
    meta = meaningful_metadata_title(metadata_title, source)
    named_meta = meta if meta and (names_document(meta) or _issued(meta)) else ""
    meta = named_meta if named_meta and not generic(named_meta) else ""
    base = title or root or ("" if facts.kind else named_meta)
    kind = "" if base and not is_issuer(base) else facts.kind
    tail = [meta or subject] if meta or subject else [facts.number, facts.date]
    parts = _distinct([facts.issuer, base, kind, *tail])
    if not (base or facts.issuer or facts.kind):
        return []
    if len(parts) == 1 and (is_kind(parts[0]) or is_issuer(parts[0])):
        text = clean(LABEL_SEPARATOR.join([*parts, readable_stem(source)]))
        return [Candidate(text, "cover facts", EVIDENCE["cover facts with file name"])]
    return [Candidate(clean(LABEL_SEPARATOR.join(parts)), "cover facts", EVIDENCE["cover facts"])]


def _metadata_file_name(title: str) -> str:
    """The readable file name a metadata title holds (its last part after " - " ends with a
    document file extension), else ""."""
    title = clean(title)
    m = _FILE_NAME_RE.match(title)
    if not m:
        return ""
    return clean(re.sub(r"[_\s]+", " ", m.group("stem")))


def _printed_words(first: Sequence[Line]) -> set[str]:
    return {w for ln in first for w in _tokens(ln.text)}


def _printed_share(text: str, printed: Collection[str]) -> float:
    """The share of `text`'s words with two or more letters that the first page prints (1.0
    for a page without text: nothing speaks against the text)."""
    words = {w for w in _tokens(text) if _WORD_RE.fullmatch(w)}
    if not printed or not words:
        return 1.0 if not printed else 0.0
    return len(words & set(printed)) / len(words)


def _tokens(text: str) -> list[str]:
    return _TOKEN_RE.findall(unicodedata.normalize("NFKC", text).casefold())


def _f1(a: str, b: str) -> float:
    """Token F1 of two texts' sets of words (runs of letters or digits)."""
    x, y = set(_tokens(a)), set(_tokens(b))
    common = len(x & y)
    return 0.0 if not common else 2 * common / (len(x) + len(y))


def _agrees(candidate: Candidate, found: Sequence[Candidate]) -> bool:
    """True when a candidate of another source read on its own (not the cover facts, made of
    the others, nor the file name) holds the same title (module rules)."""
    return candidate.source != "file name" and any(
        other.source not in (candidate.source, "file name", "cover facts")
        and _f1(candidate.text, other.text) >= AGREEING_F1
        for other in found
    )


def opening_lines(first: Sequence[Line], body: float) -> str:
    """The opening lines of the first page (module rules, step 1), else "". A sentence end is
    a full stop after a lower-case letter, at the end or before the next word; a line that is
    only a page number is no part of the page's text."""
    lines = [ln for ln in first if _size(ln) >= body and any(ch.isalnum() for ch in ln.text)]
    lines = [ln for ln in lines if not is_page_number(clean(ln.text))]
    if not lines or lines[0].box[1] > min(ln.box[1] for ln in lines) + 1:
        return ""
    if not _WORD_RE.search(lines[0].text):
        return ""
    block = _block(first, lines[0].block, body)
    if is_institution(clean(" ".join(ln.text for ln in block))):
        after = [ln for ln in lines if ln.block != lines[0].block and ln.box[1] > block[-1].box[1]]
        block = _block(first, after[0].block, body) if after else []
    text = clean(" ".join(ln.text for ln in block))
    if len(block) > MAX_OPENING_LINES or not text or is_field(text):
        return ""
    if not names_document(text) or is_kind(text) or is_issuer(text) or _WEB_RE.search(text):
        return ""
    if is_list_title(text):
        return ""
    ends = (m.group(1) for m in _SENTENCE_END_RE.finditer(text))
    if any(letter.islower() for letter in ends):
        return ""
    centred = _centred_after(first, block)
    return clean(f"{text} {centred.text}") if centred else _trail_end(text)


def _trail_end(text: str) -> str:
    """The last part of a breadcrumb trail (`TRAIL_PARTS` or more parts of two or more words
    each, joined by slashes: "Statutes of Malaysia/Principal Acts/Sale of Goods Act 1957"),
    which names the page the trail leads to; else `text`."""
    parts = [part.strip() for part in text.split("/")]
    if len(parts) < TRAIL_PARTS or any(len(part.split()) < 2 for part in parts):
        return text
    return parts[-1]


#: A breadcrumb trail has at least this many parts.
TRAIL_PARTS = 3


def _centred_after(first: Sequence[Line], block: Sequence[Line]) -> Line | None:
    """The first line of the text block after `block` when both are bold, in one size and
    centred on one axis (centres within one type size) and the line names a document (a
    title centred in two blocks: a kind of document, then its name); else None."""
    at = first.index(block[-1]) + 1 if block and block[-1] in first else len(first)
    if at >= len(first) or not all(ln.bold for ln in block):
        return None
    line = first[at]
    centre = (min(ln.box[0] for ln in block) + max(ln.box[2] for ln in block)) / 2
    same = line.bold and _size(line) == _size(block[0]) and line.block != block[-1].block
    aligned = abs((line.box[0] + line.box[2]) / 2 - centre) <= line.size
    return line if same and aligned and names_document(clean(line.text)) else None


def running_lines(layer: TextLayer, skip: Collection[int] = ()) -> list[str]:
    """The running lines of the first `RUNNING_PAGES` readable pages: texts printed in a
    page's top or bottom margin (`RUNNING_MARGIN`) at the same height (within `RUNNING_TOLERANCE` points) on two or more pages, compared without
    their figures, in the order first seen; a figure at either end that changes from page to
    page (a page number) is dropped."""
    seen: dict[tuple[str, int], dict[int, str]] = {}
    for number in [n for n in layer.numbers if n not in skip][:RUNNING_PAGES]:
        page = layer.page(number)
        for line in page.lines:
            if not _in_margin(line, page.height):
                continue
            text = clean(line.text)
            key = (re.sub(r"\d+", "", compact_key(text)), round(line.box[1] / RUNNING_TOLERANCE))
            if key[0]:
                seen.setdefault(key, {}).setdefault(number, text)
    return [_unnumbered(list(pages.values())) for pages in seen.values() if len(pages) >= 2]


def _in_margin(line: Line, height: float) -> bool:
    """True when `line` stands in the top or bottom `RUNNING_MARGIN` share of a page of
    `height` (any line when the height is unknown)."""
    if height <= 0:
        return True
    return line.box[1] < RUNNING_MARGIN * height or line.box[3] > (1 - RUNNING_MARGIN) * height


def _unnumbered(texts: Sequence[str]) -> str:
    """The first of `texts` (one running line on several pages) without a figure at either
    end that differs between them (a page number)."""
    words = texts[0].split()
    ends = {(t.split() or [""])[-1] for t in texts}
    starts = {(t.split() or [""])[0] for t in texts}
    if words and words[-1].isdigit() and len(ends) > 1:
        words.pop()
    if words and words[0].isdigit() and len(starts) > 1:
        words.pop(0)
    return " ".join(words)


def _part_of_whole(title: str, running: Sequence[str]) -> str:
    """A display title naming a part of a larger document (`_PART_RE`) after the running
    lines that name the whole (two or more words with letters, no date, no word of letters
    shared with the title), joined by `LABEL_SEPARATOR`; else ""."""
    if not _PART_RE.match(title):
        return ""
    whole = [
        line
        for line in running
        if _named_words(line) and not find_date([line]) and not _lettered(line) & _lettered(title)
    ]
    return LABEL_SEPARATOR.join([*whole, title]) if whole else ""


def _fuller_running_line(title: str, running: Sequence[str]) -> str:
    """The running line that ends with `title` after words of its own, within
    `MAX_LABEL_WORDS` words (a release or version after the title is no part of its name),
    else ""."""
    words = _tokens(title)
    for line in running:
        held = _tokens(line)
        longer = len(held) > len(words) and held[-len(words) :] == words
        if longer and len(line.split()) <= MAX_LABEL_WORDS and names_document(line):
            return line
    return ""


def _with_banner(best: Candidate, issuer: str) -> str:
    """The label read under an institution's banner with the banner after it ("Title —
    Issuer"), when the label is a display title or opening lines that do not already hold the
    banner's words and both fit `MAX_LABEL_WORDS` words; else the label alone."""
    text = _said_once(best.text)
    if not issuer or best.source not in ("display title", "opening lines"):
        return text
    if _f1(text, issuer) >= AGREEING_F1 or len(f"{text} {issuer}".split()) > MAX_LABEL_WORDS:
        return text
    return f"{text}{LABEL_SEPARATOR}{issuer}"


def _said_once(text: str) -> str:
    """`text` with a phrase repeated right after itself said once."""
    words = text.split()
    keys = [compact_key(w) for w in words]
    for n in range(len(words) // 2, 0, -1):
        for i in range(len(words) - 2 * n + 1):
            if keys[i : i + n] == keys[i + n : i + 2 * n] and any(keys[i : i + n]):
                return _said_once(" ".join(words[: i + n] + words[i + 2 * n :]))
    return text


def _block(first: Sequence[Line], number: int, body: float) -> list[Line]:
    """The lines of text block `number` at body size or larger, up to the first line of
    another size than its first."""
    block = [ln for ln in first if ln.block == number and _size(ln) >= body]
    if not block:
        return []
    size = _size(block[0])
    return block[: next((i for i, ln in enumerate(block) if _size(ln) != size), len(block))]


def banner(first: Sequence[Line], body: float) -> str:
    """The institution's banner set on top of the page (`coverfacts.is_institution`): the
    first line of the first display run or of the first text block at body size or larger,
    when that run or block is a banner; else "". The banner names the issuer, not the
    document."""
    for line in first:
        if _size(line) < body or not _WORD_RE.search(line.text):
            continue
        texts = [ln.text for ln in first if ln.block == line.block and _size(ln) == _size(line)]
        return clean(texts[0]) if is_institution(clean(" ".join(texts))) else ""
    return ""


def _counted(text: str) -> int:
    """Words of `text` as a label counts them: blank-separated tokens holding a letter or digit."""
    return sum(1 for w in text.split() if any(ch.isalnum() for ch in w))


def _short_title(text: str) -> str:
    """The short title a title too long for a label ends with: its last bracketed part, when
    that names a document (two or more words with letters, not a kind, an issuer, figures or
    a date) and repeats a word of `SHORT_TITLE_SHARED` or more letters of the title before
    it (a short form of the title, not a note on it), in at most `MAX_LABEL_WORDS` words,
    after the figures the title opens with (its number); "" for a title that fits or ends
    otherwise."""
    m = _SHORT_TITLE_RE.search(text)
    if _counted(text) <= MAX_LABEL_WORDS or not m:
        return ""
    name = clean(m.group("name"))
    if not names_document(name) or generic(name) or figures_only(name) or find_date([name]):
        return ""
    before = _lettered(text[: m.start()])
    if not any(len(w) >= SHORT_TITLE_SHARED for w in _lettered(name) & before):
        return ""
    number = _OPENING_FIGURES_RE.match(text)
    short = clean(f"{number.group(0) if number else ''} {name}")
    return short if _counted(short) <= MAX_LABEL_WORDS else ""


#: A short title in brackets repeats a word of at least this many letters of the title.
SHORT_TITLE_SHARED = 4
#: A title's last bracketed part, at its end.
_SHORT_TITLE_RE = re.compile(r"\((?P<name>[^()]+)\)\s*$")
#: The figures a title opens with, before its first word with letters ("35 538 ...").
_OPENING_FIGURES_RE = re.compile(r"^\d[\d .]*(?=\s[^\W\d_])")


def _shortened(text: str, source: LabelSource, evidence: float = 0.0) -> Label:
    """`text` as a label of at most `MAX_LABEL_WORDS` words (module rules, step 4)."""
    short = _short_title(text)
    if short:
        return Label(short, source, text, evidence)
    words = text.split()
    counted = [i for i, w in enumerate(words) if any(ch.isalnum() for ch in w)]
    if len(counted) <= MAX_LABEL_WORDS:
        return Label(text, source, evidence=evidence)
    end = counted[MAX_LABEL_WORDS - 1] + 1
    cut = next(
        (
            i + 1
            for i in range(end - 1, counted[MIN_CUT_WORDS - 1], -1)
            if words[i][-1] in ",;:" or (i + 1 < len(words) and words[i + 1] in _DASHES)
        ),
        end,
    )
    kept = words[:cut]
    while len(kept) > MIN_CUT_WORDS and len(kept[-1].strip(",;:")) <= 2:
        kept.pop()  # a particle left hanging ("... IN HOSPITALS IN")
    short = " ".join(kept).rstrip(" ,;:")
    return Label(short, source, text, evidence)


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


#: The stretching stroke of Arabic script (kashida): a glyph of the setting, not a letter.
_TATWEEL = "\u0640"


def clean(text: str, limit: int = MAX_TITLE_CHARS) -> str:
    """Right-to-left text stored in visual order read in logical order
    (`visualorder.logical_order`), NFKC, the stretching stroke dropped, a spacing accent set before its letter put on that letter ("Programaci´on":
    "Programación"), control and replacement characters dropped, whitespace collapsed, cut
    at a word to `limit` characters (`MAX_TITLE_CHARS`; 0: not cut)."""
    text = _ACCENT_RE.sub(r"\2\1", unicodedata.normalize("NFKC", logical_order(text)))
    text = text.replace(_TATWEEL, "")
    text = " ".join(_CONTROL_RE.sub(" ", unicodedata.normalize("NFC", text)).split())
    if not limit or len(text) <= limit:
        return text
    cut = text[: limit + 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-")
