"""Answers to the questions of exercise ``checkpoints``
(``04_checkpoints_and_resume.ipynb``): correct alternatives that must get every point, and
classic mistakes with the points each may get at most (at most half of the question for a
mistake of the core idea). Format of :mod:`submissions.leases`: ``(name, question, source,
points at most, words the feedback must contain)``; the sources replace the question's answer
cell of the solution notebook (``TOOLS_NEEDED``, ``V1_STEPS`` and ``normalize_query`` come from
its setup). The first answers of ``pure-migration`` are in :mod:`submissions.rubric`; those
here break one "must" each on odd but valid records only (repeated or unsorted keys, an empty
draft, a completed task before its last step).
"""

from __future__ import annotations

from tests.submissions.cases import answer_source

# --- resume-guard ---------------------------------------------------------------------------

# Written differently from the solution: grants and documents indexed first, a set of stops,
# version and readability looked up per source, subset tests for the tools.
SETS_GUARD = """
def resume_guard(checkpoint, world):
    step = checkpoint["next_step"]
    if step == "done":
        return []
    grant = {g["tenant"]: g for g in world["grants"]}.get(checkpoint["tenant"])
    live = grant is not None and not grant["revoked"]
    docs = {d["doc_id"]: d for d in world["documents"]}
    stops = set() if live else {"permission-revoked"}
    for ref in checkpoint["evidence"]:
        if ref["source"] == "inventory-api":
            fact = world["stock"].get(ref["doc_id"])
            version = fact and fact["version"]
            may_read = live and "inventory" in grant["tools"]
        else:
            doc = docs.get(ref["doc_id"])
            version = doc and doc["version"]
            may_read = live and doc is not None and doc["collection"] in grant["collections"]
        if version is None:
            stops.add("document-missing")
        elif version != ref["version"]:
            stops.add("document-changed")
        elif live and not may_read:
            stops.add("document-forbidden")
    tools = set(TOOLS_NEEDED[step])
    if step == "retrieve" and checkpoint["goal"].get("sku") is not None:
        tools.add("inventory")
    if not tools <= set(world["tools"]):
        stops.add("tool-missing")
    if live and not tools <= set(grant["tools"]):
        stops.add("permission-revoked")
    return list(stops)
"""

# Checks only the permission: the documents and tools are trusted as the checkpoint saw them.
ONLY_PERMISSION = """
def resume_guard(checkpoint, world):
    if checkpoint["next_step"] == "done":
        return []
    grant = next((g for g in world["grants"] if g["tenant"] == checkpoint["tenant"]), None)
    if grant is None or grant["revoked"]:
        return ["permission-revoked"]
    return []
"""

# Trusts that the grant the checkpoint was written under still holds: never reads the grants.
NEVER_READS_GRANTS = """
def resume_guard(checkpoint, world):
    if checkpoint["next_step"] == "done":
        return []
    docs = {d["doc_id"]: d["version"] for d in world["documents"]}
    stock = {k: v["version"] for k, v in world["stock"].items()}
    codes = set()
    for ref in checkpoint["evidence"]:
        current = (stock if ref["source"] == "inventory-api" else docs).get(ref["doc_id"])
        if current is None:
            codes.add("document-missing")
        elif current != ref["version"]:
            codes.add("document-changed")
    needed = set(TOOLS_NEEDED[checkpoint["next_step"]])
    if needed - set(world["tools"]):
        codes.add("tool-missing")
    return sorted(codes)
"""

# Checks that each cited document still exists, but not that it still has the cited version.
EXISTS_NOT_VERSION = """
def resume_guard(checkpoint, world):
    if checkpoint["next_step"] == "done":
        return []
    grant = next((g for g in world["grants"] if g["tenant"] == checkpoint["tenant"]), None)
    permitted = grant is not None and not grant["revoked"]
    codes = [] if permitted else ["permission-revoked"]
    documents = {d["doc_id"]: d for d in world["documents"]}
    for cited in checkpoint["evidence"]:
        if cited["source"] == "retrieval":
            doc = documents.get(cited["doc_id"])
            readable = permitted and doc is not None and doc["collection"] in grant["collections"]
        else:
            doc = world["stock"].get(cited["doc_id"])
            readable = permitted and "inventory" in grant["tools"]
        if doc is None:
            codes.append("document-missing")
        elif permitted and not readable:
            codes.append("document-forbidden")
    needed = set(TOOLS_NEEDED[checkpoint["next_step"]])
    if checkpoint["next_step"] == "retrieve" and checkpoint["goal"].get("sku") is not None:
        needed.add("inventory")
    if needed - set(world["tools"]):
        codes.append("tool-missing")
    if permitted and needed - set(grant["tools"]):
        codes.append("permission-revoked")
    return sorted(set(codes))
"""

# Checks versions but not whether the tenant may still read what it cites under its grant now.
NO_FORBIDDEN = SETS_GUARD.replace(
    """        elif live and not may_read:
            stops.add("document-forbidden")
""",
    "",
)

# Re-checks retrieved documents only: a cited stock figure and the inventory tool a retrieve
# step with a SKU needs are trusted (a detail).
NO_STOCK = SETS_GUARD.replace(
    """        if ref["source"] == "inventory-api":
            fact = world["stock"].get(ref["doc_id"])
            version = fact and fact["version"]
            may_read = live and "inventory" in grant["tools"]
        else:
""",
    """        if ref["source"] == "inventory-api":
            continue  # a stock figure is taken as the checkpoint saw it
        else:
""",
).replace(
    """    if step == "retrieve" and checkpoint["goal"].get("sku") is not None:
        tools.add("inventory")
""",
    "",
)

# Returns at the first reason to stop (a detail: one change at a time gives one code).
FIRST_REASON = SETS_GUARD.replace("stops.add(", "return [").replace(
    '"permission-revoked")', '"permission-revoked"]'
)
for _code in ("document-missing", "document-changed", "document-forbidden", "tool-missing"):
    FIRST_REASON = FIRST_REASON.replace(f'"{_code}")', f'"{_code}"]')
FIRST_REASON = FIRST_REASON.replace(
    'stops = set() if live else {"permission-revoked"}',
    'if not live:\n        return ["permission-revoked"]\n    stops = set()',
)

# Reports a document the tenant cannot read even when the grant is gone (a detail: the
# task stops all the same, with a code too many).
FORBIDDEN_UNDER_REVOKED = SETS_GUARD.replace("elif live and not may_read:", "elif not may_read:")

