"""Chinese for the hidden checks' sentences of simlab/grading/checks/leases/.

The ledger pieces of exercises 01-02: claims, races, heartbeats, effects, the worker loop.
"""

from __future__ import annotations

import re

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

# -- the generated sequences of ledger operations (checks/leases/operations.py) ----------------
_WHY = r"(?P<why>a newer lease holds the task|the task is not running|the key was already recorded)"
_WHY_ZH = "{why}"
#: Phrases the sentences below name, each translated on its own (a nested group).
_PHRASES = {
    "a newer lease holds the task": "已有更新的租约持有该任务",
    "the task is not running": "任务已不在运行",
    "the key was already recorded": "这个键已经记录过了",
    "cancel": "取消",
    "takeover": "接管",
    "changed the task": "修改了任务",
    "recorded the key": "记录了这个键",
    "no checkpoint": "没有检查点",
    "a checkpoint of its output": "检查点是它的输出",
    "released it": "释放了它",
    "its lease ran out": "它的租约到期了",
    "a user cancels t1": "用户取消了 t1",
    "another worker takes t1 over": "另一个 worker 接管了 t1",
}
PATTERNS += tuple((re.escape(en), zh) for en, zh in _PHRASES.items())
PATTERNS += (
    (r"a checkpoint that says step (?P<s>\d+)", "检查点写着 step {s}"),
    (r"the clock moves (?P<n>\d+) s on", "时钟前进 {n} 秒"),
    (r"the clock reaches the end of the lease on (?P<t>\w+)", "时钟恰好走到 {t} 租约的到期时刻"),
    (r"a user cancels (?P<t>\w+)", "用户取消了 {t}"),
    (r"a user requeues (?P<t>\w+)", "用户把 {t} 重新入队"),
    (r"lease (?P<n>\d+) saves step (?P<s>\d+) as done", "租约 {n} 保存 step {s} 并标记完成"),
    (r"lease (?P<n>\d+) saves step (?P<s>\d+)", "租约 {n} 保存 step {s}"),
    (r"lease (?P<n>\d+) releases (?P<t>\w+)", "租约 {n} 释放了 {t}"),
    (r"lease (?P<n>\d+) heartbeats", "租约 {n} 发送心跳"),
    (r"lease (?P<n>\d+) records (?P<k>\w+)", "租约 {n} 记录 {k}"),
    (
        r"(?P<w>\w+) claims (?P<t>\w+) for (?P<ttl>[\d.]+) s \(lease (?P<n>\d+)\)",
        "{w} 领取 {t},时长 {ttl} 秒(租约 {n})",
    ),
    (
        r"(?P<w>\w+) claims (?P<t>\w+) for (?P<ttl>[\d.]+) s \(refused\)",
        "{w} 领取 {t},时长 {ttl} 秒(被拒绝)",
    ),
    (
        r"your claim took (?P<t>\w+) although its lease was still live",
        "你的领取拿走了 {t},而它的租约仍然有效",
    ),
    (r"your claim took (?P<t>\w+) although it was (?P<st>\w+)", "你的领取拿走了 {t},而它已是 {st}"),
    (r"your claim gave (?P<x>.+), expected (?P<k>\w+)", "你的领取给出了 {x},应为 {k}"),
    (
        r"your LeaseHeld did not name the holder and its lease_until",
        "你的 LeaseHeld 没有指明持有者及其 lease_until",
    ),
    (
        r"your claim refused a lease that ran out at this very moment \(it may be taken once "
        r"lease_until <= now\)",
        "你的领取拒绝了一个恰好此刻到期的租约(lease_until <= now 时就可以被接管)",
    ),
    (
        r"your claim refused (?P<t>\w+) although it was free to claim",
        "你的领取拒绝了 {t},而它本可以被领取",
    ),
    (
        r"your claim gave epoch (?P<x>.+) while the task was at epoch (?P<e>\d+) \(a claim "
        r"raises it by one\)",
        "你的领取给出了 epoch {x},而任务当时的 epoch 是 {e}(领取要把它加一)",
    ),
    (
        r"after your claim the task is not running under the new lease",
        "你的领取之后,任务并没有在新租约下运行",
    ),
    (
        r"your claim returned a lease whose (?P<f>\w+) is (?P<x>.+), expected (?P<y>.+)",
        "你的领取返回的租约中 {f} 为 {x},应为 {y}",
    ),
    (
        r"after your (?P<who>claim|heartbeat) the task's (?P<f>\w+) is (?P<x>.+), expected "
        r"(?P<y>.+)",
        "你的 {who} 之后,任务的 {f} 为 {x},应为 {y}",
    ),
    (
        r"after your claim the task's (?P<f>\w+) is (?P<x>.+)",
        "你的领取之后,任务的 {f} 为 {x}",
    ),
    (
        r"your heartbeat of lease (?P<n>\d+) returned True but " + _WHY,
        "租约 {n} 的心跳返回了 True,但" + _WHY_ZH,
        ("why",),
    ),
    (
        r"your heartbeat of lease (?P<n>\d+) changed the task but " + _WHY,
        "租约 {n} 的心跳修改了任务,但" + _WHY_ZH,
        ("why",),
    ),
    (r"your heartbeat changed the task's (?P<f>\w+)", "你的心跳修改了任务的 {f}"),
    (
        r"your heartbeat of lease (?P<n>\d+) gave (?P<x>.+) though it holds the task",
        "租约 {n} 仍持有任务,你的心跳却给出了 {x}",
    ),
    (r"your record_effect changed the task", "你的 record_effect 修改了任务"),
    (
        r"your record_effect changed or removed a key already recorded",
        "你的 record_effect 修改或删除了一个已记录的键",
    ),
    (
        r"your record_effect of lease (?P<n>\d+) recorded (?P<k>\w+) but " + _WHY,
        "租约 {n} 的 record_effect 记录了 {k},但" + _WHY_ZH,
        ("why",),
    ),
    (
        r"your record_effect of lease (?P<n>\d+) recorded another key than (?P<k>\w+)",
        "租约 {n} 的 record_effect 记录了 {k} 以外的键",
    ),
    (
        r"your record_effect of lease (?P<n>\d+) gave (?P<x>.+) for a new key of a live lease",
        "对于有效租约 {n} 的新键,你的 record_effect 给出了 {x}",
    ),
    (
        r"the row your record_effect stored has (?P<c>\w+) (?P<x>.+), expected (?P<y>.+)",
        "你的 record_effect 存下的行中 {c} 为 {x},应为 {y}",
    ),
    (
        r"a (?P<rival>cancel|takeover) ran between two statements of your "
        r"(?P<piece>heartbeat|record_effect) and it then (?P<did>changed the task|recorded the "
        r"key) \(make it one statement\)",
        "一次{rival}插在了你的 {piece} 的两条语句之间,之后它仍然{did}(把它写成一条语句)",
        ("rival", "did"),
    ),
    (
        r"a claim after lease_until must succeed with epoch 2 and a new lease_until",
        "lease_until 之后的领取必须成功,得到 epoch 2 和新的 lease_until",
    ),
)

