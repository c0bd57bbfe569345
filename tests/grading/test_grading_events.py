"""Do the hidden checks of exercise ``events`` replay what they claim, and does the solution get
every point?

The corpus of answers (``tests/submissions/events.py``) is graded against the rubrics in
``test_grading_events_rubric.py``; here: the solution notebook through the whole grader, the
seeded bus streams really duplicate and reorder, the hostile grants really split between true
and false, and every sentence the checks can say is translated and short.
"""

from __future__ import annotations

import copy
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from simlab.agent.events import AgentEvent, EventAbsorber
from simlab.grading.checks import EXERCISES
from simlab.grading.checks.events import KINDS, bus_streams, children, reference_is_narrowing
from simlab.grading.checks.events.absorber import (
    BUDGETS,
    DIAGNOSES,
    STREAMS,
    _replay,
    conflicting_names,
    renumbered_long_after,
    similar_names,
    wide_gap,
)
from simlab.grading.checks.events.grants import FIRST_PAIRS, grant_pairs, narrows_like_the_kit
from simlab.grading.checks.events.grants import told as grant_story
from simlab.grading.checks.events.messages import say
from simlab.grading.checks.events.narrowing import EXAMPLES as NARROWING_EXAMPLES
from simlab.grading.checks.events.narrowing import (
    NOTEBOOK_COLLECTION,
    NOTEBOOK_TOOL,
    narrowing_check,
    parents,
)
from simlab.grading.checks.events.streams import (
    EVENTS_PER_TASK,
    FIRST_STREAMS,
    _shown,
    absorbs_like_the_kit,
    generated_names,
    streams,
    told,
)
from simlab.grading.checks.events.world import grant_world
from simlab.grading.checks.hidden_world import judged_in
from simlab.grading.grader import hidden_checks
from simlab.grading.messages import render, untranslated
from simlab.grading.notebook import read_notebook
from simlab.grading.properties import falsify, st
from simlab.grading.questions import FAILURE_CHARS, Fail
from tests import lanes
from tests.submissions import events as events_corpus
from tests.submissions.grading import graded

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = EXERCISES["events"]
SOLUTION = read_notebook(ROOT / "solutions" / EXERCISE.notebook)


@pytest.mark.jail
def test_does_the_solution_get_every_point():
    grades, _ = hidden_checks(copy.deepcopy(SOLUTION), EXERCISE, timeout=60)
    assert {q: g.points for q, g in grades.items()} == {q.id: q.points for q in EXERCISE.questions}
    assert all(g.feedback.startswith("all ") for g in grades.values()), grades


def _copies_and_overtakes(stream) -> tuple[int, int]:
    """How many deliveries are copies, and how many events arrived before the seq below them."""
    first = {}
    for i, e in enumerate(stream):
        first.setdefault((e.task_id, e.seq), i)
    overtakes = sum(first[(t, s + 1)] < first[(t, s)] for t, s in first if (t, s + 1) in first)
    return len(stream) - len(first), overtakes


SEEDS = (0, 1, 2, 3, 4)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "copies", "overtakes"),
    [("duplicates", True, False), ("reordering", False, True), ("both", True, True)],
)
def test_do_the_hidden_streams_duplicate_and_reorder(name, copies, overtakes, seed):
    """Every bus stream a part replays, in every world, has the faults the part's feedback
    names; the streams are the world's (another world, other streams)."""
    with judged_in(seed):
        drawn = bus_streams(name)
    with judged_in(seed + 100):
        assert bus_streams(name) != drawn
    for stream in drawn:
        found = _copies_and_overtakes(stream)
        assert (found[0] > 0, found[1] > 0) == (copies, overtakes), (name, found)
        absorber = EventAbsorber()
        for e in stream:
            absorber.offer(e)
        assert len(absorber.delivered) == len({(e.task_id, e.seq) for e in stream}), "each once"


