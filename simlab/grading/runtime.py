"""One submission's runtime: the jailed sandbox that runs its notebook and answers its hidden
checks, and the fresh ones that replay its cells after a cell hung or killed one.

:class:`Runtime` runs every code cell of the plan (:func:`plan`) in notebook order on the
sandbox's ``run`` line; before the first public check or demo cell it splits the run off
(:meth:`~simlab.grading.sandbox.supervisor.Sandbox.split`), and from then on the learner's cells
(every code cell but ``check`` and ``demo`` ones) also run on the ``checks`` line, which the hidden
checks call once the run has ended (:meth:`Runtime.get`). A cell that hangs or kills a sandbox,
on either line, is left out of every replay; the sandboxes one notebook may use are bounded
(:data:`MAX_SANDBOXES`), and so is their time (the notebook's budget).
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import nbformat

from simlab.grading import messages
from simlab.grading.messages import message
from simlab.grading.notebook import cell_role
from simlab.grading.sandbox.jail import Limits, cpu_limit
from simlab.grading.sandbox.supervisor import CellResult, Sandbox, SandboxLost

__all__ = ["ISOLATED", "MAX_SANDBOXES", "Cell", "Runtime", "plan"]

#: Sandboxes one notebook may use up before the questions left get 0.
MAX_SANDBOXES = 8

#: The roles of the cells the hidden checks skip: the notebook's public checks and demos.
ISOLATED = ("check", "demo")
#: A cell that ends in one of these loses its process (it is left out of every replay).
_LOSING = {"timeout", "dead", "filled", "budget", "not run"}


@dataclass(frozen=True)
class Cell:
    index: int
    source: str
    #: A public check or a demo: part of the notebook's run, never seen by the hidden checks.
    isolated: bool


def plan(nb: nbformat.NotebookNode) -> list[Cell]:
    """The code cells that run, in notebook order (empty ones never do)."""
    cells = []
    for i, cell in enumerate(nb.cells):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if source.strip():
            cells.append(Cell(i, source, cell_role(cell) in ISOLATED))
    return cells


class Runtime:
    """One submission's runtime (module doc): :meth:`run` is the notebook's own run,
    :meth:`get` the sandbox the hidden checks call."""

    def __init__(
        self,
        plan: list[Cell],
        timeout: float,
        jailed: bool = True,
        deadline: float | None = None,
        out_of_budget: messages.Message | None = None,
        max_output: int | None = None,
    ):
        self.plan = plan
        self.timeout = timeout
        self.jailed = jailed
        self.deadline = deadline
        self.out_of_budget = out_of_budget
        self.max_output = max_output
        #: Cells that hung or killed a sandbox, by index: no replay runs them again.
        self.bad: dict[int, CellResult] = {}
        #: How each cell went in the notebook's run (the first time it ran).
        self.runs: dict[int, CellResult] = {}
        #: The cells that raised on the checks' line though they ran without an error in the
        #: notebook's run, by index (the first time): a limit the two lines share. (A cell that
        #: raised in the run too is told by the run's verdict.)
        self.raised: dict[int, CellResult] = {}
        self.used = 0
        self.current: Sandbox | None = None
        self.tampered: list[str] | None = None
        #: Why no more question is judged: the sandbox found the grader's code in it replaced
        #: (:class:`~simlab.grading.sandbox.watch.Guard`), in this question or an earlier one.
        self.not_judged: messages.Message | None = None

    def spent(self) -> bool:
        """Whether the notebook's budget has run out."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _fresh(self) -> Sandbox:
        """A new sandbox (its start overlaps with what the caller sends it first)."""
        if self.spent():
            raise SandboxLost(self.out_of_budget or "", "budget")
        if self.used >= MAX_SANDBOXES:
            raise SandboxLost(message("grader.gave_up", n=MAX_SANDBOXES), "not run")
        self.used += 1
        limits = Limits(cpu=cpu_limit(self.timeout))
        sandbox = Sandbox(timeout=self.timeout, jailed=self.jailed, limits=limits)
        sandbox.set_budget(self.deadline, self.out_of_budget)
        self.current = sandbox
        return sandbox

    def _step(self, sandbox: Sandbox, cell: Cell, run: bool) -> bool:
        """Run ``cell`` (on both lines, or on the checks' line only unless ``run``); whether the
        sandbox is still fit for the next. The first result of a cell in the run is its
        verdict; a cell that hangs or kills the sandbox on either line is left out from now on."""
        if run and cell.isolated and not sandbox.split_off:
            try:
                sandbox.split()
            except SandboxLost:
                return False
        results = []
        if run:
            result = sandbox.exec_cell(
                cell.index, cell.source, max_output=self.max_output, line="run"
            )
            self.runs.setdefault(cell.index, result)
            results.append(result)
        if (not run or sandbox.split_off) and not cell.isolated and sandbox.alive:
            checked = sandbox.exec_cell(cell.index, cell.source)
            ran = self.runs.get(cell.index)
            if checked.status == "error" and (ran is None or ran.status != "error"):
                self.raised.setdefault(cell.index, checked)
            results.append(checked)
        for result in results:
            if result.status in _LOSING:
                self.bad.setdefault(cell.index, result)
                return False
        return True

    def _replayed(self, upto: int | None) -> Sandbox:
        """A fresh sandbox that ran again the cells of the plan before position ``upto``
        (the notebook's run, both lines), or, with None, the learner's cells on the checks'
        line alone."""
        while True:
            sandbox = self._fresh()
            cells = self.plan if upto is None else self.plan[:upto]
            try:
                sources = [c.source for c in self.plan if c.index not in self.bad]
                sandbox.prepare(sources, font_lists() if self.jailed else None)
            except SandboxLost:
                continue
            for cell in cells:
                if cell.index in self.bad or (upto is None and cell.isolated):
                    continue
                if not self._step(sandbox, cell, run=upto is not None):
                    break
            if sandbox.alive:
                return sandbox
            sandbox.close()

    def run(self) -> dict[int, CellResult]:
        """The notebook's run: every code cell in notebook order, each with ``timeout``
        seconds; after a cell that hangs or kills the sandbox, the run goes on in a fresh one.
        Cells the budget (or :data:`MAX_SANDBOXES`) leaves out get ``budget`` (``not run``)."""
        for position, cell in enumerate(self.plan):
            try:
                sandbox = self.current
                if sandbox is None or not sandbox.alive:
                    sandbox = self._replayed(position)
            except SandboxLost as lost:
                for left in self.plan[position:]:
                    self.runs.setdefault(left.index, CellResult(left.index, lost.kind, lost.said))
                break
            self._step(sandbox, cell, run=True)
        if self.current is not None and self.current.alive:
            try:
                self.current.end_run()
            except SandboxLost:
                pass
        return self.runs

    def get(self) -> Sandbox:
        """The sandbox the hidden checks call: the one the run left, or a fresh one that ran the
        learner's cells again."""
        if self.current is not None and self.current.alive and not self.current.split_off:
            sandbox = self.current
        else:
            if self.current is not None:
                self.current.close()
            sandbox = self._replayed(None)
        if self.tampered is None:
            self.tampered = tampering(sandbox)
        return sandbox

    def close(self) -> None:
        if self.current is not None:
            self.current.close()


