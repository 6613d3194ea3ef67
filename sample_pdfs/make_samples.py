"""Generate citechunk's sample PDFs and their ground truth, deterministically.

Usage: ``python sample_pdfs/make_samples.py [--out DIR]`` (default: this script's folder).

Each sample is authored as a list of blocks (headings, paragraphs, lists, code, tables), rendered
to HTML and laid out with PyMuPDF's `Story`. The heading pages in ``expected.json`` come from the
layout engine's element positions, so they are true to the PDFs by construction; tests re-check
them against the text PyMuPDF extracts.

Invariants: two runs with the same PyMuPDF version write byte-identical files (fixed metadata and
dates, no new file ID, deterministic font subsetting); headings are H1 20pt > H2 15pt > H3 12.5pt
> body 10.5pt, except in the bold-only memo, whose headings are bold 10.5pt body text.
"""

from __future__ import annotations

import argparse
import html
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

HERE = Path(__file__).resolve().parent
FIXED_DATE = "D:20240101000000Z"
PAGE = pymupdf.paper_rect("a4")
MARGINS = (72, 64, -72, -72)  # left, top, right, bottom offsets of the text frame
FOOTER_Y = PAGE.height - 36

CSS = """
body { font-family: serif; font-size: 10.5pt; line-height: 1.35; }
h1 { font-size: 20pt; margin: 16pt 0 8pt 0; }
h2 { font-size: 15pt; margin: 13pt 0 6pt 0; }
h3 { font-size: 12.5pt; margin: 11pt 0 4pt 0; }
p { margin: 0 0 6pt 0; }
p.bh { margin: 12pt 0 4pt 0; }
ul, ol { margin: 0 0 6pt 0; }
li { margin: 0 0 2pt 0; }
pre { font-family: monospace; font-size: 9pt; margin: 4pt 0 8pt 12pt; }
table { border-collapse: collapse; margin: 4pt 0 8pt 0; }
th, td { border: 0.5pt solid #444444; padding: 2pt 6pt; font-size: 10pt; }
th { text-align: left; }
"""


# ---------------------------------------------------------------- blocks


@dataclass(frozen=True)
class H:
    """A heading: level 1-3 renders as <h1>-<h3>; `bold_only` renders a bold body-size line."""

    level: int
    text: str
    bold_only: bool = False

    def html(self, ident: str) -> str:
        if self.bold_only:
            return f'<p class="bh" id="{ident}"><b>{html.escape(self.text)}</b></p>'
        return f'<h{self.level} id="{ident}">{html.escape(self.text)}</h{self.level}>'


@dataclass(frozen=True)
class P:
    """A paragraph of trusted, authored inline HTML (may contain <b>, <i>, <code>)."""

    inner: str

    def html(self, ident: str) -> str:
        return f'<p id="{ident}">{self.inner}</p>'


@dataclass(frozen=True)
class UL:
    items: tuple[str, ...]
    ordered: bool = False

    def html(self, ident: str) -> str:
        tag = "ol" if self.ordered else "ul"
        lis = "".join(f"<li>{item}</li>" for item in self.items)
        return f'<{tag} id="{ident}">{lis}</{tag}>'


@dataclass(frozen=True)
class Pre:
    code: str

    def html(self, ident: str) -> str:
        return f'<pre id="{ident}">{html.escape(self.code)}</pre>'