@pytest.mark.parametrize("seed", SEEDS)
def test_are_the_hostile_grants_really_split_between_true_and_false(seed):
    with judged_in(seed):
        world = grant_world()
    parent, kinds = world.parent(), children(world)
    verdicts = {kind: {reference_is_narrowing(parent, c) for c in cs} for kind, cs in kinds.items()}
    assert verdicts["same"] == verdicts["repeated"] == {True}
    assert verdicts["extra_tool"] == verdicts["revoked"] == {False}
    assert verdicts["capitals"] == {False}
    assert verdicts["repeated_lacking"] == {False}
    for kind in ("similar_tenant", "longer_name", "shorter_name"):
        assert verdicts[kind] == {False}, kind
    # the tenant holds a composed accent, so its decomposed form is another tenant a child
    # names; the parent's version written as text is a version narrow() never makes
    assert unicodedata.normalize("NFD", world.tenant) != world.tenant
    forms = {c["tenant"] for c in kinds["unicode_forms"]}
    assert unicodedata.normalize("NFD", world.tenant) in forms
    assert verdicts["unicode_forms"] == verdicts["version_as_text"] == {False}
    assert [c["version"] for c in kinds["version_as_text"]] == [str(world.version)]
    # the notebook's collection and tool come as extra names: no drawn parent holds them
    assert verdicts["extra_collection"] == {False}
    named = {n for c in kinds["extra_collection"] + kinds["extra_tool"] for n in c["collections"]}
    named |= {n for c in kinds["extra_tool"] for n in c["tools"]}
    assert {NOTEBOOK_COLLECTION, NOTEBOOK_TOOL} <= named
    # a parent holding no tools (or no collections) holds none of them: only the child with
    # none of them either narrows it
    of = parents(world)
    assert verdicts["one_of_each"] == {True}
    for bare in ("no_tools", "no_collections"):
        assert {reference_is_narrowing(of[bare], c) for c in kinds["one_of_each"]} == {False}
        assert {reference_is_narrowing(of[bare], c) for c in kinds["empty"]} == {True}


def _related(a: str, b: str) -> bool:
    return a != b and (a in b or b in a)


@pytest.mark.parametrize("seed", SEEDS)
def test_does_every_world_draw_names_that_begin_with_or_hold_one_another(seed):
    """Tasks, keys, tenants and names of the world: one a prefix or a part of another, none
    the notebook's, none derived from the task or the seq; the same seed, the same world."""
    with judged_in(seed):
        names, world = generated_names(), grant_world()
        assert generated_names() == names and grant_world() == world
        _, similar = similar_names()
    tasks, keys = list(names.tasks.values()), list(names.keys.values())
    assert len(set(tasks)) == len(tasks) and len(set(keys)) == len(keys)
    assert any(_related(a, b) for a in tasks for b in tasks)
    assert any(_related(a, b) for a in keys for b in keys)
    assert not {"t1", "t2", "A", "B", "C"} & set(tasks)
    # every key begins "task:number:" (a task of the stream, a number no seq reaches), and what
    # follows derives from no task and no seq
    heads = {k.rsplit(":", 1)[0] for k in keys}
    assert len(heads) == 1
    task, number = heads.pop().split(":")
    assert task in tasks and int(number) > EVENTS_PER_TASK
    rests = [k.rsplit(":", 1)[1] for k in keys]
    assert all(r and not any(t in r for t in tasks) for r in rests)
    assert similar.tasks["Q"] == similar.tasks["P"] + "1"
    assert _related(similar.keys["r1"], similar.keys["r2"])
    assert all(_related(world.tenant, t) for t in world.similar_tenants)
    assert any(t.startswith(world.tenant) for t in world.similar_tenants)
    assert any(world.tenant.startswith(t) and t != world.tenant for t in world.similar_tenants)
    assert any(t.endswith(world.tenant) and t != world.tenant for t in world.similar_tenants)
    assert not _related(world.tenant, world.other_tenant)
    assert "acme" not in (world.tenant, *world.similar_tenants)
    for longer in world.longer_collections:
        assert any(_related(longer, c) for c in world.collections)
        assert longer not in world.collections
    assert any(n.startswith(c) for n in world.longer_collections for c in world.collections)
    assert any(n.endswith(c) for n in world.longer_collections for c in world.collections)
    assert any(t.startswith(world.shorter_tool) for t in world.tools)
    assert world.shorter_tool not in world.tools
    assert not {"public", "search", "acme-internal"} & {*world.collections, *world.tools}
    with judged_in(seed + 100):
        assert (generated_names(), grant_world()) != (names, world)


def test_is_every_sentence_the_checks_can_say_translated_and_short():
    """Each kind of stream with each diagnosis, each kind of grant with each verdict: Chinese
    for the whole sentence (its parts included), and no longer than FAILURE_CHARS."""
    sentences = [
        say("absorber_on", what=what, why=why)
        for what in STREAMS.values()
        for why in DIAGNOSES.values()
    ]
    kinds = [say(f"child_{kind}") for kind in KINDS]
    PARENTS = ("", "_revoked", "_no_tools", "_no_collections")
    for kind in kinds:
        for verdict in ("True", "False"):
            sentences += [say(f"said_when{of}", got=verdict, kind=kind) for of in PARENTS]
    for sentence in sentences:
        assert untranslated(sentence) == [], sentence
        assert len(str(sentence)) <= FAILURE_CHARS, sentence
        zh = render(sentence, "zh")
        assert not any(str(words) in zh for words in (*STREAMS.values(), *kinds)), zh