# -- the generated starts and trouble of the worker loop (checks/leases/loops.py) ---------------
PATTERNS += (
    (r"t1 has (?P<n>\d+) steps?", "t1 共有 {n} 步"),
    (
        r"w0 saved step (?P<s>\d+) with (?P<cp>no checkpoint|a checkpoint of its output|a "
        r"checkpoint that says step \d+) and (?P<how>released it|its lease ran out)",
        "w0 保存了 step {s}({cp}),然后{how}",
        ("cp", "how"),
    ),
    (r"t1 is completed", "t1 已完成"),
    (r"t1 is cancelled", "t1 已取消"),
    (r"w0 holds a live lease on t1", "w0 持有 t1 的有效租约"),
    (
        r"(?P<who>a user cancels t1|another worker takes t1 over) during step (?P<s>\d+)",
        "{who}(在 step {s} 进行中)",
        ("who",),
    ),
    (
        r"(?P<who>a user cancels t1|another worker takes t1 over) right after step (?P<s>\d+) is "
        r"saved",
        "{who}(就在 step {s} 保存之后)",
        ("who",),
    ),
    (r"your loop runs", "你的循环开始运行"),
    (
        r"your loop worked another step after it lost the task",
        "你的循环在失去任务之后又做了一步",
    ),
    (
        r"your loop returned (?P<x>.+) after it lost the task",
        "你的循环在失去任务之后返回了 {x}",
    ),
    (
        r"your loop returned (?P<x>.+) for a task it may not claim",
        "对一个不能领取的任务,你的循环返回了 {x}",
    ),
    (r"your loop worked a task it may not claim", "你的循环处理了一个不能领取的任务"),
    (
        r"your loop worked steps (?P<a>.+), expected (?P<b>.+)",
        "你的循环做了 {a} 这些步,应为 {b}",
    ),
    (r"your loop returned (?P<x>.+), expected (?P<y>.+)", "你的循环返回了 {x},应为 {y}"),
    (
        r"after your loop the task's (?P<f>\w+) is (?P<x>.+), expected (?P<y>.+)",
        "你的循环之后,任务的 {f} 为 {x},应为 {y}",
    ),
)

# -- sentences of the case-by-case checks that a generated corpus answer reaches ----------------
PATTERNS += (
    (r"(?P<fn>\w+)\(\) raised (?P<k>\w+)", "{fn}() 抛出了 {k}"),
    (
        r"the recorded effect must carry the key, the lease's epoch and worker, and now",
        "记录下的副作用必须带上键、租约的 epoch 和 worker,以及当前时间",
    ),
    (
        r"after a claim the task must be running, epoch 1, worker set, attempts 1",
        "领取之后任务必须是 running、epoch 为 1、设置了 worker、attempts 为 1",
    ),
)
