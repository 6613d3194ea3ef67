"""Document titles: read from real PDFs, and leading every chunk's path line."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citechunk.chunking import chunk_markdown
from citechunk.config import ChunkOptions
from citechunk.conversion import convert
from citechunk.conversion.textlayer import TextLayer
from citechunk.conversion.title import (
    Label,
    clean,
    document_label,
    meaningful_metadata_title,
    pdf_label,
)
from citechunk.markers import strip_markers
from citechunk.models import Provenance
from conftest import wide_pdf


def _pdf(tmp_path: Path, lines: list[tuple[str, float]], title: str = "") -> Path:
    """A one-page PDF with `lines` (text, font size) from the top, written by PyMuPDF."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 72.0
    for text, size in lines:
        page.insert_text((72, y), text, fontsize=size)
        y += size * 1.6
    doc.set_metadata({"title": title})
    path = tmp_path / "made.pdf"
    doc.save(path)
    doc.close()
    return path


def _label(path: Path) -> Label:
    with pymupdf.open(path) as doc:
        return pdf_label(doc, path)


def _title(path: Path) -> str:
    with pymupdf.open(path) as doc:
        return pdf_label(doc, path).text


def test_the_largest_font_run_on_the_first_page_is_the_title(tmp_path):
    body = "Body text of the report goes on for a while in the body size."
    path = _pdf(tmp_path, [("Annual Review of", 20), ("Harbour Operations", 20), *[(body, 10)] * 6])
    assert _title(path) == "Annual Review of Harbour Operations"


def test_a_page_without_larger_text_falls_back_to_a_meaningful_metadata_title(tmp_path):
    body = "Every line of this page is set in the same size."
    path = _pdf(tmp_path, [(body, 10)] * 5, title="Harbour Operations Review 2024")
    assert _label(path) == Label("Harbour Operations Review 2024", "metadata")
    path = _pdf(tmp_path, [(body, 10)] * 5, title="made")
    assert _label(path) == Label("made", "file name")  # never silently missing


@pytest.mark.parametrize(
    "title",
    [
        "",
        "Microsoft Word - agenda 040616.doc",
        "0001018724-23-000018",
        "untitled",
        "report_final.docx",
        "Quarterly",
    ],
)
def test_metadata_titles_that_name_no_document_are_ignored(title):
    assert meaningful_metadata_title(title, Path("/x/q3_report.pdf")) == ""


def test_metadata_title_equal_to_the_file_name_is_ignored():
    assert meaningful_metadata_title("Q3 Report", Path("q3-report.pdf")) == ""
    assert meaningful_metadata_title("  Fleet   Safety Plan ", Path("a.pdf")) == "Fleet Safety Plan"


def test_metadata_title_words_need_a_letter_not_two() -> None:
    title = "10-K - 02/07/2019 - 3M Company"
    assert meaningful_metadata_title(title, Path("a.pdf")) == title
    assert meaningful_metadata_title("10-K 2019", Path("a.pdf")) == ""  # one word with a letter
    assert meaningful_metadata_title("0001512673-21-000008 / 2021", Path("a.pdf")) == ""


def test_a_sideways_margin_stamp_is_not_the_title(shared_dir):
    # arXiv prints its identifier sideways in the margin, in a larger font than the title
    path = shared_dir / "corpus" / "pdfs" / "dpr_paper_twocolumn.pdf"
    assert _title(path) == "Dense Passage Retrieval for Open-Domain Question Answering"


def test_long_titles_are_cut_at_a_word(tmp_path):
    words = " ".join(f"word{i}" for i in range(30))
    path = _pdf(tmp_path, [(words[:90], 20), (words[90:], 20), *[("body " * 12, 10)] * 6])
    with pymupdf.open(path) as doc:
        title = document_label(TextLayer.of_document(doc), "", path).text
    assert len(title) <= 200 and title.startswith("word0 word1") and not title.endswith(" ")


