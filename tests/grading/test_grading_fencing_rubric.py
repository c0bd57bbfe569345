"""Do the properties of exercise ``fencing`` catch what its hand-picked stories let pass, and do
the hidden worlds make answers that foresee them fail?

Each answer of ``tests/submissions/fencing.py`` replaces one answer cell of the solution
notebook; only that question's hidden check runs, in the real sandbox. A correct alternative gets
every point, in several worlds; a mistake or an attack gets at most its listed points. The worlds
of ``cancel-after-first-step`` and ``cancel-limits`` are also played here without a sandbox:
the sandbox's stand-ins (:mod:`simlab.grading.factories`) call the grader's
:class:`~simlab.grading.checks.fencing.play.Play` through a channel that answers at once.
"""

from __future__ import annotations

import random
import tempfile
from types import SimpleNamespace

import pytest

from simlab.errors import LeaseHeld, TerminalTask
from simlab.grading.checks.fencing import agrees_with_play
from simlab.grading.checks.fencing.claim import reference_cancel, reference_requeue
from simlab.grading.checks.fencing.limits import LIMIT_FACTS
from simlab.grading.checks.fencing.play import Play
from simlab.grading.checks.fencing.worlds import (
    FACTS,
    KIT,
    World,
    first_step_worlds,
    limits_worlds,
    reference_facts,
)
from simlab.grading.checks.hidden_world import judged_in
from simlab.grading.factories import FACTORIES
from simlab.grading.lending import Lent
from simlab.grading.questions import Fail
from simlab.grading.sandbox import remote, wire
from simlab.learn import run_worker
from simlab.ledger import Ledger
from simlab.sim.mailbox import Mailbox
from tests import lanes
from tests.submissions import fencing, hidden
from tests.submissions.cases import FENCING, answer_source
from tests.submissions.fencing import ANSWERS
from tests.submissions.grading import (
    check_answer,
    check_feedback,
    each_answer,
    graded,
)

QUESTIONS = ("cancel-after-claim", "cancel-after-first-step", "cancel-limits")
#: Worlds besides seed 0 (where the corpus is graded) the correct answers and attacks meet.
SEEDS = (7, 2024)


@pytest.mark.jail
@each_answer(ANSWERS)
def test_does_each_answer_get_what_its_idea_is_worth(name, question, source, most, says):
    grade = check_answer(question, source, most, says)
    check_feedback(name, grade.feedback, hidden.FENCING)


#: Correct answers written otherwise than the solution, graded in several worlds.
CORRECT = [
    ("transitions", "cancel-after-claim", fencing.TRANSITIONS),
    ("read-with-tasks", "cancel-after-first-step", fencing.READ_WITH_TASKS),
    ("measured-otherwise", "cancel-limits", fencing.MEASURED_OTHERWISE),
    ("default-arg-bindings", "cancel-after-first-step", fencing.DEFAULT_ARG_BINDINGS),
    ("default-arg-classes", "cancel-limits", fencing.DEFAULT_ARG_CLASSES),
    ("claim-then-read", "cancel-limits", fencing.CLAIM_THEN_READ),
    ("refused-not-claim", "cancel-after-first-step", fencing.REFUSED_NOT_CLAIM),
]


@pytest.mark.jail
@pytest.mark.parametrize("seed", SEEDS)
def test_do_correct_answers_get_every_point_in_every_world(seed):
    with judged_in(seed):
        for name, question, source in CORRECT:
            grade = graded(question, source)
            assert grade.points == grade.max_points, (seed, name, grade.feedback)


@pytest.mark.jail
@pytest.mark.parametrize("seed", SEEDS[1:])
def test_do_the_attacks_lose_their_points_in_other_worlds_too(seed):
    attacks = {
        "typed-epoch",
        "typed-after-experiment",
        "from-the-reports",
        "detects-the-world-first-step",
        "detects-the-world",
        "refused-from-status",
        "step-from-report",
        "two-resume-workers",
        "refused-by-reason",
        "restart-stored-step",
        "rollback-after-requeue",
        "rollback-not-one",
        "send-unconditional",
        "mailbox-total",
        "save-step-one",
        "any-error",
    }
    with judged_in(seed):
        for name, question, source, most, _ in ANSWERS:
            if name in attacks:
                grade = graded(question, source)
                assert grade.points <= most, (seed, name, grade.feedback)