@lru_cache(maxsize=1)
def font_lists() -> dict[str, str]:
    """The grader's own matplotlib font lists (``fontlist-v*.json`` in matplotlib's cache
    folder, read once), which a jailed sandbox takes before its first cell: a jail's matplotlib
    folder starts empty, and building the list scans every font of the system, for every
    notebook that imports matplotlib. Empty when there is none (the jail then builds its own)."""
    folder = os.environ.get("MPLCONFIGDIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "matplotlib"
    )
    files = {}
    try:
        for path in sorted(Path(folder).glob("fontlist-v*.json")):
            if path.is_file() and path.stat().st_size <= _MAX_FONT_LIST:
                files[path.name] = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    return files


#: The largest font list the grader hands a sandbox.
_MAX_FONT_LIST = 4 * 1024**2


def tampering(sandbox: Sandbox) -> list[str]:
    """What the sandbox reports the notebook replaced, kept only where the report names a
    watched name that exists (:func:`_watched`): the report comes from the learner's process."""
    try:
        reply = sandbox.request({"op": "tampered"}, what="a helper check")
    except SandboxLost as lost:
        if lost.kind == "tampered":
            raise
        return []
    value = reply.get("value")
    if not isinstance(value, list):
        return []
    return sorted({v for v in value[:1000] if isinstance(v, str) and _watched(v)})


def _watched(name: str) -> bool:
    """Is ``name`` one the sandbox may report as replaced: a check helper, or an existing
    attribute of a watched kit module (``simlab.ledger.Ledger``)?"""
    from simlab.grading.sandbox.watch import WATCHED_MODULES, WATCHED_NAMES

    if name in WATCHED_NAMES:
        return True
    module, _, attr = name.rpartition(".")
    if module not in WATCHED_MODULES or not attr.isidentifier() or attr.startswith("__"):
        return False
    return hasattr(sys.modules.get(module) or importlib.import_module(module), attr)