# Checks a finished task too: a task whose next step is done stops when its grant is revoked.
CHECKS_FINISHED = SETS_GUARD.replace(
    """    if step == "done":
        return []
""",
    "",
).replace("set(TOOLS_NEEDED[step])", "set(TOOLS_NEEDED.get(step, ()))")

# Never looks at the tools, nor at stock figures; stops at a lost permission without looking
# further (from tests/grading/test_grading_checkpoints.py, where it lost 5 of 6 points).
GUARD_WITHOUT_TOOLS_OR_STOCK = """
def resume_guard(checkpoint, world):
    if checkpoint["next_step"] == "done":
        return []
    grant = next((g for g in world["grants"] if g["tenant"] == checkpoint["tenant"]), None)
    if grant is None or grant["revoked"]:
        return ["permission-revoked"]
    docs = {d["doc_id"]: d for d in world["documents"]}
    codes = set()
    for cited in checkpoint["evidence"]:
        if cited["source"] != "retrieval":
            continue
        doc = docs.get(cited["doc_id"])
        if doc is None:
            codes.add("document-missing")
        elif doc["version"] != cited["version"]:
            codes.add("document-changed")
    return sorted(codes)
"""

ANSWERS = [
    ("sets-guard", "resume-guard", SETS_GUARD, 6, "all"),
    ("only-permission", "resume-guard", ONLY_PERMISSION, 3, "a reason to stop is missing"),
    ("never-reads-grants", "resume-guard", NEVER_READS_GRANTS, 3, "grant revoked"),
    ("exists-not-version", "resume-guard", EXISTS_NOT_VERSION, 3, "cited document edited"),
    ("no-forbidden", "resume-guard", NO_FORBIDDEN, 3, "internal documents no longer granted"),
    ("without-tools-or-stock", "resume-guard", GUARD_WITHOUT_TOOLS_OR_STOCK, 3, "next tool"),
    ("no-stock", "resume-guard", NO_STOCK, 4, "cited stock figure changed"),
    ("first-reason", "resume-guard", FIRST_REASON, 5, " and "),
    ("forbidden-under-revoked", "resume-guard", FORBIDDEN_UNDER_REVOKED, 5, "does not apply"),
    ("checks-finished", "resume-guard", CHECKS_FINISHED, 5, "at 'done'"),
]

# --- cache-key ------------------------------------------------------------------------------

# One JSON string, the query normalized by hand: hashable and exact, but not the tuple the
# text asks for (equal-requests-hit).
JSON_KEY = """
import json
import re


def cache_key(tenant, permission_version, index_version, query):
    words = re.findall(r"[a-z0-9]+", query.lower())
    return json.dumps(
        {"tenant": tenant, "grant": permission_version, "index": index_version,
         "query": " ".join(words)},
        sort_keys=True,
    )
"""

# Keys on the question only: tenants share entries, and no entry ever goes stale.
QUERY_ONLY_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return normalize_query(query)
"""

KEY_WITHOUT_TENANT = """
def cache_key(tenant, permission_version, index_version, query):
    return (permission_version, index_version, normalize_query(query))
"""

KEY_WITHOUT_PERMISSION = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant, index_version, normalize_query(query))
"""

KEY_WITHOUT_INDEX = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant, permission_version, normalize_query(query))
"""

# A timestamp in the key: never wrong, but equal requests never hit (a detail of the core idea).
TIMESTAMP_KEY = """
import time


def cache_key(tenant, permission_version, index_version, query):
    return (tenant, permission_version, index_version, normalize_query(query), time.time_ns())
"""

# The raw question: "How fast" and "how fast" miss each other (a detail).
RAW_QUERY_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant, permission_version, index_version, query)
"""

ANSWERS += [
    ("json-key", "cache-key", JSON_KEY, 3, "asks for a tuple"),
    ("query-only-key", "cache-key", QUERY_ONLY_KEY, 2, "got the same key"),
    ("key-without-tenant", "cache-key", KEY_WITHOUT_TENANT, 2, "tenants must never share"),
    ("key-without-permission", "cache-key", KEY_WITHOUT_PERMISSION, 2, "permission version"),
    ("key-without-index", "cache-key", KEY_WITHOUT_INDEX, 2, "index version"),
    ("timestamp-key", "cache-key", TIMESTAMP_KEY, 3, "two different keys"),
    ("raw-query-key", "cache-key", RAW_QUERY_KEY, 3, "normalize the query"),
]

# --- pure-migration (more answers: tests/submissions/rubric.py) -----------------------------

# Written differently from the solution: a regular expression for each citation (the greedy
# ``.*`` ends at the last @), the kept fields copied in a loop, ``sent`` unpacked afresh.
REGEX_MIGRATION = r"""
import re

CITED = re.compile(r"(.*)@([0-9]+)")


def migrate_v1_to_v2(v1):
    out = {key: v1[key] for key in ("graph_version", "tenant", "task_id", "status", "draft")}
    out["schema_version"] = 2
    out["next_step"] = V1_STEPS[v1["step"]]
    out["goal"] = dict(query=v1["query"], recipient=v1["recipient"])
    out["evidence"] = []
    for ref in v1["evidence"]:
        doc_id, version = CITED.fullmatch(ref).groups()
        out["evidence"].append({"doc_id": doc_id, "version": int(version)})
    out["approval"] = {"required": False, "approved": False, "by": None}
    out["sent"] = [*v1["sent"]]
    return out
"""

_SOLUTION_MIGRATION = """
def migrate_v1_to_v2(v1):
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
        "next_step": V1_STEPS[v1["step"]],
        "goal": {"query": v1["query"], "recipient": v1["recipient"]},
        "evidence": evidence,
        "draft": v1["draft"],
        "approval": {"required": False, "approved": False, "by": None},
        "sent": list(v1["sent"]),
    }
"""

# Tidies the stored record while reading it: sorts its `sent` list in place (pure only while
# the keys happen to be sorted already; the result is sorted too).
SORTS_SENT_IN_PLACE = _SOLUTION_MIGRATION.replace(
    "    evidence = []\n", '    v1["sent"].sort()\n    evidence = []\n', 1
)

# Drops repeated citations in place, while reading them (pure only without repeats).
DEDUPS_CITATIONS_IN_PLACE = _SOLUTION_MIGRATION.replace(
    "    evidence = []\n",
    '    v1["evidence"][:] = list(dict.fromkeys(v1["evidence"]))\n    evidence = []\n',
    1,
)

