"""What a document's first page says about which one it is: its kind, issuer, number and date.

The vocabulary `conversion.title` labels documents with (its module docstring states the rule):

- A *kind* phrase names only a kind of document: after dropping stop words, years, dates,
  version tokens ("v18May2020") and a form's number (the token after "form": "Form 10-K"),
  every word left is a document-kind word (`KIND_WORDS`). A word holding a digit that is none
  of those (a product or part name) makes the phrase name one document.
- An *issuer* line is a short line (at most `MAX_ISSUER_WORDS` words) whose last word is an
  organisation suffix (`ORG_SUFFIXES`: Inc., GmbH, Foundation, ...) or a public body's
  (`BODY_SUFFIXES`: Commission, Board, ...).
- A *field* is a label followed by an amount ("Grand Total 319.00"): never a title.
- The *number* is the document's own: the first labelled identifier of a line that names the
  document's kind (a word sharing its first `KIND_STEM` letters with a kind word: an
  invoice's invoice number, not its order number), else the first labelled identifier of the
  page: a number label (No., Nr., Number, Nummer, ID, #) followed on its line, or alone at the
  end of its line and followed by the next line, by a value of at least three characters
  holding a digit. An issue number after a volume ("Vol. 85, No. 152") and a page count
  ("Page 1 of 4") are no identifiers.
- The *subject* is the text a subject label introduces ("Subject:", "Re:", "Betreff:", ...):
  the rest of its line, else the lines after it in the same text block, at most
  `MAX_SUBJECT_WORDS` words. A citation label ("Neutral Citation:", "Citation:") and a front
  page's title field (WIPO ST.9 code "(54)") introduce a document's own name the same way.
  The text runs on over the next line while its last line ends without a stop and the next
  line is not labelled itself: over the next line wherever it starts after a citation or a
  title field, else, line after line, over the lines set under the text, indented past the
  label (a subject broken over lines with a hanging indent).
- An *institution banner* is a short capitalised name holding an institution word
  (`INSTITUTION_WORDS`: court, chamber, ministry, university, ...): it names the issuer set
  above the title, never the document.
- The *date* is the first date written on the page: "August 6, 2020", "6 August 2020",
  "31/12/2017", "2025-02-25" (English, German, French and Italian month names).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .textlayer import Line

#: Words that name a kind of document (lower case), for the kind test.
KIND_WORDS = frozenset(
    """
    invoice invoices bill bills receipt receipts voucher rechnung rechnungen quittung facture
    fattura factura nota order purchase statement statements report reports annual quarterly
    interim final technical manual manuals guide guides handbook user users user's owner
    owner's operator operator's operating instructions instruction reference installation
    quick start datasheet datasheets data sheet sheet brochure catalog catalogue specification
    specifications spec specs agreement agreements contract contracts terms conditions service
    services use policy policies privacy notice notices rule rules proposed final regulation
    regulations form forms minutes agenda plan proposal quotation quote offer angebot
    certificate letter memo memorandum presentation slides deck whitepaper paper white
    documentation release press filing filings application license licence warranty end
    payment tax retail summary exhibit tax-invoice procès-verbal proces-verbal protokoll
    bericht jahresbericht handbuch bedienungsanleitung anleitung datenblatt vertrag
    geschäftsbericht rapport manuel contrat relazione contratto manuale standard
    """.split()
)
#: Words dropped before the kind test.
STOP_WORDS = frozenset(
    "the a an of and for to on in by de la le les du des der die das und von di del della "
    "e et & / - – — : ( ) no. nr.".split()
)
#: Last words of an organisation's or a public body's name (lower case, dots kept).
ORG_SUFFIXES = frozenset(
    """
    inc inc. incorporated corp corp. corporation company co co. ltd ltd. limited llc l.l.c.
    llp lp l.p. plc gmbh ag kg se sa s.a. sas s.a.s. sarl spa s.p.a. srl s.r.l. nv n.v. bv
    b.v. ab oy dac pvt pty asa foundation association institute society
    """.split()
)
#: Last words of a public body's name: an issuer only where no company is named.
BODY_SUFFIXES = frozenset(
    "commission department agency administration ministry board bureau authority council".split()
)
MAX_ISSUER_WORDS = 8
#: Words naming an institution that issues documents under its own banner (a court, a
#: chamber, a ministry, a university), in the languages of the corpus (lower case).
INSTITUTION_WORDS = frozenset(
    """
    court courts tribunal chamber kamer parliament parlement parlamento senate senado sénat
    congress assembly ministry ministerio ministère ministero ministerie university
    universidad universität università université universiteit universidade department
    departamento government gobierno
    """.split()
)
#: An institution banner holds at most this many words.
MAX_BANNER_WORDS = 16
#: A subject line's text is cut to this many words.
MAX_SUBJECT_WORDS = 40
_SUBJECT_RE = re.compile(
    r"^\s*(?:(?:subject|re|betreff|objet|oggetto|asunto|(?P<cited>(?:neutral\s+)?citation))"
    r"\s*:|(?P<coded>\(54\)))\s*(?P<rest>.*)$",
    re.I,
)
#: Lines of a cover page read for facts (the first page's lines, in reading order).
MAX_FACT_LINES = 120

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|"
    "januar|februar|märz|mai|juni|juli|oktober|dezember|"
    "janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|"
    "gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|dicembre"
)
_DATE_RE = re.compile(
    rf"\b(?:(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th|er)?\.?\s+(?:{_MONTHS})\.?,?\s+\d{{4}}"
    r"|\d{4}-\d{2}-\d{2}"
    r"|\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2}))\b",
    re.IGNORECASE,
)
_MONTH_WORD_RE = re.compile(rf"^(?:{_MONTHS})\.?,?$", re.IGNORECASE)
_NUMBER_LABEL = r"(?:no\.?|nr\.?|n°|number|nummer|numéro|numero|id|#)"
_VALUE = r"[A-Z0-9][A-Z0-9\-–/._]*"
_NUMBER_RE = re.compile(
    rf"(?<![\w.])(?P<label>{_NUMBER_LABEL})\s*[:.]?\s*(?P<value>{_VALUE})", re.IGNORECASE
)
_LABEL_END_RE = re.compile(rf"(?<![\w.]){_NUMBER_LABEL}\s*:?\s*$", re.IGNORECASE)
_VALUE_RE = re.compile(rf"^{_VALUE}$", re.IGNORECASE)
_VOLUME_RE = re.compile(r"\bvol(?:ume)?\.?\s*\d+\s*,?\s*$", re.IGNORECASE)
_AMOUNT_RE = re.compile(r"[\d.,]*\d[.,]\d{2}$")
_YEARISH_RE = re.compile(r"^(?:\(?v?\d[\d.,/\-–]*\)?|\(?v\d\w*\)?|fy'?\d+|q[1-4])$", re.IGNORECASE)
_TOKEN_STRIP = "()[]{}\"'“”‘’.,;:!?*"


@dataclass(frozen=True)
class CoverFacts:
    """What the first page says about which document it is ("" where it says nothing)."""

    kind: str = ""
    issuer: str = ""
    number: str = ""
    date: str = ""


def _tokens(text: str) -> list[str]:
    return [t.strip(_TOKEN_STRIP).casefold() for t in text.split() if t.strip(_TOKEN_STRIP)]


def _content_words(text: str) -> list[str]:
    """The words of `text` that the kind test weighs: stop words, years, dates, version tokens
    and a form's number dropped."""
    words: list[str] = []
    after_form = False
    for token in _tokens(text):
        skip = (
            token in STOP_WORDS
            or after_form
            or _YEARISH_RE.match(token) is not None
            or _MONTH_WORD_RE.match(token) is not None
        )
        after_form = token in ("form", "formular", "formulaire", "modulo")
        if not skip:
            words.append(token)
    return words


