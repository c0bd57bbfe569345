"""Statements by which a ledger writes otherwise than this kit's, for the hidden worlds of the
grader's exercise ``leases`` (its checks play the learner's pieces beside rows written this
way). Never use them in a ledger.

Each is one statement of the SQLite ledger's schema, run with the ledger's own ``_count``.
"""

from __future__ import annotations

__all__ = ["END_NOW"]

#: A lease that ended (its task left ``running``) kept as ending now rather than cleared: the
#: way another ledger may end a lease. The task's status, not its ``lease_until``, says whether
#: it runs.
END_NOW = (
    "UPDATE tasks SET lease_until = :now"
    " WHERE task_id = :task_id AND status != 'running' AND lease_until IS NULL"
)
