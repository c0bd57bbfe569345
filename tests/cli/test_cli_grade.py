"""``simlab grade`` without a sandbox, its help, and the CSV's student names (no kernel runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simlab.cli import main
from simlab.grading import grader
from simlab.grading.report import students
from simlab.grading.sandbox import jail


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.ipynb"
    path.write_text("{ not a notebook")
    return path


def test_does_grade_refuse_without_bubblewrap_in_one_line(monkeypatch, broken, capsys):
    monkeypatch.setattr(jail, "_tool", lambda name: None)
    assert main(["grade", str(broken)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "refusing to grade without a sandbox" in err and "bubblewrap" in err
    assert "--no-sandbox" in err and "Traceback" not in err
    with pytest.raises(jail.SandboxUnavailable):
        grader.grade([broken])


def test_does_grade_refuse_when_bubblewrap_cannot_jail_here(monkeypatch, broken, capsys):
    monkeypatch.setattr(jail, "_probe", lambda bwrap: "bubblewrap cannot build a sandbox: no")
    assert main(["grade", str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot build a sandbox" in err


def test_does_no_sandbox_grade_with_a_warning(monkeypatch, broken, capsys):
    monkeypatch.setattr(jail, "_tool", lambda name: None)
    assert main(["grade", "--no-sandbox", "--json", str(broken)]) == 1  # graded: not a notebook
    out, err = capsys.readouterr()
    assert '"error"' in out and "not safe for other people's code" in err


def test_does_the_help_say_what_is_isolated(capsys):
    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in (
        "nobody (uid/gid 65534)",
        "on the host too when you grade as root",
        "network (none at all)",
        "read-only",
        "no solutions/, tests/, other submissions",
        "hidden checks",
        "thrown away",
        "64 processes",
        "every process it started is killed",
        "a symbolic link is refused in one line, never followed",
        "cannot draw a line of its own",
        "--no-sandbox",
    ):
        assert words in text, words


def test_do_loose_files_get_distinct_students(tmp_path):
    paths = []
    for rel in ("alice/ex1.ipynb", "bob/ex1.ipynb", "carol.ipynb", "class/dan/ex1.ipynb"):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
        paths.append(path)
    roots = [*paths[:3], tmp_path / "class"]
    assert students(paths, roots) == ["alice/ex1", "bob/ex1", "carol", "dan"]
    assert students(paths[:1], paths[:1]) == ["ex1"], "a lone file keeps its plain name"


_SOLUTION = Path(__file__).resolve().parents[2] / "solutions" / "01_fencing_and_cancellation.ipynb"


@pytest.mark.parametrize(
    "argv, words",
    [
        (["solutions/no_such.ipynb"], "no such notebook"),
        (["--copies", "-1"], "--copies >= 0"),
        (["--rounds", "0"], "must be positive"),
        (
            [str(_SOLUTION), "--copies", "0", "--queue"],
            "--queue measures one notebook and at least one copy",
        ),
        ([str(_SOLUTION), "--worker-processes"], "--worker-processes is an option of --queue"),
    ],
)
def test_is_bad_bench_grade_input_one_line_and_exit_2(argv, words, capsys):
    from tests.strategies import run_cli

    code, out, err = run_cli(["bench", "grade", *argv], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err and "Traceback" not in err
