"""The learner's migration as the checks of ``pure-migration`` call it: every call one served
call of the same shape, probed on that very call for the fields its result shares with its
input (:func:`simlab.grading.aliasing.changed_with`), its result kept in the sandbox so two
results can be compared after. A migration that looks at its call stack or at the request sees
the same whether its result is judged for its value or for what it shares: there is no second
call under a probe of its own.
"""

from __future__ import annotations

import json
from typing import Any

from simlab.grading.checks.checkpoints.messages import say
from simlab.grading.questions import require
from simlab.grading.sandbox.supervisor import SandboxLost
from simlab.grading.student import Student, asked_once

__all__ = ["Migration", "shares_nothing"]


class Migration:
    """The learner's ``name`` (``migrate_v1_to_v2``), each call probed (module doc). Calling it
    gives the result; :meth:`answer` the result and the input as the call left it, asked once
    per record and shared by the parts of one grading; :meth:`shared_with_input` what that
    same call's result shares with its input."""

    def __init__(self, s: Student, name: str = "migrate_v1_to_v2"):
        self.s = s
        self.fn = s.function(name)
        self._once = asked_once(self._probed, key=lambda v1: json.dumps(v1, sort_keys=True))

    def _probed(self, v1: dict) -> tuple[Any, Any, list[str], Any]:
        result, (after,), shared, held = self.fn.probed(v1)
        if not (isinstance(shared, list) and all(isinstance(f, str) for f in shared)):
            shared = [] if shared is None else ["?"]  # None: the result is no dict
        return result, after, shared, held

    def __call__(self, v1: dict) -> Any:
        return self._probed(v1)[0]

    def echo(self, v1: dict) -> tuple[Any, tuple[Any]]:
        result, after, _, _ = self._probed(v1)
        return result, (after,)

    def answer(self, v1: dict) -> tuple[Any, Any]:
        result, after, _, _ = self._once(v1)
        return result, after

    def shared_with_input(self, v1: dict) -> list[str] | None:
        """The fields the result of ``v1`` shares with its input (None: the call raised)."""
        try:
            return self._once(v1)[2]
        except SandboxLost:
            raise
        except Exception:  # a migration that raises is judged elsewhere
            return None

    def shared_between_results(self, v1: dict) -> list[str] | None:
        """The fields of the result of a second call on ``v1`` that change with the first
        result (a module-level default handed to every result, citations kept in a cache);
        None when a call raised or returned no dict."""
        try:
            first, second = self._probed(v1)[3], self._probed(v1)[3]
        except SandboxLost:
            raise
        except Exception:
            return None
        shared = self.s.kit("changed-with", second, first).attribute("value")
        return shared if isinstance(shared, list) else None


def shares_nothing(records: list, probe: Any, said: str) -> None:
    """``probe(v1)`` (a method of :class:`Migration`) on every labelled record: no field shared
    (told by message ``said``), and at least one record probed (a migration that raises on
    every record shares nothing, but proves nothing either)."""
    probed = 0
    for name, v1 in records:
        shared = probe(v1)
        probed += shared is not None
        require(not shared, say(said, what=name, fields=", ".join(map(str, shared or []))))
    require(probed, say("never_probed"))
