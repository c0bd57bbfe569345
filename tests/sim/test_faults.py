"""Is every fault kind defined once, in the registry, and complete there?

The registry (:mod:`simlab.sim.faults`) is the only place a kind is spelled: the schedule, both
nemeses, the scenario's rates, the random streams, the story, the picture, the sweep and the
explorer read it. These tests fail when a kind is spelled elsewhere in ``simlab/``, when a kind
lacks a strike point, a rate, a story phrase or a picture mark, when one of them does not
actually strike, show, tell or draw, and when a schedule saved before the registry existed no
longer loads or replays.

``python tests/sim/test_faults.py`` rewrites the table of kinds in docs/simulator.md.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import sys
from functools import cache
from pathlib import Path

import pytest

from simlab import Scenario, simulate
from simlab.sim.fault_tables import faults_table
from simlab.sim.faults import EDGE_CLAIM, FIELDS, KINDS, PAUSE, POINTS, kinds_at
from simlab.sim.scenario import ADVERSARIAL, MODE_NEEDS, RATE_FAULTS, RATE_FIELDS
from simlab.sim.schedule import FAULT_KINDS, PAUSES, STEP_FAULTS, Schedule, describe_fault
from simlab.sim.story import fault_events, tell
from simlab.sim.streams import STREAMS
from tests.generated import Block
from tests.sim.pinned import pinned_digest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "simulator.md"
SCHEDULES = Path(__file__).with_name("schedules")
TABLE = Block(PAGE, "fault kinds", "simlab.sim.faults.KINDS", faults_table, "tests.sim.test_faults")


# --- the registry is complete ----------------------------------------------------------------


def test_does_every_kind_have_a_strike_point_fields_a_rate_a_stream_and_words():
    scenario_fields = {f.name: f for f in dataclasses.fields(Scenario)}
    for kind in KINDS.values():
        assert kind.point in POINTS, kind.name
        assert kind.fields and set(kind.fields) <= set(FIELDS), kind.name
        assert kind.where, f"{kind.name} names no place where it strikes"
        field = scenario_fields[kind.rate]
        assert field.default == kind.default_rate and field.metadata["help"] == kind.help
        assert kind.stream in STREAMS
        assert kind.does and kind.per and kind.help and kind.mark
        assert kind.draw is not None or kind.point == "edit", kind.name
    # one spelling: no two kinds share a stream (claim-pause and claim_pause would)
    assert len({k.stream for k in KINDS.values()}) == len(KINDS)


def test_are_the_old_public_names_derived_from_the_registry():
    assert list(FAULT_KINDS) == list(KINDS)
    assert all(FAULT_KINDS[k.name] == k.fields for k in KINDS.values())
    assert set(PAUSES) == {k.name for k in KINDS.values() if "length" in k.fields}
    assert set(STEP_FAULTS) == {k.name for k in KINDS.values() if "step" in k.fields}
    assert RATE_FAULTS == tuple(k.name for k in KINDS.values() if not k.poisson)
    assert RATE_FIELDS == tuple(f"{name.replace('-', '_')}_rate" for name in RATE_FAULTS)
    every = {k.rate for k in KINDS.values() if k.adversarial is not None}
    assert every - _moded() <= set(ADVERSARIAL) and every >= set(RATE_FIELDS)
    # a kind that needs a mode is off in the preset (its rate is refused without the mode)
    # and on at its adversarial rate once the preset is asked for the mode
    for k in KINDS.values():
        if k.rate in _moded():
            assert k.rate not in ADVERSARIAL
            with pytest.raises(ValueError, match=k.rate):
                Scenario(**{k.rate: 0.5}).validate()
            modes = {need: True for need in k.needs if need in MODE_NEEDS}
            assert getattr(Scenario.adversarial(**modes), k.rate) == k.adversarial


def _moded() -> set[str]:
    """The rates of the kinds that strike only in a mode a scenario must ask for."""
    return {k.rate for k in KINDS.values() if set(k.needs) & set(MODE_NEEDS)}


def test_is_the_docs_table_of_kinds_the_registry():
    TABLE.check()


# --- one spelling: no kind is named outside the registry -------------------------------------

#: Files that may name a kind, and why.
NAMING_ALLOWED = {
    "simlab/sim/faults.py": "the registry itself",
    # its SWEEP_FAULTS picks, for a menu, a few of the sweep's RATE_FAULTS
    "simlab/plots/dashboard.py": "the dashboard's menu of sweep faults",
}
_MULTI = [k for k in KINDS if "-" in k]
#: a kind of two words in either spelling, as a whole word (``claim_pause_rate``, the knob, and
#: prose in docstrings are fine)
_SPELLED = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(k).replace("\\-", "[-_]") for k in _MULTI) + r")(?![\w-])"
)


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _kind_spellings(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for each place ``tree`` spells a fault kind."""
    found = []
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            hit = _SPELLED.search(node.value)
            if hit:
                found.append((node.lineno, f"string {node.value!r}"))
        names = []
        if isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(node.name)
        elif isinstance(node, ast.arg):
            names.append(node.arg)
        for name in names:
            if _SPELLED.search(name):
                found.append((node.lineno, f"name {name}"))
        # a fault dict or a test of a fault's kind: {"kind": "crash"}, kind == "slow"
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "kind"
                    and isinstance(value, ast.Constant)
                    and value.value in KINDS
                ):
                    found.append((node.lineno, f"fault {{'kind': {value.value!r}}}"))
        if isinstance(node, ast.Compare) and "kind" in ast.unparse(node.left):
            for side in node.comparators:
                consts = [side, *getattr(side, "elts", [])]
                for c in consts:
                    if isinstance(c, ast.Constant) and c.value in KINDS:
                        found.append((node.lineno, f"test {ast.unparse(node)}"))
    return sorted(found)


