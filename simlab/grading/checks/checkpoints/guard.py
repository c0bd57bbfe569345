"""Question ``resume-guard``: the learner's ``resume_guard(checkpoint, world)`` (plain dicts)
against the kit's :func:`simlab.agent.guard.resume_guard`, for checkpoints of every example task
at every graph position, in worlds changed one way (:data:`CHANGES`) and two ways at once.

Rubric :data:`GUARD_RUBRIC`. The core idea is judged on one change at a time: the guard must find
every reason to stop the kit finds in the world as it is now, and stop nothing the kit lets go
on. Exact codes (none too many, each once, two changes at once, a finished task) and stock
figures are details. The feedback shows the learner's codes and says whether one is missing or
does not apply, never the kit's."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from simlab.agent.guard import GUARD_CODES
from simlab.grading.checks.checkpoints.changes import (
    CHANGE_PAIRS,
    CHANGES,
    CORE_CHANGES,
    CORE_FIRST,
    EVERY_CHANGE,
    EXAMPLES,
    PAIR_POSITIONS,
    POSITIONS,
    REVOKED_AFTER_A_LOSS,
    STOCK_CHANGES,
    STOCK_FIRST,
    STOPPING,
    UNCHANGED,
    WORLD_CHANGES,
    Case,
    case_of,
    changed_cases,
    checkpoints_at,
    played_case,
    reference_codes,
    said_change,
    situations,
    where,
)
from simlab.grading.checks.checkpoints.guard_world import (
    FALSY_SKU,
    drawn_world,
    falsy_sku_cases,
    not_running,
)
from simlab.grading.checks.checkpoints.messages import say
from simlab.grading.checks.hidden_world import current_seed, judged_in
from simlab.grading.messages import Message
from simlab.grading.properties import Story, screened
from simlab.grading.questions import Criterion, Fail, Tally
from simlab.grading.student import Student, asked_once, kind_of, shown_value, shown_values

__all__ = [
    "POSITIONS",
    "CHANGES",
    "UNCHANGED",
    "VERDICTS",
    "GUARD_RUBRIC",
    "said_change",
    "where",
    "gave",
    "checkpoints_at",
    "reference_codes",
    "resume_guard_check",
]


#: The changes a checkpoint of the grader's own world is judged under: those of the example
#: world and those made in the drawn world only.
_IN_WORLD = CHANGES | WORLD_CHANGES

#: The rubric of ``resume-guard``: resuming re-checks the world as it is now.
GUARD_RUBRIC = (
    Criterion(
        "rechecks-now",
        4,
        "Before a task resumes, its permission, cited documents and tools are re-checked against "
        "the world as it is now, not as the checkpoint saw it: a revoked or missing grant or a "
        "next-step tool no longer granted stops it (permission-revoked); a cited document "
        "withdrawn, edited or no longer readable under the current grant stops it "
        "(document-missing, document-changed, document-forbidden); a next-step tool no longer "
        "deployed stops it (tool-missing). An unchanged world lets it go on. Only a next step "
        "done exempts a checkpoint: one stopped for review or marked completed before its last "
        "step is re-checked all the same.",
        core=True,
        mistakes=(
            "trusts that the grant the checkpoint was written under still holds",
            "checks only one of permissions, documents and tools",
            "checks that a cited document exists but not its version",
            "finds a cited document by a prefix or a part of its ID",
            "finds the tenant's grant with capitals folded, white space stripped or the name "
            "normalised",
            "finds a cited document, a collection or a tool (granted or deployed) with capitals "
            "folded, white space stripped or the name normalised",
            "checks a document's version but not whether the current grant may still read it",
            "lets a checkpoint that is not running go on unchecked",
            "takes a public document (or any but an internal one) as readable whatever the "
            "grant holds",
        ),
        properties=(
            "On generated checkpoints of every task at every step before the last, in a world "
            "with up to two changes to grants, documents and tools, your guard stops the task "
            "exactly when the kit's guard does.",
        ),
        text=(
            "Before a task goes on: is the permission still there, does every cited document "
            "still have the cited version, does every tool still exist?",
            'If `checkpoint["next_step"]` is `"done"`, there is nothing to run: return `[]`.',
            "an empty list means the task may go on.",
            '`"permission-revoked"`: the tenant (`checkpoint["tenant"]`) has no grant in '
            '`world["grants"]`, or its grant is `revoked`, or (grant not revoked) a tool the '
            "next step needs (`TOOLS_NEEDED`) is missing from the grant's `tools`.",
            '`"document-missing"`: it no longer exists;',
            '`"document-changed"`: its current version differs from the cited one;',
            '`"document-forbidden"`: same version, the tenant has a grant and it is not '
            "revoked, but the tenant may no longer read it (a document whose `collection` is "
            "not in the grant's `collections`;",
            '`"tool-missing"`: a tool the next step needs is not in `world["tools"]` (not '
            "deployed).",
            "Names are exact and compared whole: a tenant (like a document ID, a collection or "
            "a tool) in other capitals, with white space around it or in another Unicode form "
            "is another one",
        ),
        world=(
            "Each grading draws a world of its own: the example's tenants, task IDs, SKU and "
            "every version replaced (documents' above 256), each tenant beside tenants whose "
            "names hold its name or are held by it, or differ from it only in capitals, white "
            "space around it or Unicode form (with live grants), collections and tools "
            "whose names hold the real ones granted and deployed, documents whose IDs hold the "
            "cited ones, documents, collections and tools (granted and deployed) whose names "
            "differ from the real ones only in capitals, white space around them or Unicode "
            "form (the documents at version 1), and every other tenant's grant revoked while "
            "the task's own stays; a "
            "guard that matches a grant, collection, tool or document by prefix or substring, "
            "stops for a grant that is not its tenant's, reads versions from anywhere but the "
            "world and checkpoint it was given, or knows the example's tasks misses a reason to "
            "stop there, or stops without one. Each task is also judged once at a drawn position "
            "before the last with another status, stopped for review or completed (each in every "
            "world): a guard that lets a task go on by its status instead of its next step misses"
            " a reason to stop there. Among the changes, the grant loses the collection of the "
            "first document a task cites, public or not: a guard that checks only internal "
            "collections misses the document-forbidden there."
        ),
    ),
    Criterion(
        "stock-figures",
        1,
        "Stock figures cited from the inventory API are re-checked too (still there, whatever "
        "documents hold, at the cited version, and a grant that still has the inventory tool), "
        "and so is the inventory tool a retrieve step with a SKU needs.",
        mistakes=(
            "re-checks retrieved documents only",
            "reads a withdrawn stock figure's version from a document of the same ID",
            "tests the goal's SKU for truth, not for None: an empty SKU taken for none",
            "finds a stock figure with capitals folded, white space stripped or the ID normalised",
        ),
        properties=(
            "On the same generated checkpoints, with up to two changes to stock figures and "
            "the inventory tool's grant, your guard stops the task exactly when the kit's does.",
        ),
        text=(
            'and `world["stock"][doc_id]["version"]` for source `"inventory-api"`.',
            '`"document-missing"`: it no longer exists;',
            'for a stock figure, a grant without the `"inventory"` tool).',
            'a `"retrieve"` whose goal\'s `"sku"` is not `None` also needs `"inventory"` (a '
            'checkpoint\'s goal always holds the key `"sku"`, `None` when the task has no SKU).',
        ),
        world=(
            "In the drawn world (a drawn SKU at a drawn stock version, a document whose ID is "
            "the SKU's at the same version, an inventory tool's name held by another granted "
            "tool's, stock figures at version 1 whose IDs differ from each real one only in "
            "capitals, white space around them or Unicode form),"
            " the cited stock figure changes or is withdrawn, or the inventory tool is "
            "no longer granted: a withdrawn figure no longer exists, whatever documents hold. "
            'The task with a SKU is also judged before retrieval with the SKU "" (empty, not '
            "None), its inventory tool no longer granted or no longer deployed: its retrieve step "
            "needs the tool all the same."
        ),
    ),
    Criterion(
        "exact-codes",
        1,
        "The stop codes are exact, also when several things changed at once: every reason "
        "once, none that does not apply (document-forbidden only while the grant stands and the "
        "cited version is current); a finished task (next step done) passes whatever changed.",
        mistakes=(
            "reports a forbidden document under a revoked grant",
            "reports a forbidden document or stock figure under a grant revoked after it lost "
            "the collection or the inventory tool the cited item needs",
            "stops at the first reason",
            "checks a finished task",
            "returns the codes in a set or a tuple, not the list the text asks for",
        ),
        properties=(
            "On generated checkpoints at every step (the finished one too) with up to two "
            "changes of any kind, your guard returns exactly the kit's stop codes.",
        ),
        text=(
            "Return the list of **stop codes**, each code once, in any order; an empty list "
            "means the task may go on.",
            'If `checkpoint["next_step"]` is `"done"`, there is nothing to run: return `[]`.',
            '`"document-forbidden"`: same version, the tenant has a grant and it is not revoked,',
        ),
        world=(
            "Every change, at every position before the last of every task of the drawn "
            "world, must give exactly the kit's codes, also where the tenant's grant first "
            "loses the internal collection or the inventory tool and is then revoked."
        ),
    ),
)


#: What can be wrong with a guard's codes, as keys of the exercise's catalog.
VERDICTS = ("missing_and_extra", "missing", "extra", "once")


def _verdict(answer: list[str], truth: list[str]) -> str:
    """What is wrong with ``answer`` (a key of :data:`VERDICTS`), never naming the kit's."""
    missing, extra = set(truth) - set(answer), set(answer) - set(truth)
    if missing and extra:
        return "missing_and_extra"
    return "missing" if missing else "extra"