# ------------------------------------------------------------------------ the worlds, in process


class _Direct(remote.Channel):
    """Answers a stand-in's callback at once, as the grader would (the same encoding)."""

    def __init__(self, lent: Lent):
        self.lent = lent

    def ask(self, message: dict) -> dict:
        args, kwargs = wire.decode(message["args"]), wire.decode(message["kwargs"])
        kind, value = self.lent(message["method"], args, kwargs)
        return {"raise": value} if kind == "raise" else {"value": wire.encode(value)}


def _play(ns: dict, name: str, path: str, world: World) -> tuple[object, Play]:
    """``name(path)`` of ``ns`` played in ``world`` with the sandbox's stand-ins, here; the
    caller closes the play."""
    play = Play(world)
    return _call_in(play, ns, name, path), play


def _call_in(play: Play, ns: dict, name: str, path: str) -> object:
    """``name(path)`` of ``ns`` played in ``play``'s world with the sandbox's stand-ins, here."""
    remote.install(_Direct(Lent(play, "Work")))
    try:
        return FACTORIES["lent-world"](ns, name).play(path, remote.stand_in(1, "Work"))
    finally:
        remote.install(remote.Channel())


#: The draws of worlds an answer is judged in, a measuring one, a typed-in one or one reading a
#: wrong source (the fast lane's: the first four).
DRAWS = lanes.sweep("draws of worlds an answer is judged in", range(12), fast=range(4))
#: The draws in which every fact must come out otherwise in some world (the fast lane's: the
#: first ten).
FACT_DRAWS = lanes.sweep(
    "draws of worlds every fact comes out otherwise in", range(40), fast=range(10)
)