def test_conversion_records_the_title_and_chunks_lead_with_it(sample_pdfs):
    doc = convert(sample_pdfs / "refund_policy.pdf")
    assert doc.provenance.title == "Refund Policy"
    assert doc.provenance.title_source == "cover facts"  # a kind-ending title, nothing to add
    again = Provenance.from_dict(doc.provenance.to_dict())
    assert (again.title, again.title_source) == ("Refund Policy", "cover facts")
    options = ChunkOptions(max_tokens=128)
    plain = chunk_markdown(doc.markdown, options)
    titled = chunk_markdown(doc.markdown, options, doc.provenance.title)
    assert [c.body for c in titled] == [c.body for c in plain]
    for c in titled:
        assert strip_markers(doc.markdown[c.char_start : c.char_end]).strip() == c.body
        assert c.token_count <= 128
        if c.heading_path and c.heading_path[0] == "Refund Policy":
            assert c.text.startswith(" > ".join(c.heading_path) + "\n\n")  # not repeated
        else:
            assert c.text.startswith("Refund Policy > " if c.heading_path else "Refund Policy\n\n")
            assert "Refund Policy" not in c.heading_path


def test_title_leads_the_path_line_and_is_dropped_last():
    md = "<!-- page 1 -->\n# Scope\n\nThe plan covers the harbour.\n\n## Limits\n\nNone.\n"
    chunks = chunk_markdown(md, ChunkOptions(max_tokens=64), "Harbour Plan", pack_short=False)
    assert [c.text for c in chunks] == [
        "Harbour Plan > Scope\n\nThe plan covers the harbour.",
        "Harbour Plan > Scope > Limits\n\nNone.",
    ]
    assert chunks[1].heading_path == ("Scope", "Limits")
    tight = chunk_markdown(
        md, ChunkOptions(max_tokens=28, embedder="approx@512"), "Harbour Plan", pack_short=False
    )
    assert tight[1].text.startswith("Harbour Plan > Limits\n\n")  # outer heading dropped first
    untitled = chunk_markdown("Loose text before any heading.", ChunkOptions(), "Harbour Plan")
    assert untitled[0].text == "Harbour Plan\n\nLoose text before any heading."


def test_a_one_word_banner_above_the_title_is_passed_over(tmp_path):
    body = "Body text of the paper goes on for a while in the body size."
    lines = [("Redpaper", 28), ("Row Access Control in Databases", 20), *[(body, 10)] * 6]
    assert _title(_pdf(tmp_path, lines)) == "Row Access Control in Databases"


def test_a_numbered_heading_is_no_title(tmp_path):
    body = "Body text of the chapter goes on for a while in the body size."
    path = _pdf(tmp_path, [("1 Your Chapter", 20), *[(body, 10)] * 6])
    assert _label(path).source == "file name"


def test_a_size_several_runs_share_is_the_heading_level_and_metadata_names_the_document(
    tmp_path,
):
    body = "Body text of the report goes on for a while in the body size."
    lines = [("Executive Summary", 20), *[(body, 10)] * 4, ("Currency Exposure Review", 20)]
    lines += [("Hedging policy", 15), *[(body, 10)] * 3]
    path = _pdf(tmp_path, lines, title="Treasury Report Q3 2024")
    assert _title(path) == "Treasury Report Q3 2024"


def test_the_title_is_nfkc_text_without_control_characters():
    assert clean("Con\ufb01guring  retries\x07") == "Configuring retries"
    assert meaningful_metadata_title("Fleet\x03 Safety\ufffd Plan", Path("a.pdf")) == (
        "Fleet Safety Plan"
    )


def test_a_garbled_page_is_never_read_for_the_title(tmp_path):
    body = "Body text of the report goes on for a while in the body size."
    path = _pdf(tmp_path, [("Harbour Operations Review", 20), *[(body, 10)] * 6], "Meta Title")
    with pymupdf.open(path) as doc:
        layer = TextLayer.of_document(doc)
        assert (
            document_label(layer, "Harbour Plan 2024", path, skip={1}).text == "Harbour Plan 2024"
        )
        assert document_label(layer, "", path).text == "Harbour Operations Review"


