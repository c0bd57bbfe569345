"""Does no feedback of a hidden world echo a number the learner's code computed there?

The promise (docs/instructors.md) is that feedback never shows a hidden value, and a number the
learner's code computed from a hidden input is one in disguise: a list as long as an event's
time in thousandths spells that time. Each answer here is wrong on purpose and computes its
numbers from what the hidden checks give it (how many sentences, times, items or e-mails), all
of them in a band no figure of the feedback has otherwise (``7000`` to ``7999`` or ``700`` to
``799``, and twice that for e-mails a retry sends again); its feedback must hold none of them,
only how the answer compares (more, fewer, none).
"""

from __future__ import annotations

import re

import pytest

from tests.submissions.cases import answer_source
from tests.submissions.grading import graded


def _swap(source: str, old: str, new: str) -> str:
    assert old in source, old
    return source.replace(old, new)


_EX02 = "02_leases_effects_and_loop.ipynb"
_EX03 = "03_histories_and_ttl.ipynb"
_EX04 = "04_checkpoints_and_resume.ipynb"

# As many sentences as 7000 + the first event's time in thousandths (mod 1000).
STALE_SPELLS_TIMES = '''
def stale_commits(history):
    """WRONG on purpose: how many sentences spells the first event's time."""
    events = list(history)
    if not events:
        return []
    return ["x"] * (7000 + int(events[0].time * 1000) % 1000)
'''

# As many recovery times as 7000 + the history's length (mod 1000), each that many seconds.
RECOVERY_SPELLS_LENGTH = _swap(
    answer_source("solutions", _EX03, "choose-ttl"),
    "    return times\n",
    "    return [float(7000 + len(events) % 1000)] * (7000 + len(events) % 1000)\n",
)

# The migration's sent list grows by 7000 + how many evidence references the input holds.
MIGRATION_SPELLS_EVIDENCE = _swap(
    answer_source("solutions", _EX04, "pure-migration"),
    '"sent": list(v1["sent"]),',
    '"sent": list(v1["sent"]) + ["x"] * (7000 + len(v1["evidence"]) % 1000),',
)

# Each send sends 700 + the task's name length (mod 100) e-mails: the retry adds as many.
SEND_SPELLS_TASK = _swap(
    answer_source("solutions", _EX02, "idempotent-send"),
    "        mailbox.send(key)\n",
    "        for _ in range(700 + len(lease.task_id) % 100):\n            mailbox.send(key)\n",
)

ECHOES = [
    ("stale-spells-times", "stale-commits", STALE_SPELLS_TIMES, r"7\d{3}"),
    ("recovery-spells-length", "choose-ttl", RECOVERY_SPELLS_LENGTH, r"7\d{3}"),
    ("migration-spells-evidence", "pure-migration", MIGRATION_SPELLS_EVIDENCE, r"7\d{3}"),
    ("send-spells-task", "idempotent-send", SEND_SPELLS_TASK, r"(7\d\d|1[45]\d\d)"),
]


@pytest.mark.jail
@pytest.mark.parametrize(("name", "question", "source", "band"), ECHOES, ids=[e[0] for e in ECHOES])
def test_does_no_feedback_echo_a_number_the_answer_computed(name, question, source, band):
    grade = graded(question, source)
    assert grade.points < grade.max_points, grade.feedback  # wrong, so there is feedback
    echoed = re.search(rf"(?<![\d.]){band}(?![\d.])", grade.feedback)
    assert echoed is None, (name, grade.feedback)
