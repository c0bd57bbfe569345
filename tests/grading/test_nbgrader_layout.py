"""Does nbgrader's course layout account for every student folder (a link listed as itself, never
followed; nothing handed in said so), and does a queue made before submission times were kept
open, migrate and keep them?"""

from __future__ import annotations

import pytest

from simlab.grading.messages import render
from simlab.grading.nbgrader import CourseError, read_course
from simlab.grading.queue_store import postgres_statements, sqlite_statements
from simlab.grading.queue_store.store import open_queue
from tests.ledger.test_grading_queue import _enqueue_as_before


def _folder(root, student, assignment="hw1", stamp="2026-12-01 23:59:59.000000 UTC"):
    folder = root / "submitted" / student / assignment
    folder.mkdir(parents=True)
    (folder / "ex.ipynb").write_text("{}")
    if stamp is not None:
        (folder / "timestamp.txt").write_text(stamp)
    return folder


def test_does_the_layout_account_for_every_student_folder(tmp_path):
    root = tmp_path / "course"
    _folder(root, "ann")
    _folder(root, "bob", stamp=None)
    _folder(root, "cat", stamp="2026-12-01 23:59:59 CST")  # CST names several zones
    _folder(root, "dan", assignment="hw0")
    (root / "submitted" / "eve").mkdir()
    (root / "submitted" / "eve" / "hw1").symlink_to(root / "submitted" / "ann" / "hw1")
    (root / "submitted" / "notes.txt").write_text("not a student")
    (root / "submitted" / "ann" / "hw1" / "data.csv").write_text("1,2")
    course = read_course(root, "hw1")
    assert course.students == ["ann", "bob", "cat", "dan", "eve"]
    assert course.nothing == ["dan"]
    by = {h.student: h for h in course.handed}
    assert by["ann"].path == str(root / "submitted" / "ann" / "hw1" / "ex.ipynb")
    assert by["ann"].submitted is not None and by["ann"].note is None
    assert render(by["bob"].note) == "no timestamp.txt beside it"
    assert render(by["cat"].note).startswith("its timestamp.txt cannot be read: ")
    assert by["eve"].path == str(root / "submitted" / "eve" / "hw1"), "the link, not its target"
    assert len(course.handed) == 4, "data files and stray files are not submissions"


@pytest.mark.parametrize("assignment", ["", ".", "..", "a/b", "a\\b"])
def test_is_an_assignment_that_is_not_a_folder_name_refused(tmp_path, assignment):
    _folder(tmp_path, "ann")
    with pytest.raises(CourseError):
        read_course(tmp_path, assignment)


@pytest.mark.parametrize("engine", ["sqlite", pytest.param("postgres", marks=pytest.mark.server)])
def test_does_a_queue_made_before_submission_times_open_and_keep_them(
    tmp_path, monkeypatch, request, engine
):
    if engine == "sqlite":
        db, statements, table = str(tmp_path / "old.sqlite"), sqlite_statements, "grading"
    else:
        db = request.getfixturevalue("fresh_postgres")()
        statements, table = postgres_statements, "simlab_grading"
    first = statements.MIGRATIONS[:1]
    with monkeypatch.context() as m:
        m.setattr(statements, "MIGRATIONS", first)
        with open_queue(db, create=True) as q:
            task = _enqueue_as_before(q, "class/ann/ex.ipynb", b"{}")  # that kit's statements
    with open_queue(db) as q:  # not create: an existing queue is upgraded on opening
        q.hand_in(task, "ann", "2026-12-01T23:59:59+00:00", None)
        q.hand_in(task, "ann", "2026-12-02T00:00:00+00:00", None)  # the last record wins
        q.set_terms({"deadline": "2026-12-01T23:59:59+00:00"})
        assert q.handed_in() == {task: ("ann", "2026-12-02T00:00:00+00:00", None)}
        assert q.terms() == {"deadline": "2026-12-01T23:59:59+00:00"}
        assert [s.task_id for s in q.submissions()] == [task]
        versions = q.ledger._rows(f"SELECT version FROM {table}_migrations ORDER BY version", {})
    assert [v for (v,) in versions] == list(range(1, len(statements.MIGRATIONS) + 1))