def _styled_pdf(tmp_path: Path, lines: list[tuple[str, float, bool]], name: str) -> Path:
    """A one-page PDF with `lines` (text, size, bold) from the top, written by PyMuPDF."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 72.0
    for text, size, bold in lines:
        page.insert_text((72, y), text, fontsize=size, fontname="hebo" if bold else "helv")
        y += size * 1.6
    path = tmp_path / name
    doc.save(path)
    doc.close()
    return path


def test_a_kind_only_title_is_completed_by_the_cover_facts(tmp_path):
    body = "Thank you for your order. Payment is due within thirty days of the date above."
    lines = [("Invoice", 24, True), ("Harbour Supplies GmbH", 11, False)]
    lines += [("Invoice No.: RE-2024-0117", 10, False), ("Date: 14.03.2024", 10, False)]
    lines += [(body, 10, False)] * 5
    label = _label(_styled_pdf(tmp_path, lines, "scan_0001.pdf"))
    assert label == Label(
        "Harbour Supplies GmbH — Invoice — RE-2024-0117 — 14.03.2024", "cover facts"
    )


def test_two_documents_on_one_template_get_two_labels(tmp_path):
    def report(number: str, date: str, name: str) -> Label:
        lines = [("Aviation Accident Final Report", 18, True), ("Accident Number:", 10, True)]
        lines += [(number, 10, False), (f"Date & Time: {date}", 10, False)]
        lines += [("The pilot reported a loss of engine power during the climb.", 10, False)] * 5
        return _label(_styled_pdf(tmp_path, lines, name))

    one, two = (
        report("ERA08LA001", "12/08/2007", "a.pdf"),
        report("NYC08CA055", "01/02/2008", "b.pdf"),
    )
    assert one.text != two.text and "ERA08LA001" in one.text and "01/02/2008" in two.text


def test_a_banner_gives_way_to_the_bold_title_below_it(tmp_path):
    body = "The agency proposes to adopt a new rule for the airplanes named above."
    lines = [("Proposed Rules", 18, True), ("DEPARTMENT OF TRANSPORTATION", 10, True)]
    lines += [("Airworthiness Directives; Harbour Aircraft", 10, True)]
    lines += [(body, 10, False)] * 6
    label = _label(_styled_pdf(tmp_path, lines, "notice.pdf"))
    assert label == Label("Airworthiness Directives; Harbour Aircraft", "display title")


def test_a_part_number_names_the_document_with_the_line_after_it(tmp_path):
    body = "The sensor measures motion and reports it over a serial interface to the host."
    lines = [("Data Sheet", 22, True), ("HX-4410", 18, True), ("Optical Motion Sensor", 12, False)]
    lines += [(body, 10, False)] * 6
    label = _label(_styled_pdf(tmp_path, lines, "ds.pdf"))
    assert label == Label("HX-4410 Optical Motion Sensor", "display title")


def test_a_label_completing_the_title_heading_stands_for_it_in_the_path_line():
    md = "<!-- page 1 -->\n# Accident Final Report\n\n## Analysis\n\nThe pilot lost power.\n"
    label = "Accident Final Report — ERA08LA001 — 12/08/2007"
    chunks = chunk_markdown(md, ChunkOptions(max_tokens=128), label)
    assert chunks[0].text == label + " > Analysis\n\nThe pilot lost power."
    assert chunks[0].heading_path == ("Accident Final Report", "Analysis")


def test_a_kind_ending_title_takes_the_bold_display_line_above_it(tmp_path):
    body = "This standard sets the requirements every merchant of the harbour must meet."
    lines = [("Harbour Card Industry (HCI)", 20, True), ("Data Security Standard", 24, True)]
    lines += [("Requirements and Procedures", 20, True)] + [(body, 10, False)] * 6
    label = _label(_styled_pdf(tmp_path, lines, "hci.pdf"))
    assert label.text == "Harbour Card Industry (HCI) Data Security Standard"


def test_a_subject_line_names_a_note_without_a_display_title(tmp_path):
    body = "The delegations will find attached the text agreed at the last meeting of the group."
    lines = [("Council of the Harbour Union", 11, True), ("Subject: Harbour dues", 11, False)]
    lines += [("regulation for the north basin", 11, False)] + [(body, 11, False)] * 6
    assert _label(_styled_pdf(tmp_path, lines, "st_5419.pdf")).text == "Harbour dues"


def test_a_title_set_at_body_size_on_top_of_the_page_is_the_opening_lines(tmp_path):
    body = "The plaintiff's case against the defendant is set out in the amended plaint below."
    lines = [("Harbour Dredging Limited v Northern Quay Trust", 11), *[(body, 11)] * 6]
    label = _label(_pdf(tmp_path, lines))
    assert label == Label("Harbour Dredging Limited v Northern Quay Trust", "opening lines")
    prose = "Every line of this page is set in the same size."  # a sentence names nothing
    assert _label(_pdf(tmp_path, [(prose, 10)] * 5)).source == "file name"


def test_a_label_holds_at_most_twelve_words_and_keeps_the_whole_title(tmp_path):
    long = (
        "Evaluation of Silt Transport in Tidal Harbour Basins, with Measurements "
        "from Three Dredging Seasons and a Model"
    )
    body = "Body text of the report goes on for a while in the body size."
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 60, 540, 160), long, fontsize=18)
    for i in range(6):
        page.insert_text((72, 200 + 16 * i), body, fontsize=10)
    path = tmp_path / "long.pdf"
    doc.save(path)
    label = _label(path)
    assert label.text == "Evaluation of Silt Transport in Tidal Harbour Basins"  # cut at ","
    assert label.full == long and label.source == "display title"


def test_metadata_printed_large_under_a_larger_banner_is_the_title(tmp_path):
    body = "Body text of the article goes on for a while in the body size."
    lines = [("Journal of Harbour Engineering", 26), ("Silt Transport in Tidal Basins", 16)]
    path = _pdf(tmp_path, [*lines, *[(body, 10)] * 6], title="Silt Transport in Tidal Basins")
    assert _label(path) == Label("Silt Transport in Tidal Basins", "metadata")
    path = _pdf(tmp_path, [*lines, *[(body, 10)] * 6])  # without that evidence: the banner
    assert _label(path).text == "Journal of Harbour Engineering"


@pytest.mark.parametrize(
    "title", ["Harbour-03.31.2024 - Exhibit 99.1", "Harbour - Tariff TOS 4124-8263-9438 (1)"]
)
def test_identifiers_and_copy_marks_are_no_metadata_title(title):
    assert meaningful_metadata_title(title, Path("a.pdf")) == ""


def test_a_metadata_file_name_counts_when_the_page_prints_its_words(tmp_path):
    body = "We are committed to safeguarding the privacy of the users of our application."
    lines = [("PRIVACY POLICY", 14), *[(body, 10)] * 6]
    path = _pdf(tmp_path, lines, title="HARBOUR MOBILE APPLICATION PRIVACY POLICY.docx")
    assert _label(path) == Label("HARBOUR MOBILE APPLICATION PRIVACY POLICY", "metadata")


def test_a_title_set_in_pieces_above_the_body_is_read_whole(tmp_path):
    body = "Body text of the data sheet goes on for a while in the body size."
    lines = [("2 MHz Synchronous Boost Converter", 22), ("Data Sheet", 16), ("HX-4410", 22)]
    label = _label(_pdf(tmp_path, [*lines, *[(body, 9)] * 6]))
    assert label == Label("2 MHz Synchronous Boost Converter HX-4410", "display title")


def test_a_spacing_accent_goes_onto_its_letter():
    assert clean("Programaci´on Avanzada") == "Programación Avanzada"


def test_the_number_is_the_documents_own_not_an_order_number():
    from citechunk.conversion.coverfacts import find_number

    lines = ["Order ID: OD3041750960", "Invoice No : # HB-2015-0982", "Date: 20-10-2015"]
    assert find_number(lines, "Retail Invoices/Bill") == "HB-2015-0982"
    assert find_number(lines) == "OD3041750960"  # without a kind: the first labelled one


def test_a_short_title_takes_its_subtitle_but_not_a_byline(tmp_path):
    body = "Body text of the newsletter goes on for a while in the body size."
    lines = [("The Harbourman", 40), ("The Harbour Radio Association", 14), *[(body, 10)] * 6]
    assert _title(_pdf(tmp_path, lines)) == "The Harbourman The Harbour Radio Association"
    lines = [("Cheatsheet Harbour", 40), ("Ann Quay, November 24, 2022", 14), *[(body, 10)] * 6]
    assert _title(_pdf(tmp_path, lines)) == "Cheatsheet Harbour"


def test_a_title_heading_the_label_was_cut_from_is_not_repeated_in_the_path_line():
    label = "Evaluation of Silt Transport in Tidal Harbour Basins"
    heading = label + ", with Measurements from Three Dredging Seasons and a Model"
    md = f"<!-- page 1 -->\n# {heading}\n\n## Methods\n\nThe silt was sampled weekly.\n"
    chunks = chunk_markdown(md, ChunkOptions(max_tokens=200), label)
    assert chunks[0].text == f"{label} > Methods\n\nThe silt was sampled weekly."
    short = chunk_markdown(md, ChunkOptions(max_tokens=200), "Silt Basins")  # not a cut label
    assert short[0].text.startswith(f"Silt Basins > {heading} > Methods")


def test_a_contents_list_title_is_no_title(tmp_path):
    entry = "Harbour dues and tariffs ........................ 4"
    lines = [("Table of Contents", 14), *[(entry, 10)] * 8]
    path = _pdf(tmp_path, lines, title="Harbour Authority Annual Review 2024")
    assert _label(path) == Label("Harbour Authority Annual Review 2024", "metadata")


def test_memo_header_lines_are_fields_not_a_title(sample_pdfs):
    """Opening lines holding a sentence end ("To: all staff at the Leeds office. From: ...") are
    a memo's fields: the label comes from the metadata, which names the memo."""
    with pymupdf.open(sample_pdfs / "relocation_memo.pdf") as doc:
        label = pdf_label(doc, sample_pdfs / "relocation_memo.pdf")
    assert label.source == "metadata"
    assert label.text == "Move of the Leeds office to Canal Wharf"