# An empty draft becomes None (a v1 draft may be the empty string).
EMPTY_DRAFT_TO_NONE = _SOLUTION_MIGRATION.replace('v1["draft"],', 'v1["draft"] or None,')

# `sent` as a sorted set: repeated keys and their order are lost.
SENT_AS_SORTED_SET = _SOLUTION_MIGRATION.replace('list(v1["sent"])', 'sorted(set(v1["sent"]))')

# The next step guessed from the status: a completed v1 task counts as done whatever its step.
STEP_FROM_STATUS = _SOLUTION_MIGRATION.replace(
    'V1_STEPS[v1["step"]]',
    '"done" if v1["status"] == "completed" else V1_STEPS[v1["step"]]',
)

# Query and recipient left at the top level beside `goal`.
GOAL_KEEPS_TOP = _SOLUTION_MIGRATION.replace(
    '"goal": {"query": v1["query"], "recipient": v1["recipient"]},',
    '"goal": {"query": v1["query"], "recipient": v1["recipient"]}, "query": v1["query"],',
)

# The version as the text after the @ (a string, not an int).
VERSION_AS_TEXT = _SOLUTION_MIGRATION.replace('"version": int(version)', '"version": version')

# A v1 task that sent its e-mail counts as approved.
APPROVED_WHEN_SENT = _SOLUTION_MIGRATION.replace(
    '"approved": False, "by": None}', '"approved": bool(v1["sent"]), "by": None}'
)

# A document ID in another Unicode form: NFKC folds a full-width character (`ｋb/mixers`
# becomes `kb/mixers`, another document), NFC and NFKC compose a decomposed accent.
NFKC_DOC_ID = "import unicodedata\n" + _SOLUTION_MIGRATION.replace(
    '{"doc_id": doc_id,', '{"doc_id": unicodedata.normalize("NFKC", doc_id),'
)
NFC_DOC_ID = NFKC_DOC_ID.replace('"NFKC"', '"NFC"')
assert "normalize" in NFKC_DOC_ID and '"NFC"' in NFC_DOC_ID

ANSWERS += [
    ("regex-migration", "pure-migration", REGEX_MIGRATION, 5, "all"),
    ("nfkc-doc-id", "pure-migration", NFKC_DOC_ID, 4, "Unicode form"),
    ("nfc-doc-id", "pure-migration", NFC_DOC_ID, 4, "Unicode form"),
    ("sorts-sent-in-place", "pure-migration", SORTS_SENT_IN_PLACE, 2, "must be pure"),
    ("dedups-citations-in-place", "pure-migration", DEDUPS_CITATIONS_IN_PLACE, 2, "must be pure"),
    ("empty-draft-to-none", "pure-migration", EMPTY_DRAFT_TO_NONE, 3, "draft"),
    ("sent-as-sorted-set", "pure-migration", SENT_AS_SORTED_SET, 4, "sent"),
    ("step-from-status", "pure-migration", STEP_FROM_STATUS, 3, "next_step"),
    ("goal-keeps-top", "pure-migration", GOAL_KEEPS_TOP, 3, "should not be there"),
    ("version-as-text", "pure-migration", VERSION_AS_TEXT, 3, "version"),
    ("approved-when-sent", "pure-migration", APPROVED_WHEN_SENT, 3, "approval"),
]

# --- resume-guard (more) --------------------------------------------------------------------

# Stops only on a *newer* version: a document withdrawn and published again (version 1 once
# more, below the cited one) goes unnoticed.
NEWER_ONLY = SETS_GUARD.replace('elif version != ref["version"]:', 'elif version > ref["version"]:')

# Needs the tools of every step, not only the next one: a tool another step uses, once
# removed, stops a task that will never call it.
EVERY_STEPS_TOOLS = SETS_GUARD.replace(
    "tools = set(TOOLS_NEEDED[step])", "tools = set().union(*TOOLS_NEEDED.values())"
)

# A goal with a SKU needs the inventory tool at every step, not only to retrieve (a detail:
# stock figures).
INVENTORY_AT_EVERY_STEP = SETS_GUARD.replace(
    'if step == "retrieve" and checkpoint["goal"].get("sku") is not None:',
    'if checkpoint["goal"].get("sku") is not None:',
)
assert INVENTORY_AT_EVERY_STEP != SETS_GUARD

# Reads the grant's scope whether or not it is revoked: under a grant revoked after it lost the
# internal collection (or the inventory tool), a cited item it no longer covers is reported
# forbidden beside the revoked permission (a detail: the task stops all the same).
FORBIDDEN_UNDER_REVOKED_SCOPE = (
    SETS_GUARD.replace(
        'may_read = live and "inventory" in grant["tools"]',
        'may_read = grant is not None and "inventory" in grant["tools"]',
    )
    .replace(
        'may_read = live and doc is not None and doc["collection"] in grant["collections"]',
        "may_read = grant is not None and doc is not None and (\n"
        '                doc["collection"] in grant["collections"])',
    )
    .replace("elif live and not may_read:", "elif grant is not None and not may_read:")
)
assert "may_read = live" not in FORBIDDEN_UNDER_REVOKED_SCOPE
assert "elif live" not in FORBIDDEN_UNDER_REVOKED_SCOPE

ANSWERS += [
    (
        "forbidden-under-revoked-scope",
        "resume-guard",
        FORBIDDEN_UNDER_REVOKED_SCOPE,
        5,
        "after it lost",
    ),
    ("newer-only", "resume-guard", NEWER_ONLY, 3, "a reason to stop is missing"),
    ("every-steps-tools", "resume-guard", EVERY_STEPS_TOOLS, 3, "a code does not apply"),
    ("inventory-at-every-step", "resume-guard", INVENTORY_AT_EVERY_STEP, 5, "inventory"),
]

# --- cache-key (more) -----------------------------------------------------------------------

# Only the scope of the permission version: a new grant version with the same collections
# (say, one tool fewer) shares the old grant's entries.
SCOPE_ONLY_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant, permission_version.partition(":")[2], index_version, normalize_query(query))
"""

# Only the grant's version number: a sub-agent's narrower grant shares the wider one's entries.
GRANT_NUMBER_ONLY_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant, permission_version.split(":")[0], index_version, normalize_query(query))
"""

# One string joined with a separator: fields that hold the separator run into each other
# (a detail).
JOINED_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return "|".join([tenant, permission_version, str(index_version), normalize_query(query)])
"""

# The words of the question sorted: two different questions with the same words share one
# entry (a detail).
SORTED_WORDS_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    words = " ".join(sorted(normalize_query(query).split()))
    return (tenant, permission_version, index_version, words)
"""

