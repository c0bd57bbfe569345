"""Does the grading queue keep one result per submission, on both engines, whatever the
workers do? (``simlab.grading.queue_store.store``: the flow on the kit's fenced ledger.)

The clock is fake, so a lease runs out when a test says so; nothing here grades a notebook.
"""

from __future__ import annotations

import os

import pytest

from simlab.grading.queue_store.store import NotAQueue, open_queue
from simlab.ledger import Ledger

SETTINGS = {"timeout": 60, "notebook_timeout": None, "max_output": 10, "sandbox": True}


@pytest.fixture
def queue(ledger_target, clock):
    q = open_queue(ledger_target, create=True, max_attempts=3, clock=clock)
    yield q
    q.close()


def _result(points: int) -> dict:
    return {
        "notebook": "class/a.ipynb",
        "exercise": "fencing",
        "score": points,
        "max_score": 6,
        "questions": [{"id": "q", "points": points, "max_points": 6, "feedback": "f"}],
        "error": None,
    }


def test_is_a_submission_enqueued_again_the_same_task(queue):
    first = queue.enqueue("class/a.ipynb", b"bytes", "v1", SETTINGS)
    again = queue.enqueue("class/a.ipynb", b"bytes", "v1", SETTINGS)
    changed = queue.enqueue("class/a.ipynb", b"other bytes", "v1", SETTINGS)
    regrade = queue.enqueue("class/a.ipynb", b"bytes", "v2", SETTINGS)
    assert first == again and len({first, changed, regrade}) == 3
    assert [s.task_id for s in queue.submissions()][-1] == regrade
    job = queue.claim("w1", 10)
    assert job.content == b"bytes" and job.notebook == "class/a.ipynb" and job.version == "v1"
    assert job.settings == SETTINGS


def test_is_a_late_result_refused_by_the_fence_and_kept_as_stale(queue, clock):
    queue.enqueue("class/a.ipynb", b"bytes", "v1", SETTINGS)
    slow = queue.claim("slow", 10)
    clock.advance(11)  # its lease ran out: it stopped, say
    fast = queue.claim("fast", 10)
    assert fast.lease.epoch > slow.lease.epoch
    assert queue.finish(fast.lease, _result(6))
    assert not queue.finish(slow.lease, _result(0))  # the late one
    (s,) = queue.submissions()
    assert s.status == "graded" and s.result["score"] == 6
    assert [(a.worker, a.outcome) for a in s.attempts] == [("slow", "stale"), ("fast", "graded")]
    assert all(a.ended is not None for a in s.attempts)


def test_is_a_vanished_worker_lost_and_the_submission_dead_after_max_attempts(queue, clock):
    queue.enqueue("class/a.ipynb", b"bytes", "v1", SETTINGS)
    for n in range(3):
        assert queue.claim(f"w{n}", 10) is not None
        clock.advance(11)
    assert queue.claim("w3", 10) is None  # the fourth claim sends it to the dead letter
    lost = queue.mark_lost()
    assert sorted(w for _, w, _ in lost) == ["w0", "w1", "w2"]
    assert queue.mark_lost() == []  # each attempt is lost once
    (s,) = queue.submissions()
    assert s.status == "dead" and s.result is None
    assert [a.outcome for a in s.attempts] == ["lost"] * 3
    assert [a.ended for a in s.attempts] == [None] * 3


def test_does_release_hand_the_submission_back(queue):
    queue.enqueue("class/a.ipynb", b"bytes", "v1", SETTINGS)
    job = queue.claim("w1", 10)
    assert queue.release(job.lease)
    again = queue.claim("w2", 10)
    assert again is not None and again.lease.epoch == job.lease.epoch + 1
    assert queue.finish(again.lease, _result(3))
    (s,) = queue.submissions()
    assert [a.outcome for a in s.attempts] == ["released", "graded"]
    assert queue.claim("w3", 10) is None  # graded: never handed out again


def test_is_a_missing_file_never_created(tmp_path):
    path = tmp_path / "nothing.sqlite"
    with pytest.raises(NotAQueue, match="does not exist"):
        open_queue(path)
    assert not path.exists()


def test_is_a_ledger_with_tasks_of_its_own_refused_and_left_alone(tmp_path):
    path = tmp_path / "jobs.sqlite"
    with Ledger(path) as ledger:
        ledger.submit("t1")
    with pytest.raises(NotAQueue, match="tasks of its own"):
        open_queue(path, create=True)
    with pytest.raises(NotAQueue, match="not a grading queue"):
        open_queue(path)
    with Ledger(path) as ledger:
        assert [t.task_id for t in ledger.tasks()] == ["t1"]


def test_is_a_file_that_is_no_ledger_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    with pytest.raises(NotAQueue, match="not a grading queue"):
        open_queue(path)
    assert path.read_text() == "hello"


def test_is_a_postgres_database_without_a_queue_left_untouched(fresh_postgres):
    import psycopg

    url = fresh_postgres()
    with pytest.raises(NotAQueue, match="holds no grading queue"):
        open_queue(url)
    with psycopg.connect(url) as db:
        tables = db.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
        ).fetchone()[0]
    assert tables == 0