_BODY = "The harbour board met twice this year and agreed the budget for the north basin."


def test_a_unit_line_set_large_is_never_the_title(tmp_path):
    lines = [("(In thousands of euros)", 16, False), ("Harbour Budget Estimates 2024", 14, True)]
    label = _label(_styled_pdf(tmp_path, lines + [(_BODY, 10, False)] * 6, "budget.pdf"))
    assert label == Label("Harbour Budget Estimates 2024", "display title")


def test_a_statement_of_counts_set_large_is_never_the_title(tmp_path):
    lines = [("312 ships from 40 ports called here", 30, False)]
    lines += [("Harbour Master's Review 2023", 20, True)]
    label = _label(_styled_pdf(tmp_path, lines + [(_BODY, 10, False)] * 6, "review.pdf"))
    assert label.text == "Harbour Master's Review 2023"


def test_an_institution_banner_names_the_issuer_after_the_title(tmp_path):
    lines = [("THE HIGH COURT OF NORTHLAND", 18, True)]
    lines += [("Harbour Board v Seaside Shipping Limited", 14, True)]
    label = _label(_styled_pdf(tmp_path, lines + [(_BODY, 10, False)] * 6, "judgment.pdf"))
    assert label == Label(
        "Harbour Board v Seaside Shipping Limited — THE HIGH COURT OF NORTHLAND", "display title"
    )