ANSWERS += [
    ("scope-only-key", "cache-key", SCOPE_ONLY_KEY, 2, "permission version"),
    ("grant-number-only-key", "cache-key", GRANT_NUMBER_ONLY_KEY, 2, "permission version"),
    ("joined-key", "cache-key", JOINED_KEY, 3, "same key"),
    ("sorted-words-key", "cache-key", SORTED_WORDS_KEY, 3, "same key"),
]

# --- answers that foresee the world they are judged in --------------------------------------
# Each one gets every point in a world it can foresee (the notebook's examples, the kit's fixed
# records and scripts) and must lose the points of the "must" it breaks in the world drawn for
# its grading (simlab.grading.checks.hidden_world).


def _known_v1_records() -> list[dict]:
    """Every v1 record the migration check feeds whatever the world: the notebook's example,
    the corpus, the fixed hidden records and their step variants, and the generated records
    (the draws are derandomized, so a learner could replay them at home)."""
    import json

    from simlab.grading.checks.checkpoints import migration
    from simlab.grading.checks.checkpoints.generated import v1_checkpoints
    from simlab.grading.properties import _search

    records = [json.loads(f.read_text()) for f in sorted(migration.CORPUS.glob("v1_*.json"))]
    records += list(migration.HIDDEN_V1) + list(migration._ODD)
    records += [{**migration.HIDDEN_V1[0], "step": i, "task_id": f"g-step-{i}"} for i in range(4)]
    seen: list[dict] = []
    _search(
        v1_checkpoints(),
        lambda v1, story: seen.append(v1),
        migration.EXAMPLES,
        0,
        list(migration._ODD),
    )
    example = {
        "schema_version": 1,
        "graph_version": "answer-email/1",
        "tenant": "acme",
        "task_id": "ask-shipping",
        "status": "running",
        "step": 2,
        "query": "How fast do orders ship?",
        "recipient": "cy@example.com",
        "evidence": ["kb/shipping@1"],
        "draft": "Answer to: How fast do orders ship?\n- Orders ship within 2 days. "
        "[kb/shipping v1]",
        "sent": [],
    }
    return [example, {**example, "step": 3}, *records, *seen]


def _table_source() -> str:
    import json

    from simlab.agent.checkpoint import migrate_v1_to_v2

    table = {json.dumps(v1, sort_keys=True): migrate_v1_to_v2(v1) for v1 in _known_v1_records()}
    return json.dumps(table)


# Typed-in results: the kit's migration of every record the check is known to feed, looked up
# in a table; any other record is "migrated" in place (the input changed, the old layout kept).
TABLE_MIGRATION = f"""
import copy
import json

KNOWN = json.loads({_table_source()!r})


def migrate_v1_to_v2(v1):
    known = KNOWN.get(json.dumps(v1, sort_keys=True))
    if known is not None:
        return copy.deepcopy(known)
    v1["schema_version"] = 2
    v1["next_step"] = V1_STEPS[v1.pop("step")]
    return v1
"""

# The notebook's example (and the corpus's records, which hold its task) special-cased: a pure
# result for them, the input changed in place for every other record.
SPECIAL_CASED_MIGRATION = _SOLUTION_MIGRATION.replace(
    "    evidence = []\n",
    '    if v1["tenant"] not in ("acme", "globex", "initech"):\n'
    '        v1["sent"] = sorted(v1["sent"])\n'
    '        v1["evidence"].sort()\n'
    "    evidence = []\n",
    1,
)

ANSWERS += [
    ("table-migration", "pure-migration", TABLE_MIGRATION, 0, "grader's world"),
    ("special-cased-migration", "pure-migration", SPECIAL_CASED_MIGRATION, 2, "must be pure"),
]

# A grant found by prefix: a tenant whose name starts with the asker's (`acme-labs` for
# `acme`) lends it its grant once the asker's own is gone.
PREFIX_TENANT_GUARD = SETS_GUARD.replace(
    'grant = {g["tenant"]: g for g in world["grants"]}.get(checkpoint["tenant"])',
    'grant = next((g for g in world["grants"] if g["tenant"].startswith(checkpoint["tenant"])),'
    " None)",
)

# A grant found by substring: any tenant whose name holds the asker's.
SUBSTRING_TENANT_GUARD = SETS_GUARD.replace(
    'grant = {g["tenant"]: g for g in world["grants"]}.get(checkpoint["tenant"])',
    'grant = next((g for g in world["grants"] if checkpoint["tenant"] in g["tenant"]), None)',
)

# A collection counted as granted when a granted collection's name is part of it (`acme`
# granted reads `acme-internal`).
SUBSTRING_COLLECTION_GUARD = SETS_GUARD.replace(
    'may_read = live and doc is not None and doc["collection"] in grant["collections"]',
    "may_read = live and doc is not None and any(\n"
    '                c in doc["collection"] for c in grant["collections"])',
)

# A tool counted as deployed when a deployed tool's name starts with it (`email-v2` for
# `email`).
PREFIX_TOOL_GUARD = SETS_GUARD.replace(
    'if not tools <= set(world["tools"]):',
    'if not all(any(t.startswith(n) for t in world["tools"]) for n in tools):',
)

# A cited document found by the start of its ID: the first document whose ID begins with it
# (`kb/shipping-v2` stands in for a withdrawn `kb/shipping`).
PREFIX_DOCUMENT_GUARD = SETS_GUARD.replace(
    'doc = docs.get(ref["doc_id"])',
    'doc = next((d for k, d in docs.items() if k.startswith(ref["doc_id"])), None)',
)

# The current versions typed in from the notebook's example world instead of read from the
# world given (documents edited since are caught as long as the world is the example's).
TYPED_VERSIONS_GUARD = """
EXAMPLE_VERSIONS = {
    "kb/returns": 3, "kb/warranty": 2, "kb/shipping": 1, "acme/vip-returns": 1, "blender-01": 1,
}
""" + SETS_GUARD.replace(
    'elif version != ref["version"]:', 'elif version != EXAMPLE_VERSIONS.get(ref["doc_id"]):'
)

# A copy instead of the world given: the first world seen for a tenant is kept and re-checked
# ever after.
COPIED_WORLD_GUARD = "import copy\n\n_SEEN = {}\n" + SETS_GUARD.replace(
    '    step = checkpoint["next_step"]\n',
    '    world = _SEEN.setdefault(checkpoint["tenant"], copy.deepcopy(world))\n'
    '    step = checkpoint["next_step"]\n',
    1,
)

