"""The property harness: derandomized, shrunk counterexamples told as stories, budgets kept,
and a lost sandbox or a kit bug never turned into a learner's failure."""

from __future__ import annotations

import pytest

from simlab.grading.properties import Story, falsify, st
from simlab.grading.questions import Fail, NotAttempted, Tally
from simlab.grading.sandbox.supervisor import RemoteError, SandboxLost


def _no_big_number(values, story):
    for v in values:
        story.add(f"add {v}")
        if v > 10:
            raise Fail(f"{v} is too big")


def _failure(strategy, holds, **kw) -> str:
    with pytest.raises(Fail) as info:
        falsify(strategy, holds, **kw)
    return str(info.value)


def test_does_a_failing_property_shrink_to_its_smallest_story():
    said = _failure(st.lists(st.integers(0, 1000)), _no_big_number)
    assert said == "add 11: 11 is too big"


def test_does_the_same_property_fail_the_same_way_every_time():
    strategy = st.lists(st.integers(0, 1000), min_size=1)

    def holds(values, story):
        story.add(f"sum {sum(values)}")
        if sum(values) % 7 == 3 and len(values) > 2:
            raise Fail("odd sum")

    assert _failure(strategy, holds) == _failure(strategy, holds)


def test_does_a_property_that_holds_pass_within_its_budget():
    calls = []
    falsify(st.integers(), lambda v, story: calls.append(v), examples=25)
    assert 0 < len(calls) <= 25


def test_are_the_hand_picked_inputs_played_first():
    seen = []
    falsify(st.integers(0, 5), lambda v, story: seen.append(v), first=[100, 200], examples=5)
    assert seen[:2] == [100, 200]


def test_is_shrinking_bounded_and_the_smallest_failure_so_far_kept():
    calls = []

    def holds(values, story):
        calls.append(values)
        story.add(f"{len(values)} values")
        if len(values) >= 3:
            raise Fail("too many")

    said = _failure(st.lists(st.integers(), min_size=40, max_size=60), holds, shrinks=5)
    assert len(calls) <= 40 + 5
    assert said.endswith(": too many")


def test_does_a_long_story_keep_its_last_moves():
    story = Story([f"move number {i}" for i in range(40)])
    told = story.told(60)
    assert told.startswith("... ") and told.endswith("move number 39") and len(told) <= 64


def test_does_a_long_failure_shorten_its_story_to_fit():
    from simlab.grading.questions import FAILURE_CHARS

    def holds(values, story):
        for v in values:
            story.add(f"move {v}")
        if len(values) >= 30:
            raise Fail("what went wrong, said at length " * 4)

    said = _failure(st.lists(st.integers(0, 9), min_size=30, max_size=30), holds)
    assert len(said) <= FAILURE_CHARS and said.startswith("... move ")


def test_is_a_lost_sandbox_raised_as_it_is():
    def holds(v, story):
        raise SandboxLost("cell 3 did not finish within 2 s")

    with pytest.raises(SandboxLost, match="did not finish"):
        falsify(st.integers(), holds)


def test_is_a_bug_of_the_kit_raised_as_itself_not_blamed_on_the_learner():
    def holds(v, story):
        raise KeyError("the check's own bug")

    with pytest.raises(KeyError):
        falsify(st.integers(), holds)


def _raising(kind: str, message: str):
    def holds(v, story):
        story.add("claim")
        raise RemoteError({"type": kind, "message": message}, "your claim")

    return holds


def test_does_what_the_learners_code_raised_come_with_the_story():
    tally = Tally(quiet=False)  # loud, so the learner's own message shows after the story
    tally.part(lambda: falsify(st.integers(), _raising("ValueError", "bad lease")))
    assert tally.failures == ["claim: your claim raised ValueError: bad lease"]


def test_does_a_question_with_hidden_inputs_show_no_free_text_of_the_learners():
    # Words pass the message filter, and a class of the learner's own can be named anything:
    # where hidden inputs reach the learner's code, either could spell one in code words.
    tally = Tally(hidden=frozenset({"intranet.example"}))
    tally.part(lambda: falsify(st.integers(), _raising("Host_is_intranet", "seven three one")))
    tally.part(lambda: falsify(st.integers(), _raising("KeyError", "seven three one")))
    assert tally.failures == [
        "claim: your claim raised an exception",
        "claim: your claim raised KeyError",
    ]


def test_does_a_stub_stay_not_attempted():
    def holds(v, story):
        raise NotAttempted("your claim is not written yet")

    with pytest.raises(NotAttempted):
        falsify(st.integers(), holds)


def test_is_a_story_translated_move_by_move():
    from simlab.grading.checks.fencing.messages import say
    from simlab.grading.checks.leases.messages import say as leases_say
    from simlab.grading.messages import message, render, untranslated
    from simlab.grading.properties import Story

    move = "a stale lease could record a side effect"
    stale = leases_say("stale_record")
    told = Story([stale, say("move_cancel"), stale, stale]).told_message(len(move) * 2 + 2)
    said = message("grader.story", story=told, said=say("cancel_bumps"))
    assert (
        str(said) == f"... {move}, {move}: cancel must bump the epoch by one, so every lease "
        "issued before is stale"
    )
    assert untranslated(said) == []
    zh = render(said, "zh")
    assert zh.startswith("（前略）陈旧的租约仍能记录副作用，陈旧的租约仍能记录副作用：cancel 必须")


