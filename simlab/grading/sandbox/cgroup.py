"""A control group of its own for every jail (cgroup v1, when the grader is root).

The scheduler shares the CPU per session (``kernel.sched_autogroup_enabled``), so a jail that
starts many processes, each in a session of its own, would take the CPU from a classmate graded
beside it, and make the classmate's correct cells run past their timeout. In a group of its own,
everything one jail starts shares one weight (``cpu.shares``, the same for every jail): however
many processes or sessions it makes, a jail gets at most its fair share while others want the
CPU. The same group caps the jail's processes together (``pids.max``) and its memory
(``memory.limit_in_bytes``: processes, and the pages of its private tmpfs).

:class:`Group` makes the groups (``simlab-<grader pid>-<n>`` under each controller), and
:meth:`Group.wrap` turns a command into one that enters them before it starts (a shell writes
its own process ID into each ``cgroup.procs``, then becomes the command), so nothing the
jail starts is ever outside. Groups are made and recorded in one step, and none once the grader
ends (:mod:`simlab.grading.sandbox.host`), whose end kills what runs in them and removes them;
the next grader removes those of a grader that was killed. Where groups cannot be made (not
root, no writable cgroup v1 hierarchy) :func:`Group.make` returns None and the jail runs as
before, its limits per process.
"""

from __future__ import annotations

import itertools
import os
import shlex
import time
from collections.abc import Sequence

from simlab.grading.sandbox import host

__all__ = ["Group", "ROOT", "SHARES"]

ROOT = host.CGROUPS
#: The CPU weight of every jail (the kernel's default for a group).
SHARES = 1024
_COUNTER = itertools.count(1)


def _writable(controller: str) -> bool:
    path = os.path.join(ROOT, controller)
    return os.path.isfile(os.path.join(path, "cgroup.procs")) and os.access(path, os.W_OK)


class Group:
    """One jail's groups, one per controller; :meth:`remove` once the jail has ended."""

    def __init__(self, paths: dict[str, str]):
        self.paths = paths

    @classmethod
    def make(cls, *, processes: int, memory: int) -> Group | None:
        """New groups for one jail, with its caps; None where none can be made here. Raises
        :class:`~simlab.grading.sandbox.host.Closing` once the grader is ending."""
        if os.geteuid() != 0 or not _writable("cpu"):
            return None
        name = f"{host.tag()}-{next(_COUNTER)}"
        settings = {
            "cpu": {"cpu.shares": SHARES},
            "pids": {"pids.max": processes},
            "memory": {"memory.limit_in_bytes": memory},
        }
        paths: dict[str, str] = {}
        group = cls(paths)
        try:
            with host.making():
                for controller, values in settings.items():
                    if controller != "cpu" and not _writable(controller):
                        continue
                    path = os.path.join(ROOT, controller, name)
                    os.mkdir(path, 0o755)
                    paths[controller] = path
                    host.record("group", path)
                    for key, value in values.items():
                        with open(os.path.join(path, key), "w") as f:
                            f.write(str(value))
        except OSError:
            group.remove()
            return None
        host.interrupt_at("group")
        return group

    def enter(self) -> str:
        """A shell command (builtins only) that moves the shell itself into every group: the
        program it then becomes with ``exec`` starts inside them."""
        return " && ".join(
            f"echo $$ > {shlex.quote(os.path.join(p, 'cgroup.procs'))}" for p in self.paths.values()
        )

    def wrap(self, argv: Sequence[str]) -> list[str]:
        """``argv`` run by a shell that first moves itself into every group."""
        return ["/bin/sh", "-c", f'{self.enter()} && exec "$@"', "sh", *argv]

    def remove(self, wait: float = 2.0) -> bool:
        """Remove the groups (each must be empty: its processes gone; one still there is
        killed, as :func:`~simlab.grading.sandbox.host.remove_group` does), waiting at most
        ``wait`` seconds in all; True when all are gone."""
        end = time.monotonic() + wait
        for controller, path in list(self.paths.items()):
            if host.remove_group(path, max(0.0, end - time.monotonic())):
                del self.paths[controller]
                host.forget("group", path)
        return not self.paths