def test_opening_lines_under_a_body_size_banner_are_read_after_it(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "NORTHLAND UNIVERSITY OF TECHNOLOGY", fontsize=10)
    page.insert_text((72, 110), "NAV2233 Coastal Navigation", fontsize=10)
    for i in range(6):
        page.insert_text((72, 150 + 16 * i), _BODY, fontsize=10)
    path = tmp_path / "syllabus.pdf"
    doc.save(path)
    label = _label(path)
    assert label.text == "NAV2233 Coastal Navigation — NORTHLAND UNIVERSITY OF TECHNOLOGY"


def test_a_citation_line_names_a_judgment_and_runs_on_over_its_next_line(tmp_path):
    lines = [("Reportable", 11, True), ("Neutral Citation: Harbour Board v Seaside", 11, False)]
    lines += [("Shipping (12/2024) [2024] NHC 3", 11, False)]
    label = _label(_styled_pdf(tmp_path, lines + [(_BODY, 11, False)] * 6, "j.pdf"))
    assert label.text == "Harbour Board v Seaside Shipping (12/2024) [2024] NHC 3"


def test_a_phrase_repeated_in_a_label_is_said_once(tmp_path):
    lines = [("The Beacon", 40, False), ("The Beacon Sailing Club", 14, False)]
    label = _label(_styled_pdf(tmp_path, lines + [(_BODY, 10, False)] * 6, "news.pdf"))
    assert label.text == "The Beacon Sailing Club"