def gave(answer: list[str], verdict: str, at: Message | None = None) -> Message:
    """The learner's codes and what is wrong with them (a :data:`VERDICTS` key), after ``at``."""
    if at is None:
        return say("gave", codes=_codes(answer), verdict=say(verdict))
    return say("gave_at", where=at, codes=_codes(answer), verdict=say(verdict))


def _codes(answer: list[str]) -> Message:
    """The learner's codes, sorted, at most eight: a stop code of the kit's as itself, any
    other string through the filter of messages (``a str`` where it is not plain words, or
    where feedback is quiet: the question's hidden names reach the learner's code)."""
    shown = [
        repr(code) if code in GUARD_CODES else shown_value(code) for code in sorted(answer)[:8]
    ]
    return shown_values(shown, more=len(answer) > 8)


class _Judge:
    """The learner's guard, judged against the kit's on the example checkpoints.

    The learner's guard is asked once for each checkpoint and world (:meth:`ask`): several
    parts judge the same situation (one change alone: the core, then the exact codes), each by
    its own criterion, on the same answer. ``guard`` is the learner's function reached through
    the sandbox, whose arguments cross as data: the grader's dicts are never the learner's.
    The situations and the kit's codes for them are made once per process (the example's) or
    per world (the drawn one's): see :class:`~simlab.grading.checks.checkpoints.changes.Case`."""

    def __init__(self, guard: Callable[[dict, dict], Any]):
        self.guard = guard
        batch = getattr(guard, "each", None)  # none for a plain function: nothing asked ahead
        each = (lambda asked: batch([(c.cp, c.world) for (c,) in asked])) if batch else None
        self._asked = asked_once(lambda c: guard(c.cp, c.world), key=lambda c: c.key, each=each)
        self.seed = current_seed()
        self.listed = False  # must the answer be a list (see _codes_of)?

    def ask(self, case: Case) -> Any:
        """The learner's answer for ``case``, or the error it raised, raised again; asked of
        the learner's code the first time only."""
        return self._asked(case)

    def in_its_world(
        self,
        *labels: str,
        positions: tuple[str, ...] = POSITIONS[:-1],
        exact: bool = False,
        statuses: bool = False,
    ) -> None:
        """Every checkpoint of the grader's own world (:func:`drawn_world`) at ``positions``,
        in that world unchanged (label :data:`UNCHANGED`) or changed one way (each of
        ``labels`` of :data:`CHANGES` or :data:`WORLD_CHANGES` that applies to the
        checkpoint); ``statuses``: the checkpoints of :func:`not_running` instead."""
        cases = _world_cases(self.seed, labels, positions, statuses)
        self._asked.ahead([(case,) for *_, case in cases])  # one request: see under
        for n, position, label, case in cases:

            def at(n=n, position=position, label=label, case=case) -> Message:
                where = {"n": n, "position": repr(position), "change": said_change(label)}
                if statuses:  # the status is what makes the case: a schema word, not hidden
                    return say("world_at_status", status=repr(case.cp["status"]), **where)
                return say("world_at", **where)

            self.agrees(case, at, exact)

    def with_falsy_sku(self) -> None:
        """The cases of :func:`falsy_sku_cases` in the grader's own world: the very same codes
        as the kit's."""
        cases = _falsy_sku(self.seed)
        self._asked.ahead([(case,) for *_, case in cases])
        for n, label, case in cases:

            def at(n=n, label=label) -> Message:
                return say(
                    "world_at_sku",
                    n=n,
                    position=repr(POSITIONS[0]),
                    sku=repr(FALSY_SKU),
                    change=said_change(label),
                )

            self.agrees(case, at, exact=True)

    def played(self, situation: tuple, story: Story) -> tuple[list[str], list[str], int]:
        """The learner's codes and the kit's for a generated situation, and how many changes
        were made (a change that can no longer be made is left out of the story)."""
        (task, position), labels = situation
        case, moves, made = played_case(task, position, tuple(labels))
        for move in moves:
            story.add(move)
        answer = _codes_of(self.ask(case), self.listed)
        return answer, case.truth, made

    def decides(self, situation: tuple, story: Story) -> None:
        """Stops exactly when the kit stops; after one change, with every code the kit finds."""
        answer, truth, made = self.played(situation, story)
        if bool(answer) != bool(truth) or (made == 1 and not set(truth) <= set(answer)):
            raise Fail(gave(answer, _verdict(answer, truth)))

    def exactly(self, situation: tuple, story: Story) -> None:
        """The very same codes as the kit, each once."""
        answer, truth, _ = self.played(situation, story)
        if len(answer) != len(set(answer)):
            raise Fail(gave(answer, "once"))
        if sorted(answer) != truth:
            raise Fail(gave(answer, _verdict(answer, truth)))

    def agrees(self, case: Case, at: Callable[[], Message], exact: bool) -> None:
        """The learner's codes for ``case``: every reason the kit finds, and none when the kit
        finds none; ``exact``: the very same codes, each once. ``at()`` says where (made only
        for a failure: most answers agree)."""
        answer = _codes_of(self.ask(case), self.listed)
        truth = case.truth
        if not (set(truth) <= set(answer) and bool(answer) == bool(truth)):
            raise Fail(gave(answer, _verdict(answer, truth), at()))
        if exact and len(answer) != len(set(answer)):
            raise Fail(gave(answer, "once", at()))
        if exact and sorted(answer) != truth:
            raise Fail(gave(answer, _verdict(answer, truth), at()))

    def under(
        self,
        *change_sets: tuple[str, ...],
        positions: tuple[str, ...] = POSITIONS[:-1],
        exact: bool = False,
    ) -> None:
        """For each of ``change_sets`` in turn, every checkpoint at ``positions`` its changes
        apply to, in the world changed by them one after the other (unchanged for ``()``). The
        learner's guard is asked about all of them ahead, in one request and in this order
        (:func:`~simlab.grading.student.asked_once`): the same answers one call each gives."""
        cases = [(c, case) for c in change_sets for case in changed_cases(c, positions)]
        self._asked.ahead([(case,) for _, (*_, case) in cases])
        for changes, (task, position, case) in cases:
            self.agrees(case, lambda t=task, p=position, c=changes: where(t, p, c), exact)


