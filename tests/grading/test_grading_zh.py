"""Does the grader treat a Chinese exercise notebook exactly like the English one, and speak
Chinese with ``--lang zh``?

Two real gradings only (the solution and the blank of exercise 01 in Chinese): same exercise,
same question IDs, full marks and 0. The feedback table itself is checked against the whole
submissions corpus in test_grading.py (every sentence must have a Chinese pattern).
"""

from __future__ import annotations

import json
from pathlib import Path

from simlab.cli import main
from simlab.grading.checks import EXERCISES
from simlab.grading.checks.fencing.messages import say
from simlab.grading.i18n import translate, untranslated
from simlab.grading.messages import message, render

ROOT = Path(__file__).resolve().parents[2]
NAME = "01_fencing_and_cancellation.ipynb"


def test_do_chinese_solutions_get_full_marks_and_blanks_zero_with_chinese_feedback(capsys):
    paths = [str(ROOT / "solutions/zh" / NAME), str(ROOT / "exercises/zh" / NAME)]
    status = main(["grade", "--json", "--lang", "zh", "--jobs", "2", "--no-progress", *paths])
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0
    solution, blank = objects
    exercise = EXERCISES["fencing"]
    ids = [q.id for q in exercise.questions]
    for got in (solution, blank):
        assert got["exercise"] == "fencing" and got["max_score"] == exercise.max_score
        assert [q["id"] for q in got["questions"]] == ids
    assert solution["score"] == exercise.max_score, solution
    assert all(q["feedback"].startswith("全部") for q in solution["questions"])
    assert blank["score"] == 0
    assert all(q["feedback"].startswith("未作答:") for q in blank["questions"]), blank


def test_do_nested_messages_render_in_chinese_and_keep_values():
    said = message(
        "grader.note",
        body=message("grader.partial_more", passed=2, count=6, first=say("cancel_bumps"), more=3),
        names="x.y",
    )
    english = render(said, "en")
    assert str(said) == english
    assert english == (
        "2/6 checks passed; cancel must bump the epoch by one, so every lease issued before is "
        "stale (and 3 more) (note: the notebook replaces x.y; the grader ignores that)"
    )
    assert render(said, "zh") == (
        "2/6 项检查通过;cancel 必须把 epoch 加一,这样之前发出的每个租约都会变成陈旧的"
        "(另有 3 项未通过)(注意:这个 notebook 替换了 x.y;评分器不受影响)"
    )


def test_does_a_sentence_without_a_pattern_stay_english_and_get_reported():
    english = "1/2 checks passed; a brand-new message nobody translated"
    assert translate(english, "zh") == "1/2 项检查通过;a brand-new message nobody translated"
    assert untranslated(english) == ["a brand-new message nobody translated"]


def test_does_format_text_speak_chinese():
    from simlab.grading.grader import NotebookGrade, QuestionGrade
    from simlab.grading.report import format_text

    g = NotebookGrade("x.ipynb", "fencing", 6, 6, [QuestionGrade("q", 6, 6, "all 6 checks passed")])
    assert "全部 6 项检查通过" in format_text([g], "zh")
    assert "all 6 checks passed" in format_text([g])


class _LocalStudent:
    """A student whose ledger pieces are plain functions of this process (no sandbox)."""

    def __init__(self, **functions):
        self.functions = functions

    def ledger(self, path=":memory:", *, clock, **pieces):
        from simlab.grading.student import CheckedLedger
        from simlab.learn.pieces import PiecesLedger

        plugged = {role: self.functions[name] for role, name in pieces.items()}
        return CheckedLedger(PiecesLedger(path, clock=clock, **plugged))


def _unfenced_heartbeat(db, lease, ttl, now):
    cursor = db.execute(
        "UPDATE tasks SET lease_until = ?, updated_at = ? WHERE task_id = ?",
        (now + ttl, now, lease.task_id),
    )
    return cursor.rowcount == 1


def test_does_a_failing_leases_check_speak_chinese_with_no_english_sentence_left():
    import re

    from simlab.grading.checks.leases import claim
    from simlab.grading.checks.leases import operations as ops
    from simlab.grading.checks.leases.driving import Ledgers
    from simlab.grading.messages import untranslated as no_catalog
    from simlab.grading.questions import Tally, feedback_message

    s = _LocalStudent(heartbeat=_unfenced_heartbeat)
    tally = Tally()
    tally.part(lambda: claim._heartbeat_is_fenced(Ledgers(s, heartbeat="heartbeat")))
    plays = ops.Plays(s, heartbeat="heartbeat")
    moves = ops.sequences(claim.CLAIM_MOVES)
    tally.part(lambda: ops.check(plays, moves, ops.CORE, first=claim.CLAIM_STORIES))
    said = feedback_message(tally, 3, None)
    english = str(said)
    assert english.startswith("0/2 checks passed; a stale lease's heartbeat returned True; also, ")
    assert "claims t1 for 10 s (lease 2), the clock moves" in english
    assert english.endswith(
        "your heartbeat of lease 1 returned True but a newer lease holds the task"
    )
    assert no_catalog(said) == []
    zh = render(said, "zh")
    assert zh.startswith("0/2 项检查通过;陈旧租约的心跳返回了 True;另外,……")
    assert "领取 t1,时长 10 秒(租约 2),时钟前进" in zh
    assert zh.endswith("租约 1 发送心跳:租约 1 的心跳返回了 True,但已有更新的租约持有该任务")
    assert not re.search(r"[A-Za-z]+ [A-Za-z]+ [A-Za-z]+", zh), zh  # no English sentence left
