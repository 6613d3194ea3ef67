"""Tables: the table rule and the passes that apply it, in one package.

* `grid`: the rule (mend cut words, join stacked headers, flatten only a grid that
  contradicts the text layer), on a grid of cells;
* `header`: whether a table has a header row, from evidence (part of the rule: title rows
  become captions, a data first row gets an empty header row);
* `rows`: a grid row holding printed rows stacked in its cells is split into them (part of
  the rule);
* `cellwords`: a grid's cells read from the page's words by position, phrases whole;
* `ruled`: grids drawn with rules that the layout model read as other boxes become table boxes
  (layout pass `ruled-tables`);
* `tablecheck`: the rule on the pymupdf layout path's table boxes (layout pass `table-check`);
* `table_words`: the rule on every pipe table of the Markdown (structure pass `table-words`);
* `captions`: table titles that are not sections (pass `table-titles`);
* `labels`: unit lines and period lines, which label a table and are never headings (pass
  `table-labels`).

Page joins of a table continued across a page break stay in `repairs.pagebreaks`
(`join_page_tables`, pass `page-tables`), beside the page-break hyphen join it shares code with.
"""
