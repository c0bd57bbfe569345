"""Does a schedule found over a ledger of the caller's own say so, and does the command line
refuse to replay it over the kit's ledger (which would answer another verdict)?"""

from __future__ import annotations

import json

import pytest

from simlab import explore, simulate
from simlab.ledger import MemoryLedger
from simlab.sim.schedule import Schedule, ledger_name
from tests.strategies import run_cli, usage_error


class CancelQueuedKeepsEpoch(MemoryLedger):
    """A cancel raises the epoch only of a running task; a queued one keeps it."""

    def cancel(self, task_id):
        t = self._task(task_id)
        if t.status == "queued":
            t.status, t.lease_until, t.updated_at = "cancelled", None, float(self.clock())
            return True
        return super().cancel(task_id)


def _factory(clock):
    return CancelQueuedKeepsEpoch(clock=clock)


OWN = f"{__name__}:CancelQueuedKeepsEpoch"


@pytest.fixture(scope="module")
def found():
    x = explore(_factory, tasks=3, workers=1, steps=2, max_faults=1)
    assert not x.certified and x.result.own_ledger
    return x


def test_does_the_schedule_name_the_ledger_it_was_found_over(found, tmp_path):
    path = found.result.schedule.save(tmp_path / "own.json")
    assert json.loads(path.read_text())["ledger"] == OWN
    assert Schedule.load(path) == found.result.schedule
    # Python replays it with the same ledger, to the same verdict
    again = simulate(schedule=Schedule.load(path), ledger=_factory)
    assert again.violations == found.result.violations and again.schedule.ledger == OWN


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_does_simulate_refuse_to_replay_it_over_the_kits_ledger(found, tmp_path, capsys, lang):
    path = found.result.schedule.save(tmp_path / "own.json")
    err = usage_error(["simulate", "--schedule", str(path), "--lang", lang], capsys)
    assert OWN in err and f"simulate(schedule=Schedule.load({str(path)!r})" in err
    assert ("你自己的账本" in err) == (lang == "zh")
    err = usage_error(["shrink", "--schedule", str(path)], capsys)
    assert OWN in err


def test_does_python_warn_when_it_replays_it_over_the_kits_ledger(found):
    kit = simulate(schedule=found.result.schedule)
    assert kit.ok and any(OWN in w and "the kit's ledger" in w for w in kit.warnings)


def test_does_a_schedule_of_the_kits_ledger_still_replay_from_the_command_line(tmp_path, capsys):
    from simlab.ledger import RacyClaimLedger

    x = explore(lambda clock: RacyClaimLedger(":memory:", clock=clock), variant="racy-claim")
    assert x.result.schedule.ledger == "kit" and "ledger" not in x.result.schedule.to_dict()
    path = x.result.schedule.save(tmp_path / "kit.json")
    code, out, _ = run_cli(["simulate", "--schedule", str(path)], capsys)
    assert code == 1 and "VIOLATION" in out


def test_does_a_ledger_over_a_file_count_as_the_kits(tmp_path):
    from simlab.ledger import Ledger

    store = Ledger(str(tmp_path / "l.sqlite"), clock=lambda: 0.0)
    try:
        assert ledger_name(store) == "kit-sqlite-file"
    finally:
        store.close()
    assert ledger_name(_factory(lambda: 0.0)) == OWN


def test_is_a_ledger_that_is_neither_the_kits_nor_a_class_refused():
    with pytest.raises(ValueError, match="module:qualname"):
        Schedule.from_dict({"seed": 1, "ledger": "mine"})