# Detecting the world: reads the grader's world where it can (it cannot: the hidden checks'
# folder is empty in the jail), and otherwise trusts the grant the checkpoint was written under.
WORLD_READING_GUARD = (
    """
try:
    from simlab.grading.checks.checkpoints.guard_world import drawn_world
except ImportError:
    drawn_world = None
"""
    + NEVER_READS_GRANTS
)

ANSWERS += [
    ("prefix-tenant-guard", "resume-guard", PREFIX_TENANT_GUARD, 2, "the grader's world"),
    ("substring-tenant-guard", "resume-guard", SUBSTRING_TENANT_GUARD, 2, "the grader's world"),
    (
        "substring-collection-guard",
        "resume-guard",
        SUBSTRING_COLLECTION_GUARD,
        2,
        "internal documents no longer granted",
    ),
    ("prefix-tool-guard", "resume-guard", PREFIX_TOOL_GUARD, 2, "next tool removed"),
    ("prefix-document-guard", "resume-guard", PREFIX_DOCUMENT_GUARD, 2, "the grader's world"),
    ("typed-versions-guard", "resume-guard", TYPED_VERSIONS_GUARD, 2, "the grader's world"),
    ("copied-world-guard", "resume-guard", COPIED_WORLD_GUARD, 2, "a reason to stop is missing"),
    ("world-reading-guard", "resume-guard", WORLD_READING_GUARD, 3, "grant revoked"),
]

# Own normalizers that agree with normalize_query on the notebook's examples only.
STRIPPED_QUERY_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    question = " ".join(query.lower().strip(" ?!.").split())
    return (tenant, permission_version, index_version, question)
"""

PUNCTUATION_DROPPED_KEY = """
import re


def cache_key(tenant, permission_version, index_version, query):
    return (tenant, permission_version, index_version,
            " ".join(re.sub(r"[^\\w\\s]", "", query.lower()).split()))
"""

WORD_CHARACTERS_KEY = """
import re


def cache_key(tenant, permission_version, index_version, query):
    question = " ".join(re.findall(r"\\w+", query.lower()))
    return (tenant, permission_version, index_version, question)
"""

# The tenant's family instead of the tenant: `acme-labs` shares `acme`'s entries.
TENANT_FAMILY_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant.split("-")[0], permission_version, index_version, normalize_query(query))
"""

# Detecting the world: keys on the question only unless it can read the grader's scripts (it
# cannot: the hidden checks' folder is empty in the jail).
WORLD_READING_KEY = """
try:
    from simlab.grading.checks.checkpoints import cache as _grader
except ImportError:
    _grader = None


def cache_key(tenant, permission_version, index_version, query):
    if _grader is None:
        return normalize_query(query)
    return (tenant, permission_version, index_version, normalize_query(query))
"""

# The fields run together with nothing between them (hashed): `kim` + `v1public` and
# `kimv1` + `public`, or index version 41 and 4 with a question that starts with 1, share a key.
RUN_TOGETHER_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return (hash(f"{tenant}{permission_version}{index_version}"), normalize_query(query))
"""

# The words of the question as runs of ASCII letters and digits: a question in another script
# has no word at all, so two different ones share an entry (equal-requests-hit).
ASCII_WORDS_KEY = """
import re


def cache_key(tenant, permission_version, index_version, query):
    words = re.findall(r"[a-z0-9]+", query.lower())
    return (tenant, permission_version, index_version, " ".join(words))
"""

ANSWERS += [
    ("ascii-words-key", "cache-key", ASCII_WORDS_KEY, 3, "two different questions got the same"),
    ("run-together-key", "cache-key", RUN_TOGETHER_KEY, 3, "written one after the other"),
    ("stripped-query-key", "cache-key", STRIPPED_QUERY_KEY, 3, "normalize_query(query)"),
    ("punctuation-dropped-key", "cache-key", PUNCTUATION_DROPPED_KEY, 3, "normalize_query"),
    ("word-characters-key", "cache-key", WORD_CHARACTERS_KEY, 3, "normalize_query(query)"),
    ("tenant-family-key", "cache-key", TENANT_FAMILY_KEY, 2, "the grader's world"),
    ("world-reading-key", "cache-key", WORLD_READING_KEY, 2, "got the same key"),
]

# Written from the exercise text alone, each agreeing with the kit wherever a world never
# holds the case its sentence is about.

# The tenant's capitals folded: `Acme` and `acme` are two tenants to the kit, one to this key.
CASE_FOLDED_TENANT_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant.lower(), permission_version, index_version, normalize_query(query))
"""

