"""Results committed to a grading queue through its own API, as a worker commits them (claim,
then the fenced save), and the queue's report read back: no kernel, no jail."""

from __future__ import annotations

from simlab.cli import main
from simlab.grading.queue_store.store import open_queue


def settings(sandbox: bool) -> dict:
    """The grading settings a queue's submissions are enqueued with."""
    return {"timeout": 60, "notebook_timeout": None, "max_output": 10, "sandbox": sandbox}


def result(notebook: str, points: list[int], feedback: str = "ok") -> dict:
    """A grade of ``notebook``: one question of 5 points per entry of ``points``."""
    questions = [
        {"id": f"q{i}", "points": p, "max_points": 5, "feedback": feedback}
        for i, p in enumerate(points, start=1)
    ]
    return {
        "notebook": notebook,
        "exercise": "fencing",
        "score": sum(points),
        "max_score": 5 * len(points),
        "questions": questions,
        "error": None,
    }


def graded(db, notebook: str, points: list[int], version: str, settings: dict, **kw) -> None:
    """Enqueue ``notebook`` and commit its :func:`result` under grader ``version``."""
    with open_queue(db, create=True) as q:
        q.enqueue(notebook, notebook.encode(), version, settings)
        job = q.claim("w", 30)
        assert q.finish(job.lease, result(notebook, points, **kw))


def report(capsys, db, *extra) -> tuple[int, str, str]:
    """``simlab grade --queue DB --report EXTRA...``: exit status, stdout, stderr."""
    status = main(["grade", "--queue", str(db), "--report", *extra])
    out, err = capsys.readouterr()
    return status, out, err
