"""Does the grader treat a Chinese exercise notebook exactly like the English one, and speak
Chinese with ``--lang zh``?

One batch of real gradings: every Chinese solution and blank exercise (which set the kit's
language in their first cell): same exercise, same question IDs, full marks and 0, feedback in
the language ``--lang`` names; and a solution whose answer depends on the language the notebook
set, which the hidden checks must not see (they are served in English). The feedback table
itself is checked against the whole submissions corpus in test_grading.py (every sentence must
come from a catalog).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from simlab.cli import main
from simlab.grading.checks import EXERCISES
from simlab.grading.checks.fencing.messages import say
from simlab.grading.messages import VERBATIM, Message, message, render, sentence, untranslated
from simlab.grading.questions import Tally, feedback_message

ROOT = Path(__file__).resolve().parents[2]
NAME = "01_fencing_and_cancellation.ipynb"


#: An answer of exercise 01 that is right only while the kit speaks English.
ENGLISH_ONLY = """def cancel(state):
    from simlab.i18n.language import language

    if language() != "en" or state["status"] in ("completed", "cancelled"):
        return False
    state["status"] = "cancelled"
    state["epoch"] += 1
    return True
"""


def _english_only(tmp_path: Path) -> Path:
    """The Chinese solution of exercise 01 with :data:`ENGLISH_ONLY` after its cancel."""
    import nbformat

    nb = nbformat.read(ROOT / "solutions/zh" / NAME, as_version=4)
    assert 'set_language("zh")' in nb.cells[[c.cell_type for c in nb.cells].index("code")].source
    answer = next(c for c in nb.cells if "def cancel(state):" in c.source)
    answer.source += "\n\n\n" + ENGLISH_ONLY
    path = tmp_path / NAME
    nbformat.write(nb, path)
    return path


@pytest.mark.jail
def test_do_chinese_solutions_get_full_marks_and_blanks_zero_with_chinese_feedback(
    capsys, tmp_path
):
    names = [e.notebook for e in EXERCISES.values()]
    paths = [str(ROOT / folder / "zh" / n) for folder in ("solutions", "exercises") for n in names]
    paths.append(str(_english_only(tmp_path)))
    status = main(["grade", "--json", "--lang", "zh", "--jobs", "2", "--no-progress", *paths])
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0 and len(objects) == len(paths)
    *shipped, english_only = objects
    solutions, blanks = shipped[: len(names)], shipped[len(names) :]
    for exercise, solution, blank in zip(EXERCISES.values(), solutions, blanks, strict=True):
        ids = [q.id for q in exercise.questions]
        for got in (solution, blank):
            assert got["exercise"] == exercise.id and got["max_score"] == exercise.max_score
            assert [q["id"] for q in got["questions"]] == ids
        assert solution["score"] == exercise.max_score, solution
        assert all(q["feedback"].startswith("全部") for q in solution["questions"])
        assert blank["score"] == 0
        assert all(q["feedback"].startswith("未作答：") for q in blank["questions"]), blank
    # the notebook spoke Chinese when it ran; the hidden checks called its cancel in English
    assert english_only["score"] == EXERCISES["fencing"].max_score, english_only


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
        "2/6 项检查通过；cancel 必须把 epoch 加一，这样之前发出的每个租约都会变成陈旧的"
        "（另有 3 项未通过）（注意：这个 notebook 替换了 x.y；评分器不受影响）"
    )


def test_is_a_sentence_from_no_catalog_reported_and_verbatim_text_kept_as_it_is():
    english = "a brand-new message nobody translated"
    assert untranslated(english) == [english]
    said = message("grader.partial", passed=1, count=2, first=sentence("ValueError: bad x"))
    assert untranslated(said) == []
    assert render(said, "zh") == "1/2 项检查通过；ValueError: bad x"
    assert untranslated(Message("grader.no_such_sentence")) == ["grader.no_such_sentence"]


def test_does_format_text_speak_chinese():
    from simlab.grading.grader import NotebookGrade, QuestionGrade
    from simlab.grading.report import format_text

    said = message("grader.all_passed", n=6)
    g = NotebookGrade("x.ipynb", "fencing", 6, 6, [QuestionGrade("q", 6, 6, str(said), said)])
    assert "全部 6 项检查通过" in format_text([g], "zh")
    assert "all 6 checks passed" in format_text([g])


def test_do_a_notebook_run_and_a_sandbox_failure_and_an_unreadable_notebook_read_in_chinese(
    tmp_path,
):
    import nbformat

    from simlab.grading.grader import _cell_failure, budget_message, grade_notebook
    from simlab.grading.report import format_text, json_lines
    from simlab.grading.sandbox.supervisor import CellResult, SandboxLost

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("while True: pass")
    cell.metadata["simlab"] = {"question": "q1", "role": "answer"}
    nb.cells.append(cell)
    runs = {0: CellResult(0, "timeout", message("grader.past_cpu", s=2))}
    said = _cell_failure(nb, runs, "q1", budget_message(20))
    assert str(said) == (
        "the answer cell did not finish when the notebook ran: ran past the 2 s limit of CPU time"
    )
    assert runs[0].detail == "ran past the 2 s limit of CPU time"
    assert render(said, "zh") == "运行 notebook 时，答案单元格没有结束：用完了 2 秒的 CPU 时间限额"

    lost = SandboxLost(message("grader.endless", what="cancel()", s="2"))
    assert lost.reason == "cancel() did not finish within 2 s (an endless loop?)"
    said = feedback_message(Tally(), 3, lost.said)
    assert _english(said) == [] and untranslated(said) == []
    assert (
        render(said, "zh") == "cancel() 没有在 2 秒内结束（死循环？）；代码卡死或崩溃的题目得 0 分"
    )

    path = tmp_path / "broken.ipynb"
    path.write_text("{ this is not json")
    graded = grade_notebook(path, sandbox=False)
    assert graded.error == f"{path}: not a readable notebook (not JSON)"
    assert untranslated(graded.error_said) == []
    zh = format_text([graded], "zh")
    assert f"未评分：{path}：不是可读的 notebook（不是 JSON）" in zh
    assert _ENGLISH.search(zh.replace(str(path), "")) is None, zh
    assert json.loads(json_lines([graded], "zh"))["error"] == render(graded.error_said, "zh")


def _english(said: Message) -> list[str]:
    """The text inside ``said`` rendered from no catalog (shown as it is in every language)."""
    if said.id == VERBATIM:
        return [str(said)]
    found = []
    for _, value in said.values:
        for v in value if isinstance(value, tuple) else (value,):
            found += _english(v) if isinstance(v, Message) else []
    return found


def _failing(check, functions: dict) -> Message:
    """The feedback of ``check`` (a question's hidden check) on a learner whose functions are
    the local ``functions``, as a message."""
    tally = Tally()
    check(SimpleNamespace(function=functions.__getitem__), tally)
    assert tally.faults and tally.passed < tally.count
    return feedback_message(tally, tally.count, None)


def test_does_a_failing_check_of_histories_speak_chinese_only():
    from simlab.grading.checks.histories.stale import stale_commits
    from simlab.grading.checks.histories.ttl import choose_ttl_check

    said = _failing(stale_commits, {"stale_commits": lambda history: []})
    assert _english(said) == [] and untranslated(said) == []
    zh = render(said, "zh")
    told = re.match(r"(\d+)/(\d+) 项检查通过；epoch 2 已授予另一个 worker 之后", zh)
    assert told and int(told[1]) < int(told[2]), zh  # the tally, then the first failing case
    functions = {
        "recovery_times": lambda history: [1.0],
        "measure": lambda ttl, seeds: {"duplicate_work": 0.5, "waiting": 2},
        "choose_ttl": lambda table, step_cost, wait_cost: 8.0,
    }
    said = _failing(choose_ttl_check, functions)
    assert _english(said) == [] and untranslated(said) == []
    # A time none of the kit's is shown by its type (feedback is quiet in every hidden check).
    assert "recovery_times() 给出了 1 个时间（float 类型的值），比工具包的少" in render(said, "zh")


def test_does_a_failing_check_of_events_speak_chinese_only():
    from simlab.grading.checks.events.absorber import STREAMS, _replay, task_events
    from simlab.grading.checks.events.narrowing import narrowing_check

    said = _failing(narrowing_check, {"is_narrowing": lambda parent, child: True})
    assert _english(said) == [] and untranslated(said) == []
    assert "当子授权是多一个集合的授权时，is_narrowing() 返回了 True" in render(said, "zh")

    class InArrival:
        def offer(self, event):
            return [event]

    stream = [e.to_dict() for e in reversed(task_events(1, 3))]
    tally = Tally()
    tally.part(lambda: _replay(InArrival, stream, STREAMS["backwards"]))
    said = feedback_message(tally, 1, None)
    assert _english(said) == [] and untranslated(said) == []
    assert render(said, "zh") == (
        "0/1 项检查通过；在一个任务的事件倒序到达的情况下：吸收器先放行了某个任务的一个 seq，"
        "而比它小一的 seq 还没放行（顺序乱了）"
    )


def _fails_in_chinese(check, answers: dict) -> str:
    """The feedback line of ``check`` run on ``answers`` (plain functions in the grader's own
    process, by name), in Chinese; every sentence must come from a catalog."""
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
    from simlab.grading.checks.leases.world import world_of
    from simlab.grading.messages import untranslated as no_catalog
    from simlab.grading.questions import Tally, feedback_message

    s = _LocalStudent(heartbeat=_unfenced_heartbeat)
    tally = Tally()
    tally.part(lambda: claim._heartbeat_is_fenced(Ledgers(s, heartbeat="heartbeat")))
    plays = ops.Plays(s, world_of("atomic-claim"), heartbeat="heartbeat")
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
    assert zh.startswith("0/2 项检查通过；陈旧租约的心跳返回了 True；另外，（前略）")
    assert "领取 t1，时长 10 秒（租约 2），时钟前进" in zh
    assert zh.endswith("租约 1 发送心跳：租约 1 的心跳返回了 True，但已有更新的租约持有该任务")
    assert not re.search(r"[A-Za-z]+ [A-Za-z]+ [A-Za-z]+", zh), zh  # no English sentence left


def test_does_a_queued_grade_keep_its_error_as_a_message_for_a_later_chinese_report(tmp_path):
    from simlab.grading.grader import grade_notebook
    from simlab.grading.queue_report import as_grade
    from simlab.grading.queue_store.store import Submission
    from simlab.grading.report import format_text, json_lines

    path = tmp_path / "broken.ipynb"
    path.write_text("{ this is not json")
    stored = json.loads(json.dumps(grade_notebook(path, sandbox=False).to_dict(messages=True)))
    assert stored["error"] == f"{path}: not a readable notebook (not JSON)"
    sub = Submission("t1", "alice/broken.ipynb", "0" * 64, "v", "graded", stored, (), 1)
    assert f"{path}：不是可读的 notebook（不是 JSON）" in format_text([as_grade(sub)], "zh")
    assert json.loads(json_lines([as_grade(sub)], "zh"))["error"].endswith(
        "不是可读的 notebook（不是 JSON）"
    )
    assert json.loads(json_lines([as_grade(sub)]))["error"] == stored["error"]
    assert "error_message" not in grade_notebook(path, sandbox=False).to_dict()


def test_does_a_value_named_by_its_type_speak_chinese():
    """A migration that keeps a document ID as its whole citation (a str where the kit's gives
    a dict) is named by its type, in the reader's language: no English fragment in Chinese."""
    import copy

    from simlab.agent.migrations import migrate_v1_to_v2
    from simlab.grading.aliasing import changed_with
    from simlab.grading.checks.checkpoints.migration import pure_migration

    def migrate(record):
        out = migrate_v1_to_v2(copy.deepcopy(record))
        out["evidence"] = [f"{e['doc_id']} @ {e['version']}" for e in out["evidence"]]
        return out

    def probed(record):  # as the sandbox serves a probed call, here
        given = copy.deepcopy(record)
        result = migrate(given)
        return result, [given], changed_with(given, result), None

    migrate.probed = probed
    said = _failing(pure_migration, {"migrate_v1_to_v2": migrate})
    assert _english(said) == [] and untranslated(said) == []
    zh = render(said, "zh")
    assert "类型的值" in zh and "a str" not in zh and "a dict" not in zh, zh


@pytest.mark.parametrize(
    ("text", "en", "zh"),
    [
        (
            '{"cells": 5}',
            "not a readable notebook (JSON, but not laid out as a notebook)",
            "不是 notebook 的结构",
        ),
        (
            "[1, 2]",
            "not a readable notebook (JSON, but not laid out as a notebook)",
            "不是 notebook 的结构",
        ),
        (
            '{"cells": [{"cell_type": "code", "id": "a", "source": 5, "metadata": {}, '
            '"outputs": [], "execution_count": null}], "metadata": {}, "nbformat": 4, '
            '"nbformat_minor": 5}',
            "not a valid notebook (the source of cell 1 is not text)",
            "第 1 个单元格的源代码不是文本",
        ),
        (
            '{"cells": [], "metadata": {"simlab": {"exercise": "nope"}}, "nbformat": 4, '
            '"nbformat_minor": 5}',
            "its metadata simlab.exercise says 'nope', none of: checkpoints",
            "元数据 simlab.exercise 写的是“nope”",
        ),
    ],
)
def test_does_a_file_that_is_no_notebook_of_the_kit_say_why_in_each_language(
    tmp_path, text, en, zh
):
    """JSON that is no notebook, and a notebook naming an exercise the kit does not have, are
    each refused for what they are (never a Python class name), in English and Chinese."""
    from simlab.grading.grader import grade_notebook

    path = tmp_path / "mine.ipynb"
    path.write_text(text)
    graded = grade_notebook(path, sandbox=False)
    assert graded.score == 0 and en in graded.error, graded.error
    assert untranslated(graded.error_said) == [] and zh in render(graded.error_said, "zh")


def test_is_a_value_of_the_wrong_type_told_in_each_language():
    """A learner's ledger call that returns the wrong type is told in the feedback's language
    (the call, the type it returned, the type the contract asks for)."""
    from simlab.grading.student import WrongType, _as_expected
    from simlab.records import Lease

    with pytest.raises(WrongType) as caught:
        _as_expected("ledger", "claim", None, Lease)
    said = caught.value.said
    assert str(said) == "ledger.claim() returned NoneType, expected Lease"
    assert untranslated(said) == []
    assert render(said, "zh") == "ledger.claim() 返回了 NoneType，应返回 Lease"