def _codes_of(answer: Any, listed: bool = True) -> list[str]:
    """The learner's answer as a list of strings (else the part fails, saying so): a list only
    with ``listed`` (the exact codes, whose sentence asks for one), else any collection."""
    if not isinstance(answer, list if listed else (list, tuple, set, frozenset)):
        raise Fail(say("guard_not_a_list", kind=kind_of(answer)))
    if not all(isinstance(code, str) for code in answer):
        raise Fail(say("guard_not_strings"))
    return list(answer)


@lru_cache(maxsize=8)
def _drawn(seed: int) -> tuple[dict, dict[tuple[int, str], dict], dict[tuple[int, str], dict]]:
    """The world of ``seed`` (:func:`drawn_world`), its checkpoints, and those of
    :func:`not_running`: made once per world (read only, as the example's)."""
    with judged_in(seed):
        world, in_world = drawn_world()
        return world, in_world, not_running(in_world)


@lru_cache(maxsize=8)
def _falsy_sku(seed: int) -> tuple:
    """:func:`falsy_sku_cases` in the world of ``seed``: made once per world."""
    world, in_world, _ = _drawn(seed)
    return falsy_sku_cases(world, in_world)


@lru_cache(maxsize=64)
def _world_cases(
    seed: int, labels: tuple[str, ...], positions: tuple[str, ...], statuses: bool
) -> tuple[tuple[int, str, str, Case], ...]:
    """(task number, position, label, case) of :meth:`_Judge.in_its_world`, in its order."""
    world, in_world, others = _drawn(seed)
    out = []
    for (n, position), cp in (others if statuses else in_world).items():
        if position not in positions:
            continue
        for label in labels:
            if label == UNCHANGED:
                changed_world = world
            elif _IN_WORLD[label][0](cp):
                changed_world = _IN_WORLD[label][1](world, cp)
            else:
                continue
            out.append((n, position, label, case_of(cp, changed_world)))
    return tuple(out)