@pytest.fixture(autouse=True)
def _own_scratch(tmp_path, monkeypatch):
    """An answer played here, out of the sandbox, that makes a folder of its own with
    :mod:`tempfile` (one measures on a file of its own) makes it in this test's folder, removed
    with it, not in the host's temporary folder, where nothing would remove it (a sandbox's
    temporary folder is its own, removed with it)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


def _namespace(source: str) -> dict:
    ns = {
        "Ledger": Ledger,
        "Mailbox": Mailbox,
        "TerminalTask": TerminalTask,
        "LeaseHeld": LeaseHeld,
    }
    ns["run_worker"] = run_worker
    exec(source, ns)
    return ns


def test_does_every_fact_come_out_otherwise_in_one_drawn_world_and_as_the_kits_in_another():
    """A fact typed in (the kit's value, or any other constant) fails in one of the three
    worlds or on the kit's ledger, whatever the seed, and an answer that tells a world from the
    kit's ledger and types in the other value fails in another world; and the kit's story on
    the kit's ledger gives what the check expects there."""
    assert reference_facts(KIT) == LIMIT_FACTS
    for seed in FACT_DRAWS:
        worlds = limits_worlds(random.Random(seed))
        assert KIT not in worlds and len(worlds) == 5
        seen = [reference_facts(world) for world in worlds]
        for fact in FACTS:
            assert any(facts[fact] is not LIMIT_FACTS[fact] for facts in seen), (seed, fact)
            assert any(facts[fact] is LIMIT_FACTS[fact] for facts in seen), (seed, fact)


@pytest.mark.parametrize(
    "source",
    [
        answer_source("solutions", FENCING, "cancel-limits"),
        fencing.MEASURED_OTHERWISE,
        fencing.OWN_FILE,
        fencing.CLAIM_THEN_READ,
    ],
    ids=["solution", "measured-otherwise", "own-file", "claim-then-read"],
)
def test_does_a_measuring_answer_give_what_the_story_gives_in_every_world(source):
    """In any order the story's things are tried, the facts measured in a world are what the
    story gives there."""
    ns = _namespace(source)
    for seed in DRAWS:
        for world in limits_worlds(random.Random(seed)):
            facts, play = _play(ns, "what_cancel_does", "/nowhere/cancel.sqlite", world)
            play.close()
            assert facts == reference_facts(world), (seed, world)


#: A reading at a neighbouring moment or of a neighbouring quantity -> (its answer, the one
#: fact it reads otherwise than the story gives).
NEIGHBOURING = {
    "restart-stored-step": (fencing.RESTART_STORED_STEP, "requeue_restarts_from_zero"),
    "rollback-after-requeue": (fencing.ROLLBACK_AFTER_REQUEUE, "step_rolled_back"),
    "rollback-not-one": (fencing.ROLLBACK_NOT_ONE, "step_rolled_back"),
    "send-unconditional": (fencing.SEND_UNCONDITIONAL, "email_recalled"),
    "mailbox-total": (fencing.MAILBOX_TOTAL, "email_recalled"),
    "save-step-one": (fencing.SAVE_STEP_ONE, "later_save_refused"),
    "email-before-cancel": (fencing.EMAIL_BEFORE_CANCEL, "email_recalled"),
    "any-error": (fencing.ANY_ERROR, "new_claim_refused"),
    "all-but-held": (fencing.ALL_BUT_HELD, "new_claim_refused"),
    "key-absent": (fencing.KEY_ABSENT, "email_recalled"),
    # the story's claim with a shorter ttl than its 60: where the cancel comes late, the lease
    # has run out before it
    "short-ttl": (fencing.SHORT_TTL, "new_claim_refused"),
}


@pytest.mark.parametrize(("source", "fact"), NEIGHBOURING.values(), ids=NEIGHBOURING.keys())
def test_does_a_neighbouring_reading_fail_in_a_drawn_world_of_every_draw(source, fact):
    """A fact read at a neighbouring moment or of a neighbouring quantity (each agrees with
    the story on the kit's ledger) comes out otherwise than the story gives in some world of
    every draw, and only that fact."""
    ns = _namespace(source)
    facts, play = _play(ns, "what_cancel_does", "/nowhere/cancel.sqlite", KIT)
    play.close()
    assert facts == LIMIT_FACTS
    for seed in range(4):  # the worlds that tell each reading apart are in every draw
        wrong = set()
        for world in limits_worlds(random.Random(seed)):
            facts, play = _play(ns, "what_cancel_does", "/nowhere/cancel.sqlite", world)
            play.close()
            want = reference_facts(world)
            wrong |= {name for name in FACTS if facts[name] is not want[name]}
        assert wrong == {fact}, seed


def test_does_a_typed_in_first_step_answer_fail_in_a_drawn_world():
    """In every draw some world's ledger ends with a step, a status, a result and a resume
    claim other than the notebook's, and the solution reads them back."""
    ns = _namespace(answer_source("solutions", FENCING, "cancel-after-first-step"))
    notebook = {"resume_claim_refused": True, "step": 1, "status": "cancelled", "result": None}
    for seed in DRAWS:
        differs = set()
        for world in first_step_worlds(random.Random(seed)):
            answer, play = _play(ns, "cancel_after_first_step", "/nowhere/jobs.sqlite", world)
            record = play.record("/nowhere/jobs.sqlite", "j1")
            refused = play.reports[-1]["event"] == "claim-refused"
            play.close()
            assert answer == {
                "resume_claim_refused": refused,
                "step": record.step,
                "status": record.status,
                "result": record.result,
            }
            differs |= {key for key, value in notebook.items() if answer[key] != value}
        assert differs == set(notebook), seed


@pytest.mark.parametrize(
    "source",
    [
        fencing.REFUSED_FROM_STATUS,
        fencing.STEP_FROM_REPORT,
        fencing.TWO_RESUME_WORKERS,
        fencing.REFUSED_BY_REASON,
    ],
    ids=["refused-from-status", "step-from-report", "two-resume-workers", "refused-by-reason"],
)
def test_does_an_answer_from_the_wrong_source_fail_in_a_drawn_world_of_every_draw(source):
    """The refusal read from the ledger's status or from the report's reason, the step from a
    worker's report, the resume worker run twice: each fails in some world of every draw; the
    solution, and the refusal read as "the event is not a claim", agree in every world."""
    wrong = _namespace(source)
    for right in (
        _namespace(answer_source("solutions", FENCING, "cancel-after-first-step")),
        _namespace(fencing.REFUSED_NOT_CLAIM),
    ):
        _fails_somewhere(right, wrong)


def _fails_somewhere(right: dict, wrong: dict) -> None:
    path = "/nowhere/jobs.sqlite"
    for seed in DRAWS:
        failed = 0
        for world in first_step_worlds(random.Random(seed)):
            for ns in (right, wrong):
                answer, play = _play(ns, "cancel_after_first_step", path, world)
                try:
                    agrees_with_play(answer, play, path)
                except Fail:
                    assert ns is wrong, (seed, world)
                    failed += 1
                finally:
                    play.close()
        assert failed, seed


#: Reaches the kit's names every way (a global, a default argument bound when it was defined, an
#: import inside it, a module's attribute, a subclass of its own), uses each, and raises; and
#: uses a mailbox made before the call.
_EVERY_WAY = """
import simlab.learn
import simlab.sim


class Mine(Ledger):
    pass


BEFORE = Mailbox()


def answer(path, L=Ledger, M=Mailbox, work=run_worker):
    from simlab.ledger import Ledger as Imported

    for n, make in enumerate((Ledger, L, Imported, simlab.ledger.Ledger, Mine)):
        with make(path) as ledger:
            ledger.submit(f"t{n}")
    for n, make in enumerate((Mailbox, M, simlab.sim.Mailbox)):
        box = make()
        box.send(f"k{n}")
        SEEN.append(box.received)
    for n, run in enumerate((run_worker, work, simlab.learn.run_worker)):
        SEEN.append(run(path, f"t{n}")["event"])
    BEFORE.send("b")
    raise RuntimeError("boom")
"""


def test_does_every_way_to_the_kit_meet_the_world_and_the_kit_come_back_after(tmp_path):
    """However a correct answer reaches the kit's ``Ledger``, ``Mailbox`` and ``run_worker``,
    it plays in the world (the world's files hold its tasks, the world's mailbox loses its
    mail, the world's worker runs); a mailbox made before the call stays the kit's; after the
    call, one that raised too, the kit is its own."""
    import simlab.ledger
    from simlab.learn.state import SANDBOX

    ns = _namespace("import simlab.ledger\nSEEN = []\n" + _EVERY_WAY)
    path = str(tmp_path / "mine.sqlite")
    play = Play(World(lost_mail=True))
    try:
        with pytest.raises(RuntimeError, match="boom"):
            _call_in(play, ns, "answer", path)
        assert [play.record(path, f"t{n}").step for n in range(5)] == [1, 1, 1, 0, 0]
        assert ns["SEEN"] == [{}, {}, {}, "claim", "claim", "claim"]
        assert len(play.reports) == 3
    finally:
        play.close()
    assert not (tmp_path / "mine.sqlite").exists()
    assert SANDBOX.worker is None and "submit" not in Ledger.__dict__
    with simlab.ledger.Ledger(path) as kit:
        assert kit.submit("t1") == "t1" and kit.get("t1").epoch == 0
    box = Mailbox()
    box.send("k")
    assert box.received == {"k": 1} and box.sent == 1
    assert ns["BEFORE"].received == {"b": 1}


def test_does_a_play_refuse_what_a_ledger_does_not_offer():
    play = Play(World(rollback=True))
    try:
        n = play("open", "/nowhere/x.sqlite")
        with pytest.raises(AttributeError):
            play("ledger", n, "_count", ["DELETE FROM tasks", {}], {})
        with pytest.raises(ValueError):
            play("ledger", n + 1, "get", ["t1"], {})
        with pytest.raises(ValueError):
            play("something", 1)
        assert play("ledger", n, "submit", ["t1"], {}) == "t1"
        play("close", n)
        with pytest.raises(ValueError):
            play("ledger", n, "get", ["t1"], {})
        assert play.record("/nowhere/x.sqlite", "t1").status == "queued"
    finally:
        play.close()


def test_does_a_leasable_world_lease_a_cancelled_task_and_keep_it_cancelled(tmp_path):
    from simlab.grading.checks.fencing.worlds import WorldLedger

    with WorldLedger(str(tmp_path / "w.sqlite"), World(leasable=True)) as ledger:
        ledger.submit("t1")
        first = ledger.claim("t1", "w1", 60)
        assert ledger.save(first, 1) and ledger.cancel("t1")
        with pytest.raises(ValueError):
            ledger.claim("t1", "w2", -1)
        lease = ledger.claim("t1", "w2", 60)
        assert (lease.worker, lease.step, lease.epoch) == ("w2", 1, 2)
        assert ledger.save(lease, 2) is False
        record = ledger.get("t1")
        assert (record.status, record.step, record.epoch) == ("cancelled", 1, 2)


def test_does_a_held_world_meet_a_new_claim_with_the_lease_the_cancel_left_live(tmp_path):
    """Where the cancel leaves the lease live, a new claim of the cancelled task raises
    LeaseHeld naming w1 and its lease end, and the cancel fences w1 all the same; once the
    lease has run out the claim raises TerminalTask, and after a requeue it is granted."""
    from simlab.grading.checks.fencing.worlds import WorldLedger

    now = [100.0]
    with WorldLedger(str(tmp_path / "h.sqlite"), World(held=True)) as ledger:
        ledger.clock = lambda: now[0]
        ledger.submit("t1")
        lease = ledger.claim("t1", "w1", 60)
        assert ledger.save(lease, 1) and ledger.cancel("t1") and not ledger.cancel("t1")
        with pytest.raises(LeaseHeld) as held:
            ledger.claim("t1", "w2", 60)
        assert (held.value.worker, held.value.lease_until) == ("w1", 160.0)
        assert ledger.save(lease, 2) is False and ledger.record_effect(lease, "t1:x") is False
        record = ledger.get("t1")
        assert (record.status, record.step, record.epoch) == ("cancelled", 1, 2)
        now[0] = 160.0
        with pytest.raises(TerminalTask):
            ledger.claim("t1", "w2", 60)
        assert ledger.requeue("t1") and ledger.claim("t1", "w3", 60).epoch == 3


def test_does_a_held_world_meet_the_claim_after_a_requeue_with_the_lease_still_live(tmp_path):
    """Where the cancel leaves the lease live, the requeue leaves it live too: the task is
    queued again, but a claim raises LeaseHeld naming w1 until the lease ends, then it is
    granted with a higher epoch. The kit's ledger grants the same claim at once."""
    from simlab.grading.checks.fencing.worlds import WorldLedger

    now = [100.0]
    with WorldLedger(str(tmp_path / "h.sqlite"), World(held=True)) as ledger:
        ledger.clock = lambda: now[0]
        ledger.submit("t1")
        ledger.claim("t1", "w1", 60)
        assert ledger.cancel("t1") and ledger.requeue("t1") and not ledger.requeue("t1")
        assert ledger.get("t1").status == "queued"
        with pytest.raises(LeaseHeld) as held:
            ledger.claim("t1", "w3", 60)
        assert (held.value.worker, held.value.lease_until) == ("w1", 160.0)
        now[0] = 160.0
        assert ledger.claim("t1", "w3", 60).epoch == 3
    with WorldLedger(str(tmp_path / "k.sqlite"), World()) as ledger:
        ledger.clock = lambda: now[0]
        ledger.submit("t1")
        ledger.claim("t1", "w1", 60)
        assert ledger.cancel("t1") and ledger.requeue("t1")
        assert ledger.claim("t1", "w3", 60).epoch == 3


def test_do_the_world_ledgers_move_the_step_refuse_effects_and_share_the_mailbox(tmp_path):
    """A stale save that advances the step lands where saves are unfenced (one that does not
    advance it is refused); a requeued task keeps its stored step until its next claim, which
    starts at step 0 and stores it; record_effect refuses all where effects are refused; a
    shared mailbox holds another task's e-mail and keeps it through a recall, which brings the
    recalled e-mail's key to a count of 0."""
    from simlab.grading.checks.fencing.worlds import WorldLedger, WorldMailbox

    world = World(unfenced_save=True, restart=True)
    with WorldLedger(str(tmp_path / "w.sqlite"), world) as ledger:
        ledger.submit("t1")
        lease = ledger.claim("t1", "w1", 60)
        assert ledger.save(lease, 1) and ledger.cancel("t1")
        assert ledger.save(lease, 1) is False
        assert ledger.save(lease, 2) is True and ledger.get("t1").step == 2
        assert ledger.requeue("t1") and ledger.get("t1").step == 2
        again = ledger.claim("t1", "w2", 60)
        assert (again.step, again.checkpoint, ledger.get("t1").step) == (0, None, 0)
    with WorldLedger(str(tmp_path / "e.sqlite"), World(effects_refused=True)) as ledger:
        ledger.submit("t1")
        lease = ledger.claim("t1", "w1", 60)
        assert ledger.record_effect(lease, "t1:email") is False
        assert ledger.effects("t1") == []
    box = WorldMailbox(False, "t7:receipt")
    box.send("t1:email")
    assert box.received == {"t7:receipt": 1, "t1:email": 1} and box.sent == 2
    box.recall()
    assert box.received == {"t7:receipt": 1, "t1:email": 0} and box.sent == 1
    assert box.duplicates == 0, "a key counting 0 holds no e-mail, so none beyond the first"


def test_is_the_reference_state_machine_the_exercise_text():
    for status in ("queued", "running", "completed", "cancelled"):
        state = {"epoch": 4, "status": status, "result": None}
        assert reference_cancel(state) is (status in ("queued", "running"))
        assert state["epoch"] == (5 if status in ("queued", "running") else 4)
        state = {"epoch": 4, "status": status, "result": None}
        assert reference_requeue(state) is (status == "cancelled")
        assert state == {
            "epoch": 4,
            "status": "queued" if status == "cancelled" else status,
            "result": None,
        }


@pytest.mark.parametrize("slow", [0.0, 35.0])
def test_does_a_late_cancel_come_its_time_after_the_claim_however_slowly_the_story_ran(
    tmp_path, monkeypatch, slow
):
    """The world whose cancel comes late moves its clock to that many time units after the
    claim: the story's ttl of 60 is still live there (LeaseHeld) even when the story took
    ``slow`` wall seconds between its claim and its cancel, and a ttl of 5 has run out."""
    from simlab.grading.checks.fencing import worlds

    wall = [0.0]
    monkeypatch.setattr(worlds, "time", SimpleNamespace(time=lambda: wall[0]))
    for ttl, refusal in ((60, LeaseHeld), (5, TerminalTask)):
        wall[0] = 1000.0
        path = str(tmp_path / f"late-{ttl}.sqlite")
        with worlds.WorldLedger(path, World(held=True, late_cancel=30.0)) as ledger:
            ledger.submit("t1")
            lease = ledger.claim("t1", "w1", ttl)
            wall[0] += slow
            assert ledger.save(lease, 1) and ledger.cancel("t1")  # nobody claimed since
            assert ledger.clock() == max(1030.0, wall[0])
            with pytest.raises(refusal):
                ledger.claim("t1", "w2", 60)