def test_a_kind_only_title_takes_a_foundation_as_its_issuer(tmp_path):
    lines = [("Annual Report 2023", 30, False), ("The Harbour Foundation", 12, False)]
    label = _label(_styled_pdf(tmp_path, lines + [(_BODY, 10, False)] * 6, "ar.pdf"))
    assert label == Label("The Harbour Foundation — Annual Report 2023", "cover facts")


def test_a_scanners_generic_metadata_title_is_no_evidence(tmp_path):
    path = _pdf(tmp_path, [(_BODY, 10)] * 5, title="Immagine scansionata")
    assert _label(path).source == "file name"
    assert meaningful_metadata_title("Scanned image", path) == ""


def test_a_running_footer_naming_the_issuer_before_the_title_completes_it(tmp_path):
    doc = pymupdf.open()
    cover = doc.new_page()
    cover.insert_text((300, 200), "Sustainability Report 2023", fontsize=24)
    for number in (2, 3):
        page = doc.new_page()
        for i in range(6):
            page.insert_text((72, 100 + 16 * i), _BODY, fontsize=10)
        page.insert_text(
            (400, 800), f"Harbour Lines Sustainability Report 2023 {number}", fontsize=8
        )
    path = tmp_path / "sr.pdf"
    doc.save(path)
    assert _label(path) == Label("Harbour Lines Sustainability Report 2023", "display title")


def test_a_patents_title_field_names_it_and_other_field_codes_do_not(tmp_path):
    lines = [("(12) United States Patent", 15, False), ("US 9,999,999 B1", 14, False)]
    lines += [("(54) HARBOUR CRANE WITH", 9, False), ("TWIN BOOMS", 9, False)]
    lines += [("(75) Inventor: Ann Smith, Northland", 9, False)]
    label = _label(_styled_pdf(tmp_path, lines + [(_BODY, 8, False)] * 8, "patent.pdf"))
    assert label.text == "HARBOUR CRANE WITH TWIN BOOMS"


def test_a_part_title_follows_the_running_lines_naming_the_whole(tmp_path):
    doc = pymupdf.open()
    for number in (1, 2, 3):
        page = doc.new_page()
        page.insert_text((72, 40), "Vol A, Pt 3", fontsize=9)
        if number == 1:
            page.insert_text((72, 70), "CHAPTER 4", fontsize=16)
            page.insert_text((72, 90), "WINCHES", fontsize=16)
        for i in range(6):
            page.insert_text((72, 120 + 16 * i), _BODY, fontsize=9)
        page.insert_text((72, 800), "Harbour Register", fontsize=7)
        page.insert_text((300, 800), "January 2024", fontsize=7)
        page.insert_text((500, 800), str(number), fontsize=7)
    path = tmp_path / "rules.pdf"
    doc.save(path)
    label = _label(path)
    assert label == Label("Vol A, Pt 3 — Harbour Register — CHAPTER 4 WINCHES", "display title")


