"""Do the checker's and the story's sentences speak Chinese: every message in both languages
with the same placeholders, full-width punctuation in the Chinese, every rule and fault kind
named, and no English prose in a Chinese story or finding of a run that breaks a rule?"""

from __future__ import annotations

import re

import pytest

from simlab.checker.operations import at
from simlab.checker.rules import RULES, rule_phrase
from simlab.checker.words import CATALOGS, LANGS, RULES_ZH, placeholders
from simlab.i18n.punctuation import problems
from simlab.sim.explore import explore
from simlab.sim.faults import KINDS  # noqa: E402
from simlab.sim.scenario import RATE_FIELDS, Scenario
from simlab.sim.simulation import simulate
from simlab.sim.story import tell  # noqa: E402
from simlab.sim.story_words import FAULTS_ZH, describe_in  # noqa: E402
from tests.checker.wrong_ledgers import WRONG_LEDGERS

#: Words a Chinese sentence may keep in Latin letters: identifiers, SQL, variant names and the
#: contract's refusal reasons (they are what a learner types or reads in code).
IDENTIFIERS = {
    "worker", "ttl", "UPDATE", "SELECT", "fenced", "unfenced", "racy", "claim", "lease", "held",
    "terminal", "max_attempts", "no", "dedup", "simlab", "simulate", "schedule", "email",
    "variant", "True", "False", "done",
}  # fmt: skip


def english_prose(text: str) -> list[str]:
    """The Latin words of ``text`` that are neither identifiers nor inside quotes, paths,
    names like t0001 or w2, times like t=2.5 or a rule's letter."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|\S*/\S*|--[\w-]+|（[a-z]'?）", " ", text)
    text = re.sub(r"(?<![A-Za-z])[a-z]+\d\w*|t=[\d.]+", " ", text)
    words = re.findall(r"[A-Za-z][A-Za-z_]*", text)
    return [w for w in words if w not in IDENTIFIERS]


def test_does_every_message_have_both_languages_with_the_same_placeholders():
    import simlab.sim.story_words  # noqa: F401  (registers the story's catalog)

    assert set(CATALOGS) >= {"check", "story"}
    for name, catalog in CATALOGS.items():
        assert set(catalog) == set(LANGS), name
        keys = {lang: set(catalog[lang]) for lang in LANGS}
        assert keys["en"] == keys["zh"], (name, keys["en"] ^ keys["zh"])
        for key, template in catalog["en"].items():
            assert placeholders(template) == placeholders(catalog["zh"][key]), (name, key)
            assert not problems(catalog["zh"][key], holes=True), (name, key, catalog["zh"][key])


def test_is_every_rule_and_fault_kind_named_in_chinese():
    assert set(RULES_ZH) == {r.letter for r in RULES}
    for r in RULES:
        phrase = rule_phrase(r.letter, "zh")
        assert not english_prose(phrase), phrase
        assert not problems(phrase)
    assert set(FAULTS_ZH) == set(KINDS)


@pytest.mark.parametrize(
    "name",
    ["cancel-keeps-epoch", "claim-resumes-at-step-zero", "effect-refuses-new-keys",
     "listing-drops-tasks", "save-drops-result", "claim-ignores-live-lease",
     "cancel-overwrites-terminal", "requeue-revives-completed", "effect-once-per-epoch",
     "heartbeat-extends-from-lease", "claim-uses-wall-clock", "save-ignores-done"],
)  # fmt: skip
def test_does_a_broken_ledgers_story_speak_chinese_without_english_prose(name):
    cls = WRONG_LEDGERS[name]
    x = explore(lambda clock: cls(clock=clock), max_faults=1)
    assert not x.certified
    lines = tell(x.result, lang="zh") + [f.text("zh") for f in x.result.findings]
    lines += [describe_in(f, "zh") for f in x.result.schedule.faults]
    for line in lines:
        assert not english_prose(line), (name, line, english_prose(line))
        assert not problems(line), (name, line)
    assert tell(x.result) == x.story  # English stays what the search told


def test_does_the_story_say_a_completing_save_accepted_left_the_task_running():
    # The save returns True and stores the step, but the task stays running: the sentence for
    # that save says so, against what a correct ledger does, in both languages.
    cls = WRONG_LEDGERS["save-ignores-done"]
    quiet = Scenario(tasks=1, workers=1, steps=2, **dict.fromkeys(RATE_FIELDS, 0.0))
    r = simulate(quiet, seed=1, ledger=lambda clock: cls(clock=clock))
    saves = [e for e in r.history if e.op == "save" and e.type == "ok"]
    assert [e.value["done"] for e in saves] == [False, True]
    en, zh = tell(r), tell(r, lang="zh")
    said = [line for line in en if "with done=True" in line]
    assert len(said) == 1, en
    told = "the ledger accepts it but leaves the task running, where a correct ledger completes it"
    assert told in said[0]
    assert not any("completes the task" in line for line in en), en
    assert any("却让任务停留在「运行中」状态；正确的账本会完成任务" in line for line in zh), zh
    assert not any("完成了任务" in line for line in zh), zh


def test_does_a_time_beside_another_show_the_digit_that_parts_them():
    assert at(17.0) == "t=17.0" and at(1.2344, 7.0) == "t=1.234"  # the millisecond
    assert (at(1.0001, 1.0002), at(1.0002, 1.0001)) == ("t=1.0001", "t=1.0002")
    end = 5.25
    assert at(end - 2**-16, end) == "t=5.24998" and at(end, end - 2**-16) == "t=5.25"
    assert at(2.5, 2.5) == "t=2.5"  # the same time: nothing to part


def test_do_times_that_differ_below_the_millisecond_show_the_digits_that_part_them():
    """A lease end or a timestamp off by less than a millisecond is told with both times to the
    digit where they differ, not as two equal numbers."""
    from simlab.checker.history import History
    from simlab.checker.rules import sentences

    h = History()
    h.record(0.0, "ok", "client", "submit", "t1", steps=1)
    h.record(1.0, "invoke", "w1", "claim", "t1")
    h.record(1.0, "ok", "w1", "claim", "t1", 1, 0, lease_until=4.0000004, attempts=1)
    (sentence,) = sentences("q", h, ttl=3.0)
    assert "until t=4.0000004" in sentence and "runs until t=4.0." in sentence


def test_does_a_chinese_sentence_built_from_chinese_parts_put_no_space_between_them():
    """A user's cancel: the subject is Chinese (一位用户), so no space before its verb; a
    worker's name is Latin, and keeps its space."""
    from simlab.checker.words import render, said

    user = render(said("story.cancel", who=said("story.a_user"), task="t1", epoch=2), "zh")
    worker = render(said("story.cancel", who="w1", task="t1", epoch=2), "zh")
    assert user.startswith("一位用户取消了 t1"), user
    assert worker.startswith("w1 取消了 t1"), worker
    assert render(said("story.cancel", who="w1", task="t1", epoch=2), "en").startswith("w1 cancels")
