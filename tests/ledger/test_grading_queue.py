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