def test_right_to_left_text_stored_in_visual_order_is_read_in_logical_order():
    from citechunk.conversion.visualorder import logical_order, stored_visually

    # "حریم شخصی" shaped and written left to right as it stands on the page
    visual = "\ufbfd\ufebc\ufea8\ufeb7 \ufee2\ufbfe\ufeae\ufea3"
    assert stored_visually(visual)
    assert clean(visual) == "حریم شخصی"
    assert clean("۱۹-\ufeaa\ufbfeو\ufeee\ufb90") == "کووید-۱۹"  # the number keeps its order
    logical = "\u0627\ufee7\ufeb4\ufe8e\u0646"  # "انسان" shaped, in logical order
    assert not stored_visually(logical) and logical_order(logical) == logical
    assert clean("Annual Report 2024") == "Annual Report 2024"


def test_a_persian_title_set_in_visual_order_and_two_sizes_is_read_whole():
    # a comic's cover: the title's words stored backwards, set at 170 pt and 150 pt with a
    # small "and" between the lines; the row of three pieces is read from right to left
    path = wide_pdf("pub_dp3t_contact_tracing_comic_persian.pdf")
    assert _label(path).text == "حفظ جان انسان ها و حریم شخصی"


def test_a_short_title_takes_the_regular_line_right_under_it():
    # "Good Energy SVT" at 13.8 pt, "Tariff Information Label (TIL)" under it at 6.4 pt,
    # the body at 5.6 pt; the line is no subtitle in display type but names the document
    path = wide_pdf("biz_good_energy_svt_tariff_information_label_2025.pdf")
    assert _label(path).text == "Good Energy SVT Tariff Information Label (TIL)"


def test_a_note_in_brackets_under_a_title_is_not_part_of_it():
    path = wide_pdf("biz_ntt_data_csr_report_2014_highlights.pdf")
    assert _label(path).text == "NTT DATA CSR Report 2014"  # not "... [Highlight Version]"


def test_bold_opening_lines_continue_with_the_centred_bold_line_after_them():
    # a leaflet set in one size: its kind, then the product, centred and bold in two blocks
    path = wide_pdf("pub_finland_lipcut_package_leaflet_fi.pdf")
    label = _label(path)
    assert (label.source, label.text) == (
        "opening lines",
        "Pakkausseloste: Tietoa käyttäjälle Lipcut 5 mg tabletti, kalvopäällysteinen",
    )


def test_a_contents_title_and_a_question_are_never_the_title(tmp_path):
    body = "Body text of the newsletter goes on for a while in the body size."
    lines = [("Want to know the latest news?", 24), ("Harbour Operations Review", 20)]
    path = _pdf(tmp_path, [*lines, ("Contents", 24), *[(body, 10)] * 6])
    assert _title(path) == "Harbour Operations Review"


