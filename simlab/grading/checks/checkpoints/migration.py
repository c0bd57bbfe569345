"""Question ``pure-migration``: the learner's ``migrate_v1_to_v2`` on every v1 file of the
regression corpus (:data:`CORPUS`, package data of this folder) and on hidden v1 records, against
:func:`simlab.agent.checkpoint.migrate_v1_to_v2`. The input must come back unchanged, and the
result must be a valid v2 record that today's loader turns into the same latest checkpoint."""

from __future__ import annotations

import functools
import json
import unicodedata
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from simlab.agent.checkpoint import CheckpointError, load, migrate_v1_to_v2, validate
from simlab.grading.checks.checkpoints.generated import tell_v1, v1_checkpoints
from simlab.grading.checks.checkpoints.messages import say
from simlab.grading.checks.checkpoints.purity import Migration, shares_nothing
from simlab.grading.checks.hidden_world import decomposed, fullwidth, rng
from simlab.grading.messages import Message
from simlab.grading.properties import Story, screened
from simlab.grading.questions import Criterion, Fail, Tally, require
from simlab.grading.sandbox.supervisor import RemoteError, SandboxLost
from simlab.grading.student import Student, kind_of, shown_value
from simlab.grading.text import plain

__all__ = [
    "CORPUS",
    "HIDDEN_V1",
    "HIDDEN_WORDS",
    "MIGRATION_RUBRIC",
    "drawn_v1",
    "pure_migration",
]

#: The regression corpus of old checkpoints (the v1 files are migrated here): package data of
#: this folder, so an installed kit grades with it as a checkout does (it ships in the wheel).
CORPUS = Path(str(files(__package__) / "corpus"))

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

#: Records played first by the generated properties, whatever the draw: a citation repeated
#: and sent keys out of order (the contents an in-place dedup or sort changes).
_ODD = (
    {
        **HIDDEN_V1[0],
        "task_id": "g-repeat",
        "evidence": [*HIDDEN_V1[0]["evidence"], "kb/returns@1"],
    },
    {**HIDDEN_V1[0], "task_id": "g-unsorted", "sent": ["t:reminder", "t:answer-email"]},
)
#: What the records of a world of the grader's own are drawn from (:func:`drawn_v1`).
_TENANTS = ("umbrella", "hooli", "vandelay", "wonka", "tyrell", "soylent", "initrode")
_TASKS = ("refund-query", "order-status", "repair-ask", "late-parcel", "price-check")
_DOCS = ("handbook/refunds", "faq@eu/parcels", "ops/repairs", "notes@2024/kettles", "kb/mixers")
#: Document IDs holding a composed accent: decomposed, each is another ID that NFC (and NFKC)
#: composes again.
_ACCENTED = ("kb/café-menu", "notes/crème@eu", "faq/señal")
_QUERIES = ("Can I return 2 blenders within 30 days?", "Is the kettle repaired for free?")
_RECIPIENTS = ("dana@example.org", "Eli <eli@example.org>")
_DRAFTS = ("Kettles are repaired for free.", "")
_KEYS = ("answer-email", "copy-to-manager", "reminder")


def _full_first(doc: str) -> str:
    """``doc`` with its first character full-width (``ｋb/mixers``)."""
    return fullwidth(doc[:1]) + doc[1:]


