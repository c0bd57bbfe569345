"""Chinese for the hidden checks' sentences of simlab/grading/checks/leases/.

The ledger pieces of exercises 01-02: claims, races, heartbeats, effects, the worker loop.
"""

from __future__ import annotations

__all__ = ["PATTERNS"]

PATTERNS: tuple[tuple, ...] = (
    (
        r"two workers claiming at the same moment both got the task: another claim ran between "
        r"two statements of yours \(make the claim one atomic statement\)",
        "两个 worker 在同一时刻领取,都拿到了任务:另一"
        "次领取插在了你的两条语句之间(把领取写成一条原子语句)",
    ),
    (
        r"two workers claimed a free task at the same moment and neither got it",
        "两个 worker 同一时刻领取一个空闲任务,结果谁都没拿到",
    ),
    (
        r"neither worker got an expired task when two claimed it",
        "两个 worker 领取一个租约已过期的任务,谁都没拿到",
    ),
    (r"the race could not be run", "无法重放这场竞争"),
    (
        r"after another claim ran between its statements, your claim returned a lease of worker "
        r"(?P<w>.+): it read back a row it did not write",
        "另一次领取插在你的语句之间后,你的领取返回了 wor"
        "ker {w} 的租约:它读回了一行不是自己写的数据",
    ),
    (
        r"a cancel ran between two statements of your claim, and the claim returned a lease the "
        r"cancel should have ended \(make the claim one atomic statement\)",
        "一次取消插在了你领取的两条语句之间,而领取返回了一个本应被"
        "这次取消终结的租约(把领取写成一条原子语句)",
    ),
    (
        r"a cancel ran between two statements of your claim, and the claim raised (?P<kind>\w+) "
        r"\(make the claim one atomic statement\)",
        "一次取消插在了你领取的两条语句之间,而领取抛出了 {kind}(把领取写成一条原子语句)",
    ),
    (
        r"with faults on, (?P<what>your [\w-]+(?: and \w+| code)?) broke a rule: (?P<story>.+)",
        "开启故障后,{what} 违反了一条规则(缩减后的经过,英文):{story}",
        (),
        ("what",),
    ),
    (
        r"with faults on, (?P<what>your [\w-]+(?: and \w+| code)?) let (?P<n>\d+) e-mail\(s\) "
        r"go out twice",
        "开启故障后,{what} 让 {n} 封邮件发出了两次",
        (),
        ("what",),
    ),
    (r"the duplicate delivery could not be run", "无法重放这次重复投递"),
    (
        r"the same step delivered twice within one round trip was recorded (?P<n>\d+) time\(s\): "
        r"another record_effect ran between two statements of yours",
        "同一步在一次往返之内被投递了两次,被记录了 {n} 次:"
        "另一次 record_effect 插在了你的两条语句之间",
    ),
    (
        r"a worker crashed between record_effect and the send, and the retry sent again "
        r"\((?P<n>\d+) e-mails\): record the effect before sending",
        "worker 在 record_effect 和发送之间崩溃,重试又发了一次(共 {n} 封邮件):先记录副作用,再发送",
    ),
    (
        r"the task was cancelled during its last step and your loop returned (?P<a>.+) while the "
        r"ledger says (?P<b>.+): check what save returns",
        "任务在最后一步中被取消,你的循环返回了 {a},而账本记录的是 {b}:要检查 save 的返回值",
    ),
    (
        r"a claim while another lease is live must raise LeaseHeld, but it (?P<how>.+)",
        "另一个租约仍有效时,领取必须抛出 LeaseHeld,但它{how}",
        ("how",),
    ),
    (
        r"LeaseHeld must name the worker holding the live lease, not the worker whose claim was "
        r"refused",
        "LeaseHeld 必须指明持有有效租约的 worker,而不是领取被拒绝的那个 worker",
    ),
    (r"LeaseHeld must carry the holder's lease_until", "LeaseHeld 必须带上持有者的 lease_until"),
    (
        r"a lease extended by a heartbeat must still be held, but it (?P<how>.+)",
        "被心跳延长的租约必须仍然有效,但它{how}",
        ("how",),
    ),
    (r"returned (?P<kind>\w+)", "返回了 {kind}"),
    (r"raised (?P<kind>\w+)", "抛出了 {kind}"),
    (r"a stale lease's heartbeat returned True", "陈旧租约的心跳返回了 True"),
    (
        r"a task saved at step (?P<s>\d+) was worked from step (?P<f>.+) \(calls (?P<c>.+)\), "
        r"expected (?P<e>.+)",
        "一个已保存到 step {s} 的任务从 step {f} 开始工作(调用了 {c}),应为 {e}",
    ),
    (
        r"after a crash and a retry of step (?P<s>\d+), (?P<n>\d+) e-mails were sent \(expected "
        r"exactly 1\)",
        "崩溃并重试 step {s} 之后,发出了 {n} 封邮件(应当恰好 1 封)",
    ),
    (
        r"after requeue and a new claim, the pre-cancel epoch could commit again \(requeue must "
        r"keep the epoch\)",
        "重新入队并再次领取后,取消前的 epoch 仍能提交(requeue 必须保留 epoch)",
    ),
    (
        r"after requeue, a new claim did not get a higher epoch",
        "重新入队后,新的领取没有得到更高的 epoch",
    ),
    (
        r"(?P<fn>\w+)\(\) of a (?P<st>\w+) task returned (?P<got>.+), expected (?P<want>\w+)",
        "对状态为 {st} 的任务调用 {fn}() 返回了 {got},应为 {want}",
    ),
    (
        r"recording the same key twice returned True \(a retry would send again\)",
        "同一个键记录两次却返回了 True(重试时会再发一次)",
    ),
    (
        r"steps 0 and 1 must each send their own e-mail \(one key per task and step\)",
        "step 0 和 step 1 必须各自发送自己的邮件(每个任务的每一步一个键)",
    ),
    (
        r"your claim never returned a lease in the races the grader replays",
        "在评分器重放的竞争中,你的领取一次也没有返回租约",
    ),
)