def test_is_no_kind_spelled_outside_the_registry():
    spelled = []
    for path in sorted((ROOT / "simlab").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in NAMING_ALLOWED:
            continue
        for line, what in _kind_spellings(ast.parse(path.read_text())):
            spelled.append(f"{rel}:{line}: {what}")
    assert not spelled, "name fault kinds through simlab.sim.faults:\n" + "\n".join(spelled)


def test_does_the_scan_catch_the_spellings_it_is_for():
    caught = _kind_spellings(
        ast.parse(
            "rng['claim_pause']\n"
            "def work_pause(self): pass\n"
            "f = {'kind': 'crash', 'task': t}\n"
            "if fault['kind'] in ('slow', 'x'): pass\n"
            "x = 'effect-pause'\n"
        )
    )
    assert [line for line, _ in caught] == [1, 2, 3, 4, 5]
    fine = "'''a ``work-pause``'''\nsc.claim_pause_rate\nrec(now, 'info', w, 'crash', task)\n"
    assert not _kind_spellings(ast.parse(fine))


# --- every kind strikes, shows, is told and drawn --------------------------------------------


@cache
def _samples() -> dict[str, tuple[Scenario, int, tuple[dict, ...], dict]]:
    """One fault of each kind that strikes when scheduled alone (or after the faults it needs
    before it), with its scenario, seed and those faults: what the explorer tries at its strike
    points in a small racy scope, else the first such fault of a random run in which every rate
    is on. ``edge-claim`` strikes only as a pause strikes: it comes after the first pause the
    explorer tries in a fenced scope."""
    from simlab.sim.explore import _run_schedule, scope_scenario
    from simlab.sim.simulation import _default_ledger

    start = (float("-inf"), 0)
    scenario = scope_scenario(2, 2, 2, "racy-claim", horizon=30.0).with_(effects="all")
    out = _run_schedule(scenario, 1, _default_ledger("racy-claim"), (), start, (4.5,))
    probe = {k.rate: 0.3 for k in KINDS.values() if k.poisson}
    agent = Scenario(workload="agent", tasks=4, **probe)
    found: dict[str, tuple[Scenario, int, tuple[dict, ...], dict]] = {}
    for _, fault in out.candidates:
        found.setdefault(fault["kind"], (scenario, 1, (), fault))
    retrying = scope_scenario(2, 2, 2, horizon=30.0, retries=True)
    out = _run_schedule(retrying, 1, _default_ledger("fenced"), (), start, (4.5,))
    for _, fault in out.candidates:
        found.setdefault(fault["kind"], (retrying, 1, (), fault))
    held = scope_scenario(2, 2, 2, horizon=30.0, late=True)
    out = _run_schedule(held, 1, _default_ledger("fenced"), (), start, (4.5,))
    for _, fault in out.candidates:
        found.setdefault(fault["kind"], (held, 1, (), fault))
    fenced = scope_scenario(2, 2, 2, horizon=30.0)
    out = _run_schedule(fenced, 1, _default_ledger("fenced"), (), start, (4.5,))
    key, pause = next((k, f) for k, f in out.candidates if f["kind"] == PAUSE.name)
    out = _run_schedule(fenced, 1, _default_ledger("fenced"), (pause,), key, (4.5,))
    for _, fault in out.candidates:
        found.setdefault(fault["kind"], (fenced, 1, (pause,), fault))
    for fault in simulate(agent, seed=1).schedule.faults:
        found.setdefault(fault["kind"], (agent, 1, (), fault))
    return found


def test_does_every_kind_have_a_sample():
    assert set(_samples()) == set(KINDS)
    # only edge-claim needs a fault before it
    assert {name for name, sample in _samples().items() if sample[2]} == {EDGE_CLAIM.name}


@pytest.mark.parametrize("name", list(KINDS))
def test_does_each_kind_strike_show_in_the_history_and_get_told(name):
    scenario, seed, before, fault = _samples()[name]
    result = simulate(scenario, seed=seed, schedule=[*before, fault])
    assert [dict(f) for f in result.schedule.faults] == [*before, fault], "it did not strike"
    *_, event = fault_events(result)
    assert event is not None, f"no event of the history shows {describe_fault(fault)}"
    phrase = describe_fault(fault)
    assert (fault.get("task") or fault["doc"]) in phrase, phrase
    story = tell(result)
    n = len(before) + 1
    assert (
        f"{n} fault(s) struck" in story[-1] if result.ok else any(f"fault {n}" in s for s in story)
    )


@pytest.mark.parametrize("name", list(KINDS))
def test_does_the_story_picture_draw_each_kind_where_it_struck(name):
    from matplotlib.figure import Figure

    from simlab.plots.story import story_plot
    from simlab.plots.timeline import FAULT_MARKS

    kind = KINDS[name]
    assert kind.mark in FAULT_MARKS
    scenario, seed, before, fault = _samples()[name]
    result = simulate(scenario, seed=seed, schedule=[*before, fault])
    *_, event = fault_events(result)
    ax = story_plot(result, ax=Figure().subplots())
    marks = [a for a in [*ax.lines, *ax.patches] if a.get_gid() == kind.mark]
    xs = set()
    for a in marks:
        xs |= {float(x) for x in a.get_xdata()} if hasattr(a, "get_xdata") else {a.get_x()}
    assert event.time in xs, f"no {kind.mark!r} mark at t={event.time}"
    discs = [t for t in ax.texts if t.get_gid() == "fault"]
    assert len(discs) == len(before) + 1 and discs[-1].xy[0] == event.time


def test_is_every_strike_point_asked_by_some_kind():
    assert all(kinds_at(point) for point in POINTS)


# --- schedules saved before the registry -----------------------------------------------------

#: History digests of the schedules in tests/sim/schedules, recorded with the code before the
#: registry existed (the files were written by it too).
SAVED = {
    "every-kind.json": "8124313df9822ea88d5c3c3ccf4dcc147dc42b86117c74369ab61ce80ff6e666",
    "agent-edits.json": "b2ab6e87a467576ca4ffa6f3e13983c0a4a817e6dd921eecf90fde82395e4907",
}


@pytest.mark.parametrize("name", sorted(SAVED))
def test_does_a_schedule_saved_in_the_old_format_load_and_replay(name):
    path = SCHEDULES / name
    schedule = Schedule.load(path)
    assert schedule.to_json() == path.read_text()
    result = simulate(schedule.scenario, seed=schedule.seed, schedule=schedule)
    assert pinned_digest(result.history) == SAVED[name]
    assert result.schedule.to_json() == path.read_text()


def test_does_the_old_schedule_hold_every_kind_but_the_agents():
    kinds = {f["kind"] for f in Schedule.load(SCHEDULES / "every-kind.json").faults}
    later = {k.name for k in KINDS.values() if k.rate in _moded()}  # added since
    later.add(EDGE_CLAIM.name)  # added since, in no mode (the preset has it on)
    assert kinds == set(KINDS) - {k.name for k in KINDS.values() if "agent" in k.needs} - later


if __name__ == "__main__":
    TABLE.write()
    sys.exit(0)