def drawn_v1(count: int = 6) -> list[dict]:
    """The v1 records of this grading's world, drawn from
    :func:`~simlab.grading.checks.hidden_world.rng`: every step index at least once, either
    status, drawn tenants, task IDs, queries and recipients, one to three citations at drawn
    versions (document IDs holding ``@``, a version with a leading zero, in three records a
    document ID with white space before or after it, and in two a document ID in another
    Unicode form: one with a full-width first character, one with a decomposed accent), an empty
    or missing draft, sent keys out of order or repeated. No answer can hold their migrations in
    a table."""
    r = rng("checkpoints/pure-migration")
    steps = [0, 1, 2, 3]
    steps += [r.randrange(4) for _ in range(count - len(steps))]
    r.shuffle(steps)
    records = []
    for step in steps:
        task = f"{r.choice(_TASKS)}-{r.randint(100, 999)}"
        evidence = [
            f"{r.choice(_DOCS)}@{r.choice(('', '', '0'))}{r.randint(2, 120)}"
            for _ in range(r.randint(1, 3) if step else 0)
        ]
        sent = [f"{task}:{k}" for k in r.sample(_KEYS, r.randint(0, 2))] if step == 3 else []
        if sent and r.random() < 0.3:
            sent.append(sent[0])
        records.append(
            {
                "schema_version": 1,
                "graph_version": "answer-email/1",
                "tenant": r.choice(_TENANTS),
                "task_id": task,
                "status": r.choice(("running", "completed")),
                "step": step,
                "query": r.choice(_QUERIES),
                "recipient": r.choice(_RECIPIENTS),
                "evidence": evidence,
                "draft": r.choice(_DRAFTS) if step >= 2 else None,
                "sent": sent,
            }
        )
    # Document IDs with white space around them, in every world: an ID is kept as written, so
    # a migration that tidies it (strips it) cites another document.
    cited = [record for record in records if record["evidence"]]
    for record, spaced in zip(cited, (" {}@{}", "{} @{}", "\t{}  @{}"), strict=False):
        record["evidence"].append(spaced.format(r.choice(_DOCS), r.randint(2, 120)))
    # Document IDs in another Unicode form (NFKC folds a full-width character back, NFC and
    # NFKC compose a decomposed accent): another document, kept as written like any ID.
    other_forms = (_full_first(r.choice(_DOCS)), decomposed(r.choice(_ACCENTED)))
    for record, doc in zip(reversed(cited), other_forms, strict=False):
        record["evidence"].append(f"{doc}@{r.randint(2, 120)}")
    return records


#: The hidden records' own values (not the schema's words), and what the records of a world of
#: the grader's own are drawn from: feedback never quotes them.
HIDDEN_WORDS = (
    frozenset(
        value
        for record in HIDDEN_V1
        for key in ("tenant", "task_id", "query", "recipient", "draft", "evidence", "sent")
        for value in (record[key] if isinstance(record[key], list) else [record[key]])
        if isinstance(value, str)
    )
    | frozenset(
        (*_TENANTS, *_TASKS, *_DOCS, *_ACCENTED, *_QUERIES, *_RECIPIENTS, *filter(None, _DRAFTS))
    )
    | frozenset((*map(_full_first, _DOCS), *map(decomposed, _ACCENTED)))
)


def _first_difference(answer: Any, truth: Any, path: str = "") -> Message | None:
    """Where two JSON values first differ, as a readable path (``evidence[1].version``); None
    where they do not."""
    if isinstance(truth, dict) and isinstance(answer, dict):
        for key in truth:
            if key not in answer:
                return say("field_missing", field=repr(path + key))
            if answer[key] != truth[key]:
                return _first_difference(answer[key], truth[key], f"{path}{key}.")
        extra = [k for k in answer if k not in truth]
        if not extra:
            return None
        name = extra[0]  # the learner's key: shown only through the filter of messages
        shown = (
            repr(path + name) if isinstance(name, str) and plain(name, 40) else shown_value(name)
        )
        return say("field_extra", field=shown)
    if isinstance(truth, list) and isinstance(answer, list) and len(answer) == len(truth):
        for i, (a, t) in enumerate(zip(answer, truth, strict=True)):
            if a != t:
                return _first_difference(a, t, f"{path[:-1]}[{i}].")
        return None
    if not path:
        return say("result_differs", got=shown_value(answer))
    return _leaf_difference(answer, truth, path[:-1])


#: The JSON kinds a migrated field may hold, by the catalog key that names them.
_KINDS = {str: "kind_str", int: "kind_int", list: "kind_list", dict: "kind_dict"}


def _kind(value: Any) -> str | None:
    if value is None:
        return "kind_null"
    if isinstance(value, bool):
        return "kind_bool"
    return _KINDS.get(type(value))


