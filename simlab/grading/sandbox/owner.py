"""Host state a grader makes (control groups, capped folders, its temporary folder) carries its
process ID in its
name, so that a later grader can tell the leftovers of a grader that was killed before it could
remove them from the state of one still running."""

from __future__ import annotations

import os
import re

__all__ = ["tag", "left_by_a_gone_grader"]

_TAG = re.compile(r"simlab-(\d+)(?:-\d+|-closed)?")


def tag() -> str:
    """The name prefix of what this process makes: ``simlab-<pid>``."""
    return f"simlab-{os.getpid()}"


def left_by_a_gone_grader(name: str) -> bool:
    """Whether ``name`` was made by a grader (``simlab-<pid>``, ``simlab-<pid>-<n>`` or
    ``simlab-<pid>-closed``, its temporary folder being removed) whose
    process no longer exists. False for this process's own names, for a process still alive,
    and for names of any other form."""
    match = _TAG.fullmatch(name)
    if match is None or int(match.group(1)) == os.getpid():
        return False
    try:
        os.kill(int(match.group(1)), 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, another user's
        return False
    return False