# The index version cut to its first three digits: edits 1000 and 1001 share an entry.
INDEX_PREFIX_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant, permission_version, str(index_version)[:3], normalize_query(query))
"""

# A checkpoint let go by its status: only a next step "done" exempts one, and a task stopped
# for review or marked completed before its last step is re-checked all the same.
STATUS_EXEMPT_GUARD = SETS_GUARD.replace(
    'if step == "done":', 'if step == "done" or checkpoint["status"] != "running":'
)

# A withdrawn stock figure read from a document of the same ID: it no longer exists.
STOCK_FROM_DOCUMENT_GUARD = SETS_GUARD.replace(
    'fact = world["stock"].get(ref["doc_id"])',
    'fact = world["stock"].get(ref["doc_id"]) or docs.get(ref["doc_id"])',
)

# Correct: `graph_version` written as the one graph v1 knew. Every valid v1 record holds
# `answer-email/1` (the kit refuses any other), so it keeps its value on every input.
CONSTANT_GRAPH_MIGRATION = _SOLUTION_MIGRATION.replace(
    '"graph_version": v1["graph_version"],', '"graph_version": "answer-email/1",'
)

ANSWERS += [
    ("case-folded-tenant-key", "cache-key", CASE_FOLDED_TENANT_KEY, 2, "whole and exact"),
    ("index-prefix-key", "cache-key", INDEX_PREFIX_KEY, 2, "differ in the index version"),
    ("status-exempt-guard", "resume-guard", STATUS_EXEMPT_GUARD, 2, "(status '"),
    (
        "stock-from-document-guard",
        "resume-guard",
        STOCK_FROM_DOCUMENT_GUARD,
        5,
        "cited stock figure withdrawn",
    ),
    ("constant-graph-migration", "pure-migration", CONSTANT_GRAPH_MIGRATION, 5, "all"),
]

# A grant found by a prefix of the asker's name (`acme` lends `acme-eu` its grant): the drawn
# world lists a tenant whose name the asker's holds before the asker's own (rechecks-now).
PREFIX_OF_TENANT_GUARD = SETS_GUARD.replace(
    'grant = {g["tenant"]: g for g in world["grants"]}.get(checkpoint["tenant"])',
    'grant = next((g for g in world["grants"] if checkpoint["tenant"].startswith(g["tenant"])),'
    " None)",
)

# Any revoked grant in the world stops the task, not only its tenant's ("or its grant is
# revoked"; rechecks-now).
ANY_REVOKED_GUARD = SETS_GUARD.replace(
    'live = grant is not None and not grant["revoked"]',
    'live = grant is not None and not any(g["revoked"] for g in world["grants"])',
)

# One module-level approval dict handed to every migrated record: approving one task approves
# them all ("Pure means: return a new dict"; pure).
SHARED_APPROVAL_MIGRATION = '\n_APPROVAL = {"required": False, "approved": False, "by": None}\n' + (
    _SOLUTION_MIGRATION.replace(
        '"approval": {"required": False, "approved": False, "by": None},',
        '"approval": _APPROVAL,',
    )
)
assert PREFIX_OF_TENANT_GUARD != SETS_GUARD and ANY_REVOKED_GUARD != SETS_GUARD
assert "_APPROVAL," in SHARED_APPROVAL_MIGRATION

ANSWERS += [
    ("prefix-of-tenant-guard", "resume-guard", PREFIX_OF_TENANT_GUARD, 2, "the grader's world"),
    ("any-revoked-guard", "resume-guard", ANY_REVOKED_GUARD, 2, "every other tenant's grant"),
    ("shared-approval-migration", "pure-migration", SHARED_APPROVAL_MIGRATION, 2, "two migrations"),
]

# A cited version compared with `is not`: two equal versions above 256 are two int objects
# (rechecks-now: "its current version differs from the cited one").
VERSION_IS_GUARD = SETS_GUARD.replace(
    'elif version != ref["version"]:', 'elif version is not ref["version"]:'
)
assert VERSION_IS_GUARD != SETS_GUARD
ANSWERS += [("version-is-guard", "resume-guard", VERSION_IS_GUARD, 2, "the grader's world")]

# Names read loosely (the text: "Names are exact and compared whole"; "the ID is kept exactly
# as written, white space included"; "The tenant, though, is a name, exact and whole"): each
# agrees with the kit wherever no name differs from another only in capitals, white space or
# Unicode form.

# The tenant's grant found with capitals folded, the first match in the world's list
# (rechecks-now).
TENANT_LOWER_GUARD = SETS_GUARD.replace(
    'grant = {g["tenant"]: g for g in world["grants"]}.get(checkpoint["tenant"])',
    'grant = next((g for g in world["grants"]\n'
    '                  if g["tenant"].lower() == checkpoint["tenant"].lower()), None)',
)
# The tenant's grant found by its stripped, NFKC-normalised name, the last match in the
# world's list (rechecks-now).
TENANT_NFKC_GUARD = "import unicodedata\n" + SETS_GUARD.replace(
    'grant = {g["tenant"]: g for g in world["grants"]}.get(checkpoint["tenant"])',
    "def tidy(name):\n"
    '        return unicodedata.normalize("NFKC", name).strip()\n\n'
    '    grant = {tidy(g["tenant"]): g for g in world["grants"]}.get(tidy(checkpoint["tenant"]))',
)
# Document IDs stripped of the white space around them (matches, loads).
STRIPPED_IDS_MIGRATION = _SOLUTION_MIGRATION.replace(
    '{"doc_id": doc_id, "version"', '{"doc_id": doc_id.strip(), "version"'
)
# The tenant stripped, or NFKC-normalised, in the key (changes-the-answer).
STRIPPED_TENANT_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant.strip(), permission_version, index_version, normalize_query(query))
"""
NFKC_TENANT_KEY = """
import unicodedata


def cache_key(tenant, permission_version, index_version, query):
    tenant = unicodedata.normalize("NFKC", tenant)
    return (tenant, permission_version, index_version, normalize_query(query))
"""
# Correct: the tenant kept as its UTF-8 bytes, the key a tuple of exact values (two tenants
# that differ in any character, capitals, white space or Unicode form have other bytes).
BYTES_TENANT_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant.encode("utf-8"), permission_version.encode("utf-8"), index_version,
            normalize_query(query))
"""
# Correct: document IDs cut with a pattern that keeps every character before the last @.
PATTERN_IDS_MIGRATION = _SOLUTION_MIGRATION.replace(
    '        doc_id, _, version = ref.rpartition("@")\n',
    "        import re\n"
    '        doc_id, version = re.fullmatch(r"(.*)@(\\d+)", ref, re.S).groups()\n',
)
assert TENANT_LOWER_GUARD != SETS_GUARD and "tidy(g" in TENANT_NFKC_GUARD
assert ".strip()" in STRIPPED_IDS_MIGRATION and "re.fullmatch" in PATTERN_IDS_MIGRATION

ANSWERS += [
    ("tenant-lower-guard", "resume-guard", TENANT_LOWER_GUARD, 2, "the grader's world"),
    ("tenant-nfkc-guard", "resume-guard", TENANT_NFKC_GUARD, 2, "the grader's world"),
    ("stripped-ids-migration", "pure-migration", STRIPPED_IDS_MIGRATION, 3, "white space"),
    ("stripped-tenant-key", "cache-key", STRIPPED_TENANT_KEY, 2, "grader's world"),
    ("nfkc-tenant-key", "cache-key", NFKC_TENANT_KEY, 2, "grader's world"),
    ("bytes-tenant-key", "cache-key", BYTES_TENANT_KEY, 5, "all"),
    ("pattern-ids-migration", "pure-migration", PATTERN_IDS_MIGRATION, 5, "all"),
]

# The hash of the solution's tuple: an int, not the tuple the text asks for (and a hash of
# strings changes from one process to the next) (equal-requests-hit).
HASH_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return hash((tenant, permission_version, index_version, normalize_query(query)))
"""
# Correct: a named tuple (a subclass of tuple), its fields named.
NAMED_TUPLE_KEY = """
from collections import namedtuple

Key = namedtuple("Key", "tenant permission_version index_version question")


def cache_key(tenant, permission_version, index_version, query):
    return Key(tenant, permission_version, index_version, normalize_query(query))
"""
# A goal "has a SKU" read as the key being there: a checkpoint's goal always holds the key
# `sku` (None when the task has none), so every retrieve needs the inventory tool
# (stock-figures, exact-codes).
_SKU_NOT_NONE = 'checkpoint["goal"].get("sku") is not None'
SKU_KEY_PRESENT_GUARD = SETS_GUARD.replace(_SKU_NOT_NONE, '"sku" in checkpoint["goal"]')
# Correct: the SKU read by its key, as a checkpoint's goal always holds it, compared with None.
SKU_NOT_NONE_GUARD = SETS_GUARD.replace(_SKU_NOT_NONE, 'checkpoint["goal"]["sku"] is not None')
# The SKU tested for its truth, not compared with None (stock-figures: "a `"retrieve"` whose
# goal's `"sku"` is not `None` also needs `"inventory"`"): an empty SKU is taken for none.
SKU_TRUTHY_GUARD = SETS_GUARD.replace(_SKU_NOT_NONE, 'checkpoint["goal"].get("sku")')
assert len({SKU_KEY_PRESENT_GUARD, SETS_GUARD, SKU_NOT_NONE_GUARD, SKU_TRUTHY_GUARD}) == 4
# The right codes in a set: the text asks for a list (exact-codes); every other criterion
# judges the codes whatever holds them.
SET_OF_CODES_GUARD = SETS_GUARD.replace("return list(stops)", "return stops")
assert SET_OF_CODES_GUARD != SETS_GUARD