def test_do_the_parts_of_a_hidden_question_quote_no_returned_text():
    from simlab.grading.questions import require
    from simlab.grading.sandbox.wire import Opaque
    from simlab.grading.student import kind_of, shown_value

    def fails_with_what_it_got():
        got = [shown_value("plain words here"), kind_of(Opaque("Host_intranet"))]
        require(False, f"got {got[0]} and {got[1]}")

    quiet, loud = Tally(hidden=frozenset({"intranet.example"})), Tally(quiet=False)
    quiet.part(fails_with_what_it_got)
    loud.part(fails_with_what_it_got)
    assert quiet.failures == ["got a str and object"]
    assert loud.failures == ["got 'plain words here' and Host_intranet"]


def test_is_a_question_quiet_though_it_names_no_hidden_string():
    # Every question is judged in a drawn world: a number the learner's code computed from a
    # drawn epoch (epoch * 1000 + 7) or a word spelling one is shown only by its type, the
    # words the text names (``known``) as themselves.
    from simlab.grading.questions import require
    from simlab.grading.student import shown_value

    def fails_with_what_it_got():
        got = [shown_value(v, known=("cancelled", 1)) for v in (84007, "hie", "cancelled", 1, 1.0)]
        require(False, "got " + ", ".join(map(str, got)))

    tally = Tally()
    tally.part(fails_with_what_it_got)
    assert tally.failures == ["got an int, a str, 'cancelled', 1, a float"]


def test_do_two_grading_threads_get_what_one_gets_alone():
    # simlab grade --jobs N grades notebooks in threads: the search of one must not move the
    # other's examples or its shrunk story.
    from concurrent.futures import ThreadPoolExecutor

    strategy = st.lists(st.integers(0, 1000), max_size=30)
    alone = _failure(strategy, _no_big_number)
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda _: _failure(strategy, _no_big_number), range(8)))
    assert together == [alone] * 8


def test_does_a_long_failure_keep_its_sentence_whole_and_its_last_moves():
    """The story gives way to what went wrong: the whole failure fits one feedback line, so
    the line is never cut at its end (where the sentence saying what went wrong is)."""
    from simlab.grading.questions import FAILURE_CHARS

    said = "your answer " + "went wrong in a long and winding way, " * 3 + "at the end"

    def holds(values, story):
        for i in range(30):
            story.add(f"move number {i}")
        if values:
            raise Fail(said)

    failure = _failure(st.lists(st.integers(), min_size=1), holds)
    assert len(failure) <= FAILURE_CHARS and failure.endswith(f"move number 29: {said}")
    assert failure.startswith("... ")


def test_does_a_screened_property_fail_as_falsify_does_and_draw_its_inputs_once():
    from simlab.grading.properties import screened

    strategy = st.lists(st.integers(0, 1000))
    with pytest.raises(Fail) as info:
        screened("test/no-big-number", strategy, _no_big_number)
    assert str(info.value) == _failure(strategy, _no_big_number)

    drawn = []
    counted = st.integers(0, 10).map(lambda v: drawn.append(v) or v)
    played = []
    screened("test/counted", counted, lambda v, story: played.append(v), examples=10, first=[99])
    once = len(drawn)
    screened("test/counted", counted, lambda v, story: played.append(v), examples=10, first=[99])
    assert (
        len(drawn) == once
        and played[0] == 99
        and played[: len(played) // 2] == played[len(played) // 2 :]
    )


def test_does_a_property_whose_inputs_cannot_be_drawn_never_pass():
    # A strategy that breaks (a bug of the check) must not read as "every input held".
    def broken(n):
        if n > 3:
            raise RuntimeError("the check's strategy is broken")
        return n

    with pytest.raises(RuntimeError):
        falsify(st.integers(0, 10).map(broken), lambda v, story: None)
    with pytest.raises(RuntimeError):  # and no cut draw was kept for the next answer
        falsify(st.integers(0, 10).map(broken), lambda v, story: None)


def _drawn(strategy, examples: int) -> list:
    from simlab.grading.properties import _search

    seen: list = []
    _search(strategy, lambda value, story: seen.append(value), examples, 0, [])
    return seen


def test_are_the_drawn_inputs_the_same_whatever_modules_the_process_loaded(tmp_path):
    """Hypothesis also draws constants it reads in the source of loaded modules outside
    site-packages; the grader's derandomized draws must not depend on them, or a notebook would
    meet other inputs in a process that imported other modules (or in a checkout rather than
    an installed kit)."""
    import importlib.util
    import sys

    strategy = st.lists(st.integers(0, 10**9), min_size=5, max_size=5)
    before = _drawn(strategy, 60)
    name = "constants_of_a_module_loaded_later"
    path = tmp_path / f"{name}.py"
    path.write_text("".join(f"C{i} = {123_456_789 + 7_919 * i}\n" for i in range(200)))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # loaded as an import would, without touching the import path
    try:
        spec.loader.exec_module(module)
        after = _drawn(strategy, 60)
    finally:
        sys.modules.pop(name, None)
    assert after == before