def _leaf_difference(answer: Any, truth: Any, where: str) -> Message:
    """What is wrong with the learner's value at ``where``, by a property of it: its kind, a
    document ID cut at an @ it holds or stripped of the white space around it, too many or too
    few items, a string in other capitals, another Unicode form or with other text. Never the
    kit's value (it comes from a hidden record), and nothing a learner could narrow a hidden
    value down with over several gradings (no prefix, no higher or lower)."""
    want, got = _kind(truth), _kind(answer)
    if want is not None and want != got:
        return say("differs_kind", where=where, want=say(want), got=shown_value(answer))
    if (
        where.endswith("doc_id")
        and isinstance(truth, str)
        and isinstance(answer, str)
        and truth.startswith(answer + "@")
    ):
        return say("cut_at_at", where=where)
    if (
        where.endswith("doc_id")
        and isinstance(truth, str)
        and isinstance(answer, str)
        and truth != answer
        and truth.strip() == answer.strip()
    ):
        return say("trimmed", where=where)
    if want == "kind_list" and got == "kind_list" and len(answer) != len(truth):
        return say("more_items" if len(answer) > len(truth) else "fewer_items", where=where)
    if want == got == "kind_str":
        return _text_difference(answer, truth, where)
    return say("differs", where=where, got=shown_value(answer))


def _text_difference(answer: str, truth: str, where: str) -> Message:
    """How the learner's string at ``where`` differs from the kit's, by the same text in other
    capitals or another Unicode form (full-width, composed or decomposed characters), or other
    text; the learner's string is shown only where the filter of messages shows it as itself
    (never a type alone, which tells nothing: both are strings)."""
    if unicodedata.normalize("NFKC", answer) == unicodedata.normalize("NFKC", truth):
        return say("differs_form", where=where)
    if answer.casefold() == truth.casefold():
        return say("differs_case", where=where)
    shown = shown_value(answer)
    if shown == repr(answer):
        return say("differs_text_shown", where=where, got=shown)
    return say("differs_text", where=where)


def _difference(answer: Any, truth: Any) -> Message:
    """Where ``answer`` first differs from ``truth`` (the whole result when no field does)."""
    return _first_difference(answer, truth) or say("result_differs", got=shown_value(answer))


def _corpus_v1() -> list[tuple[str, dict]]:
    files = sorted(CORPUS.glob("v1_*.json"))
    if not files:
        raise RuntimeError(f"no v1 checkpoints in {CORPUS}")
    return [(f.name, json.loads(f.read_text())) for f in files]


def _same_as_reference(migrate: Any, name: Message, v1: dict) -> dict:
    answer = migrate(v1)
    require(isinstance(answer, dict), say("not_a_dict", kind=kind_of(answer)))
    truth = migrate_v1_to_v2(v1)
    if answer != truth:  # the sentence is built only for a failure: most answers agree
        raise Fail(say("on", what=name, why=_difference(answer, truth)))
    return answer


def _labelled() -> list[tuple[Message, dict]]:
    """Every v1 input with the label feedback may show (never a file name or a hidden value):
    the corpus, the hidden records and those of this grading's world."""
    return [
        *((say("corpus_record"), v1) for _, v1 in _corpus_v1()),
        *((say("hidden_record"), r) for r in HIDDEN_V1),
        *((say("world_record"), r) for r in drawn_v1()),
    ]


#: Generated v1 records per property (each costs one call into the sandbox, and the purity
#: property one more; the three properties share the learner's answers).
EXAMPLES = 20
#: The fields of a v1 and a v2 record: feedback names a field only when it is one of these.
_FIELDS = frozenset(migrate_v1_to_v2(HIDDEN_V1[0])) | frozenset(HIDDEN_V1[0])


def _field(name: Any) -> str | Message:
    return repr(name) if name in _FIELDS else say("a_field")


def _unchanged(after: Any, before: dict) -> bool:
    """Is the input as it was before the call (``before``), the order of its fields too? A
    field taken out and put back leaves an equal dict whose fields come in another order: the
    record reads, and would be stored, otherwise."""
    return after == before and list(after) == list(before)


def _changed(after: Any, before: dict) -> Message:
    """Which field of the input the learner's call changed (``before`` is the grader's own
    deep copy, taken before the call)."""
    if not isinstance(after, dict):
        return say("replaced_input")
    for key in before:
        if key not in after:
            return say("removed_field", field=_field(key))
        if after[key] != before[key]:
            return say("changed_field", field=_field(key))
    if len(after) == len(before):
        return say("reordered_fields")
    return say("added_field")


def _loaded(v1: dict) -> dict:
    """What today's loader reads from the v1 record ``v1``, as a dict without its original
    (the reference every migration is compared with; made once per record and process)."""
    return _loaded_text(json.dumps(v1, sort_keys=True))