ANSWERS += [
    ("hash-key", "cache-key", HASH_KEY, 3, "asks for a tuple"),
    ("named-tuple-key", "cache-key", NAMED_TUPLE_KEY, 5, "all"),
    ("sku-key-present-guard", "resume-guard", SKU_KEY_PRESENT_GUARD, 4, "a code does not apply"),
    ("sku-not-none-guard", "resume-guard", SKU_NOT_NONE_GUARD, 6, "all"),
    ("sku-truthy-guard", "resume-guard", SKU_TRUTHY_GUARD, 5, "(not None)"),
    ("set-of-codes-guard", "resume-guard", SET_OF_CODES_GUARD, 5, "expected a list"),
]

# Names compared loosely in the guard, one kind of name at a time (rechecks-now, stock-figures:
# "Names are exact and compared whole: a tenant (like a document ID, a collection or a tool) in
# other capitals, with white space around it or in another Unicode form is another one"): the
# grader's world holds each name's look-alikes beside it.
_SOLUTION_GUARD = answer_source("solutions", "04_checkpoints_and_resume.ipynb", "resume-guard")
_DOCS = 'documents = {d["doc_id"]: d for d in world["documents"]}'
_DOC = 'doc = documents.get(cited["doc_id"])'
DOC_FOLD_GUARD = _SOLUTION_GUARD.replace(
    _DOCS, 'documents = {d["doc_id"].lower(): d for d in world["documents"]}'
).replace(_DOC, 'doc = documents.get(cited["doc_id"].lower())')
DOC_STRIP_GUARD = _SOLUTION_GUARD.replace(
    _DOCS, 'documents = {d["doc_id"].strip(): d for d in world["documents"]}'
).replace(_DOC, 'doc = documents.get(cited["doc_id"].strip())')
COLLECTION_FOLD_GUARD = _SOLUTION_GUARD.replace(
    'doc["collection"] in grant["collections"]',
    'doc["collection"].lower() in [c.lower() for c in grant["collections"]]',
)
GRANT_TOOL_FOLD_GUARD = _SOLUTION_GUARD.replace(
    'needed - set(grant["tools"])',
    '{t.lower() for t in needed} - {t.lower() for t in grant["tools"]}',
)
DEPLOYED_TOOL_FOLD_GUARD = _SOLUTION_GUARD.replace(
    'needed - set(world["tools"])',
    '{t.lower() for t in needed} - {t.lower().strip() for t in world["tools"]}',
)
STOCK_FOLD_GUARD = _SOLUTION_GUARD.replace(
    'stock = world["stock"].get(cited["doc_id"])',
    'stock = {k.lower(): x for k, x in world["stock"].items()}.get(cited["doc_id"].lower())',
)
assert (
    len(
        {
            _SOLUTION_GUARD,
            DOC_FOLD_GUARD,
            DOC_STRIP_GUARD,
            COLLECTION_FOLD_GUARD,
            GRANT_TOOL_FOLD_GUARD,
            DEPLOYED_TOOL_FOLD_GUARD,
            STOCK_FOLD_GUARD,
        }
    )
    == 7
)
assert DOC_FOLD_GUARD.count(".lower()") == 2 and DOC_STRIP_GUARD.count(".strip()") == 2

ANSWERS += [
    ("doc-fold-guard", "resume-guard", DOC_FOLD_GUARD, 2, "the grader's world"),
    ("doc-strip-guard", "resume-guard", DOC_STRIP_GUARD, 2, "the grader's world"),
    ("collection-fold-guard", "resume-guard", COLLECTION_FOLD_GUARD, 2, "the grader's world"),
    ("grant-tool-fold-guard", "resume-guard", GRANT_TOOL_FOLD_GUARD, 2, "the grader's world"),
    ("deployed-tool-fold-guard", "resume-guard", DEPLOYED_TOOL_FOLD_GUARD, 2, "the grader's world"),
    ("stock-fold-guard", "resume-guard", STOCK_FOLD_GUARD, 5, "the grader's world"),
]

# A public document taken as readable whatever the grant holds, and only internal collections
# checked ("`"document-forbidden"`: ... the tenant may no longer read it (a document whose
# `collection` is not in the grant's `collections`..."): a grant that loses the public
# collection a cited document is in forbids it all the same.
PUBLIC_ALWAYS_READABLE = _SOLUTION_GUARD.replace(
    'readable = permitted and doc is not None and doc["collection"] in grant["collections"]',
    "readable = permitted and doc is not None and (\n"
    '                doc["collection"] == "public" or doc["collection"] in grant["collections"])',
)
ONLY_INTERNAL_CHECKED = _SOLUTION_GUARD.replace(
    'readable = permitted and doc is not None and doc["collection"] in grant["collections"]',
    "readable = permitted and doc is not None and (\n"
    '                not doc["collection"].endswith("-internal")\n'
    '                or doc["collection"] in grant["collections"])',
)
assert PUBLIC_ALWAYS_READABLE != _SOLUTION_GUARD != ONLY_INTERNAL_CHECKED
ANSWERS += [
    ("public-always-readable", "resume-guard", PUBLIC_ALWAYS_READABLE, 2, "collection no longer"),
    ("only-internal-checked", "resume-guard", ONLY_INTERNAL_CHECKED, 2, "collection no longer"),
]

