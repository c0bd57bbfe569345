"""Hidden checks of exercise ``checkpoints`` (``04_checkpoints_and_resume.ipynb``).

Each answer is compared with the kit's own implementation on inputs the learner has not seen:

* ``pure-migration``: ``migrate_v1_to_v2`` on every v1 file of the regression corpus
  (``tests/corpus/checkpoints``) and on hidden v1 records, against
  :func:`simlab.agent.checkpoint.migrate_v1_to_v2`; the input must come back unchanged, and the
  result
  must be a valid v2 record that today's loader turns into the same latest checkpoint.
* ``resume-guard``: ``resume_guard(checkpoint, world)`` (plain dicts) against
  :func:`simlab.agent.resume.resume_guard`, for checkpoints of every example task at every graph
  position, in worlds changed one way and several ways at once.
* ``cache-key``: the learner's key plugged into the kit's :class:`~simlab.agent.Retriever`,
  replaying scripted searches between document edits and permission changes. Each search must
  return what an uncached search returns *now*, and the cache's hits, misses and rejected
  entries must match the kit's key: a key without the permission version or the index version
  serves an entry that no longer answers the question (a new document or a newly granted one is
  missing) or looks up an entry that re-verification must throw away.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.agent.checkpoint import Checkpoint, CheckpointError, load, migrate_v1_to_v2, validate
from simlab.agent.example import example_goals, example_world
from simlab.agent.resume import resume_guard as reference_guard
from simlab.agent.resume import run_step
from simlab.agent.retrieval import RetrievalCache, Retriever, cache_key
from simlab.agent.steps import new_checkpoint
from simlab.agent.world import World
from simlab.grading.questions import Exercise, Fail, Question, Tally, require
from simlab.grading.student import Student, kind_of
from simlab.ledger.memory import MemoryLedger

__all__ = ["EXERCISE", "CORPUS", "HIDDEN_V1", "checkpoints_at", "reference_codes"]

#: The regression corpus of old checkpoints (the v1 files are migrated here).
CORPUS = Path(__file__).resolve().parents[3] / "tests" / "corpus" / "checkpoints"

#: v1 records the learner has not seen: every step index, several citations, a document ID
#: with an ``@`` in it (the version follows the *last* one), two-digit versions.
HIDDEN_V1 = (
    {
        "schema_version": 1,
        "graph_version": "answer-email/1",
        "tenant": "globex",
        "task_id": "g-17",
        "status": "running",
        "step": 1,
        "query": "Is there a warranty on the blender?",
        "recipient": "bo@example.com",
        "evidence": ["kb/warranty@12", "team@globex/faq@3", "kb/returns@1"],
        "draft": None,
        "sent": [],
    },
    {
        "schema_version": 1,
        "graph_version": "answer-email/1",
        "tenant": "initech",
        "task_id": "i-2",
        "status": "completed",
        "step": 3,
        "query": "Refunds?",
        "recipient": "ops@initech.example",
        "evidence": ["kb/returns@3"],
        "draft": "Refunds are paid within 5 business days.",
        "sent": ["i-2:answer-email", "i-2:copy-to-manager"],
    },
    {
        "schema_version": 1,
        "graph_version": "answer-email/1",
        "tenant": "acme",
        "task_id": "a-9",
        "status": "running",
        "step": 2,
        "query": "Shipping to Malta?",
        "recipient": "dee@example.com",
        "evidence": [],
        "draft": "No evidence found.",
        "sent": [],
    },
)


# --------------------------------------------------------------------------- helpers --------


def _first_difference(answer: Any, truth: Any, path: str = "") -> str:
    """Where two JSON values first differ, as a readable path (``evidence[1].version``)."""
    if isinstance(truth, dict) and isinstance(answer, dict):
        for key in truth:
            if key not in answer:
                return f"field {path + key!r} is missing"
            if answer[key] != truth[key]:
                return _first_difference(answer[key], truth[key], f"{path}{key}.")
        extra = [k for k in answer if k not in truth]
        return f"field {path + str(extra[0])!r} should not be there" if extra else ""
    if isinstance(truth, list) and isinstance(answer, list) and len(answer) == len(truth):
        for i, (a, t) in enumerate(zip(answer, truth, strict=True)):
            if a != t:
                return _first_difference(a, t, f"{path[:-1]}[{i}].")
        return ""
    where = path[:-1] or "the result"
    return f"{where} is {answer!r}, expected {truth!r}"


def _corpus_v1() -> list[tuple[str, dict]]:
    files = sorted(CORPUS.glob("v1_*.json"))
    if not files:
        raise RuntimeError(f"no v1 checkpoints in {CORPUS}")
    return [(f.name, json.loads(f.read_text())) for f in files]


# --------------------------------------------------------------------------- pure-migration -


def pure_migration(s: Student, t: Tally) -> None:
    migrate = s.function("migrate_v1_to_v2")

    def same_as_reference(name: str, v1: dict) -> dict:
        answer = migrate(v1)
        require(
            isinstance(answer, dict),
            f"migrate_v1_to_v2() returned {kind_of(answer)}, expected a dict",
        )
        truth = migrate_v1_to_v2(v1)
        require(answer == truth, f"on {name}: {_first_difference(answer, truth)}")
        return answer

    @t.part
    def the_corpus():
        for name, v1 in _corpus_v1():
            same_as_reference(name, v1)

    @t.part
    def the_input_is_never_changed():
        for name, v1 in [*_corpus_v1(), *((r["task_id"], r) for r in HIDDEN_V1)]:
            result, (after,) = migrate.echo(copy.deepcopy(v1))
            require(
                isinstance(result, dict) and result.get("schema_version") == 2,
                f"on {name} migrate_v1_to_v2() returned {kind_of(result)} without schema_version 2",
            )
            require(
                after == v1,
                f"migrate_v1_to_v2() changed its input ({name}): "
                f"{_first_difference(after, v1)}; a migration must be pure",
            )

    @t.part
    def every_step_index():
        for index in range(4):
            v1 = {**HIDDEN_V1[0], "step": index, "task_id": f"g-step-{index}"}
            same_as_reference(f"a v1 record with step {index}", v1)

    @t.part
    def every_citation():
        for v1 in HIDDEN_V1:
            same_as_reference(
                f"the v1 record of task {v1['task_id']} (evidence {v1['evidence']})", v1
            )

    @t.part
    def a_valid_v2_that_loads_like_the_original():
        for name, v1 in [*_corpus_v1(), *((r["task_id"], r) for r in HIDDEN_V1)]:
            answer = migrate(v1)
            try:
                validate(answer)
                loaded = load(answer).checkpoint
            except CheckpointError as exc:
                raise Fail(f"on {name} the result is not a valid v2 checkpoint: {exc}") from None
            require(answer.get("schema_version") == 2, f"on {name} schema_version must be 2")
            expected = load(v1).checkpoint
            require(
                loaded.to_dict() | {"original": None} == expected.to_dict() | {"original": None},
                f"on {name} today's loader reads your v2 record differently from the v1 one",
            )


# --------------------------------------------------------------------------- resume-guard ---

#: Graph positions of a checkpoint, in order.
POSITIONS = ("retrieve", "draft", "send", "done")


def checkpoints_at() -> dict[tuple[str, str], dict]:
    """A checkpoint dict for every example task at every graph position, written by running
    the agent in the unchanged example world."""
    world = example_world()
    ledger = MemoryLedger(clock=lambda: 0.0)
    out = {}
    for task, (tenant, goal) in example_goals().items():
        world.approve(task, "manager")
        ledger.submit(task, tenant=tenant, goal=goal)
        lease = ledger.claim(task, "grader", ttl=60)
        out[(task, "retrieve")] = new_checkpoint(task, tenant, goal).to_dict()
        for position in POSITIONS[1:]:
            report = run_step(ledger, lease, world)
            if report.action not in ("advanced", "completed"):
                raise RuntimeError(f"{task}: {report.action} {report.reasons}")
            out[(task, position)] = report.checkpoint.to_dict()
            lease = report.lease
    return out


def reference_codes(checkpoint: dict, world: dict) -> list[str]:
    """The kit's guard as distinct stop codes, sorted."""
    verdict = reference_guard(Checkpoint.from_dict(checkpoint), World.from_dict(world))
    return sorted(set(verdict.codes))