def is_kind(text: str) -> bool:
    """True when `text` names only a kind of document (module docstring)."""
    words = _content_words(text)
    return bool(words) and all(_kind_word(w) for w in words)


def _kind_word(word: str) -> bool:
    """A kind word, or kind words joined by slashes ("invoice/bill")."""
    parts = [part for part in word.split("/") if part]
    return bool(parts) and all(part in KIND_WORDS for part in parts)


def ends_with_kind(text: str) -> bool:
    """True when `text`'s last weighed word is a document-kind word and it holds no digit
    ("Aviation Accident Final Report", "Incident Response Plan")."""
    words = _content_words(text)
    return bool(words) and _kind_word(words[-1]) and not any(ch.isdigit() for ch in text)


_VERSUS = frozenset(("v", "v.", "vs", "vs.", "versus", "gegen", "contre", "contro"))


def is_issuer(text: str, suffixes: frozenset[str] = ORG_SUFFIXES | BODY_SUFFIXES) -> bool:
    """True when `text` is only an organisation's or public body's name (module docstring):
    at most `MAX_ISSUER_WORDS` words, no digit, the last one a suffix of `suffixes`, and no
    "v" between parties (a case name)."""
    raw = text.split()
    if not raw or len(raw) > MAX_ISSUER_WORDS or any(ch.isdigit() for ch in text):
        return False
    if any(t.casefold() in _VERSUS for t in raw):
        return False  # a case name: one party against another
    last = raw[-1].strip("()[]{}\"'“”‘’,;:!?*").casefold()
    return last in suffixes or last.rstrip(".") in suffixes


