"""The layout of every checkpoint version, and the pure migrations between them.

:mod:`simlab.agent.checkpoint` is the front door (the record, ``load`` and ``migrate``); this module
holds what each stored version *means*. Two rules keep old checkpoints safe:

* **Each version is checked against its own layout** (:func:`validate`), never against the
  latest one: a v1 ``step`` is a graph index, not a ledger step, and only the v1 layout says so.
* **A migration is a pure function** from one valid version to the next. It builds a new dict
  and never changes its input; once released it never changes, because stored checkpoints
  written by the old code will still be around.

Adding version 4: write its layout and extra checks, write ``migrate_v3_to_v4`` (pure), register
both, bump :data:`LATEST_VERSION`, and add v3 files to the regression corpus.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = [
    "CheckpointError",
    "LATEST_VERSION",
    "CHECKPOINT_STATUSES",
    "EFFECT_STATUSES",
    "APPROVAL_STATUSES",
    "EVIDENCE_SOURCES",
    "MIGRATIONS",
    "migrate_v1_to_v2",
    "migrate_v2_to_v3",
    "validate",
]

LATEST_VERSION = 3

RUNNING, NEEDS_REVIEW, COMPLETED = "running", "needs_review", "completed"
CHECKPOINT_STATUSES = (RUNNING, NEEDS_REVIEW, COMPLETED)
EFFECT_STATUSES = ("pending", "sent", "unknown")
APPROVAL_STATUSES = ("not_required", "pending", "approved")
EVIDENCE_SOURCES = ("retrieval", "inventory-api")

#: The step order of graph ``answer-email/1`` as v1 records numbered it. Frozen here, apart
#: from the live graph, because a migration must keep meaning what the old writer meant.
_V1_STEPS = ("retrieve", "draft", "send", "done")
_V1_GRAPH = "answer-email/1"


class CheckpointError(ValueError):
    """A checkpoint that cannot be read safely: not JSON, malformed, unknown or newer version.

    ``field`` names the offending field (a path such as ``evidence[1].version``), or is None
    when the problem is the whole record; ``version`` is the record's schema_version if known.
    """

    def __init__(self, message: str, *, field: str | None = None, version: Any = None):
        super().__init__(message)
        self.field = field
        self.version = version


# -- the migrations: pure functions, one per version step ----------------------------------------


def migrate_v1_to_v2(v1: Mapping[str, Any]) -> dict[str, Any]:
    """v1 -> v2. Pure: builds a new dict and never changes ``v1``.

    The step *index* becomes the step *name* (using the v1 graph's own order), ``query`` and
    ``recipient`` move into ``goal``, ``"doc@3"`` strings become ``{"doc_id", "version"}``, and
    the approval v1 never had is recorded as not required (v1 graphs sent without approval).
    """
    evidence = []
    for ref in v1["evidence"]:
        doc_id, _, version = ref.rpartition("@")
        evidence.append({"doc_id": doc_id, "version": int(version)})
    return {
        "schema_version": 2,
        "graph_version": v1["graph_version"],
        "tenant": v1["tenant"],
        "task_id": v1["task_id"],
        "status": v1["status"],
        "next_step": _V1_STEPS[v1["step"]],
        "goal": {"query": v1["query"], "recipient": v1["recipient"]},
        "evidence": evidence,
        "draft": v1["draft"],
        "approval": {"required": False, "approved": False, "by": None},
        "sent": list(v1["sent"]),
    }


def migrate_v2_to_v3(v2: Mapping[str, Any]) -> dict[str, Any]:
    """v2 -> v3. Pure: builds a new dict and never changes ``v2``.

    Every v2 citation came from retrieval; v2 goals had no ``sku``; approval's two booleans
    become one status; every key in ``sent`` was really sent (v2 wrote it after the send
    returned), so it becomes ``sent``; a v2 task had no review state.
    """
    approval = v2["approval"]
    if approval["approved"]:
        status = "approved"
    elif approval["required"]:
        status = "pending"
    else:
        status = "not_required"
    return {
        "schema_version": 3,
        "graph_version": v2["graph_version"],
        "tenant": v2["tenant"],
        "task_id": v2["task_id"],
        "status": v2["status"],
        "next_step": v2["next_step"],
        "goal": {"query": v2["goal"]["query"], "recipient": v2["goal"]["recipient"], "sku": None},
        "evidence": [
            {"source": "retrieval", "doc_id": e["doc_id"], "version": e["version"]}
            for e in v2["evidence"]
        ],
        "approval": {"status": status, "by": approval["by"] if status == "approved" else None},
        "effects": {key: "sent" for key in v2["sent"]},
        "draft": v2["draft"],
        "review": [],
        "original": None,
    }


#: ``MIGRATIONS[n]`` turns a valid version-n dict into a version-(n+1) dict.
MIGRATIONS: dict[int, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    1: migrate_v1_to_v2,
    2: migrate_v2_to_v3,
}


# -- validation: one layout per version -----------------------------------------------------------


def validate(raw: Any) -> dict[str, Any]:
    """Check ``raw`` against the layout of its own ``schema_version`` and return it unchanged.

    Raises :class:`CheckpointError` naming the first offending field: missing, of the wrong
    type, with a value outside its set, or not part of that version's layout (an unexpected
    field may carry a meaning this code does not know, so it is refused, not ignored).
    """
    if not isinstance(raw, Mapping):
        raise CheckpointError(f"checkpoint must be a JSON object, got {type_name(raw)}")
    if "schema_version" not in raw:
        raise CheckpointError(
            "checkpoint field 'schema_version' is missing", field="schema_version"
        )
    version = raw["schema_version"]
    if not _is_int(version):
        raise CheckpointError(
            f"checkpoint field 'schema_version' must be an integer, got {type_name(version)}",
            field="schema_version",
        )
    if version > LATEST_VERSION:
        raise CheckpointError(
            f"checkpoint schema_version {version} is newer than this code understands "
            f"(latest {LATEST_VERSION}); refusing to read it with old field meanings",
            field="schema_version",
            version=version,
        )
    if version not in _LAYOUTS:
        raise CheckpointError(
            f"unknown checkpoint schema_version {version} (known: "
            f"{', '.join(map(str, sorted(_LAYOUTS)))})",
            field="schema_version",
            version=version,
        )
    _check_object(raw, _LAYOUTS[version], "", version)
    _EXTRA_CHECKS[version](raw, version)
    return raw  # type: ignore[return-value]


# A layout maps each field to a checker; nested objects are layouts themselves.
def _str(v: Any) -> bool:
    return isinstance(v, str) and v != ""


def _opt_str(v: Any) -> bool:
    return v is None or isinstance(v, str)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _opt_object(v: Any) -> bool:
    """null or an object"""
    return v is None or isinstance(v, Mapping)


def _one_of(*choices: str) -> Callable[[Any], bool]:
    def check(v: Any) -> bool:
        return v in choices

    check.__doc__ = "one of " + ", ".join(repr(c) for c in choices)
    return check


def _list_of(item: Any) -> tuple[str, Any]:
    return ("list", item)


def _dict_of(item: Any) -> tuple[str, Any]:
    return ("dict", item)


_DESCRIBE = {
    _str: "a non-empty string",
    _opt_str: "a string or null",
    _is_int: "an integer",
    _bool: "true or false",
}

_V1 = {
    "schema_version": _is_int,
    "graph_version": _str,
    "tenant": _str,
    "task_id": _str,
    "status": _one_of("running", "completed"),
    "step": _is_int,
    "query": _str,
    "recipient": _str,
    "evidence": _list_of(_str),
    "draft": _opt_str,
    "sent": _list_of(_str),
}
_V2 = {
    "schema_version": _is_int,
    "graph_version": _str,
    "tenant": _str,
    "task_id": _str,
    "status": _one_of("running", "completed"),
    "next_step": _str,
    "goal": {"query": _str, "recipient": _str},
    "evidence": _list_of({"doc_id": _str, "version": _is_int}),
    "draft": _opt_str,
    "approval": {"required": _bool, "approved": _bool, "by": _opt_str},
    "sent": _list_of(_str),
}
_V3 = {
    "schema_version": _is_int,
    "graph_version": _str,
    "tenant": _str,
    "task_id": _str,
    "status": _one_of(*CHECKPOINT_STATUSES),
    "next_step": _str,
    "goal": {"query": _str, "recipient": _str, "sku": _opt_str},
    "evidence": _list_of(
        {"source": _one_of(*EVIDENCE_SOURCES), "doc_id": _str, "version": _is_int}
    ),
    "approval": {"status": _one_of(*APPROVAL_STATUSES), "by": _opt_str},
    "effects": _dict_of(_one_of(*EFFECT_STATUSES)),
    "draft": _opt_str,
    "review": _list_of({"code": _str, "detail": _str}),
    "original": _opt_object,
}
_LAYOUTS: dict[int, dict[str, Any]] = {1: _V1, 2: _V2, 3: _V3}


def _fail(path: str, message: str, version: int) -> CheckpointError:
    return CheckpointError(f"checkpoint field {path!r} {message}", field=path, version=version)


def _check_object(d: Mapping[str, Any], layout: dict[str, Any], prefix: str, version: int) -> None:
    for name, check in layout.items():
        path = prefix + name
        if name not in d:
            raise _fail(path, "is missing", version)
        _check_value(d[name], check, path, version)
    for name in d:
        if name not in layout:
            raise _fail(
                prefix + str(name), f"is not part of checkpoint schema_version {version}", version
            )


def _check_value(value: Any, check: Any, path: str, version: int) -> None:
    if isinstance(check, dict):
        if not isinstance(value, Mapping):
            raise _fail(path, f"must be an object, got {type_name(value)}", version)
        _check_object(value, check, path + ".", version)
    elif isinstance(check, tuple):
        kind, item = check
        if kind == "list":
            if not isinstance(value, list):
                raise _fail(path, f"must be a list, got {type_name(value)}", version)
            for i, v in enumerate(value):
                _check_value(v, item, f"{path}[{i}]", version)
        else:
            if not isinstance(value, Mapping):
                raise _fail(path, f"must be an object, got {type_name(value)}", version)
            for k, v in value.items():
                if not _str(k):
                    raise _fail(path, f"keys must be non-empty strings, got {k!r}", version)
                _check_value(v, item, f"{path}[{k!r}]", version)
    elif not check(value):
        want = _DESCRIBE.get(check) or check.__doc__ or "valid"
        raise _fail(path, f"must be {want}, got {value!r}", version)


def _check_v1(d: Mapping[str, Any], version: int) -> None:
    if d["graph_version"] != _V1_GRAPH:
        raise _fail(
            "graph_version",
            f"of a v1 checkpoint must be {_V1_GRAPH!r} (the only "
            f"graph v1 numbered steps for), got {d['graph_version']!r}",
            version,
        )
    if not 0 <= d["step"] < len(_V1_STEPS):
        raise _fail(
            "step", f"must be a v1 step index 0..{len(_V1_STEPS) - 1}, got {d['step']!r}", version
        )
    for i, ref in enumerate(d["evidence"]):
        doc_id, at, ver = ref.rpartition("@")
        if not (at and doc_id and ver.isdigit() and int(ver) >= 1):
            raise _fail(f"evidence[{i}]", f"must look like 'doc_id@version', got {ref!r}", version)


def _check_v2(d: Mapping[str, Any], version: int) -> None:
    _check_versions(d, version)
    a = d["approval"]
    if a["by"] is not None and not a["approved"]:
        raise _fail("approval.by", "must be null unless approved is true", version)


def _check_v3(d: Mapping[str, Any], version: int) -> None:
    _check_versions(d, version)
    a = d["approval"]
    if (a["by"] is not None) != (a["status"] == "approved"):
        raise _fail(
            "approval.by", "must be set exactly when approval status is 'approved'", version
        )
    if (d["status"] == NEEDS_REVIEW) != bool(d["review"]):
        raise _fail("review", "must be non-empty exactly when status is 'needs_review'", version)


def _check_versions(d: Mapping[str, Any], version: int) -> None:
    for i, e in enumerate(d["evidence"]):
        if e["version"] < 1:
            raise _fail(
                f"evidence[{i}].version", f"must be at least 1, got {e['version']}", version
            )


_EXTRA_CHECKS = {1: _check_v1, 2: _check_v2, 3: _check_v3}


def type_name(v: Any) -> str:
    if v is None:
        return "null"
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(v), type(v).__name__)