@lru_cache(maxsize=4096)
def _loaded_text(text: str) -> dict:
    return load(json.loads(text)).checkpoint.to_dict() | {"original": None}


def _stays_pure(answers: Migration) -> Any:
    def holds(v1: dict, story: Story) -> None:
        tell_v1(v1, story)
        try:
            _, after = answers.answer(v1)
        except SandboxLost:
            raise
        except RemoteError as exc:
            if exc.type == "NotImplementedError":
                raise  # a stub is not attempted, never pure
            return  # a record it cannot migrate is judged by the other properties
        except Exception:
            return
        if not _unchanged(after, v1):
            raise Fail(_changed(after, v1))
        shared = answers.shared_with_input(v1)
        if shared:
            named = {_field(name) for name in shared}
            names = tuple(sorted(named, key=str))
            raise Fail(say("shares", fields=names))

    return holds


def _matches(answers: Migration) -> Any:
    def holds(v1: dict, story: Story) -> None:
        tell_v1(v1, story)
        answer, _ = answers.answer(v1)
        require(isinstance(answer, dict), say("not_a_dict", kind=kind_of(answer)))
        truth = migrate_v1_to_v2(v1)
        if answer != truth:
            raise Fail(_difference(answer, truth))

    return holds


def _loads_alike(answers: Migration) -> Any:
    def holds(v1: dict, story: Story) -> None:
        tell_v1(v1, story)
        answer, _ = answers.answer(v1)
        try:
            loaded = load(answer).checkpoint
        except CheckpointError as exc:
            if exc.field and plain(exc.field, 40):
                raise Fail(say("invalid_field", field=repr(exc.field))) from None
            raise Fail(say("invalid")) from None
        require(loaded.to_dict() | {"original": None} == _loaded(v1), say("loads_otherwise"))

    return holds


#: The rubric of ``pure-migration``: a migration is a pure function of its input.
MIGRATION_RUBRIC = (
    Criterion(
        "pure",
        3,
        "The migration never changes its input (not even the order of its fields) and its "
        "result shares no list or dict with it (changing the input afterwards leaves the result "
        "as it was), nor with another result, however deep inside (each call returns new lists "
        "and dicts, the citations' too), on every v1 record: the "
        "corpus, hidden records and generated ones with odd but valid contents (repeated or "
        "unsorted keys, repeated citations).",
        core=True,
        mistakes=(
            "changes the input in place",
            "takes fields out of the input and puts them back (their order changes)",
            "the result shares `sent` with the input",
            "one module-level dict in every result",
            "parsed citations kept in a module-level cache, so two results share them",
        ),
        properties=(
            "On generated v1 records of every step index and status (a repeated citation and "
            "unsorted sent keys first), the input is as it was after your call (its fields in "
            "their order), and your result shares no list or dict with it.",
        ),
        text=(
            "**Pure** means: return a new dict and never change `v1`, not even a list inside it "
            "(the result must not share `sent` with the input, or a later change to one would "
            "change the other).",
            "Two results never share a list or a dict either, however deep inside them: a later "
            "step changes a task's checkpoint in place.",
        ),
        world=(
            "Six v1 records drawn for each grading (every step index, drawn tenants, task IDs, "
            "citations at drawn versions, sent keys out of order or repeated) are migrated and "
            "their inputs compared with the grader's copies, fields and their order, and each "
            "migrated twice to see that the two results share nothing at any depth, so no "
            "answer can be pure only on records it knows."
        ),
    ),
    Criterion(
        "matches",
        1,
        "The result equals the kit's migration on the regression corpus, on hidden records "
        "(document IDs with white space around them or in another Unicode form among them) and "
        "on generated ones (every step index with either status, several citations, document "
        "IDs holding @, versions with leading zeros, an empty or a None draft, repeated sent "
        "keys).",
        mistakes=(
            "strips the white space around a document ID",
            "rewrites a document ID in another Unicode form (NFC, NFKC: full-width or decomposed "
            "characters)",
        ),
        properties=("On the same generated v1 records, your result equals the kit's migration.",),
        text=(
            '`next_step` is `V1_STEPS[v1["step"]]` (step 3 means `"done"`);',
            "`query` and `recipient` move into `goal`;",
            'each evidence string `"doc_id@version"` becomes `{"doc_id": ..., "version": int}`.',
            "A document ID may itself contain `@`: the version is what follows the **last** `@`;",
            "the ID is kept exactly as written, white space included;",
            '`approval` is always `{"required": False, "approved": False, "by": None}`',
            "`schema_version` becomes 2; `graph_version`, `tenant`, `task_id`, `status`, "
            "`draft` and `sent` keep their values.",
            'A task that has not drafted yet stores `"draft": None`.',
        ),
        world=(
            "The same drawn v1 records must migrate to exactly the kit's result (three of them "
            "cite a document ID with white space before or after it, one a document ID with a "
            "full-width first character and one a document ID with a decomposed accent): a "
            "table of the results of the notebook's example, the corpus and the check's fixed "
            "records, or a migration that strips document IDs or normalises their Unicode form, "
            "gets nothing there."
        ),
    ),
    Criterion(
        "loads",
        1,
        "The result is a valid v2 record that today's loader reads like the v1 original.",
        properties=(
            "On the same generated v1 records, today's loader reads your result as the same "
            "checkpoint as the v1 original.",
        ),
        text=(
            "today's code must read them with their *old* meaning, without changing the "
            "stored original.",
        ),
        world="Today's loader reads the drawn v1 records' migrations like the originals.",
    ),
)


