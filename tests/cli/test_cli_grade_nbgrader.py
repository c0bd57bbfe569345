"""A course filled by nbgrader's own commands (the ``nbgrader`` package from PyPI, a test
dependency): ``release_assignment``, ``fetch_assignment``, ``submit`` for two students, then
``collect``. Does ``simlab grade --nbgrader COURSE --assignment ps1`` find each student's
notebook under their nbgrader ID, read the ``timestamp.txt`` nbgrader wrote to the same instant
nbgrader's own ``parse_utc`` reads, and count lateness at the boundary (exactly at the deadline
on time, one second before it one started day late)?

nbgrader runs once per module, in a process of its own (its applications are singletons that
keep their configuration), with no network. Grades are committed through the queue's own API, so
no kernel or jail is needed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta

import pytest

from simlab.cli import main
from simlab.grading.nbgrader import parse_timestamp
from simlab.grading.queue_store.store import open_queue

#: nbgrader's commands, as an instructor and two students would run them.
_NBGRADER = textwrap.dedent(
    """
    import json, os, sys
    from pathlib import Path
    import simlab  # first: what nbformat loads and never uses waits (simlab.lazy.DEFERRED)
    import nbformat
    import nbgrader.api
    from alembic.script import ScriptDirectory
    from nbgrader.apps import NbGraderApp

    # collect stamps the gradebook it creates with the head of nbgrader's migrations, which it
    # asks of the `alembic` command: a process that imports nbformat without simlab first, seconds
    # of parsers built for nothing. The same migrations answer the same question here.
    migrations = Path(nbgrader.api.__file__).parent / "alembic"
    nbgrader.api.get_alembic_version = ScriptDirectory(str(migrations)).get_current_head

    root = Path(sys.argv[1])
    course, home = root / "course", root / "home"
    (course / "release" / "ps1").mkdir(parents=True)
    home.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell("x = 1"))
    nbformat.write(nb, str(course / "release" / "ps1" / "fencing.ipynb"))
    common = ["--course", "abc101", f"--Exchange.root={root / 'exchange'}",
              f"--Exchange.cache={root / 'cache'}"]

    def run(cwd, *args):
        os.chdir(cwd)
        try:
            NbGraderApp.launch_instance(argv=[*args, *common])
        except SystemExit as exc:
            if exc.code:
                raise
        finally:
            NbGraderApp.clear_instance()

    run(course, "release_assignment", "ps1")
    run(home, "fetch_assignment", "ps1")
    run(home, "submit", "ps1", "--student=alice")
    run(home, "submit", "ps1", "--student=bob")
    run(course, "collect", "ps1")

    # how nbgrader itself reads each collected timestamp (this process has nbgrader imported)
    from nbgrader.utils import parse_utc
    read = {}
    for student in ("alice", "bob"):
        text = (course / "submitted" / student / "ps1" / "timestamp.txt").read_text()
        read[student] = [text, parse_utc(text).isoformat()]
    (root / "parse_utc.json").write_text(json.dumps(read))
    """
)


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """An nbgrader course after ``nbgrader collect ps1``: alice's and bob's submissions; beside
    it, ``parse_utc.json``: each one's timestamp text and what nbgrader's ``parse_utc`` made of it
    (nbgrader is imported only in its own process: it imports a Jupyter server's worth)."""
    if importlib.util.find_spec("nbgrader") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("nbgrader (a dev dependency) is not installed", pytrace=False)
        pytest.skip("nbgrader is not installed (pip install -e '.[dev]')")
    root = tmp_path_factory.mktemp("nbgrader")
    done = subprocess.run(
        [sys.executable, "-c", _NBGRADER, str(root)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return root / "course"


def _stamp(course, student):
    return (course / "submitted" / student / "ps1" / "timestamp.txt").read_text()


def test_is_nbgraders_timestamp_read_as_nbgrader_reads_it(collected):
    by_nbgrader = json.loads((collected.parent / "parse_utc.json").read_text())
    for student in ("alice", "bob"):
        text = _stamp(collected, student)
        theirs_text, theirs = by_nbgrader[student]
        assert theirs_text == text
        ours = parse_timestamp(text)
        assert ours.astimezone(UTC).replace(tzinfo=None) == datetime.fromisoformat(theirs), text


def test_is_a_collected_course_graded_with_lateness_at_the_boundary(collected, tmp_path, capsys):
    alice = parse_timestamp(_stamp(collected, "alice"))
    bob = parse_timestamp(_stamp(collected, "bob"))
    assert bob > alice, "bob submitted after alice"
    db = tmp_path / "q.sqlite"
    argv = ["grade", "--queue", str(db), "--enqueue-only", "--no-sandbox"]
    course = ["--nbgrader", str(collected), "--assignment", "ps1"]
    deadline = ["--deadline", alice.isoformat(), "--late-policy", "10%/day"]
    assert main([*argv, *course, *deadline]) == 0
    with open_queue(db) as q:
        while (job := q.claim("w", 30)) is not None:
            result = {
                "notebook": job.notebook, "exercise": "fencing", "score": 10, "max_score": 10,
                "questions": [{"id": "q1", "points": 10, "max_points": 10, "feedback": "ok"}],
                "error": None,
            }  # fmt: skip
            assert q.finish(job.lease, result)

    def report(*extra):
        capsys.readouterr()
        assert main(["grade", "--queue", str(db), "--report", "--json", *extra]) == 0
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        return {r["student"]: (r["late_days"], r["score"]) for r in rows}

    assert report() == {"alice": (0, 10), "bob": (1, 9)}, "exactly at the deadline: on time"
    before = (alice - timedelta(seconds=1)).isoformat()
    assert report("--deadline", before) == {"alice": (1, 9), "bob": (1, 9)}
    assert report("--deadline", bob.isoformat()) == {"alice": (0, 10), "bob": (0, 10)}