def _first_cited(cp: dict, source: str = "retrieval") -> str | None:
    return next((e["doc_id"] for e in cp["evidence"] if e["source"] == source), None)


def _needed(cp: dict) -> str | None:
    """A tool the checkpoint's next step needs (None when done)."""
    return {"retrieve": "search", "draft": "model", "send": "email"}.get(cp["next_step"])


def _on_world(change: Callable[[World, dict], Any]) -> Callable[[dict, dict], dict]:
    """A change written against :class:`World`, applied to a world dict (a new dict)."""

    def apply(world: dict, cp: dict) -> dict:
        w = World.from_dict(world)
        change(w, cp)
        return w.to_dict()

    return apply


def _regrant(
    *, lose_collection: str | None = None, lose_tool: Callable[[dict], str | None] = lambda cp: None
) -> Callable[[dict, dict], dict]:
    """Give the checkpoint's tenant a new grant version without one collection or one tool."""

    def change(world: World, cp: dict) -> None:
        old = world.grant_for(cp["tenant"])
        if old is None or old.revoked:  # nothing left to lose
            return
        world.grant(
            cp["tenant"], set(old.collections) - {lose_collection}, set(old.tools) - {lose_tool(cp)}
        )

    return _on_world(change)


def _drop_grant(world: dict, cp: dict) -> dict:
    return {**world, "grants": [g for g in world["grants"] if g["tenant"] != cp["tenant"]]}