def pure_migration(s: Student, t: Tally) -> None:
    """Parts filed under :data:`MIGRATION_RUBRIC`; the feedback names a corpus file or a hidden
    record only as such, and shows the learner's value, never the expected one."""
    migrate = answers = Migration(s)
    generated = v1_checkpoints()
    t.under("matches")

    @t.part
    def the_corpus():
        for _, v1 in _corpus_v1():
            _same_as_reference(migrate, say("corpus_record"), v1)

    t.under("pure")

    @t.part
    def the_input_is_never_changed():
        errors = []
        labelled = _labelled()
        for name, v1 in labelled:
            try:
                result, (after,) = migrate.echo(v1)
            except Exception as exc:  # an input it cannot migrate is judged elsewhere
                errors.append(exc)
                continue
            require(
                isinstance(result, dict) and result.get("schema_version") == 2,
                say("no_schema_2", what=name, kind=kind_of(result)),
            )
            if not _unchanged(after, v1):
                why = _difference(after, v1) if after != v1 else say("reordered")
                raise Fail(say("changed_input", what=name, why=why))
        if len(errors) == len(labelled):
            raise errors[0]

    @t.part
    def generated_records_stay_unchanged():
        screened("checkpoints/v1", generated, _stays_pure(answers), examples=EXAMPLES, first=_ODD)

    t.under("matches")

    @t.part
    def every_step_index():
        for index in range(4):
            v1 = {**HIDDEN_V1[0], "step": index, "task_id": f"g-step-{index}"}
            _same_as_reference(migrate, say("hidden_record"), v1)

    @t.part
    def every_citation():
        for v1 in HIDDEN_V1:
            _same_as_reference(migrate, say("hidden_citations"), v1)

    @t.part
    def the_records_of_a_world_of_its_own():
        for v1 in drawn_v1():
            _same_as_reference(migrate, say("world_record"), v1)

    @t.part
    def generated_records_match():
        screened("checkpoints/v1", generated, _matches(answers), examples=EXAMPLES, first=_ODD)

    t.under("pure")

    # With the input, then between two results: the probes run where the objects live.
    records = _labelled()
    t.part(functools.partial(shares_nothing, records, migrate.shared_with_input, "shares_on"))
    between = migrate.shared_between_results
    t.part(functools.partial(shares_nothing, records, between, "shared_results_on"))

    t.under("loads")

    @t.part
    def a_valid_v2_that_loads_like_the_original():
        for name, v1 in _labelled():
            answer = migrate(v1)
            try:
                validate(answer)
                loaded = load(answer).checkpoint
            except CheckpointError as exc:
                raise Fail(say("invalid_on", what=name, why=str(exc))) from None
            require(answer.get("schema_version") == 2, say("schema_on", what=name))
            require(
                loaded.to_dict() | {"original": None} == _loaded(v1),
                say("loads_otherwise_on", what=name),
            )

    @t.part
    def generated_records_load_alike():
        screened("checkpoints/v1", generated, _loads_alike(answers), examples=EXAMPLES)
