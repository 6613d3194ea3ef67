"""A sentence cut by a column or page break is one sentence (`join_broken_sentences`, pass
``broken-sentences``).

A paragraph *runs on* into the next when it is prose (not a heading, table row, code fence,
quote, image or HTML comment), ends without closing punctuation (its last character is a letter,
a digit or a comma, or an apostrophe after a letter: "the parties’"; or it ends with a displayed
equation's number, "(3.7)", before its "where ..." paragraph), and the next paragraph is
prose starting with a lower-case letter (no emphasis mark before it: a bold lower-case term
opens a glossary entry, not a continuation).

- Inside a page, two such paragraphs become one: the blank lines between them become a single
  line break (a column break read as a paragraph break).
- Across pages, the page is recorded in `PassContext.continued`; `markers.render_pages` then sets
  its page marker on a line of its own inside the paragraph, without blank lines, so the chunk
  text is one paragraph while the marker still gives each line its page.
"""

from __future__ import annotations

import re

from ..passcontext import Pages, PassContext

_NOT_PROSE = ("#", "|", "```", "~~~", ">", "![", "<!--", "<")
#: An open end: a letter, digit or comma (an apostrophe after a letter), or a displayed
#: equation's number ("… = 0 (3.7)": its "where …" paragraph goes on with it).
_OPEN_END_RE = re.compile(r"(?:[^\W_][’']?,?|\(\d{1,3}(?:\.\d{1,3})?[a-z]?\))$")
_PARAGRAPH_BREAK_RE = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)*")


def _prose(line: str) -> bool:
    return bool(line) and not line.startswith(_NOT_PROSE) and not line.strip("-*_ ") == ""


def runs_on(before: str, after: str) -> bool:
    """The text `before` ends a prose paragraph mid-sentence and `after` goes on with it."""
    last = before.rstrip()
    last_line = last[last.rfind("\n") + 1 :].strip()
    first_line = after.lstrip().split("\n", 1)[0].strip()
    return (
        _prose(last_line)
        and _prose(first_line)
        and bool(_OPEN_END_RE.search(last_line))
        and not last_line.isdigit()
        and first_line[0].islower()
    )


def _join_in_page(text: str) -> str:
    if "```" in text or "~~~" in text:
        return text
    out: list[str] = []
    pos = 0
    for m in _PARAGRAPH_BREAK_RE.finditer(text):
        out.append(text[pos : m.start()])
        out.append("\n" if runs_on(text[: m.start()], text[m.end() :]) else m.group(0))
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def join_broken_sentences(pages: Pages, ctx: PassContext) -> Pages:
    """Paragraphs split by a column break inside a sentence are joined; pages whose first
    paragraph goes on with the previous page's last are recorded as continued (module
    docstring)."""
    joined = [(n, _join_in_page(text)) for n, text in pages]
    for (_, prev), (n, text) in zip(joined, joined[1:], strict=False):
        if prev.strip() and text.strip() and runs_on(prev, text):
            ctx.continued.add(n)
    return joined
