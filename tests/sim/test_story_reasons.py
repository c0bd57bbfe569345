"""Does a story give a refusal the reason a correct ledger has, and keep the answer of a call
whose read-back raised? Ledgers wrong only once or only sometimes, each a
:class:`~simlab.ledger.MemoryLedger` with one change."""

from __future__ import annotations

from simlab import explore
from simlab.errors import UnknownTask
from simlab.ledger import MemoryLedger
from simlab.ledger.arguments import check_heartbeat
from simlab.records import CANCELLED, RUNNING
from simlab.sim.story import tell


class HeartbeatRefusedOnce(MemoryLedger):
    """The 5th heartbeat call ever made is refused, changing nothing."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self._n = 0

    def heartbeat(self, lease, ttl):
        self._n += 1
        if self._n == 5:
            check_heartbeat(lease, ttl)
            return False
        return super().heartbeat(lease, ttl)


class CancelRefusesExpired(MemoryLedger):
    """A cancel refuses a running task whose lease has ended."""

    def cancel(self, task_id):
        t = self._task(task_id)
        if t.status == RUNNING and t.lease_until <= float(self.clock()):
            return False
        return super().cancel(task_id)


class GetForgetsCancelled(MemoryLedger):
    """After a cancel, ``get`` of that task raises UnknownTask."""

    def get(self, task_id):
        if self._task(task_id).status == CANCELLED:
            raise UnknownTask(task_id)
        return super().get(task_id)


def _found(cls, **scope):
    x = explore(lambda clock: cls(clock=clock), **scope)
    assert not x.certified and x.result is not None
    return x


def _line(story, words):
    (line,) = [sentence for sentence in story if words in sentence]
    return line


def test_is_a_wrongful_heartbeat_refusal_told_as_one():
    x = _found(HeartbeatRefusedOnce, tasks=2, workers=2, steps=2, max_faults=1)
    line = _line(x.story, "heartbeat on t0002 is refused")
    assert "(a correct ledger accepts it)" in line and "already committed" not in line
    zh = _line(tell(x.result, lang="zh"), "t0002 的心跳被拒绝（")
    assert "正确的账本会接受它" in zh and "已经提交过" not in zh
    assert [f.letter for f in x.result.findings] == ["s"]


def test_is_a_wrongful_cancel_refusal_told_as_one():
    x = _found(CancelRefusesExpired, tasks=1, workers=1, steps=1, max_faults=2)
    line = _line(x.story, "tries to cancel")
    assert "though it is running: a correct ledger cancels it" in line
    assert "already running" not in line
    zh = _line(tell(x.result, lang="zh"), "试图取消")
    assert "正确的账本会取消它" in zh and "已经处于" not in zh


def test_does_an_accepted_cancel_stay_in_the_history_when_the_read_after_it_raises():
    x = _found(GetForgetsCancelled, tasks=1, workers=1, steps=1, max_faults=1)
    history = x.result.history
    (ok,) = [e for e in history if e.op == "cancel" and e.type == "ok"]
    (raised,) = [e for e in history if e.op == "read" and "raised" in e.value][:1]
    assert ok.index < raised.index and ok.epoch is None and raised.process == "user"
    assert "a user cancels t0001; the ledger accepts it." in _line(x.story, "cancels")
    assert not any("left no trace" in sentence for sentence in x.story)
    assert {f.letter for f in x.result.findings} == {"x"}
    assert all("raised UnknownTask" in v for v in x.result.violations)


def test_does_the_agents_own_cancel_stay_in_the_history_when_the_read_after_it_raises():
    # the agent cancels a task its review stopped (needs-review), then reads it back
    from simlab.sim.scenario import Scenario
    from simlab.sim.simulation import simulate

    scenario = Scenario(workload="agent", doc_change_rate=0.1)
    for seed in range(1, 40):
        r = simulate(scenario, seed=seed, ledger=lambda clock: GetForgetsCancelled(clock=clock))
        oks = [e for e in r.history if e.op == "cancel" and e.type == "ok" and e.process != "user"]
        if oks:
            break
    assert oks, "no seed in 1..39 made the agent cancel"
    ok = oks[0]
    raised = [e for e in r.history if e.op == "read" and "raised" in str(e.value)]
    assert ok.value["reason"] == "needs-review" and ok.epoch is None
    assert any(e.index > ok.index and e.process == ok.process for e in raised)
    assert {f.letter for f in r.findings} == {"x"}