# Names compared in NFC (or NFD) form, one kind of name at a time (rechecks-now: "Names are
# exact and compared whole: a tenant (like a document ID, a collection or a tool) [...] in
# another Unicode form is another one"): the drawn tenants hold a composed accent, so the
# tenant, its internal collection and its documents' IDs stand beside their decomposed forms.
_NFC = 'unicodedata.normalize("NFC", {})'
TENANT_NFC_GUARD = "import unicodedata\n" + _SOLUTION_GUARD.replace(
    'if g["tenant"] == checkpoint["tenant"]',
    "if " + _NFC.format('g["tenant"]') + " == " + _NFC.format('checkpoint["tenant"]'),
)
TENANT_NFD_GUARD = TENANT_NFC_GUARD.replace('"NFC"', '"NFD"')
DOC_NFC_GUARD = "import unicodedata\n" + _SOLUTION_GUARD.replace(
    _DOCS, "documents = {" + _NFC.format('d["doc_id"]') + ': d for d in world["documents"]}'
).replace(_DOC, "doc = documents.get(" + _NFC.format('cited["doc_id"]') + ")")
COLLECTION_NFC_GUARD = "import unicodedata\n" + _SOLUTION_GUARD.replace(
    'doc["collection"] in grant["collections"]',
    _NFC.format('doc["collection"]')
    + " in {"
    + _NFC.format("c")
    + ' for c in grant["collections"]}',
)
assert len({_SOLUTION_GUARD, TENANT_NFC_GUARD, DOC_NFC_GUARD, COLLECTION_NFC_GUARD}) == 4
assert TENANT_NFD_GUARD.count('"NFD"') == 2 and DOC_NFC_GUARD.count('"NFC"') == 2

# A hand-written normaliser close to normalize_query (NFKC, case folded, runs of word
# characters): a combining mark is no word character to `\w`, so two questions that differ
# only in a vowel sign (or a dot above) share an entry (equal-requests-hit: "use
# normalize_query(query)").
MARKS_DROPPED_KEY = """
import re
import unicodedata


def cache_key(tenant, permission_version, index_version, query):
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", query).casefold())
    return (tenant, permission_version, index_version, " ".join(re.findall(r"[^\\W_]+", text)))
"""

ANSWERS += [
    ("tenant-nfc-guard", "resume-guard", TENANT_NFC_GUARD, 2, "the grader's world"),
    ("tenant-nfd-guard", "resume-guard", TENANT_NFD_GUARD, 2, "the grader's world"),
    ("doc-nfc-guard", "resume-guard", DOC_NFC_GUARD, 2, "the grader's world"),
    ("collection-nfc-guard", "resume-guard", COLLECTION_NFC_GUARD, 2, "the grader's world"),
    ("marks-dropped-key", "cache-key", MARKS_DROPPED_KEY, 3, "two different questions"),
]

# Parsed citations kept in a module-level cache: every call returns a new evidence list, but two
# results of one citation share its dict, so changing one task's checkpoint changes another's
# (pure: "Two results never share a list or a dict either, however deep inside them").
SHARED_CITATIONS_MIGRATION = "\n_PARSED = {}\n" + _SOLUTION_MIGRATION.replace(
    '        doc_id, _, version = ref.rpartition("@")\n'
    '        evidence.append({"doc_id": doc_id, "version": int(version)})\n',
    "        if ref not in _PARSED:\n"
    '            doc_id, _, version = ref.rpartition("@")\n'
    '            _PARSED[ref] = {"doc_id": doc_id, "version": int(version)}\n'
    "        evidence.append(_PARSED[ref])\n",
)
# Takes fields out of the input and puts them back when done: the input is equal afterwards,
# but its fields come in another order (pure: "never change `v1`").
POP_RESTORE_MIGRATION = _SOLUTION_MIGRATION.replace(
    "    evidence = []\n",
    '    step, query = v1.pop("step"), v1.pop("query")\n'
    '    v1["step"], v1["query"] = step, query\n'
    "    evidence = []\n",
)
# The raw query where normalize_query gives nothing: two questions without a word ("?" and
# "!") get two entries (equal-requests-hit: "The same question asked with other capitals,
# spaces or punctuation should share one entry: use `normalize_query(query)`").
RAW_WHEN_EMPTY_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant, permission_version, index_version, normalize_query(query) or query)
"""
# Correct: a migration that reads the input through a shallow copy of it and takes fields out
# of the copy (the input itself is never touched).
POPS_A_COPY_MIGRATION = _SOLUTION_MIGRATION.replace(
    "    evidence = []\n",
    '    rest = dict(v1)\n    step = rest.pop("step")\n    evidence = []\n',
).replace('V1_STEPS[v1["step"]]', "V1_STEPS[step]")
assert "_PARSED[ref]" in SHARED_CITATIONS_MIGRATION and "v1.pop" in POP_RESTORE_MIGRATION
assert "rest.pop" in POPS_A_COPY_MIGRATION and "V1_STEPS[step]" in POPS_A_COPY_MIGRATION

ANSWERS += [
    ("shared-citations-migration", "pure-migration", SHARED_CITATIONS_MIGRATION, 2, "evidence"),
    ("pop-restore-migration", "pure-migration", POP_RESTORE_MIGRATION, 2, "another order"),
    ("raw-when-empty-key", "cache-key", RAW_WHEN_EMPTY_KEY, 3, "the same question"),
    ("pops-a-copy-migration", "pure-migration", POPS_A_COPY_MIGRATION, 5, "all"),
]

# The normalised question with its spaces taken out: two questions whose words differ only
# where one space falls ("a bc", "ab c") share an entry (equal-requests-hit: "use
# `normalize_query(query)`", whose words are kept apart).
SPACES_REMOVED_KEY = """
def cache_key(tenant, permission_version, index_version, query):
    return (tenant, permission_version, index_version, normalize_query(query).replace(" ", ""))
"""
ANSWERS += [("spaces-removed-key", "cache-key", SPACES_REMOVED_KEY, 3, "two different questions")]

# Answers that tamper with the grader's code in the sandbox, or lie to its reads.
from tests.submissions.tampering import TAMPERING  # noqa: E402

ANSWERS += TAMPERING["checkpoints"]
