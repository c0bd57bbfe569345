"""Does the text report explain points that do not follow the count of checks passed?"""

from __future__ import annotations

from simlab.grading.grader import NotebookGrade, QuestionGrade
from simlab.grading.report import format_text


def _grade(*questions: QuestionGrade) -> NotebookGrade:
    score = sum(q.points for q in questions)
    return NotebookGrade(
        "ex.ipynb", "leases", score, sum(q.max_points for q in questions), list(questions)
    )


def test_does_a_partial_question_point_to_the_rubric_in_both_languages():
    grade = _grade(
        QuestionGrade("atomic-claim", 3, 10, "10/13 checks passed; two workers both hold epoch 3"),
        QuestionGrade("worker-loop", 6, 6, "all 9 checks passed"),
    )
    english = format_text([grade])
    assert english.splitlines()[-1] == (
        "  points weigh ideas, not checks: `simlab grade --rubric leases` shows each question's "
        "criteria and their weights"
    )
    assert "simlab grade --rubric leases" in format_text([grade], "zh").splitlines()[-1]
    assert "加权" in format_text([grade], "zh")


def test_does_a_report_with_full_or_unattempted_questions_say_nothing_more():
    full = _grade(QuestionGrade("atomic-claim", 10, 10, "all 13 checks passed"))
    blank = _grade(QuestionGrade("atomic-claim", 0, 10, "not attempted: claim() is not written"))
    for grade in (full, blank):
        assert "--rubric" not in format_text([grade])