def resume_guard_check(s: Student, t: Tally) -> None:
    """Parts filed under :data:`GUARD_RUBRIC`. The feedback names the task, its position and
    the change (never how the change was made) and shows the learner's codes, never the
    expected ones."""
    judge = _Judge(s.function("resume_guard"))
    _rechecks_now(judge, t)
    _stock_figures(judge, t)
    _exact_codes(judge, t)


def _rechecks_now(judge: _Judge, t: Tally) -> None:
    """The core: each change alone stops the task exactly when the kit's guard stops it."""
    t.under("rechecks-now")

    @t.part
    def unchanged_passes_and_revoked_stops():
        judge.under((), ("grant revoked",))

    @t.part
    def other_losses_of_permission():
        judge.under(("no grant left",), ("next tool no longer granted",))

    @t.part
    def cited_documents_changed():
        judge.under(("cited document edited",))

    @t.part
    def documents_missing_or_forbidden():
        judge.under(("cited document withdrawn",), ("internal documents no longer granted",))

    @t.part
    def tools_no_longer_deployed():
        judge.under(("next tool removed",))

    @t.part
    def in_a_world_of_its_own():
        judge.in_its_world(UNCHANGED, *STOPPING, "other tenants' grants revoked")

    @t.part
    def whatever_the_status_in_a_world_of_its_own():
        judge.in_its_world(UNCHANGED, *STOPPING, statuses=True)

    @t.part
    def generated_changes_stop_it_exactly_when_the_kit_does():
        screened(
            "checkpoints/guard-core",
            situations(CORE_CHANGES, POSITIONS[:-1]),
            judge.decides,
            examples=EXAMPLES,
            first=CORE_FIRST,
        )


