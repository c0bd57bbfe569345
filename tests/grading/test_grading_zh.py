"""Does the grader treat a Chinese exercise notebook exactly like the English one, and speak
Chinese with ``--lang zh``?

Two real gradings only (the solution and the blank of exercise 01 in Chinese): same exercise,
same question IDs, full marks and 0. The feedback table itself is checked against the whole
submissions corpus in test_grading.py (every sentence must have a Chinese pattern).
"""

from __future__ import annotations

import json
import re
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


def _fails_in_chinese(check, answers: dict) -> str:
    """The feedback line of ``check`` run on ``answers`` (plain functions in the grader's own
    process, by name), in Chinese; every sentence must come from a catalog or a rule."""
    from types import SimpleNamespace

    from simlab.grading.messages import untranslated
    from simlab.grading.questions import Tally, feedback_message

    student = SimpleNamespace(function=lambda name, **_: answers[name])
    tally = Tally()
    check(student, tally)
    said = feedback_message(tally, tally.count, None)
    assert tally.passed < tally.count and untranslated(said) == [], said
    return render(said, "zh")


#: Four English words in a row: an English sentence (names, codes and values are shorter).
_ENGLISH = re.compile(r"[A-Za-z]+(?:[ ,']+[A-Za-z]+){3,}")


def test_do_the_checks_of_checkpoints_fail_in_chinese_with_no_english_sentence_left():
    from simlab.grading.checks.checkpoints.cache import cache_key_check
    from simlab.grading.checks.checkpoints.guard import resume_guard_check

    guard = _fails_in_chinese(resume_guard_check, {"resume_guard": lambda cp, world: []})
    key = _fails_in_chinese(cache_key_check, {"cache_key": lambda tenant, pv, iv, query: query})
    for zh in (guard, key):
        assert zh.count("项检查通过") == 1 and _ENGLISH.search(zh) is None, zh
    assert "resume_guard() 给出 []" in guard and "搜索" in key


def test_do_the_checks_of_release_fail_in_chinese_with_no_english_sentence_left():
    from simlab.grading.checks.release.injection import injection_rule_check

    zh = _fails_in_chinese(injection_rule_check, {"injection_rule": lambda obs: True})
    assert zh.count("项检查通过") == 1 and _ENGLISH.search(zh) is None, zh
    assert "injection_rule() 判为 True" in zh