def test_a_subject_broken_over_lines_runs_on_over_its_hanging_indent(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Subject: Dredging order for the", fontsize=11)
    page.insert_text((130, 116), "north basin moorings in winter", fontsize=11)
    for i in range(6):  # body lines at the label's margin carry on nothing
        page.insert_text(
            (72, 132 + 16 * i), "The dredging programme kept the channel open", fontsize=11
        )
    path = tmp_path / "letter.pdf"
    doc.save(path)
    assert _label(path).text == "Dredging order for the north basin moorings in winter"


def test_a_long_title_ending_with_its_short_title_is_labelled_by_it(tmp_path):
    long = (
        "35 538 Temporary provisions on the use of a notification application in fighting "
        "the harbour epidemic and safeguards against its misuse (Temporary Harbour "
        "Notification Act)"
    )
    noted = "Provisions on the dues of every mooring in the harbour basins for the coming years (In thousands of euros)"
    labels = []
    for title in (long, noted):
        doc = pymupdf.open()
        page = doc.new_page()
        page.insert_textbox(pymupdf.Rect(72, 60, 540, 200), title, fontsize=16)
        for i in range(6):
            page.insert_text((72, 240 + 16 * i), _BODY, fontsize=10)
        path = tmp_path / "bill.pdf"
        doc.save(path)
        labels.append(_label(path))
    assert labels[0].text == "35 538 Temporary Harbour Notification Act"
    assert labels[0].full == long  # read whole, past the title's character limit
    assert "thousands" not in labels[1].text  # a note on the title shares no word with it


def _placed_pdf(tmp_path: Path, lines: list[tuple[str, float, float]]) -> Path:
    """A one-page PDF with `lines` (text, font size, baseline) written by PyMuPDF."""
    doc = pymupdf.open()
    page = doc.new_page()
    for text, size, y in lines:
        page.insert_text((72, y), text, fontsize=size)
    path = tmp_path / "placed.pdf"
    doc.save(path)
    doc.close()
    return path


def test_a_title_whose_lines_a_recogniser_sized_a_little_apart_is_read_whole(tmp_path):
    body = "We have previously shown the possibility of reanimating the adult rat cooled."
    lines = [
        ("REANIMATION OF RATS FROM BODY TEMPERATURES", 12.2, 100.0),
        ("BETWEEN 0 AND 1 C BY MICROWAVE DIATHERMY", 12.4, 114.0),
        ("By R. K. ANDJUS AND J. E. LOVELOCK", 12.1, 136.0),
        *[(body, 8.4, 160.0 + 11 * i) for i in range(8)],
    ]
    label = _label(_placed_pdf(tmp_path, lines))
    assert label.full.startswith("REANIMATION OF RATS FROM BODY TEMPERATURES BETWEEN 0 AND 1 C")
    assert "ANDJUS" not in label.full  # a byline set a line lower is not read with it


def test_a_title_of_common_words_takes_the_named_fields_set_under_it(tmp_path):
    body = [("The tests ran for two weeks against the application and its servers.", 11)] * 6
    fields = [("Product: ProteGo Safe", 20), ("Client: Ministry of Digital Affairs", 20)]
    path = _pdf(tmp_path, [("Results of security tests", 36), *fields, *body])
    assert _title(path) == (
        "Results of security tests — Product: ProteGo Safe, Client: Ministry of Digital Affairs"
    )
    path = _pdf(tmp_path, [("Security tests of ProteGo", 36), *fields, *body])
    assert _title(path) == "Security tests of ProteGo"  # a title naming its subject is whole


def test_a_title_in_a_script_written_without_blanks_names_a_document(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    lines = [
        ("中山大学本科生期末考试", 26.0, 80.0),
        ("考试科目：《数学物理方法》(A 卷)", 22.0, 110.0),
        ("考试方式: 闭卷 年级专业: 17级 物理", 16.0, 140.0),
        *[
            ("以下为试题区域，共三道大题，总分100分，考生请在答题纸上作答。", 10.8, 170.0 + 16 * i)
            for i in range(8)
        ],
    ]
    for text, size, y in lines:
        page.insert_text((60, y), text, fontsize=size, fontname="china-s")
    path = tmp_path / "exam.pdf"
    doc.save(path)
    doc.close()
    assert _title(path) == "中山大学本科生期末考试 考试科目:《数学物理方法》(A 卷)"


def test_opening_lines_under_a_page_number_end_a_breadcrumb_trail(tmp_path):
    body = "This Act may be cited as the Sale of Goods Act 1957 and applies to all states."
    lines = [
        ("Page 1", 10.0, 40.0),
        ("Statutes of Malaysia - Principal Acts/Sale of Goods Act 1957/Sale of Goods", 10.0, 100.0),
        *[(body, 10.0, 160.0 + 14 * i) for i in range(10)],
    ]
    label = _label(_placed_pdf(tmp_path, lines))
    assert label == Label("Sale of Goods", "opening lines", evidence=label.evidence)
