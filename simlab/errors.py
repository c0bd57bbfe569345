"""Exceptions raised by task ledgers.

Every ledger error derives from :class:`LedgerError`, so callers can catch one type. Bad arguments
(a non-positive ``ttl``, a negative step, a value that is not JSON, a task ID that is not a
string) raise the built-in ``ValueError`` or ``TypeError`` instead (see
:mod:`simlab.ledger.arguments`): they are programming mistakes, not ledger states.
A setting of the simulator that makes no sense raises :class:`SettingError`, a ``ValueError``
that knows which settings it names, so the command line can name its flags instead.

A ledger that raises has changed nothing, with one documented exception: a claim that would
exceed ``max_attempts`` first moves the task to ``dead`` (the dead letter), then raises
:class:`TerminalTask`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["LedgerError", "UnknownTask", "TerminalTask", "LeaseHeld", "SettingError"]


class SettingError(ValueError):
    """A setting (a ``Scenario`` field, an argument of ``explore``) that makes no sense.

    ``template`` is a ``str.format`` template: its fields named in ``settings`` are settings,
    the others ``values``. ``settings`` maps each such field to the setting's Python name (an
    iterable of names maps each to itself). ``str()`` says the Python names;
    :meth:`spelled` says each as ``spell(name)`` (the command line's flag), the sentence
    otherwise the same.
    """

    def __init__(
        self, template: str, settings: Mapping[str, str] | Iterable[str], **values: Any
    ) -> None:
        self.template = template
        self.settings = (
            dict(settings) if isinstance(settings, Mapping) else {s: s for s in settings}
        )
        self.values = values
        super().__init__(self.spelled(str))

    def spelled(self, spell: Callable[[str], str], template: str | None = None) -> str:
        """The sentence with every setting named ``spell(python_name)``; said with
        ``template`` (the sentence in another language, with the same fields) when given."""
        names = {field: spell(name) for field, name in self.settings.items()}
        return (template or self.template).format(**self.values, **names)

    def __reduce__(self):
        # an exception crosses processes pickled: rebuilt from its parts, not its message
        return (_setting_error, (self.template, self.settings, self.values))


def _setting_error(template: str, settings: dict[str, str], values: dict[str, Any]):
    return SettingError(template, settings, **values)


class LedgerError(Exception):
    """Base class of every ledger error (a bad file, a duplicate ID, a schema too new, ...)."""


class UnknownTask(LedgerError, KeyError):
    """No task has this ID."""

    def __init__(self, task_id: str):
        super().__init__(task_id)
        self.task_id = task_id

    def __str__(self) -> str:
        return f"unknown task {self.task_id!r}"


class TerminalTask(LedgerError):
    """The task is completed, cancelled or dead, so it can no longer be claimed."""

    def __init__(self, task_id: str, status: str):
        super().__init__(task_id, status)
        self.task_id = task_id
        self.status = status

    def __str__(self) -> str:
        return f"task {self.task_id!r} is {self.status} and cannot be claimed"


class LeaseHeld(LedgerError):
    """Another worker holds a live lease on the task (``lease_until`` is still in the future).

    ``worker`` is the worker that *holds* the live lease, as the task's row names it, never the
    worker whose claim was refused; ``lease_until`` is when the holder's lease runs out. So the
    message reads "task 't1' is leased to 'worker-1' until t=30.0" to the worker that asked.
    """

    def __init__(self, task_id: str, worker: str | None, lease_until: float | None):
        super().__init__(task_id, worker, lease_until)
        self.task_id = task_id
        self.worker = worker
        self.lease_until = lease_until

    def __str__(self) -> str:
        return f"task {self.task_id!r} is leased to {self.worker!r} until t={self.lease_until}"