def _always(cp: dict) -> bool:  # noqa: ARG001 - every checkpoint
    return True


#: Ways the world changes under a paused task: name -> (applies to this checkpoint?, change).
#: A change maps a world dict to a new world dict; changes compose one after the other.
CHANGES: dict[str, tuple[Callable[[dict], bool], Callable[[dict, dict], dict]]] = {
    "the tenant's permission was revoked": (
        _always,
        _on_world(lambda w, cp: w.revoke(cp["tenant"])),
    ),
    "the tenant has no grant at all": (_always, _drop_grant),
    "a cited document was edited": (
        lambda cp: _first_cited(cp) is not None,
        _on_world(lambda w, cp: w.publish(_first_cited(cp), "Edited.")),
    ),
    "the cited stock figure changed": (
        lambda cp: _first_cited(cp, "inventory-api") is not None,
        _on_world(lambda w, cp: w.set_stock(_first_cited(cp, "inventory-api"), 3)),
    ),
    "a cited document was withdrawn": (
        lambda cp: _first_cited(cp) is not None,
        _on_world(lambda w, cp: w.withdraw(_first_cited(cp))),
    ),
    "the tenant may no longer read internal documents": (
        _always,
        _regrant(lose_collection="acme-internal"),
    ),
    "the tenant lost the inventory tool": (_always, _regrant(lose_tool=lambda cp: "inventory")),
    "the next step's tool is no longer deployed": (
        lambda cp: _needed(cp) is not None,
        _on_world(lambda w, cp: w.remove_tool(_needed(cp))),
    ),
    "the next step's tool is no longer granted": (
        lambda cp: _needed(cp) is not None,
        _regrant(lose_tool=_needed),
    ),
}


