"""`plan_changes`: what a sync inserts and deletes per document, from OUT's and the store's ids."""

from __future__ import annotations

from citechunk.stores.plan import DocPlan, plan_changes

NAMES = {"a": "a.pdf", "b": "b.pdf", "c": "c.pdf"}


def test_unchanged_documents_make_no_plan() -> None:
    ids = {"a": {"1", "2"}, "b": {"3"}}
    assert plan_changes(ids, ids, NAMES) == []


def test_missing_rows_are_inserted_and_stale_rows_deleted() -> None:
    out = {"a": {"1", "2"}, "b": {"4"}}
    stored = {"a": {"1"}, "b": {"3"}, "z": {"9"}}
    assert plan_changes(out, stored, NAMES) == [
        DocPlan("a", "a.pdf", ("2",), ()),
        DocPlan("b", "b.pdf", ("4",), ("3",)),
        DocPlan("z", "z", (), ("9",)),
    ]


def test_an_empty_store_gets_everything() -> None:
    out = {"a": {"2", "1"}}
    assert plan_changes(out, {}, NAMES) == [DocPlan("a", "a.pdf", ("1", "2"), ())]


def test_an_id_stored_under_another_document_is_rewritten_not_deleted() -> None:
    out = {"a": {"1"}, "b": {"2"}}
    stored = {"a": {"2"}, "b": set[str]()}
    plans = plan_changes(out, stored, NAMES)
    assert plans == [DocPlan("a", "a.pdf", ("1",), ()), DocPlan("b", "b.pdf", ("2",), ())]


def test_kept_documents_absent_from_out_keep_their_rows() -> None:
    out = {"a": {"1"}}
    stored = {"a": {"1"}, "c": {"5"}}
    assert plan_changes(out, stored, NAMES, keep={"c"}) == []
    assert plan_changes(out, stored, NAMES) == [DocPlan("c", "c.pdf", (), ("5",))]