def is_institution(text: str) -> bool:
    """True when `text` is an institution's banner: at most `MAX_BANNER_WORDS` words, no
    digit, an `INSTITUTION_WORDS` word, and every other word capitalised or a stop word (a
    name, not a sentence)."""
    words = _tokens(text)
    raw = [t for t in text.split() if t.strip(_TOKEN_STRIP)]
    if not words or len(words) > MAX_BANNER_WORDS or any(ch.isdigit() for ch in text):
        return False
    named = all(
        w in STOP_WORDS
        or not t.strip(_TOKEN_STRIP)[:1].isalpha()
        or t.strip(_TOKEN_STRIP)[0].isupper()
        for w, t in zip(words, raw, strict=True)
    )
    return named and any(w in INSTITUTION_WORDS for w in words)


def is_field(text: str) -> bool:
    """True when `text` is a label followed by an amount ("Grand Total 319.00") or a label
    waiting for its value ("Ordered Through :")."""
    text = text.strip()
    return _AMOUNT_RE.search(text) is not None or text.endswith(":")


def issuer_text(line: str) -> str:
    """The issuer name of an issuer line: after a leading label ("Owner: X"), trailing
    punctuation removed."""
    return line.split(": ")[-1].strip().rstrip(" :;,").strip()


def find_number(lines: Sequence[str], kind: str = "") -> str:
    """The document's own number (module docstring), else ""."""
    kinds = [w for w in _content_words(kind) if len(w) >= KIND_STEM]
    own = [ln for ln in lines[:MAX_FACT_LINES] if _names_kind(ln, kinds)]
    return _first_number(own) if own and _first_number(own) else _first_number(lines)


#: Two words name the same kind when they share their first this many letters ("invoice",
#: "invoices").
KIND_STEM = 5


def _names_kind(line: str, kinds: Sequence[str]) -> bool:
    words = [t for t in _tokens(line) if len(t) >= KIND_STEM]
    return any(w[:KIND_STEM] == k[:KIND_STEM] for w in words for k in kinds)


def _first_number(lines: Sequence[str]) -> str:
    for i, line in enumerate(lines[:MAX_FACT_LINES]):
        for m in _NUMBER_RE.finditer(line):
            value, before = m.group("value").rstrip("._-–/"), line[: m.start()]
            if _VOLUME_RE.search(before) or before.strip().lower().endswith("page"):
                continue
            if len(value) >= 3 and any(ch.isdigit() for ch in value):
                return value
        if _LABEL_END_RE.search(line) and i + 1 < len(lines):
            value = lines[i + 1].strip()
            if _VALUE_RE.match(value) and len(value) >= 3 and any(ch.isdigit() for ch in value):
                return value.rstrip("._-–/")
    return ""


