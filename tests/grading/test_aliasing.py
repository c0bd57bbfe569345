"""Does the purity probe find what a migration's result shares with its input or with another
result, leave the learner's objects as they were for the checks after it, and read them without
calling the learner's code?"""

from __future__ import annotations

import copy

from simlab.grading.aliasing import changed_with


def shared_containers(migrate, record):
    """As the sandbox probes a call: the result against the input of that very call."""
    given = copy.deepcopy(record)
    return changed_with(given, migrate(given))


def shared_between_results(migrate, record):
    """As the sandbox compares two results it kept."""
    first, second = migrate(copy.deepcopy(record)), migrate(copy.deepcopy(record))
    return changed_with(first, second)


RECORD = {"sent": ["a@x"], "approval": {"required": False}, "tenant": "acme"}

_DEFAULT = {"required": False}
_SENT: list = []


def _fresh(v1: dict) -> dict:
    return {"sent": list(v1["sent"]), "approval": dict(v1["approval"]), "tenant": v1["tenant"]}


def _shares_a_default(v1: dict) -> dict:
    """One module-level dict and list handed to every result (the two fields share them)."""
    return {"sent": _SENT, "approval": _DEFAULT, "also": _SENT, "tenant": v1["tenant"]}


def test_does_the_probe_name_what_two_results_share_and_undo_its_changes():
    assert shared_between_results(_fresh, RECORD) == []
    assert shared_between_results(_shares_a_default, RECORD) == ["also", "approval", "sent"]
    assert _DEFAULT == {"required": False} and _SENT == []  # as the learner left them
    assert shared_between_results(_shares_a_default, RECORD) == ["also", "approval", "sent"]


def test_does_the_probe_name_what_a_result_shares_with_its_input():
    assert shared_containers(_fresh, RECORD) == []
    assert shared_containers(lambda v1: {**v1}, RECORD) == ["approval", "sent"]
    assert RECORD == {"sent": ["a@x"], "approval": {"required": False}, "tenant": "acme"}


_PARSED: dict = {}


def _cached_citations(v1: dict) -> dict:
    """New lists each call, but the parsed citations inside them kept in a module-level cache:
    two results share the citation dicts (one of them twice in a list and under another
    field)."""
    evidence = [_PARSED.setdefault(ref, {"doc_id": ref}) for ref in v1["evidence"]]
    return {"evidence": evidence, "nested": {"inner": [evidence[0]]}, "tenant": v1["tenant"]}


def test_does_the_probe_find_what_two_results_share_deep_inside():
    record = {"evidence": ["kb/a@1", "kb/b@2", "kb/a@1"], "tenant": "acme"}
    fresh = lambda v1: {"evidence": [{"doc_id": r} for r in v1["evidence"]], "tenant": "x"}  # noqa: E731
    assert shared_between_results(fresh, record) == []
    assert shared_between_results(_cached_citations, record) == ["evidence", "nested"]
    # as the learner left them: a dict met twice (under two fields, and twice in one list) was
    # changed once and put back once
    assert _PARSED == {"kb/a@1": {"doc_id": "kb/a@1"}, "kb/b@2": {"doc_id": "kb/b@2"}}


class _Liar(list):
    """A list that shows the grader's reads nothing of what it holds."""

    def __iter__(self):
        return iter([])

    def __eq__(self, other):
        return True

    __hash__ = None

    def append(self, item):
        return None


def test_does_the_probe_read_a_subclass_by_what_it_holds():
    sent = _Liar(["a@x"])
    shares = lambda v1: {"sent": sent, "tenant": "acme"}  # noqa: E731
    assert changed_with({"sent": sent}, shares(None)) == ["sent"]
    assert list.__len__(sent) == 1, "the mark was taken out again"
