"""Question-free checks of a document's Markdown against the PDF's own text layer.

The measures (per 1,000 Markdown words unless said otherwise), compared over the pages that were
not OCR'd (an OCR'd page has no text layer to hold the Markdown to):

- ``invented``: Markdown words outside table rows beyond the count of the same word in the whole
  text layer (words that are 2-3 layer words run together, or a layer word reversed, aside): text
  repeated or made up by the conversion.
- ``glued``: Markdown words of 6+ characters absent from the layer that are 2 or 3 consecutive
  layer words run together ("ofkeys").
- ``cut``: two or three consecutive Markdown words, one of them absent from the layer, that run
  together are a layer word of 4+ characters ("indebte d").
- ``reversed``: Markdown words of 3+ letters absent from the layer whose reversal is a layer
  word: right-to-left text written backwards.
- ``cjk_spaces``: spaces between two CJK characters that the layer has side by side.
- ``coverage`` (a share): the layer's words that reach the page's Markdown, counted as multisets
  page by page, without running lines (a line repeating on 3+ pages with digits blurred) and
  page-number lines, which the conversion removes on purpose.

Text: NFKC, lower case, soft hyphens dropped; words are `textkeys.WORD_RE`'s (runs of letters
and digits; a character of a script written without spaces is a word of its own). A word hyphenated at a line
end in the layer is one word. These are the definitions of the project's wide check
(`bench/wide.py`); `label_f1` scores a document label against a true title.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..textkeys import WORD_RE

_CJK = "\u3040-\u30ff\u3400-\u9fff"
_CJK_SPACE_RE = re.compile(rf"([{_CJK}])[ \t\u3000]+(?=([{_CJK}]))")
_CJK_PAIR_RE = re.compile(rf"(?=([{_CJK}]{{2}}))")
_HYPHEN_END_RE = re.compile(r"[-\u00ad]\s*\n\s*")
_PAGE_RE = re.compile(r"^\s*<!--\s*page\s+(\d+)\s*-->\s*$", re.M)
_PAGE_NUMBER_RE = re.compile(r"^\s*(?:page\s*)?(?:\d+|[ivxlc]+)(?:\s*(?:of|/)\s*\d+)?\s*$", re.I)
_PAREN_RE = re.compile(r"\s*\([^()]*\)")
RUNNING_PAGES = 3


def words(text: str) -> list[str]:
    """The comparable words of `text` (see the module docstring)."""
    return WORD_RE.findall(unicodedata.normalize("NFKC", text).lower().replace("\u00ad", ""))


def markdown_pages(markdown: str) -> dict[int, str]:
    """{page number: that page's Markdown}, from the page markers (pages repeated are joined)."""
    parts = _PAGE_RE.split(markdown)
    pages: dict[int, str] = {}
    for i in range(1, len(parts) - 1, 2):
        n = int(parts[i])
        pages[n] = pages.get(n, "") + parts[i + 1]
    return pages


@dataclass(frozen=True)
class TextCheck:
    """One document's text measures (see the module docstring); examples name a few offenders."""

    words: int
    layer_words: int
    invented: float
    glued: float
    cut: float
    reversed: float
    cjk_spaces: float
    coverage: float
    covered: int
    coverable: int
    examples: Mapping[str, tuple[str, ...]]


def _running_signatures(pages: Sequence[str]) -> set[str]:
    seen: Counter[str] = Counter()
    for text in pages:
        seen.update({_signature(line) for line in text.splitlines() if line.strip()})
    return {sig for sig, n in seen.items() if n >= RUNNING_PAGES}


def _signature(line: str) -> str:
    return re.sub(r"\d+", "#", line.strip())


def _coverable(text: str, running: set[str]) -> list[str]:
    kept = (
        line
        for line in _HYPHEN_END_RE.sub("", text).splitlines()
        if _signature(line) not in running and not _PAGE_NUMBER_RE.match(line)
    )
    return words("\n".join(kept))


def _coverage(layer: Mapping[int, str], md: Mapping[int, str]) -> tuple[int, int]:
    running = _running_signatures(list(layer.values()))
    covered = total = 0
    for n, text in layer.items():
        want = Counter(_coverable(text, running))
        have = Counter(words(md.get(n, "")))
        total += sum(want.values())
        covered += sum(min(c, have[w]) for w, c in want.items())
    return covered, total


def _joins(seq: Sequence[str], n: int) -> set[str]:
    return {"".join(seq[i : i + n]) for i in range(len(seq) - n + 1)}


def _cut(md_words: Sequence[str], vocab: set[str]) -> list[str]:
    found = []
    for n in (2, 3):
        for i in range(len(md_words) - n + 1):
            parts = md_words[i : i + n]
            joined = "".join(parts)
            if len(joined) >= 4 and joined in vocab and any(p not in vocab for p in parts):
                found.append(" ".join(parts))
    return found


def _cjk_spaces(body: str, layer_text: str) -> list[str]:
    pairs = set(_CJK_PAIR_RE.findall(layer_text))
    return [a + " " + b for a, b in _CJK_SPACE_RE.findall(body) if a + b in pairs]


def _per_1000(count: int, total: int) -> float:
    return 1000 * count / max(1, total)


def check_text(
    layer_pages: Mapping[int, str], markdown: str, skip: Iterable[int] = ()
) -> TextCheck:
    """Compare `markdown` (page-marked) with the text layer (`{page: plain text}`) over the pages
    not in `skip` (the OCR'd ones)."""
    skipped = set(skip)
    layer_map = {n: t for n, t in layer_pages.items() if n not in skipped}
    raw = list(layer_map.values())
    layer = [w for t in raw for w in words(_HYPHEN_END_RE.sub("", t))]
    vocab = set(layer) | {w for t in raw for w in words(t)}
    marked = markdown_pages(markdown) or {1: markdown}
    md = {n: t for n, t in marked.items() if n not in skipped}
    body = "\n".join(md.values())
    prose = "\n".join(ln for ln in body.splitlines() if not ln.lstrip().startswith("|"))
    all_words, prose_words = words(body), words(prose)
    pairs = _joins(layer, 2) | _joins(layer, 3)
    glued = [w for w in all_words if len(w) >= 6 and w not in vocab and w in pairs]
    rev = [w for w in all_words if len(w) >= 3 and w not in vocab and w[::-1] in vocab]
    layer_count, md_count = Counter(layer), Counter(prose_words)
    excess = {
        w: c - layer_count[w]
        for w, c in md_count.items()
        if c > layer_count[w] and w not in pairs and w[::-1] not in vocab
    }
    cut = _cut(all_words, vocab)
    spaces = _cjk_spaces(body, "\n".join(raw))
    covered, coverable = _coverage(layer_map, md)
    n = len(all_words)
    worst = sorted(excess, key=lambda w: -excess[w])[:4]
    return TextCheck(
        words=n,
        layer_words=len(layer),
        invented=_per_1000(sum(excess.values()), len(prose_words)),
        glued=_per_1000(len(glued), n),
        cut=_per_1000(len(cut), n),
        reversed=_per_1000(len(rev), n),
        cjk_spaces=_per_1000(len(spaces), n),
        coverage=covered / coverable if coverable else 1.0,
        covered=covered,
        coverable=coverable,
        examples={
            "invented": tuple(f"{w} +{excess[w]}" for w in worst),
            "glued": tuple(glued[:3]),
            "cut": tuple(cut[:3]),
            "reversed": tuple(rev[:3]),
            "cjk_spaces": tuple(spaces[:3]),
        },
    )


def label_f1(label: str, title: str) -> float:
    """Token F1 of `label` against `title`, or against the title without its parenthesised parts
    when that scores higher (a descriptive suffix is no part of the title)."""
    bare = _PAREN_RE.sub("", title).strip()
    return max(_f1(label, title), _f1(label, bare) if len(words(bare)) >= 2 else 0.0)


def _f1(label: str, title: str) -> float:
    a, b = set(words(label)), set(words(title))
    common = len(a & b)
    if not common:
        return 0.0
    p, r = common / len(a), common / len(b)
    return 2 * p * r / (p + r)