def _stock_figures(judge: _Judge, t: Tally) -> None:
    """A detail: stock figures and the inventory tool, exactly."""
    t.under("stock-figures")

    @t.part
    def stock_figures():
        changes = ("cited stock figure changed",), ("inventory tool no longer granted",)
        judge.under(*changes, exact=True)

    @t.part
    def stock_figures_in_a_world_of_its_own():
        judge.in_its_world(
            "cited stock figure changed",
            "cited stock figure withdrawn",
            "inventory tool no longer granted",
            exact=True,
        )

    @t.part
    def an_empty_sku_in_a_world_of_its_own():
        judge.with_falsy_sku()

    @t.part
    def generated_stock_changes():
        screened(
            "checkpoints/guard-stock",
            situations(STOCK_CHANGES, POSITIONS[:-1]),
            judge.decides,
            examples=EXAMPLES,
            first=STOCK_FIRST,
        )


def _exact_codes(judge: _Judge, t: Tally) -> None:
    """A detail: the exact codes, two changes at once and a finished task."""
    t.under("exact-codes")
    judge.listed = True

    @t.part
    def each_change_exactly():
        judge.under((), *((change,) for change in CHANGES), exact=True)

    @t.part
    def several_changes_at_once():
        judge.under(*CHANGE_PAIRS, positions=PAIR_POSITIONS, exact=True)

    @t.part
    def generated_changes_exactly():
        screened(
            "checkpoints/guard-exact",
            situations(EVERY_CHANGE, POSITIONS),
            judge.exactly,
            examples=EXAMPLES,
        )

    @t.part
    def exactly_in_a_world_of_its_own():
        judge.in_its_world(
            UNCHANGED, *CHANGES, *REVOKED_AFTER_A_LOSS, positions=POSITIONS[:-1], exact=True
        )

    @t.part  # whatever the world holds, so the example world's checkpoints say it all
    def a_finished_task_passes():
        judge.under((), *((change,) for change in CHANGES), positions=("done",), exact=True)