def resume_guard_check(s: Student, t: Tally) -> None:
    guard = s.function("resume_guard")
    checkpoints = checkpoints_at()
    unchanged = example_world().to_dict()

    def agrees(cp: dict, world: dict, what: str) -> None:
        answer = guard(copy.deepcopy(cp), copy.deepcopy(world))
        require(
            isinstance(answer, list),
            f"resume_guard() returned {kind_of(answer)}, expected a list of stop codes",
        )
        require(
            all(isinstance(code, str) for code in answer),
            "resume_guard() must return stop codes (strings)",
        )
        require(
            len(answer) == len(set(answer)),
            f"{what}: resume_guard() returned {answer}; list each code once",
        )
        truth = reference_codes(cp, world)
        require(
            sorted(answer) == truth,
            f"{what}: resume_guard() returned {sorted(answer)}, expected {truth}",
        )

    def under(*changes: str, positions: tuple[str, ...] = POSITIONS) -> None:
        for (task, position), cp in checkpoints.items():
            if position not in positions or not all(CHANGES[c][0](cp) for c in changes):
                continue
            world = unchanged
            for change in changes:
                world = CHANGES[change][1](world, cp)
            agrees(cp, world, f"{' and '.join(changes)}, task {task} at {position!r}")

    @t.part
    def unchanged_passes_and_revoked_stops():
        under()
        under("the tenant's permission was revoked")

    @t.part
    def other_losses_of_permission():
        under("the tenant has no grant at all")
        under("the next step's tool is no longer granted")

    @t.part
    def cited_versions_changed():
        under("a cited document was edited")
        under("the cited stock figure changed")

    @t.part
    def documents_missing_or_forbidden():
        under("a cited document was withdrawn")
        under("the tenant may no longer read internal documents")
        under("the tenant lost the inventory tool")

    @t.part
    def tools_no_longer_deployed():
        under("the next step's tool is no longer deployed")

    @t.part
    def several_changes_at_once():
        names = list(CHANGES)
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                under(first, second, positions=("draft", "send"))


# --------------------------------------------------------------------------- cache-key ------

#: A script is a list of steps: ("search", tenant, query[, narrowed collections]),
#: ("publish", doc_id, text, collection or None) or ("grant", tenant, collections).
Script = list[tuple]


def _replay(script: Script, retriever_for: Callable[[Any], Any]) -> list[list[str]]:
    """Replay ``script`` on a fresh example world; ``retriever_for(world)`` gives the retriever
    each search uses. Returns each search's evidence refs."""
    world = example_world()
    retriever = retriever_for(world)
    results = []
    for step in script:
        if step[0] == "publish":
            world.publish(step[1], step[2], step[3])
        elif step[0] == "grant":
            world.grant(step[1], step[2])
        else:
            grant = world.grant_for(step[1])
            if len(step) > 3:
                grant = grant.narrow(collections=step[3])
            searcher = retriever if retriever is not None else Retriever(world)
            results.append([str(e.ref) for e in searcher.search(grant, step[2])])
    return results


def _run(script: Script, key: Callable[..., Any]) -> tuple[list[list[str]], tuple[int, ...]]:
    """Replay ``script`` with a cached retriever using ``key``; return each search's refs and
    the cache counters (hits, misses, rejected)."""
    cache = RetrievalCache()
    results = _replay(script, lambda world: Retriever(world, cache, key=key))
    return results, (cache.hits, cache.misses, cache.rejected)


def _truth(script: Script) -> list[list[str]]:
    """What an uncached retriever, built fresh for each search, finds at each moment."""
    return _replay(script, lambda world: None)


def _describe(step: tuple) -> str:
    if step[0] == "search":
        scope = f" (a sub-agent reading only {sorted(step[3])})" if len(step) > 3 else ""
        return f"search by {step[1]}{scope} for {step[2]!r}"
    if step[0] == "publish":
        return f"publish {step[1]}"
    return f"grant {step[1]} {sorted(step[2])}"