# --- the properties: generated streams and grants, judged here without a sandbox -------------


def _samples(strategy, n: int = 300) -> list:
    """``n`` inputs the strategy draws (derandomized, as the grader draws them)."""
    from hypothesis import HealthCheck, Phase, given, settings

    seen = []

    @settings(
        max_examples=n,
        derandomize=True,
        database=None,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def draw(value):
        seen.append(value)

    draw()
    return seen


def _keys(stream) -> set[tuple]:
    return {(d["task_id"], d["seq"], d["idempotency_key"], d["version"]) for d in stream}


def test_do_the_generated_streams_reuse_keys_and_seqs_within_and_across_tasks():
    """The plain streams hold what the exercise's sentences are about: one key in two tasks,
    one seq in two tasks, duplicates, a later seq before an earlier one, a key redelivered
    under another seq of its task; the others conflicts and unknown versions."""
    found = Counter()
    for stream in _samples(streams()):
        seen, tasks_of_key, tasks_of_seq = [], {}, {}
        for d in stream:
            t, s, k = d["task_id"], d["seq"], d["idempotency_key"]
            tasks_of_key.setdefault(k, set()).add(t)
            tasks_of_seq.setdefault(s, set()).add(t)
            found["duplicate"] += (t, s, k) in seen
            found["renumbered"] += any(k == k2 and t == t2 and s != s2 for t2, s2, k2 in seen)
            found["overtakes"] += any(t == t2 and s < s2 for t2, s2, _ in seen)
            seen.append((t, s, k))
        found["key in two tasks"] += any(len(v) > 1 for v in tasks_of_key.values())
        found["seq in two tasks"] += any(len(v) > 1 for v in tasks_of_seq.values())
        found["conflict"] += any(d["idempotency_key"].startswith("c") for d in stream)
        found["unknown version"] += any(d["version"] != 1 for d in stream)
    for what in ("duplicate", "renumbered", "overtakes", "key in two tasks", "seq in two tasks"):
        assert found[what] >= 30, (what, found)
    assert found["conflict"] == found["unknown version"] == 0, found
    conflicts = _samples(streams(conflicts=True), 100)
    assert sum(any(d["idempotency_key"].startswith("c") for d in s) for s in conflicts) >= 30
    versions = _samples(streams(versions=True), 100)
    assert sum(any(d["version"] != 1 for d in s) for s in versions) >= 30


def test_does_no_generated_stream_hold_a_case_the_text_leaves_open():
    """A conflict's key is never offered under another seq; a key is offered under another
    seq of its task only once the kit took its own event (so every reading of "a key already
    seen" calls it a duplicate); every seq is 1 or more."""
    for kind in ({}, {"conflicts": True}, {"versions": True}):
        for stream in _samples(streams(**kind), 150):
            kit, seq_of = EventAbsorber(), {}
            for d in stream:
                event = AgentEvent.from_dict(d)
                t, s, k = event.task_id, event.seq, event.idempotency_key
                assert s >= 1
                if event.version == 1 and seq_of.setdefault((t, k), s) != s:
                    assert not k.startswith("c"), stream
                    assert (t, k) in kit._seen, stream  # the kit keeps the keys it took
                kit.offer(event)


def _local(source: str, name: str):
    namespace = {}
    exec(source, namespace)  # a corpus answer, run here: these tests judge the properties
    return namespace[name]


class _Here:
    """The sandbox requests of the narrowing check, served in this process: a kit value is
    the value sent (kept here, as the sandbox keeps it), a method call calls it."""

    def kit(self, factory: str, value):
        assert factory == "given"
        return value

    def call(self, target, *args, method: str, **_):
        return getattr(target, method)(*args)


def _student_here(answer):
    """A student whose ``is_narrowing`` is ``answer``, run here."""
    from types import SimpleNamespace

    return SimpleNamespace(function=lambda _name, **_: answer, sandbox=_Here())


@pytest.mark.parametrize(
    ("source", "kinds"),
    [
        (events_corpus.SEQ_ONLY, ("plain",)),
        (events_corpus.SHARED_KEYS, ("plain",)),
        (events_corpus.FORGETS_WHEN_DONE, ("plain",)),
        (events_corpus.ONE_PER_OFFER, ("plain",)),
        (events_corpus.KEYS_ONLY, ("conflicts",)),
        (events_corpus.NO_VERSION_CHECK, ("versions",)),
        (events_corpus.VERSION_TAKES_THE_SEQ, ("versions",)),
    ],
    ids=[
        "seq-only",
        "shared-keys",
        "forgets",
        "one-per-offer",
        "keys-only",
        "no-version",
        "version-takes",
    ],
)
def test_do_generated_streams_catch_each_mistake_of_their_criterion(source, kinds):
    """As graded (the hand-picked streams first), and generated alone at a few times the
    budget (each kind of fault is drawn often enough); a mistake of a detail passes the core's
    streams."""
    absorber = _local(source, "Absorber")
    for kind in ("plain", "conflicts", "versions"):
        holds = absorbs_like_the_kit(absorber)
        strategy = streams(conflicts=kind == "conflicts", versions=kind == "versions")
        budget = BUDGETS[kind]
        if kind in kinds:
            with pytest.raises(Fail, match="EventAbsorber releases"):
                falsify(strategy, holds, **budget, first=FIRST_STREAMS[kind])
            with pytest.raises(Fail, match="EventAbsorber releases"):
                falsify(strategy, holds, examples=4 * budget["examples"])
        elif kind == "plain":
            falsify(strategy, holds, **budget, first=FIRST_STREAMS[kind])


@pytest.mark.parametrize(
    ("source", "repeats"),
    [
        (events_corpus.TOOLS_CASE_BLIND, False),
        (events_corpus.TENANT_CASE_BLIND, False),
        (events_corpus.PARENT_REVOKED_ONLY, False),
        (events_corpus.TOOLS_ONLY, False),
        (events_corpus.IN_ORDER, False),
        (events_corpus.MULTISET, True),
    ],
    ids=["tools-case", "tenant-case", "parent-revoked", "tools-only", "in-order", "multiset"],
)
def test_do_generated_grants_catch_each_mistake_of_their_criterion(source, repeats):
    """As graded: the hand-picked pairs (each twist once) first, then the generated ones; a
    mistake of a detail passes the core's pairs."""
    student = _local(source, "is_narrowing")
    holds = narrows_like_the_kit(student, reference_is_narrowing)
    first = FIRST_PAIRS["repeats" if repeats else "core"]
    with pytest.raises(Fail, match="said"):
        falsify(grant_pairs(repeats=repeats), holds, examples=NARROWING_EXAMPLES, first=first)
    if repeats:
        falsify(grant_pairs(), holds, examples=NARROWING_EXAMPLES, first=FIRST_PAIRS["core"])


def test_does_every_twist_of_a_child_grant_come_up():
    """Each way a child can be more than a narrowing is a hand-picked pair, and the generated
    pairs draw narrowings and twists alike."""
    twisted = {str(m) for pair in FIRST_PAIRS["core"] for m in grant_story(*pair)}
    for move in (
        "the tenant's name in other capitals",
        "another tenant",
        "a newer version",
        "an older version",
        "the parent revoked",
        "the child revoked",
        "a collection the parent lacks",
        "a collection the parent has in other capitals",
        "a tool the parent lacks",
        "a tool the parent has in other capitals",
        "the collections in another order",
    ):
        assert move in twisted, move
    verdicts = Counter(reference_is_narrowing(*pair) for pair in _samples(grant_pairs(), 200))
    assert verdicts[True] >= 30 and verdicts[False] >= 30, verdicts


CORRECT = {
    q: [a for a in events_corpus.ANSWERS if a[1] == q and a[3] == 6 - (q != "absorber")]
    for q in ("absorber", "narrowing")
}


@pytest.mark.parametrize(
    "source", [a[2] for a in CORRECT["absorber"]], ids=[a[0] for a in CORRECT["absorber"]]
)
def test_do_correct_absorbers_pass_every_generated_stream(source):
    """At five times the grader's budget: no stream where a correct reading of the text and
    the kit's EventAbsorber disagree."""
    absorber = _local(source, "Absorber")
    for kind in ("plain", "conflicts", "versions"):
        strategy = streams(conflicts=kind == "conflicts", versions=kind == "versions")
        falsify(strategy, absorbs_like_the_kit(absorber), examples=5 * BUDGETS[kind]["examples"])


@pytest.mark.parametrize(
    "source", [a[2] for a in CORRECT["narrowing"]], ids=[a[0] for a in CORRECT["narrowing"]]
)
def test_do_correct_narrowings_pass_every_generated_grant(source):
    holds = narrows_like_the_kit(_local(source, "is_narrowing"), reference_is_narrowing)
    for repeats in (False, True):
        falsify(grant_pairs(repeats=repeats), holds, examples=5 * NARROWING_EXAMPLES)


def test_is_every_sentence_of_a_generated_story_translated_and_short():
    """Each move of a stream's or a grant pair's story, and each sentence of what went wrong,
    has Chinese; a failure with the longest story and the longest sentence fits in
    FAILURE_CHARS, translated."""
    kinds = ({}, {"versions": True}, {"conflicts": True})
    moves = {
        say("delivery", event=told(d))
        for kind in kinds
        for s in _samples(streams(**kind), 60)
        for d in s
    }
    for repeats in (False, True):
        moves |= {
            m for pair in _samples(grant_pairs(repeats=repeats), 300) for m in grant_story(*pair)
        }
    assert len(moves) > 40
    for move in moves:
        assert untranslated(move) == [], move
    many = [("A", s, f"k{s}", 2) for s in range(1, 6)]
    said = [
        say("not_given"),
        say("released_extra", got=_shown(many)),
        say("released_nothing", want=_shown(many)),
        say("released_instead", got=_shown(many), want=_shown(many)),
        say("said_of_child", got="True"),
    ]
    for sentence in said:

        def holds(value, story, sentence=sentence):
            for move in sorted(moves, key=str):  # far more than fit: the last ones are told
                story.add(move)
            raise Fail(sentence)

        with pytest.raises(Fail) as failure:
            falsify(st.just(0), holds)
        assert len(str(failure.value)) <= FAILURE_CHARS, str(failure.value)
        assert untranslated(failure.value.said) == [], str(failure.value)


# --- the hidden world: correct answers in every world, foreseeing ones in none --------------

ALTERNATIVES = [a for a in events_corpus.ANSWERS if a[3] == EXERCISE.question(a[1]).points]


@pytest.mark.jail
@pytest.mark.parametrize("seed", (1, 2))
@pytest.mark.parametrize(
    ("question", "source"), [a[1:3] for a in ALTERNATIVES], ids=[a[0] for a in ALTERNATIVES]
)
def test_does_a_correct_alternative_get_every_point_in_other_worlds(question, source, seed):
    """Graded as the rubric tests grade (the real sandbox), in worlds other than seed 0's."""
    with judged_in(seed):
        grade = graded(question, source)
    assert grade.points == grade.max_points, grade.feedback


FORESEEING_NARROWINGS = ("tenant-by-prefix", "names-in-text", "names-by-prefix")
FORESEEING_NARROWINGS += ("typed-in-parent", "self-check-answers")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", FORESEEING_NARROWINGS)
def test_does_a_foreseeing_narrowing_lose_the_core_in_every_world(name, seed):
    """Run here, without a sandbox: in every world the answer breaks the core's "must"."""
    from simlab.grading.questions import Tally

    source = next(a[2] for a in events_corpus.ANSWERS if a[0] == name)
    tally = Tally()
    with judged_in(seed):
        narrowing_check(_student_here(_local(source, "is_narrowing")), tally)
    assert tally.won.get("narrows", 0) < tally.ran["narrows"], name
    assert tally.hidden >= grant_world().strings() or seed != 0


@pytest.mark.parametrize("seed", SEEDS)
def test_does_a_correct_narrowing_pass_every_part_in_every_world(seed):
    from simlab.grading.questions import Tally

    for name, _, source, _, _ in (a for a in ALTERNATIVES if a[1] == "narrowing"):
        tally = Tally()
        with judged_in(seed):
            narrowing_check(_student_here(_local(source, "is_narrowing")), tally)
        assert tally.passed == tally.count, (name, tally.failures)


@pytest.mark.parametrize("seed", SEEDS)
def test_does_a_narrowing_remembered_by_id_lose_the_core_in_every_world(seed):
    """The same two dicts, changed in place between calls, are judged as they are at each call
    (run here, where the dicts kept are this process's): a verdict remembered by the dicts'
    id() is an earlier one, in every world."""
    from simlab.grading.questions import Tally

    tally = Tally()
    with judged_in(seed):
        narrowing_check(_student_here(_local(events_corpus.MEMO_BY_ID, "is_narrowing")), tally)
    assert tally.won.get("narrows", 0) < tally.ran["narrows"]
    assert any("changed in place since" in f for f in tally.failures), tally.failures


#: The corpus's absorber that keeps the smaller key of a conflict, without its patch of the
#: kit (run here, the patch would change the reference too), and the same with other orders.
_SMALLER_KEY = events_corpus.SMALLER_KEY_WINS_KIT_PATCHED.split("\n\ndef kit_offer")[0]
_KEY_ORDERS = {
    "smaller": _SMALLER_KEY,
    "larger": _SMALLER_KEY.replace("key < keys[seq]", "key > keys[seq]"),
    "shorter": _SMALLER_KEY.replace("key < keys[seq]", "len(key) < len(keys[seq])"),
    "longer": _SMALLER_KEY.replace("key < keys[seq]", "len(key) > len(keys[seq])"),
}


@pytest.mark.parametrize("source", list(_KEY_ORDERS.values()), ids=list(_KEY_ORDERS))
def test_does_every_world_defeat_an_absorber_that_picks_a_conflict_by_its_key(source):
    assert "EventAbsorber.offer" not in source
    absorber = _local(source, "Absorber")
    for seed in range(40):
        with judged_in(seed):
            stream, names = conflicting_names()
            with pytest.raises(Fail, match="two different events claiming one seq"):
                _replay(absorber, stream, STREAMS["conflict"], names=names)


def test_does_the_story_of_old_keys_defeat_an_absorber_that_forgets_them():
    """A key seen twelve events ago, delivered again under a new seq, is a duplicate; the
    corpus's absorber that keeps the last eight seqs' keys releases it, whatever the world."""
    absorber = _local(events_corpus.KEY_WINDOW, "Absorber")
    for seed in range(20):
        with judged_in(seed):
            with pytest.raises(Fail, match="should have set aside"):
                _replay(absorber, renumbered_long_after(), STREAMS["late-renumbered"])


def test_does_the_wide_gap_defeat_an_absorber_that_remembers_only_its_latest_keys():
    """The task's first key, delivered again under a new seq once more seqs were released than
    a window of the latest 1024 keys holds, is a duplicate: the corpus's absorber that keeps
    the latest 512 seqs' keys releases it, whatever the world."""
    from simlab.grading.checks.events.stories import WIDE_GAP

    assert WIDE_GAP[0] > 1024
    absorber = _local(events_corpus.KEYS_OF_LATEST_SEQS, "Absorber")
    for seed in range(5):
        with judged_in(seed):
            stream = wide_gap()
            assert WIDE_GAP[0] + 2 <= len(stream) <= WIDE_GAP[1] + 2
            with pytest.raises(Fail, match="should have set aside"):
                _replay(absorber, stream, STREAMS["wide-gap"])


#: The worlds the correct absorbers are judged in (the fast lane's: the first two).
ABSORBER_WORLDS = lanes.sweep("worlds a correct absorber is judged in", range(20), fast=range(2))


@pytest.mark.parametrize(
    "source", [a[2] for a in CORRECT["absorber"]], ids=[a[0] for a in CORRECT["absorber"]]
)
def test_do_correct_absorbers_pass_the_stories_of_conflicts_and_old_keys(source):
    absorber = _local(source, "Absorber")
    for seed in ABSORBER_WORLDS:
        with judged_in(seed):
            stream, names = conflicting_names()
            _replay(absorber, stream, STREAMS["conflict"], names=names)
            _replay(absorber, renumbered_long_after(), STREAMS["late-renumbered"])
            _replay(absorber, wide_gap(), STREAMS["wide-gap"])


def test_does_results_kept_show_what_each_result_holds_now():
    """The sandbox's ``results-kept`` passes each call on and keeps the very result, so a list
    an object hands back and later refills reads as it is now, and a list of its own as it was."""
    from simlab.grading.factories import FACTORIES

    class Reuses:
        def __init__(self):
            self.out = []

        def offer(self, item):
            self.out.clear()
            self.out.append(item)
            return self.out

    class Fresh:
        def offer(self, item):
            return [item]

    for obj, later in ((Reuses(), [["b"], ["b"]]), (Fresh(), [["a"], ["b"]])):
        kept = FACTORIES["results-kept"]({}, obj)
        assert kept.offer("a") == ["a"] and kept.offer("b") == ["b"]
        assert kept.held() == later