def test_does_a_second_process_see_the_queue(ledger_target):
    with open_queue(ledger_target, create=True) as q:
        q.enqueue("a.ipynb", b"x", "v1", SETTINGS)
    pid = os.fork()
    if pid == 0:  # a worker elsewhere: it needs nothing but the queue
        try:
            with open_queue(ledger_target) as q:
                job = q.claim("child", 10)
                os._exit(0 if q.finish(job.lease, _result(1)) else 1)
        except BaseException:
            os._exit(2)
    assert os.waitpid(pid, 0)[1] == 0
    with open_queue(ledger_target) as q:
        (s,) = q.submissions()
    assert s.status == "graded" and [a.worker for a in s.attempts] == ["child"]


def test_does_the_queue_note_each_resubmission_and_regrade_once_in_order(queue, clock):
    a1 = queue.enqueue("class/a.ipynb", b"one", "v1", SETTINGS)
    clock.advance(1)
    assert queue.enqueue("class/a.ipynb", b"one", "v1", SETTINGS) == a1  # the same: not noted
    a2 = queue.enqueue("class/a.ipynb", b"two", "v1", SETTINGS)
    b1 = queue.enqueue("class/b.ipynb", b"one", "v1", SETTINGS)
    clock.advance(1)
    a3 = queue.enqueue("class/a.ipynb", b"two", "v2", SETTINGS)
    assert queue.enqueue("class/a.ipynb", b"one", "v1", SETTINGS) == a1  # a step back: noted
    assert [(k, t) for k, t, _ in queue.history()] == [
        ("class/a.ipynb", a1),
        ("class/a.ipynb", a2),
        ("class/b.ipynb", b1),
        ("class/a.ipynb", a3),
        ("class/a.ipynb", a1),
    ]
    assert [at for _, _, at in queue.history()] == [1000.0, 1001.0, 1001.0, 1002.0, 1002.0]


def test_are_overrides_kept_in_order_with_when_and_why_clears_included(queue, clock):
    queue.override("101", "fencing", "cancel-limits", 4.5, "misread")
    clock.advance(5)
    queue.override("101", "fencing", "cancel-limits", None, "")
    rows = queue.overrides()
    assert [(o.student, o.question, o.points, o.why, o.at) for o in rows] == [
        ("101", "cancel-limits", 4.5, "misread", 1000.0),
        ("101", "cancel-limits", None, "", 1005.0),
    ]


def test_does_a_queue_of_the_first_migration_migrate_with_its_history(
    ledger_target, clock, monkeypatch
):
    """A queue made with the first migration only (as the kit made them before overrides and
    history), filled by that kit's statements, opens with every later migration applied: its
    submissions kept, each key's history taken from them, overrides possible."""
    from simlab.grading.queue_store import postgres_statements, sqlite_statements

    for g in (sqlite_statements, postgres_statements):
        monkeypatch.setattr(g, "MIGRATIONS", g.MIGRATIONS[:1])
    old = open_queue(ledger_target, create=True, clock=clock)
    for key, content in (
        ("class/a.ipynb", b"one"),
        ("class/b.ipynb", b"b"),
        ("class/a.ipynb", b"two"),
    ):
        clock.advance(1)
        _enqueue_as_before(old, key, content)
    old.close()
    monkeypatch.undo()
    with open_queue(ledger_target, clock=clock) as q:
        subs = q.submissions()
        assert [s.notebook for s in subs] == ["class/a.ipynb", "class/b.ipynb", "class/a.ipynb"]
        assert [(k, t, at) for k, t, at in q.history()] == [
            (s.notebook, s.task_id, 1001.0 + i) for i, s in enumerate(subs)
        ]
        q.override("s", "fencing", "q", 1.0, "w")
        assert len(q.overrides()) == 1


#: How the kit enqueued a submission before it kept a history (its statement, per engine).
_ADD_BEFORE = {
    "sqlite": """
        INSERT INTO grading_submissions
            (task_id, notebook, sha256, version, settings, content, refused, enqueued_at)
        VALUES (:task_id, :notebook, :sha256, :version, :settings, :content, :refused, :now)
        ON CONFLICT (task_id) DO UPDATE SET enqueued_at = :now
    """,
    "postgres": """
        INSERT INTO simlab_grading_submissions
            (task_id, notebook, sha256, version, settings, content, refused, enqueued_at)
        VALUES (%(task_id)s, %(notebook)s, %(sha256)s, %(version)s, %(settings)s, %(content)s,
                %(refused)s, %(now)s)
        ON CONFLICT (task_id) DO UPDATE SET enqueued_at = %(now)s
    """,
}


def _enqueue_as_before(queue, notebook: str, content: bytes) -> str:
    """Enqueue as the kit did before it kept a history: the submission's row, then its task
    (whose ID is returned)."""
    import hashlib
    import json

    from simlab.grading.queue_store import sqlite_statements
    from simlab.grading.queue_store.store import task_key

    sha = hashlib.sha256(content).hexdigest()
    task_id = task_key(notebook, sha, "v1", SETTINGS)
    now = queue._now()
    engine = "sqlite" if queue.g is sqlite_statements else "postgres"
    queue.ledger._count(
        _ADD_BEFORE[engine],
        {
            "task_id": task_id, "notebook": notebook, "sha256": sha, "version": "v1",
            "settings": json.dumps(SETTINGS, sort_keys=True), "content": content,
            "refused": None, "now": now,
        },
    )  # fmt: skip
    goal = json.dumps({"notebook": notebook, "sha256": sha, "version": "v1"})
    task = {"task_id": task_id, "tenant": queue.g.TENANT, "goal": goal, "now": now}
    queue.ledger._count(queue.ledger.q.SUBMIT, task)
    return task_id
