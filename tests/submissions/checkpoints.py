"""Answers to the questions ``resume-guard`` and ``cache-key`` of exercise ``checkpoints``
(``04_checkpoints_and_resume.ipynb``): correct alternatives that must get every point, and
classic mistakes with the points each may get at most (at most half of the question for a
mistake of the core idea). Format of :mod:`submissions.leases`: ``(name, question, source,
points at most, words the feedback must contain)``; the sources replace the question's answer
cell of the solution notebook (``TOOLS_NEEDED`` and ``normalize_query`` come from its setup).
The answers of ``pure-migration`` are in :mod:`submissions.rubric`.
"""

from __future__ import annotations

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
    if step == "retrieve" and checkpoint["goal"].get("sku"):
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
    if checkpoint["next_step"] == "retrieve" and checkpoint["goal"].get("sku"):
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
    """    if step == "retrieve" and checkpoint["goal"].get("sku"):
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

# Written differently from the solution: one JSON string, the query normalized by hand.
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
    ("json-key", "cache-key", JSON_KEY, 5, "all"),
    ("query-only-key", "cache-key", QUERY_ONLY_KEY, 2, "tenants must never share"),
    ("key-without-tenant", "cache-key", KEY_WITHOUT_TENANT, 2, "tenants must never share"),
    ("key-without-permission", "cache-key", KEY_WITHOUT_PERMISSION, 2, "permission version"),
    ("key-without-index", "cache-key", KEY_WITHOUT_INDEX, 2, "index version"),
    ("timestamp-key", "cache-key", TIMESTAMP_KEY, 3, "two different keys"),
    ("raw-query-key", "cache-key", RAW_QUERY_KEY, 3, "normalize the query"),
]