def find_date(lines: Sequence[str]) -> str:
    """The first date written in `lines`, else ""."""
    for line in lines[:MAX_FACT_LINES]:
        m = _DATE_RE.search(line)
        if m:
            return m.group(0)
    return ""


def cover_facts(lines: Sequence[str], display: Sequence[str] = ()) -> CoverFacts:
    """The facts of a first page whose `lines` are given in reading order; `display`: its
    display runs, largest first, searched for the kind and the issuer before the lines."""
    short = [ln.strip() for ln in lines[:MAX_FACT_LINES] if 0 < len(ln.split()) <= 6]
    kind = next((t for t in (*display, *short) if is_kind(t)), "")
    named = (*display, *short)
    issuer = next((issuer_text(t) for t in named if is_issuer(t, ORG_SUFFIXES)), "") or next(
        (issuer_text(t) for t in named if is_issuer(t, BODY_SUFFIXES)), ""
    )
    number = next((t for t in display if _bare_number(t)), "") or find_number(lines, kind)
    return CoverFacts(kind, issuer, number, find_date(lines))


def _bare_number(text: str) -> bool:
    """A display line that is one identifier with a digit and is not a year ("515065")."""
    return (
        len(text.split()) == 1
        and len(text) >= 3
        and any(ch.isdigit() for ch in text)
        and _YEARISH_RE.match(text) is None
        or (text.isdigit() and len(text) > 4)
    )


def find_subject(lines: Sequence[Line]) -> str:
    """The text a subject label introduces on the page (module docstring), else ""."""
    for i, line in enumerate(lines[:MAX_FACT_LINES]):
        m = _SUBJECT_RE.match(line.text)
        if not m:
            continue
        rest = m.group("rest").strip()
        if rest:
            named = bool(m.group("cited") or m.group("coded"))
            rest = " ".join([rest, *(ln.text.strip() for ln in _run_on(lines, i, named))])
        if not rest:
            after = lines[i + 1 : i + 12]
            block = after[0].block if after else None
            rest = " ".join(ln.text for ln in after if ln.block == block)
        words = rest.split()
        return " ".join(words[:MAX_SUBJECT_WORDS])
    return ""


#: A labelled line: a label and a colon ("Inventor:") or a bibliographic field code ("(75)").
_LABEL_RE = re.compile(r"^\s*(?:[^\W\d][\w .]{0,24}:|\(\d{2}\))")


def _run_on(lines: Sequence[Line], at: int, named: bool) -> list[Line]:
    """The lines after labelled line `at` that carry on its text (`_continues`), each after
    the last, up to a line that ends with a stop: the lines set under the text, indented
    past the label (starting more than a line height right of the labelled line: a hanging
    indent), and, after a document's own name (`named`: a citation or a title field), the
    next line wherever it starts."""
    label = lines[at]
    indent = label.box[0] + (label.box[3] - label.box[1])
    kept: list[Line] = []
    for after in lines[at + 1 :]:
        hanging = after.box[0] > indent
        if not _continues(kept[-1] if kept else label, after) or not (hanging or named):
            break
        kept.append(after)
        named = False
    return kept


def _continues(line: Line, after: Line) -> bool:
    """True when `after` carries on the text of labelled `line`: the line ends without a stop
    (".", ";", ":"), `after` is no labelled line itself and starts within two line heights
    below it."""
    height = line.box[3] - line.box[1]
    below = 0 < after.box[1] - line.box[1] <= 2 * height
    ends = line.text.rstrip()[-1:] in ".;:"
    return below and not ends and not _LABEL_RE.match(after.text) and bool(after.text.strip())