@dataclass(frozen=True)
class Table:
    """A table: `header` cells (bold), rows; no header row when `header` is empty; `title`: a
    first row of one cell spanning the table, above the header."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    title: str = ""

    def html(self, ident: str) -> str:
        width = len(self.rows[0]) if self.rows else len(self.header)
        title = f'<tr><td colspan="{width}">{html.escape(self.title)}</td></tr>'
        head = "".join(f"<th>{html.escape(c)}</th>" for c in self.header)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
            for row in self.rows
        )
        rows = (title if self.title else "") + (f"<tr>{head}</tr>" if self.header else "")
        return f'<table id="{ident}">{rows}{body}</table>'


Block = H | P | UL | Pre | Table


@dataclass(frozen=True)
class Sample:
    """One sample PDF: its blocks, metadata and the features tests may rely on."""

    name: str
    title: str
    blocks: tuple[Block, ...]
    features: dict[str, Any]
    outline: bool = False
    footer: str = ""  # running footer text; "" = none
    subject: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # footnotes set at the foot of the first page, in small type


# ---------------------------------------------------------------- content

CODE_RETRY = """\
# client.toml: retry settings for the payments client
# max_attempts counts the first attempt as well
[retry]
max_attempts = 5
backoff_factor = 0.5
# retry_on lists the conditions that trigger another attempt
retry_on = ["timeout", "connection_error", "429", "503"]"""

CODE_LOGGING = """\
# log one line per retry, with the attempt number and the delay
[logging]
retry_events = "info"
include_request_id = true"""


def report_outline() -> Sample:
    """Treasury report: outline, three levels, a table, a section across a page break."""
    blocks: tuple[Block, ...] = (
        P(
            "<i>Northwind Holdings plc · Group Treasury · Quarterly report for the period "
            "ended 30 September 2024</i>"
        ),
        H(1, "Executive Summary"),
        P(
            "Group liquidity remained strong through the third quarter. Cash and cash "
            "equivalents closed at EUR 412 million, up EUR 37 million from 30 June, mainly "
            "because of seasonal working-capital inflows in the retail segment. Net debt to "
            "EBITDA stood at 1.4x against a covenant ceiling of 3.0x, and the revolving credit "
            "facility remained undrawn for the whole quarter."
        ),
        P(
            "Foreign-currency risk stayed within policy. Forecast exposures for the next twelve "
            "months were 78% hedged, inside the Board's band of 70% to 90%. No counterparty "
            "limit was breached and no hedge was closed out early. Treasury recommends no change "
            "to the hedging policy for the fourth quarter."
        ),
        H(1, "Currency Exposure Review"),
        H(2, "Hedging policy"),
        P(
            "The Board-approved hedging policy requires the Group to hedge between 70% and 90% "
            "of forecast foreign-currency exposures falling due in the next twelve months, and "
            "between 40% and 60% of exposures falling due in months thirteen to twenty-four. "
            "Exposures beyond twenty-four months are not hedged. The ratios are measured on the "
            "last business day of each month against the latest approved forecast."
        ),
        P(
            "Only forward contracts and bought plain-vanilla options may be used; written "
            "options and structured products are not permitted. Every counterparty must hold a "
            "long-term credit rating of A- or better, and no single bank may carry more than 25% "
            "of the Group's outstanding hedge notional. At 30 September the twelve-month hedge "
            "ratio was 78% and the thirteen-to-twenty-four-month ratio was 46%."
        ),
        H(2, "Exposure by currency"),
        P(
            "The table below shows forecast twelve-month exposures and the amounts hedged at "
            "quarter end, in EUR million at closing rates."
        ),
        Table(
            ("Currency", "Forecast exposure", "Hedged", "Hedge ratio"),
            (
                ("USD", "184.0", "147.2", "80%"),
                ("GBP", "96.5", "74.3", "77%"),
                ("CHF", "41.2", "30.9", "75%"),
                ("PLN", "22.8", "17.1", "75%"),
                ("Total", "344.5", "269.5", "78%"),
            ),
        ),
        H(3, "Sensitivity analysis"),
        P(
            "The unhedged twelve-month USD exposure was EUR 36.8 million. A 10% appreciation of "
            "the euro against the US dollar would therefore reduce forecast operating profit by "
            "about EUR 3.7 million before tax; a 10% appreciation against sterling would reduce "
            "it by about EUR 2.2 million. Movements in the Swiss franc and the Polish zloty have "
            "an immaterial effect at current exposure levels."
        ),
        H(2, "Counterparty exposure"),
        P(
            "Hedge contracts were spread across seven banks. The largest single counterparty "
            "held 21% of the outstanding notional, below the 25% limit, and all seven banks "
            "kept a rating of A- or better throughout the quarter. The mark-to-market value of "
            "the hedge book was a net asset of EUR 4.9 million, of which EUR 3.1 million is "
            "covered by collateral agreements with daily margining."
        ),
        P(
            "One bank was placed on negative outlook by a rating agency in August. Treasury has "
            "stopped placing new hedges with it until the outlook is resolved and will let the "
            "existing contracts, EUR 22 million of notional, run off by their maturity in "
            "March 2025."
        ),
        H(1, "Liquidity and Funding"),
        P(
            "This section covers the cash held by the Group at quarter end, the cash flows that "
            "changed it during the quarter and the committed facilities that back it. All "
            "figures are unaudited and stated in EUR at closing rates."
        ),
        H(2, "Cash position"),
        P(
            "Cash and cash equivalents of EUR 412 million were held with eleven banks. The "
            "largest single deposit, EUR 61 million, was placed with a bank rated AA-, within the "
            "limit of 15% of total cash per institution. Of the total, EUR 318 million was held "
            "in euro, EUR 52 million in US dollars and the remainder in sterling, Swiss francs and "
            "zloty to meet local payment obligations."
        ),
        P(
            "Operating cash flow for the quarter was EUR 96 million. Capital expenditure "
            "absorbed EUR 41 million, of which EUR 17 million related to the new distribution "
            "centre in Poznań, and dividends paid to shareholders amounted to EUR 18 million. "
            "The balance funded the scheduled repayment of a EUR 10 million term loan and added "
            "to the cash position."
        ),
        P(
            "Treasury continues to sweep surplus balances daily into the euro cash pool in "
            "Amsterdam. Balances that cannot be pooled for regulatory reasons, mainly in Poland "
            "and Switzerland, are invested in overnight deposits. The weighted average yield on "
            "deposits was 3.1% for the quarter, compared with 3.3% in the second quarter, "
            "reflecting the first reductions in central bank policy rates."
        ),
        P(
            "Working capital absorbed less cash than in the same quarter of 2023. Days sales "
            "outstanding fell from 41 to 38 after the retail segment moved its largest "
            "wholesale customers to monthly direct debit, while days payable outstanding were "
            "stable at 52. Inventory rose by EUR 23 million ahead of the Christmas season, in "
            "line with the budget."
        ),
        P(
            "Cash that cannot be moved freely is small. EUR 9 million held in Switzerland is "
            "reserved for a tax payment due in December, and EUR 4 million in Poland is pledged "
            "as a guarantee for the Poznań construction contract until its completion. Neither "
            "amount is counted towards the liquidity buffer described below."
        ),
        P(
            "The minimum liquidity buffer set by the Board is EUR 250 million of cash and "
            "committed undrawn facilities. Including the undrawn revolving credit facility, "
            "available liquidity was EUR 662 million at quarter end, well above that floor. A "
            "stress test that assumes a 30% fall in retail receipts over two quarters leaves "
            "available liquidity above EUR 480 million."
        ),
        H(2, "Credit facilities"),
        P(
            "The Group's EUR 250 million revolving credit facility matures in March 2028 and "
            "carries a margin of 0.85% over EURIBOR with a utilisation fee. Its only financial "
            "covenant is net debt to EBITDA of no more than 3.0x, tested semi-annually. The "
            "EUR 300 million bond maturing in 2027 pays a fixed coupon of 1.75%."
        ),
        H(1, "Outlook"),
        P(
            "Treasury expects year-end cash of between EUR 380 million and EUR 420 million, "
            "after the interim dividend and the final instalment on the Poznań project. Interest "
            "income is expected to fall slightly as deposit rates follow policy rates down."
        ),
        P(
            "Two matters need the Board's attention in the coming quarters. First, the EUR 300 million bond maturing "
            "in 2027 should be refinanced during 2025, and Treasury proposes to start preparing "
            "the documentation in the first quarter. Second, the Group's Polish subsidiary will "
            "need a local overdraft line once the Poznań distribution centre opens, because its "
            "payroll and supplier payments can no longer be funded through the euro cash pool."
        ),
    )
    # The treasury report has to be long enough for "Cash position" to cross a page break.
    return Sample(
        name="report_outline.pdf",
        title="Treasury Report Q3 2024",
        subject="Quarterly treasury report of Northwind Holdings plc",
        blocks=blocks,
        outline=True,
        footer="Northwind Holdings plc · Treasury Report Q3 2024",
        features={
            "outline": True,
            "three_levels": True,
            "table": "Exposure by currency",
            "cross_page_section": "Cash position",
            "empty_heading": "Currency Exposure Review",
            "running_footer": True,
        },
    )


def retry_settings() -> Sample:
    """Client settings reference: H1 straight to H3, `#` code lines, bulleted list."""
    blocks: tuple[Block, ...] = (
        H(1, "Retry Settings Reference"),
        P(
            "This reference describes how the payments client retries requests that fail "
            "for transient reasons. All settings live in <code>client.toml</code>; environment "
            "variables with the prefix <code>PAYMENTS_</code> override the file, and the "
            "defaults below apply when neither sets a value."
        ),
        H(3, "Configuring retries"),
        P(
            "Retries are configured in the <code>[retry]</code> table. Three settings control "
            "the behaviour:"
        ),
        UL(
            (
                "<code>max_attempts</code>: the total number of attempts, including the first "
                "one. Default 3, maximum 10. A value of 1 disables retries.",
                "<code>backoff_factor</code>: the base delay in seconds for exponential backoff. "
                "The delay before attempt <i>n</i> is backoff_factor × 2^(n − 2). Default 0.5.",
                "<code>retry_on</code>: the conditions that trigger another attempt, from "
                '"timeout", "connection_error", "429" and "503". Default: "timeout", '
                '"connection_error" and "503".',
            )
        ),
        P("A typical configuration for a batch job that can afford to wait looks like this:"),
        Pre(CODE_RETRY),
        P(
            "With these settings the client waits 0.5, 1, 2 and 4 seconds before the second to "
            "fifth attempts, so a request gives up after about 7.5 seconds of waiting plus the "
            "time spent on the attempts themselves. A <code>Retry-After</code> header on a 429 or "
            "503 response replaces the computed delay when it is longer."
        ),
        H(3, "Idempotency keys"),
        P(
            "GET, PUT and DELETE requests are always safe to retry. A POST request is retried "
            "only when it carries an <code>Idempotency-Key</code> header; the client adds a "
            "random key automatically when <code>auto_idempotency = true</code>. The server keeps "
            "keys for 24 hours, so a retried payment is never charged twice within that window."
        ),
        H(2, "Timeouts"),
        P(
            "Timeouts bound how long a single attempt may take. They apply per attempt, not to "
            "the whole retry sequence, so the worst-case duration of a call is roughly "
            "max_attempts × (connect_timeout + read_timeout) plus the backoff delays."
        ),
        H(3, "Connect timeout"),
        P(
            "<code>connect_timeout</code> limits the time to open a TCP connection and complete "
            "the TLS handshake. Default 3 seconds. A connection that cannot be opened in time "
            'counts as a "connection_error" for <code>retry_on</code>.'
        ),
        H(3, "Read timeout"),
        P(
            "<code>read_timeout</code> limits the time between bytes received from the server "
            "once the request has been sent. Default 10 seconds. Raise it for report downloads, "
            'which can take longer to start streaming; a read timeout counts as "timeout".'
        ),
        H(2, "Logging retry attempts"),
        P(
            "Each retry can be logged with its attempt number and delay. Request IDs make it "
            "possible to match client log lines with server logs when investigating failures:"
        ),
        Pre(CODE_LOGGING),
    )
    return Sample(
        name="retry_settings.pdf",
        title="Retry Settings Reference",
        subject="Payments client configuration reference",
        blocks=blocks,
        features={
            "level_jump": "Configuring retries",
            "three_levels": True,
            "bulleted_list": "Configuring retries",
            "hash_code_block": "Configuring retries",
            "hash_code_lines": [
                line for line in (CODE_RETRY + "\n" + CODE_LOGGING).splitlines() if line[:1] == "#"
            ],
        },
    )


def refund_policy() -> Sample:
    """Refund policy: an H1 with no body followed by three H2s."""
    blocks: tuple[Block, ...] = (
        H(1, "Refund Policy"),
        H(2, "Eligibility"),
        P(
            "You can ask for a refund within 30 days of delivery for any item that is unused "
            "and in its original packaging. Items bought in a sale are refunded at the price you "
            "paid. Some items cannot be refunded:"
        ),
        UL(
            (
                "gift cards and downloadable software once the licence key has been shown;",
                "made-to-measure furniture and fabric cut to length;",
                "personal care products whose seal has been broken.",
            )
        ),
        P(
            "Faulty items can be returned at any time within the two-year warranty period, and "
            "we refund the return postage for them."
        ),
        H(2, "How to request a refund"),
        UL(
            (
                "Sign in to your account and open <b>Orders</b>.",
                "Choose the order, select the items to return and give a reason.",
                "Print the prepaid label, or choose a drop-off point to get a QR code.",
                "Send the parcel within 14 days of the request.",
            ),
            ordered=True,
        ),
        P(
            "If you paid by bank transfer, add the IBAN of the account the refund should go to. "
            "Customers without an account can use the returns form linked from the order "
            "confirmation e-mail."
        ),
        H(2, "Processing times"),
        P(
            "We inspect returned items within five working days of receiving them. Approved "
            "refunds go back to the original payment method: card refunds take three to five "
            "working days to appear on your statement, PayPal refunds usually appear within 24 "
            "hours, and bank transfers take up to two working days. We e-mail you when the "
            "refund has been issued."
        ),
    )
    return Sample(
        name="refund_policy.pdf",
        title="Refund Policy",
        subject="Customer refund policy",
        blocks=blocks,
        features={"empty_heading": "Refund Policy", "bulleted_list": "Eligibility"},
    )


POSTMORTEM_PARAGRAPHS = (
    "The postmortem is the written record of what happened, why it happened and what the team "
    "will change. It is written by the incident commander or by an engineer they nominate, and "
    "a first draft is due within five working days of the incident being resolved. The document "
    "is blameless: it describes decisions and the information that was available when they were "
    "made, not the people who made them. Reviewers who find wording that assigns blame should "
    "ask the author to rewrite it before the review meeting.",
    "Start with a summary of no more than five sentences that a reader outside the team can "
    "understand. State the customer impact in concrete terms: which service was affected, for "
    "how long, how many customers or requests were affected, and whether any data was lost or "
    "exposed. Give the severity level that was assigned during the incident and, if the team now "
    "believes a different level would have been correct, say so and explain why.",
    "The timeline is the backbone of the document. Record every significant event with a UTC "
    "timestamp: the first symptom, the first alert, the moment a human acknowledged the page, "
    "each diagnosis that was considered and rejected, each mitigation that was tried, and the "
    "time customer impact ended. Take timestamps from monitoring, chat logs and deploy history "
    "rather than from memory; where an entry is an estimate, mark it as one. A good timeline lets "
    "a reader see how long each phase took, and the gaps in it often point to the most useful "
    "improvements.",
    "Detection deserves its own paragraph. Note whether the incident was found by an automated "
    "alert, by a customer report or by an engineer who happened to notice something odd. If an "
    "alert fired, say whether it fired early enough and whether its description helped the "
    "responder. If no alert fired, describe the signal that would have caught the problem, and "
    "estimate how much earlier it would have done so. Time to detect is tracked across all "
    "reviews, so record it in minutes.",
    "The analysis of causes should go deeper than the trigger. A configuration change, a bad "
    "deploy or a traffic spike is usually only the last event in a chain. Ask why the change was "
    "possible, why testing did not catch it, why the system failed the way it did rather than "
    "degrading gracefully, and why recovery took as long as it did. Stop when the answers reach "
    "something the team can change. Most incidents have several contributing factors, and the "
    "document should list each one rather than naming a single root cause.",
    "Describe the mitigation separately from the fix. The mitigation is what stopped customer "
    "impact, such as a rollback, a feature flag or extra capacity. The fix is the change that "
    "prevents a recurrence. Explain which runbooks were used, whether they were accurate and "
    "whether any step was unclear. When a responder had to improvise, record what they did, "
    "because improvised steps that worked are good candidates for new runbook entries.",
    "Include what went well. Fast escalation, a clear status page update or a runbook that "
    "worked exactly as written are worth recording, because they show which practices to keep. "
    "Equally, record where the team was lucky: a failure that happened during business hours, "
    "or a problem that an engineer caught by chance, is a risk that will not always resolve so "
    "kindly.",
    "Attach the supporting evidence: graphs of the key metrics with the incident window "
    "marked, links to the relevant chat channel, the alerts that fired, and the pull requests "
    "for the mitigation and the fix. Screenshots should have captions that say what the reader "
    "is meant to notice. Remove customer personal data from logs and screenshots before they are "
    "attached; the postmortem is readable by the whole engineering organisation.",
    'Write the follow-up actions as specific, verifiable changes. An action such as "improve '
    'monitoring" cannot be closed; "alert when the payment queue is older than five minutes" '
    "can. Each action names one owner, even when several teams contribute, and says whether it "
    "prevents a recurrence, shortens detection or speeds up recovery. Prefer a few actions that "
    "will be done over a long list that will not; actions that the team does not intend to "
    "complete within a quarter should be recorded as risks instead.",
    "Keep the language plain. Define abbreviations the first time they appear, name services "
    "the way the service catalogue names them, and avoid internal jargon that a new joiner "
    "would not know. Numbers need units and time zones. When the team is unsure about part of "
    "the analysis, say so explicitly and describe what would settle the question, rather than "
    "presenting a guess as a finding.",
    "Finally, circulate the draft to everyone who took part in the response at least one day "
    "before the review meeting, so that corrections to the timeline can be made in advance. The "
    "meeting itself should be spent on the analysis and the actions rather than on reading the "
    "document aloud. After the meeting, the author updates the draft, marks it as final and "
    "links it from the incident record.",
)


def incident_review() -> Sample:
    """Incident review guide: one long section (> 600 tokens, several pages) without subheads."""
    blocks: tuple[Block, ...] = (
        H(1, "Incident Review Guide"),
        P(
            "This guide explains how engineering teams review production incidents. It applies "
            "to every service that has an on-call rotation, and it complements the incident "
            "response runbook, which covers what to do while an incident is in progress."
        ),
        H(2, "When a review is required"),
        P("A written review and a review meeting are required after any incident that:"),
        UL(
            (
                "was classified as severity 1 or severity 2 at any point;",
                "caused data loss, or exposed customer data to anyone not entitled to it;",
                "breached an external service-level agreement;",
                "needed more than one team to resolve it.",
            )
        ),
        P(
            "Any engineer may also request a review for a smaller incident or a near miss when "
            "they believe the team can learn from it."
        ),
        H(2, "Writing the postmortem"),
        *(P(text) for text in POSTMORTEM_PARAGRAPHS),
        H(2, "Tracking follow-up actions"),
        P(
            "Every action agreed in the review gets a ticket with an owner and a due date. "
            "Actions that prevent a recurrence of a severity 1 incident are due within 30 days; "
            "other actions within 90 days. The reliability group reports overdue actions to "
            "engineering management every month."
        ),
    )
    return Sample(
        name="incident_review.pdf",
        title="Incident Review Guide",
        subject="How engineering teams review production incidents",
        blocks=blocks,
        footer="Engineering Handbook · Incident Review Guide",
        features={
            "long_section": "Writing the postmortem",
            "bulleted_list": "When a review is required",
            "running_footer": True,
        },
    )


def relocation_memo() -> Sample:
    """Office memo whose headings are only bold body-size lines (no larger fonts, no outline)."""

    def bh(text: str) -> H:
        return H(1, text, bold_only=True)

    blocks: tuple[Block, ...] = (
        P("To: all staff at the Leeds office. From: Facilities. Date: 4 November 2024."),
        bh("Why we are moving"),
        P(
            "The lease on Wellington Street ends on 31 January 2025. The new office at 12 "
            "Canal Wharf gives us two floors instead of three, a larger kitchen and eight "
            "meeting rooms, and it is a five-minute walk from Leeds station."
        ),
        bh("Moving schedule"),
        P(
            "Teams move in two waves. Finance, HR and Legal move over the weekend of 11 and 12 "
            "January; everyone else moves on 18 and 19 January. Please pack your desk into the "
            "crates provided by 5 pm on the Friday before your move and label every crate with "
            "your name and new desk number."
        ),
        P(
            "<b>Please note:</b> the goods lift at Wellington Street is out of service on 10 "
            "January, so crates for the first wave will be collected on 9 January."
        ),
        bh("Parking and building access"),
        P(
            "Canal Wharf has 40 parking spaces, allocated first to colleagues with accessibility "
            "needs and then by rota. Your current access card will not open the new building; "
            "collect a new card from reception on your first day, bringing photo ID."
        ),
        bh("IT equipment"),
        P(
            "Laptops move with you. Monitors, docks and desk phones are already installed at the "
            "new desks, so leave yours where they are. The IT service desk will be on site on "
            "both Mondays after the moves to help with anything that does not work."
        ),
        bh("Questions"),
        P(
            "Send questions to facilities@northwind.example or ask at the weekly office meeting. "
            "A floor plan with the new desk numbers is on the intranet."
        ),
    )
    return Sample(
        name="relocation_memo.pdf",
        title="Office Relocation Memo",
        subject="Move of the Leeds office to Canal Wharf",
        blocks=blocks,
        features={"bold_headings_only": True, "bold_lead_in": "Please note:"},
    )


PRINTED_SECTIONS = (
    (
        "1.  Introduction",
        "The widget exchange protocol lets a client ask a server for the current state of a "
        "widget and lets the server push changes back to every client that holds a lease on it. "
        "Clients that lose their connection ask again and receive the full state, so no message "
        "ordering between connections is needed.",
    ),
    (
        "2.  Leases",
        "A lease is granted for a fixed period that the server chooses and states in seconds. A "
        "client renews a lease by repeating its request before the period ends; a server that "
        "sees no renewal drops the lease and stops sending changes to that client. Leases are "
        "never transferred between clients.",
    ),
    (
        "3.  Registration Template",
        "Every new widget kind is registered with a short name, a contact address and a "
        "description of the state it carries. The registry keeps the template as submitted and "
        "publishes it after an expert has checked that the name is not taken and that the "
        "description is complete enough for a second implementation.",
    ),
    (
        "4.  Security Considerations",
        "A server must authenticate every client before granting a lease, because a lease "
        "reveals the widget state to whoever holds it. Servers should limit the number of "
        "leases one client may hold so that a single client cannot exhaust the table of "
        "leases that the server keeps in memory.",
    ),
)


def _wrap(text: str, width: int = 68, indent: str = "   ") -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(indent + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, indent + line]


def printed_spec() -> Sample:
    """A plain-text specification printed to PDF: contents with dot leaders, then the text set
    in a typewriter font, its own page header and footer lines inside it (where the plain-text
    pages broke, not where the PDF's pages do)."""
    contents = [(title, 1 + i) for i, (title, _) in enumerate(PRINTED_SECTIONS)]
    leaders = tuple(
        P(f"{html.escape(title)} {'.' * (60 - len(title))} {page}") for title, page in contents
    )
    text: list[str] = []
    for n, (title, body) in enumerate(PRINTED_SECTIONS, start=1):
        text += [title, ""]
        for _ in range(5):
            text += [*_wrap(body), ""]
        text += [
            "",
            f"Okafor{' ' * 24}Informational{' ' * 22}[Page {n}]",
            "\f",
            f"RFC 9999{' ' * 18}Widget Exchange Protocol{' ' * 12}March 2024",
            "",
        ]
    text.append("   The protocol text ends with its fourth section.")
    return Sample(
        name="printed_spec.pdf",
        title="Widget Exchange Protocol",
        subject="A plain-text specification printed to PDF",
        blocks=(
            H(1, "Widget Exchange Protocol"),
            H(2, "Table of Contents"),
            *leaders,
            Pre("\n".join(text)),
        ),
        features={
            "contents_page": "Table of Contents",
            "typewriter_prose": "1.  Introduction",
            "running_lines_in_text": "[Page 1]",
        },
    )


def canteen_prices() -> Sample:
    """Canteen notice with three tables: one without a header row (dish, portion, price), one
    whose first row is a title spanning the table above its header row, and one with a header
    row that runs across a page break without repeating it. Not in `SAMPLES`: the tests of the
    table header rule generate it (`generate(out_dir, TABLE_SAMPLES)`)."""
    dishes = (
        ("Chicken skewers", "100 g", "4.20"),
        ("Pork skewers", "150 g", "5.10"),
        ("Lamb kebab", "120 g", "6.40"),
        ("Grilled trout", "180 g", "7.90"),
        ("Vegetable stew", "250 g", "3.80"),
        ("Potato gratin", "200 g", "2.90"),
        ("Green salad", "150 g", "2.40"),
        ("Apple pie", "120 g", "2.60"),
    )
    sites = (
        ("Main building", "7:30 to 18:00", "closed"),
        ("North campus", "8:00 to 16:30", "10:00 to 14:00"),
        ("Research park", "7:00 to 15:00", "closed"),
        ("Library annex", "9:00 to 20:00", "11:00 to 17:00"),
    )
    products = "Carrots Potatoes Onions Leeks Cabbage Beetroot Celeriac Parsnips Apples Pears Plums"
    supplies = tuple(
        (f"{product} grade {grade}", "Ghent", f"{1.5 + 0.37 * (3 * i + j):.2f}")
        for i, product in enumerate(products.split())
        for j, grade in enumerate("ABC")
    )
    blocks: tuple[Block, ...] = (
        H(1, "Canteen Prices and Hours"),
        P(
            "The canteen committee publishes the dishes served this month with their portion "
            "and price. Prices are in euros and include tax."
        ),
        Table((), dishes),
        P(
            "Portions are weighed before serving. A dish that runs out is replaced by the dish "
            "of the day."
        ),
        H(2, "Opening hours"),
        P("Each site keeps its own hours. The hours below apply from the first of the month."),
        Table(("Site", "Weekdays", "Weekends"), sites, title="Opening hours by site"),
        P("On public holidays every site is closed."),
        H(2, "Supplier prices"),
        P(
            "The supplier list below gives the price per kilogram the canteen paid for each "
            "product in the last delivery, with the supplier's town."
        ),
        Table(("Product", "Supplier town", "Price per kg"), supplies),
        P("Prices of the next delivery are agreed at the start of the month."),
    )
    return Sample(
        name="canteen_prices.pdf",
        title="Canteen Prices and Hours",
        blocks=blocks,
        features={
            "headerless_table": "Canteen Prices and Hours",
            "title_row": "Opening hours",
            "cross_page_table": "Supplier prices",
        },
    )


# ---------------------------------------------------------------- a boxed sidebar

SIDEBAR_BODY = (
    "The spring regatta opens the season on the first Saturday of April. Crews from six clubs "
    "race over two kilometres on the river, in heats from nine in the morning and finals after "
    "lunch. Members who help at the start line or in the boat park should sign the volunteer "
    "sheet in the clubhouse by the end of March.",
    "Launching follows the usual order: junior crews first, then the eights, then the small "
    "boats. Each crew carries its own blades to the pontoon and returns them to the racks "
    "straight after its race, so the pontoon stays clear for the next heat.",
)
SIDEBAR_BOX = (
    "The Harbour Rowing Club was founded in 1952 and trains on the river every day of the "
    "year. Membership is open to anyone who can swim fifty metres.",
    "Annual dues are forty pounds for adults and twenty for juniors, payable at the clubhouse.",
)
SIDEBAR_AFTER = (
    "Results of every heat are posted on the noticeboard by the boathouse door within an hour "
    "of the race, and the final times are sent to members by email on the Monday after.",
    "The winning crews of each final receive their medals at the prize giving, which starts at "
    "five o'clock on the lawn in front of the clubhouse.",
)
SIDEBAR_NEXT = (
    "Every boat is checked before the regatta: riggers tightened, seats rolling freely and "
    "bow balls in place. Report any damage to the boat captain on the day it is found.",
)


def _html(heading: tuple[int, str] | None, paragraphs: Sequence[str]) -> str:
    head = f"<h{heading[0]}>{html.escape(heading[1])}</h{heading[0]}>" if heading else ""
    return head + "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)


def boxed_sidebar(out_dir: Path) -> Path:
    """A one-page newsletter: a section's body in the left column, a sidebar in a filled and
    stroked rectangle at the right holding its own heading ("About the club"), the section's
    body going on under both, then the next section's heading ("Boat maintenance"). Not in
    `SAMPLES`: the box tests generate it."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    css = CSS
    page.insert_htmlbox(pymupdf.Rect(72, 64, 523, 130), _html((1, "Rowing Club News"), ()), css=css)
    left = _html((2, "Spring regatta"), SIDEBAR_BODY)
    page.insert_htmlbox(pymupdf.Rect(72, 130, 330, 420), left, css=css)
    box = pymupdf.Rect(345, 140, 523, 400)
    page.draw_rect(box, color=(0.2, 0.2, 0.5), fill=(0.9, 0.92, 1.0), width=1)
    inner = _html((3, "About the club"), SIDEBAR_BOX)
    page.insert_htmlbox(box + (8, 8, -8, -8), inner, css=css)
    after = _html(None, SIDEBAR_AFTER) + _html((2, "Boat maintenance"), SIDEBAR_NEXT)
    page.insert_htmlbox(pymupdf.Rect(72, 430, 523, 770), after, css=css)
    doc.set_metadata(
        {"creationDate": FIXED_DATE, "modDate": FIXED_DATE, "title": "Rowing Club News"}
    )
    target = out_dir / "boxed_sidebar.pdf"
    doc.save(target, garbage=3, deflate=True, no_new_id=True)
    return target


CHECKLIST_ROWS = (
    ("Criterion", "Result"),
    ("1.1 Text alternatives for images", "No failure found"),
    ("1.2 Captions for prerecorded video", "Not applicable"),
    ("1.3 Information and relationships", "No failure found"),
    ("1.4 Contrast of text (minimum)", "Failure found"),
    ("2.1 Keyboard access to every function", "No failure found"),
)
#: The checklist's grid: left, right, the column line, the top and the row height (points).
CHECKLIST_GRID = (72.0, 523.0, 330.0, 150.0, 26.0)
#: A form's grid below it: labels on the left, empty fields on the right.
FORM_LABELS = ("Name", "Address", "Town", "Date")
FORM_TOP = 400.0


def _ruled_grid(page: Any, rows: Sequence[Sequence[str]], top: float) -> pymupdf.Rect:
    """`rows` of two cells in a grid drawn with thin filled rules at `top`; the grid's rect."""
    left, right, middle, _, height = CHECKLIST_GRID
    bottom = top + height * len(rows)
    rules = [
        pymupdf.Rect(left, top + height * i, right, top + height * i + 0.75)
        for i in range(len(rows) + 1)
    ]
    rules += [pymupdf.Rect(x, top, x + 0.75, bottom) for x in (left, middle, right)]
    for rule in rules:
        page.draw_rect(rule, color=None, fill=(0, 0, 0), width=0)
    for i, row in enumerate(rows):
        for x, text in zip((left + 5, middle + 30), row, strict=True):
            if text:
                page.insert_text((x, top + height * i + 17), text, fontsize=10.5)
        if i and row[1]:
            centre = pymupdf.Point(middle + 15, top + height * i + 13)
            page.draw_circle(centre, 9, color=None, fill=(0, 0.66, 0.07))
            page.draw_polyline(
                [centre + (-4, 0), centre + (-1, 4), centre + (5, -4)], color=(1, 1, 1), width=2
            )
    return pymupdf.Rect(left, top, right, bottom)


def ruled_checklist(out_dir: Path) -> Path:
    """A one-page audit: a heading, a paragraph, a two-column checklist in a grid drawn with
    thin filled rules (criterion, result), and below it a form grid whose right-hand fields
    are empty. Not in `SAMPLES`: the ruled-table tests generate it."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    page.insert_text((72, 90), "Audit findings", fontsize=20)
    page.insert_text(
        (72, 125), "The findings per success criterion are listed below.", fontsize=10.5
    )
    _ruled_grid(page, CHECKLIST_ROWS, CHECKLIST_GRID[3])
    _ruled_grid(page, [(label, "") for label in FORM_LABELS], FORM_TOP)
    doc.set_metadata({"creationDate": FIXED_DATE, "modDate": FIXED_DATE, "title": "Audit findings"})
    target = out_dir / "ruled_checklist.pdf"
    doc.save(target, garbage=3, deflate=True, no_new_id=True)
    return target


PASTURE_PARAGRAPHS = (
    "Common land in the valley has been grazed by the households of three villages for as long "
    "as records exist. Each household holds a number of grazing units, and a unit entitles its "
    "holder to keep one cow or five sheep on the common from the first of May to the end of "
    "October. The units were counted for the first time in the survey of the parish council, "
    "which found that the villages together held just over four hundred of them.",
    "The survey also recorded who used the units. Most were used by the households that held "
    "them, but a fifth were let to farmers from outside the valley for a rent paid in money or "
    "in hay. The council had never approved these lettings, and some of its members argued that "
    "a unit let to an outsider should lapse, while others held that the right belonged to the "
    "household and that the household could do with it what it wished.",
    "The dispute reached the council again when the number of animals on the common rose above "
    "what the pasture could feed. In the dry summer the grass was eaten down by the middle of "
    "August, and the shepherds had to bring hay from the lowlands at their own cost. The "
    "council asked its clerk to find out how many animals each unit actually supported and "
    "whether the units had been counted correctly in the first place.",
    "The clerk reported that the count was sound but that the animals were not. A cow of the "
    "breeds kept in the valley today weighs half as much again as the cows of the old survey, "
    "and it eats accordingly. Five sheep of today eat what six or seven ate then. "
    "The pasture itself had not shrunk, but the same units now carried far more grazing than "
    "the survey had meant them to carry.",
    "The council considered three remedies. The first was to reduce every holding by a fixed "
    "share, which would keep the relative rights of the households but lower the number of "
    "animals. The second was to shorten the season, so that the animals came off the common at "
    "the end of September. The third was to charge a fee for each animal above a set number, "
    "the fees going to the upkeep of the walls and the watering places.",
    "Each remedy was costed by the clerk. A reduction by a fixed share would need no new "
    "accounts, since the register of units already names every holder. A shorter season would "
    "need the shepherds to find winter quarters a month earlier, which most of them could not "
    "do without renting barns in the lowlands. A fee would need a count of the animals on the "
    "common at least twice a season and a clerk to collect the money.",
    "The council also asked the neighbouring parishes how they managed their own commons. Two "
    "of them limit the number of animals per household regardless of the units it holds, and "
    "one charges a fee for every animal from the first. None of them lets units to outsiders, "
    "and all three said that letting would have been stopped long ago had it begun there.",
    "The households that let their units to outsiders opposed the first remedy, because it "
    "would cut their rents, and the shepherds opposed the second, because the autumn grass is "
    "the best of the year. The third remedy found the most support, but its opponents pointed "
    "out that a fee would favour the richer households, who could pay it,<sup>1</sup> over the "
    "poorer ones, who depend on the common for most of the fodder of their animals,<sup>2</sup> "
    "and would have to sell some of them before the winter if the council decided to charge for every animal kept "
    "above the old number, a result that the council, after long debate and two adjournments, "
    "was not willing to accept without first hearing the households themselves at a meeting "
    "held for that purpose in each village during the following spring.",
    "After those meetings the council adopted a mixed rule. Each holding keeps its units, the "
    "season is unchanged, and a unit let to an outsider counts for four fifths of its animals. "
    "The clerk will count the animals again in three years, and the council will then decide "
    "whether the rule has brought the grazing back within what the common can bear.",
)


def pasture_rights() -> Sample:
    """Parish council report on common grazing: its first page ends inside a paragraph that
    runs on to the second page, below which the page's footnotes are set in small type. Not
    in `SAMPLES`: the tests of the footnote rule generate it (`generate(out_dir,
    FOOTNOTE_SAMPLES)`)."""
    return Sample(
        name="pasture_rights.pdf",
        title="Grazing Rights on the Common",
        blocks=(H(1, "Grazing Rights on the Common"), *(P(t) for t in PASTURE_PARAGRAPHS)),
        features={"footnoted_run_on": "Grazing Rights on the Common"},
        notes=(
            "1 Minutes of the council, second adjournment, remarks of the member for the mill.",
            "2 Parish council, Survey of the common grazing, kept in the council's records.",
        ),
    )


# ---------------------------------------------------------------- scans in other scripts


@dataclass(frozen=True)
class ScriptScan:
    """A one-page notice typeset in `font` (a Debian font file, the first of `fonts` present)
    and kept only as a grey 200 dpi picture: a scanned page in a script other than Latin."""

    name: str
    fonts: tuple[str, ...]
    title: str
    paragraphs: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join((self.title, *self.paragraphs))


#: Scanned notices in Thai and Chinese (fonts-thai-tlwg, fonts-wqy-microhei or fonts-noto-cjk).
#: Not committed: the OCR tests generate them (`script_scan`) when the font is installed.
SCRIPT_SCANS = (
    ScriptScan(
        "thai_notice_scan.pdf",
        (
            "/usr/share/fonts/truetype/tlwg/Garuda.ttf",
            "/usr/share/fonts/opentype/tlwg/Garuda.otf",
        ),
        "ประกาศเรื่องการประชุมประจำปี",
        (
            "บริษัทขอเชิญผู้ถือหุ้นทุกท่านเข้าร่วมการประชุมประจำปี ในวันที่ ๑๕ มีนาคม "
            "เวลา ๙ นาฬิกา ณ ห้องประชุมใหญ่ ชั้นสาม อาคารสำนักงานใหญ่",
            "ผู้ที่ไม่สามารถเข้าร่วมประชุมได้ สามารถมอบฉันทะให้ผู้อื่นเข้าร่วมแทน โดยกรอกแบบฟอร์มที่แนบมาพร้อมกับประกาศนี้",
        ),
    ),
    ScriptScan(
        "chinese_notice_scan.pdf",
        (
            "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        ),
        "关于召开年度股东大会的通知",
        (
            "公司定于三月十五日上午九时在总部大楼三楼会议室召开年度股东大会。",
            "不能出席会议的股东，可以委托他人代为出席，并填写随本通知附上的授权委托书。",
        ),
    ),
)


def font_of(scan: ScriptScan) -> Path | None:
    """The first of the scan's fonts installed here (None: the sample cannot be made)."""
    return next((Path(f) for f in scan.fonts if Path(f).is_file()), None)


def script_scan(scan: ScriptScan, out_dir: Path) -> Path:
    """Write `scan` into `out_dir`: laid out by `Story` (which shapes the script) in its font,
    rendered grey at 200 dpi and placed as the only content of a new A4 page."""
    font = font_of(scan)
    if font is None:
        raise FileNotFoundError(f"none of {scan.fonts} is installed")
    css = (
        f"@font-face {{font-family: script; src: url({font.name});}}\n"
        "body { font-family: script; font-size: 14pt; line-height: 1.6; }\n"
        "h1 { font-size: 22pt; margin: 0 0 14pt 0; }\np { margin: 0 0 10pt 0; }"
    )
    body = f"<h1>{html.escape(scan.title)}</h1>" + "".join(
        f"<p>{html.escape(p)}</p>" for p in scan.paragraphs
    )
    story = pymupdf.Story(body, user_css=css, archive=pymupdf.Archive(str(font.parent)))
    typeset = story.write_with_links(lambda n, filled: (PAGE, PAGE + MARGINS, None))
    picture = typeset[0].get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
    out = pymupdf.open()
    out.new_page(width=PAGE.width, height=PAGE.height).insert_image(PAGE, pixmap=picture)
    out.set_metadata({"creationDate": FIXED_DATE, "modDate": FIXED_DATE})
    target = out_dir / scan.name
    out.save(target, garbage=3, deflate=True, no_new_id=True)
    return target


SAMPLES = (
    report_outline,
    retry_settings,
    refund_policy,
    incident_review,
    relocation_memo,
    printed_spec,
)
TABLE_SAMPLES = (canteen_prices,)
FOOTNOTE_SAMPLES = (pasture_rights,)

#: A ruling set line by line: "^N" after a word is footnote mark N, a plain digit set smaller
#: and raised by its baseline, written in the text's order (no superscript font, as a word
#: processor's raised marks come out); the notes below open with the same raised numbers.
RULING_TITLE = "Ruling on the Tender Bond"
RULING_LINES = (
    (
        "The tender required each bidder to lodge a bid bond with its offer, the bond",
        "to stay in force until the contract was signed, as the rules of the Board of",
        "Engineering^1 require. The bidder lodged its bond on time, and the board opened",
        "the offers in public on the day the notice of the tender had given.",
    ),
    (
        "The board then awarded the contract, but the bidder declined to sign within",
        "the ten days the tender allowed, because the board had changed the terms of",
        "payment after the award. The board called on the bond, and the bank paid it",
        "under protest from the bidder. The court was asked whether the call was",
        "lawful under the guarantee.^2 The parties filed their submissions in writing.",
    ),
    (
        "The court held that the call was lawful: the guarantee was unconditional, and",
        "the bank had to pay on first demand whatever the dispute between the board",
        "and the bidder about the terms of payment. The claim fails, with costs.",
    ),
)
RULING_NOTES = (
    "1 Board of Engineering, Tender Rules, rule 28.2 (bid bonds).",
    "2 Bid Bond No. 4471, clause 3 (payment on first demand).",
)
_RULING_SIZE = 10.5
_RULING_LEADING = 14.0


def _ruling_line(page: pymupdf.Page, y: float, line: str) -> None:
    """One body line at baseline `y`, each "^N" (a digit, or one or two small letters) set
    smaller 4.5 pt above the baseline (MuPDF reads it as a line of its own, not flagged
    superscript)."""
    x = 72.0
    for i, part in enumerate(re.split(r"\^(\d|[a-z]{1,2})", line)):
        size, rise = (5.5, 4.5) if i % 2 else (_RULING_SIZE, 0.0)
        page.insert_text((x, y - rise), part, fontsize=size, fontname="tiro")
        x += pymupdf.get_text_length(part, fontname="tiro", fontsize=size)


def write_ruling(out_dir: Path) -> Path:
    """Write ``tender_ruling.pdf`` into `out_dir`: one page, a title, three paragraphs citing
    two footnotes by raised plain digits after a word, the notes at the page foot in 8 pt, each
    opening with its raised number. Not in `SAMPLES`: the footnote tests write it."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    page.insert_text((72, 90), RULING_TITLE, fontsize=18, fontname="tibo")
    y = 130.0
    for paragraph in RULING_LINES:
        for line in paragraph:
            _ruling_line(page, y, line)
            y += _RULING_LEADING
        y += _RULING_LEADING * 0.6
    top = 700.0
    page.draw_line((72, top), (200, top), color=(0, 0, 0), width=0.5)
    for i, note in enumerate(RULING_NOTES):
        base = top + 6 + NOTE_LEADING * (i + 1)
        mark, _, text = note.partition(" ")
        page.insert_text((72, base - 4.5), mark, fontsize=5.5, fontname="tiro")
        after = 72 + pymupdf.get_text_length(mark, fontname="tiro", fontsize=5.5)
        page.insert_text((after, base), text, fontsize=NOTE_SIZE, fontname="tiro")
    doc.set_metadata({"title": RULING_TITLE, "creationDate": FIXED_DATE, "modDate": FIXED_DATE})
    path = out_dir / "tender_ruling.pdf"
    path.write_bytes(doc.tobytes(garbage=4, deflate=True, no_new_id=1))
    return path


SYMBOLS_TITLE = "Spectra of the Silver Trimer"
#: Paragraphs with raised numbers set by HTML ``<sup>`` (the text layer flags them superscript):
#: term symbols and an isotope (the number apart from the word before, glued to the letter
#: after), powers of a one-letter italic symbol, and footnote marks after words (a list of
#: citations set with a semicolon, a range).
SYMBOLS_PARAGRAPHS = (
    "The higher <sup>2</sup><i>E</i> states split more, as the survey found.<sup>3</sup> So",
    "it is with the <sup>13</sup>C shift, which is small in the trimer.",
    "The valence keeps the 4<i>d</i><sup>10</sup> 5<i>s</i><sup>1</sup> shells of each atom.",
    "Wetting is tuned in sensors<sup>5;12</sup> and in lenses.<sup>7-9</sup> It is fast.",
)


def _html_page(out_dir: Path, name: str, title: str, html: str) -> Path:
    """Write `name` into `out_dir`: one page, `title` in 16 pt bold and `html` set below it."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    page.insert_text((72, 90), title, fontsize=16, fontname="tibo")
    page.insert_htmlbox(pymupdf.Rect(72, 120, PAGE.width - 72, 500), html)
    doc.set_metadata({"title": title, "creationDate": FIXED_DATE, "modDate": FIXED_DATE})
    path = out_dir / name
    path.write_bytes(doc.tobytes(garbage=4, deflate=True, no_new_id=1))
    return path


def write_symbols(out_dir: Path) -> Path:
    """Write ``silver_symbols.pdf`` into `out_dir`: a title and `SYMBOLS_PARAGRAPHS`. Not in
    `SAMPLES`: the symbol-digit tests write it."""
    body = "".join(f"<p>{p}</p>" for p in SYMBOLS_PARAGRAPHS)
    html = f'<div style="font-family:serif;font-size:11pt">{body}</div>'
    return _html_page(out_dir, "silver_symbols.pdf", SYMBOLS_TITLE, html)


QUOTING_TITLE = "Ruling on the Sale Agreement"
#: A judgment's paragraphs around a quotation set in from both margins, its opening quotation
#: mark hung left of its lines, and a bulleted list whose item opens with a quotation.
QUOTING_HTML = (
    '<div style="font-family:serif;font-size:11pt">'
    "<p>12. The court has considered the letters exchanged by the parties before the sale was"
    " agreed, and the words they used. Templeman LJ went on to say:</p>"
    '<p style="margin-left:36pt;margin-right:36pt;text-indent:-5pt;font-size:10pt">'
    "\u201cThe meaning of that phrase is well known. What it means is that neither party"
    " intends to be bound either in law or in equity unless and until a formal contract is"
    " made, and that each party reserves the right to withdraw until such time as a contract"
    " is made.\u201d</p>"
    "<p>13. The letters were marked subject to contract throughout, and no contract came"
    " about. The fields to note are:</p>"
    "<ul><li>\u201cSubject to contract\u201d is written on every letter.</li>"
    "<li>The deposit was never paid.</li></ul></div>"
)


def write_quoting(out_dir: Path) -> Path:
    """Write ``sale_ruling.pdf`` into `out_dir`: a title and `QUOTING_HTML`. Not in `SAMPLES`:
    the quoted-items tests write it."""
    return _html_page(out_dir, "sale_ruling.pdf", QUOTING_TITLE, QUOTING_HTML)


PUNCTUATION_TITLE = "Weekly Monitoring Summary"
#: Bold and italic phrases with punctuation glued to them, and a bracket around an italic
#: symbol.
PUNCTUATION_HTML = (
    '<div style="font-family:serif;font-size:11pt">'
    "<p>The number of new cases over the last 7 days was <b>144 cases</b>, with a"
    " <b>stable national trend</b>. The effective reproduction number (<i>Rt</i>) was"
    " <b>under 1</b>; the ratio of hospital cases to infections was <b>0.19</b>.</p></div>"
)


def write_punctuation(out_dir: Path) -> Path:
    """Write ``weekly_summary.pdf`` into `out_dir`: a title and `PUNCTUATION_HTML`. Not in
    `SAMPLES`: the glued-punctuation tests write it."""
    return _html_page(out_dir, "weekly_summary.pdf", PUNCTUATION_TITLE, PUNCTUATION_HTML)


LETTER_TITLE = "Notice of Award"
#: A letter's lines with ordinals whose suffix is raised by its baseline ("17^th").
LETTER_LINES = (
    "The defendant wrote to the plaintiff on 17^th July 2015 with the notice of award,",
    "and the plaintiff replied on the 1^st of August that it accepted the terms.",
)


def write_letter(out_dir: Path) -> Path:
    """Write ``notice_of_award.pdf`` into `out_dir`: one page, a title and `LETTER_LINES` set
    as one paragraph, each raised suffix a smaller run 4.5 pt above the baseline. Not in
    `SAMPLES`: the text-layer tests write it."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    page.insert_text((72, 90), LETTER_TITLE, fontsize=18, fontname="tibo")
    for i, line in enumerate(LETTER_LINES):
        _ruling_line(page, 130.0 + i * _RULING_LEADING, line)
    doc.set_metadata({"title": LETTER_TITLE, "creationDate": FIXED_DATE, "modDate": FIXED_DATE})
    path = out_dir / "notice_of_award.pdf"
    path.write_bytes(doc.tobytes(garbage=4, deflate=True, no_new_id=1))
    return path


# ---------------------------------------------------------------- rendering


def to_html(blocks: Sequence[Block]) -> str:
    """Block i gets the id ``b<i>`` so the layout engine reports where it was placed."""
    return "<body>" + "".join(b.html(f"b{i}") for i, b in enumerate(blocks)) + "</body>"


def layout(
    blocks: Sequence[Block], foot: float = 0.0
) -> tuple[pymupdf.Document, dict[int, tuple[int, int]]]:
    """Lay the blocks out on A4 pages (the first page's text frame `foot` points shorter, room
    for its footnotes); return the document and block index -> (first, last) page."""
    story = pymupdf.Story(to_html(blocks), user_css=CSS)
    spans: dict[int, tuple[int, int]] = {}

    def rectfn(rect_num: int, filled: Any) -> tuple[pymupdf.Rect, pymupdf.Rect, None]:
        frame = PAGE + MARGINS
        if rect_num == 0:
            frame.y1 -= foot
        return PAGE, frame, None

    def on_position(pos: Any) -> None:
        if not (pos.id or "").startswith("b"):
            return
        index = int(pos.id[1:])
        first, last = spans.get(index, (pos.page_num, pos.page_num))
        spans[index] = (min(first, pos.page_num), max(last, pos.page_num))

    doc = story.write_with_links(rectfn, positionfn=on_position)
    return doc, spans


def plain_text(block: Block) -> str:
    """The block's text as PyMuPDF extracts it (tags dropped, whitespace collapsed)."""
    markup = re.sub(r"</?(li|td|th|tr)\b[^>]*>", " ", block.html("x"))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def page_texts(doc: pymupdf.Document) -> list[str]:
    """Whitespace-collapsed text of each page, ligatures expanded (flags=0)."""
    return [" ".join(doc[i].get_text(flags=0).split()) for i in range(doc.page_count)]


def end_page(texts: list[str], block: Block, first: int) -> int:
    """1-based page holding the block's last words (a split block ends on a later page)."""
    tail = " ".join(plain_text(block).split()[-4:])
    for number in range(first, len(texts) + 1):
        if tail in texts[number - 1]:
            return number
    raise SystemExit(f"cannot find {tail!r} from page {first} on")


def headings_of(
    doc: pymupdf.Document, blocks: Sequence[Block], spans: dict[int, tuple[int, int]]
) -> list[dict[str, Any]]:
    """Each heading with its page and the page where its own body (up to the next heading) ends.

    The layout engine reports where each block starts; where a block ends is read from the text.
    """
    texts = page_texts(doc)
    starts = [i for i, b in enumerate(blocks) if isinstance(b, H)]
    out = []
    for n, i in enumerate(starts):
        last = (starts[n + 1] if n + 1 < len(starts) else len(blocks)) - 1
        heading = blocks[i]
        assert isinstance(heading, H)
        out.append(
            {
                "text": heading.text,
                "level": heading.level,
                "page": spans[i][0],
                "end_page": end_page(texts, blocks[last], spans[last][0]),
            }
        )
    return out


NOTE_SIZE = 8.0
NOTE_LEADING = 11.0


def notes_height(notes: Sequence[str]) -> float:
    """Points the first page's footnotes take below its text frame (rule and gap included)."""
    return NOTE_LEADING * len(notes) + 14 if notes else 0.0


def add_notes(doc: pymupdf.Document, notes: Sequence[str]) -> None:
    """The footnotes at the foot of the first page: a short rule, then one line each, the
    number raised and smaller than the note's text."""
    if not notes:
        return
    page = doc[0]
    bottom = (PAGE + MARGINS).y1
    top = bottom - notes_height(notes) + 6
    page.draw_line((72, top), (200, top), color=(0, 0, 0), width=0.5)
    for i, note in enumerate(notes):
        y = top + 6 + NOTE_LEADING * (i + 1)
        mark, _, text = note.partition(" ")
        page.insert_text((72, y - 3), mark, fontsize=5.5, fontname="tiro")
        page.insert_text((72 + 4 * len(mark) + 1, y), text, fontsize=NOTE_SIZE, fontname="tiro")


def add_footer(doc: pymupdf.Document, text: str) -> None:
    for number in range(doc.page_count):
        label = f"{text} · Page {number + 1} of {doc.page_count}"
        doc[number].insert_text(
            (72, FOOTER_Y), label, fontsize=8, fontname="helv", color=(0.3, 0.3, 0.3)
        )


def finish(doc: pymupdf.Document, sample: Sample, headings: list[dict[str, Any]]) -> bytes:
    """Outline, fixed metadata, font subsets; serialised without a fresh file ID."""
    if sample.footer:
        add_footer(doc, sample.footer)
    if sample.outline:
        doc.set_toc([[h["level"], h["text"], h["page"]] for h in headings])
    doc.set_metadata(
        {
            "title": sample.title,
            "author": "citechunk sample generator",
            "subject": sample.subject,
            "keywords": "",
            "creator": "sample_pdfs/make_samples.py",
            "producer": "PyMuPDF",
            "creationDate": FIXED_DATE,
            "modDate": FIXED_DATE,
        }
    )
    doc.subset_fonts()
    data: bytes = doc.tobytes(garbage=4, deflate=True, no_new_id=1)
    return data


def check(sample: Sample, headings: list[dict[str, Any]], doc: pymupdf.Document) -> None:
    """Fail loudly when a layout change breaks a feature the tests rely on."""
    by_text = {h["text"]: h for h in headings}
    for key in ("cross_page_section", "long_section"):
        if key in sample.features:
            h = by_text[sample.features[key]]
            if h["end_page"] <= h["page"]:
                raise SystemExit(f"{sample.name}: {key} {h['text']!r} does not cross a page break")
    if "footnoted_run_on" in sample.features:
        opening = page_texts(doc)[1][:1] if doc.page_count > 1 else ""
        if not opening.islower():
            raise SystemExit(f"{sample.name}: page 2 does not go on with page 1's paragraph")
    if "level_jump" in sample.features:
        levels = [h["level"] for h in headings]
        if not any(b - a >= 2 for a, b in zip(levels, levels[1:], strict=False)):
            raise SystemExit(f"{sample.name}: no level jump")


def build(sample: Sample) -> tuple[bytes, dict[str, Any]]:
    """The PDF bytes of one sample and its entry in expected.json."""
    doc, spans = layout(sample.blocks, notes_height(sample.notes))
    headings = headings_of(doc, sample.blocks, spans)
    add_notes(doc, sample.notes)
    check(sample, headings, doc)
    data = finish(doc, sample, headings)
    entry = {
        "title": sample.title,
        "page_count": doc.page_count,
        "outline": sample.outline,
        "features": sample.features,
        "headings": headings,
    }
    return data, entry


def compact_headings(text: str) -> str:
    """Put each heading object of the indented JSON on one line, for readable diffs."""
    pattern = re.compile(
        r"\{\n\s+(\"text\": .*),\n\s+(\"level\": \d+),\n\s+(\"page\": \d+),\n\s+(\"end_page\": \d+)\n\s+\}"
    )
    return pattern.sub(lambda m: "{" + ", ".join(m.groups()) + "}", text)


def generate(out_dir: Path, makers: Iterable[Any] = SAMPLES) -> dict[str, Any]:
    """Write every sample PDF and expected.json into `out_dir`; return the expected mapping."""
    out_dir.mkdir(parents=True, exist_ok=True)
    expected: dict[str, Any] = {
        "_about": (
            "Ground truth for the PDFs in this folder, written by make_samples.py. Levels are "
            "as authored (1-based); page and end_page are 1-based; end_page is the page where "
            "the heading's own body ends (before the next heading of any level). Feature values "
            "name the heading whose section shows the feature."
        ),
    }
    for make in makers:
        sample = make()
        data, entry = build(sample)
        (out_dir / sample.name).write_bytes(data)
        expected[sample.name] = entry
    text = compact_headings(json.dumps(expected, indent=2, ensure_ascii=False)) + "\n"
    (out_dir / "expected.json").write_text(text, encoding="utf-8")
    return expected


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=HERE, help="output folder (default: here)")
    args = parser.parse_args(argv)
    expected = generate(args.out)
    for name, entry in expected.items():
        if not name.startswith("_"):
            size = (args.out / name).stat().st_size
            print(f"{name}: {entry['page_count']} pages, {size // 1024} KB")


if __name__ == "__main__":
    main()
