"""Are submissions only the regular files inside the folders given? A symbolic link (to the
solutions, to a classmate's notebook, to a folder), a FIFO, or a hard link to a classmate's file
is refused with one line naming it, never opened, and the batch exits as for a malformed
notebook; the classmate is still found under their own name. No kernel runs here: every
submission of these batches is refused or unreadable (the attack batch grades links beside
honest notebooks, jailed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from simlab.cli import main
from simlab.grading.grader import find_notebooks, grade, grade_notebook
from simlab.grading.messages import render
from simlab.grading.report import students
from simlab.grading.sandbox import jail

ROOT = Path(__file__).resolve().parents[2]
FENCING = "01_fencing_and_cancellation.ipynb"


@pytest.fixture
def klass(tmp_path):
    """alice hands in a (malformed) notebook; bob links to the solutions, carol to alice's
    notebook, dan's folder is a link to alice's, erin's notebook is a FIFO."""
    folder = tmp_path / "class"
    for name in ("alice", "bob", "carol", "erin"):
        (folder / name).mkdir(parents=True)
    (folder / "alice" / FENCING).write_text("{ alice's own, malformed")
    (folder / "bob" / FENCING).symlink_to(ROOT / "solutions" / FENCING)
    (folder / "carol" / FENCING).symlink_to(Path("..") / "alice" / FENCING)
    (folder / "dan").symlink_to("alice", target_is_directory=True)
    os.mkfifo(folder / "erin" / FENCING)
    return folder


def test_are_links_and_fifos_listed_to_be_refused_and_the_classmate_kept(klass):
    found = [p.relative_to(klass).as_posix() for p in find_notebooks([klass])]
    assert found == [
        f"alice/{FENCING}",
        f"bob/{FENCING}",
        f"carol/{FENCING}",
        "dan",
        f"erin/{FENCING}",
    ]
    assert students(find_notebooks([klass]), [klass]) == ["alice", "bob", "carol", "dan", "erin"]
    given = sorted(klass.glob(f"*/{FENCING}"))  # dan/ex.ipynb reached through dan's link
    assert students(given, given) == [
        f"{n}/{FENCING[:-6]}" for n in ("alice", "bob", "carol", "dan", "erin")
    ]
    assert students(given, [klass]) == ["alice", "bob", "carol", "dan", "erin"], "dan is not alice"


def test_is_each_link_refused_in_one_line_with_the_exit_of_a_malformed_notebook(
    klass, monkeypatch, capsys
):
    monkeypatch.setattr(jail, "_tool", lambda name: None)
    table = klass.parent / "class.csv"
    assert main(["grade", "--no-sandbox", "--no-progress", "--csv", str(table), str(klass)]) == 1
    out = capsys.readouterr().out
    blocks = out.split("\n\n")
    assert len(blocks) == 5 + 1, "one block per submission, then the CSV line"
    for who in (f"bob/{FENCING}", f"carol/{FENCING}", "dan"):
        lines = blocks_of(blocks, who)
        assert len(lines) == 2 and lines[0].endswith(": 0/0"), lines
        assert "a symbolic link, not followed" in lines[1] and who in lines[1], lines
    erin = blocks_of(blocks, f"erin/{FENCING}")
    assert "not a regular file" in erin[1]
    alice = blocks_of(blocks, f"alice/{FENCING}")
    assert "not a readable notebook" in alice[1], "alice is graded under her own name"
    assert "17/17" not in out and "grader error" not in out


def blocks_of(blocks: list[str], who: str) -> list[str]:
    (block,) = [b for b in blocks if b.splitlines()[0].split(": ")[0].endswith(who)]
    return block.splitlines()


def test_is_a_link_given_by_name_refused_too(klass):
    for path in (klass / "bob" / FENCING, klass / "dan"):
        graded = grade_notebook(path, sandbox=False)
        assert graded.score == graded.max_score == 0
        assert "a symbolic link, not followed" in graded.error


def test_is_a_file_given_through_a_linked_folder_refused(klass, monkeypatch, capsys):
    """``simlab grade class/*/ex.ipynb``: the shell expands ``dan/ex.ipynb`` through the link."""
    monkeypatch.setattr(jail, "_tool", lambda name: None)
    given = [str(p) for p in sorted(klass.glob(f"*/{FENCING}"))]
    assert f"{klass}/dan/{FENCING}" in given
    assert main(["grade", "--no-sandbox", "--no-progress", *given]) == 1
    blocks = capsys.readouterr().out.split("\n\n")
    dan = blocks_of(blocks, f"dan/{FENCING}")
    assert "in a folder that is a symbolic link, not followed" in dan[1], dan
    refused = grade_notebook(klass / "dan" / FENCING, sandbox=False)
    assert "所在的文件夹是符号链接" in render(refused.error_said, "zh")
    alice = blocks_of(blocks, f"alice/{FENCING}")
    assert "not a readable notebook" in alice[1], "alice is still graded under her own name"


def test_is_a_hard_link_to_a_classmates_file_graded_under_neither_name(tmp_path):
    for name in ("alice", "bob"):
        (tmp_path / name).mkdir()
    (tmp_path / "alice" / FENCING).write_text("{ malformed")
    os.link(tmp_path / "alice" / FENCING, tmp_path / "bob" / FENCING)
    grades = grade([tmp_path], sandbox=False)
    assert [Path(g.notebook).parent.name for g in grades] == ["alice", "bob"]
    assert all("the very same file as" in g.error for g in grades)
    assert "bob" in grades[0].error and "alice" in grades[1].error


def test_is_a_path_given_twice_graded_once(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / FENCING).write_text("{}")
    assert len(find_notebooks([tmp_path, tmp_path / "a", tmp_path / "a" / FENCING])) == 1