def cache_key_check(s: Student, t: Tally) -> None:
    student = s.function("cache_key")

    def key(tenant: str, permission_version: str, index_version: int, query: str) -> Any:
        value = student(tenant, permission_version, index_version, query)
        try:
            hash(value)
        except TypeError:
            raise Fail(
                f"cache_key() returned {kind_of(value)}, which cannot be a dict key; return a tuple"
            ) from None
        return value

    def replay(script: Script, why: str) -> None:
        answer, counters = _run(script, key)
        truth = _truth(script)
        searches = [step for step in script if step[0] == "search"]
        for step, got, want in zip(searches, answer, truth, strict=True):
            require(
                got == want,
                f"{_describe(step)} returned {got}, but the documents it may "
                f"read now give {want}: {why}",
            )
        _, expected = _run(script, cache_key)
        names = ("hits", "misses", "entries thrown away by re-verification")
        for name, got, want in zip(names, counters, expected, strict=True):
            require(
                got == want,
                f"after {', then '.join(_describe(x) for x in script)}: the "
                f"cache counted {got} {name}, expected {want}: {why}",
            )

    ship = "How fast do orders ship?"

    @t.part
    def the_same_question_hits():
        first = key("acme", "v1:public", 1, ship)
        require(
            first == key("acme", "v1:public", 1, ship),
            "cache_key() gave two different keys for the same arguments",
        )
        replay(
            [
                ("search", "acme", ship),
                ("search", "acme", ship),
                ("search", "acme", "how fast   do ORDERS ship"),
                ("search", "acme", "Is there a warranty on the blender?"),
            ],
            "the same question (up to case, spaces and punctuation) must share one entry, "
            "another question must not; normalize the query",
        )

    @t.part
    def tenants_never_share():
        replay(
            [
                ("grant", "initech", ["public"]),
                ("search", "globex", ship),
                ("search", "initech", ship),
                ("search", "globex", ship),
            ],
            "two tenants must never share an entry, even with the same permissions",
        )

    @t.part
    def an_edited_document_is_not_looked_up_in_an_old_entry():
        replay(
            [
                ("search", "acme", ship),
                ("publish", "kb/shipping", "Orders ship within 5 days.", None),
                ("search", "acme", ship),
                ("search", "acme", ship),
            ],
            "after a document changes, the index version changes, and so must the key",
        )

    @t.part
    def a_new_document_is_found():
        replay(
            [
                ("search", "globex", ship),
                ("publish", "kb/express", "Express orders ship the same day.", "public"),
                ("search", "globex", ship),
            ],
            "a new document changes the answer: the key must include the index version",
        )

    @t.part
    def a_permission_change_is_seen():
        replay(
            [
                (
                    "publish",
                    "globex/warranty-plus",
                    "Globex blenders have a three year warranty.",
                    "globex-internal",
                ),
                ("search", "globex", "Is there a warranty on the blender?"),
                ("grant", "globex", ["public", "globex-internal"]),
                ("search", "globex", "Is there a warranty on the blender?"),
            ],
            "a changed grant changes the answer: the key must include the permission version",
        )
        replay(
            [
                ("search", "acme", "return a blender within days"),
                ("search", "acme", "return a blender within days", ["public"]),
            ],
            "a sub-agent with a narrower grant must not share the wider grant's entry: the "
            "key must include the permission version",
        )


EXERCISE = Exercise(
    id="checkpoints",
    notebook="04_checkpoints_and_resume.ipynb",
    title="Checkpoints that survive upgrades: migrate, guard, cache",
    questions=(
        Question(
            "pure-migration",
            "A pure migration from v1 to v2",
            5,
            ("migrate_v1_to_v2",),
            pure_migration,
        ),
        Question("resume-guard", "The resume guard", 6, ("resume_guard",), resume_guard_check),
        Question("cache-key", "A permission-aware cache key", 5, ("cache_key",), cache_key_check),
    ),
)
