"""What the kit's libraries say of a mistake the command line passes on, found by its English
(``cli_causes.<key>``), in English (``EN``) and Chinese (``ZH``): a schedule file that cannot be
replayed, a ledger or grading queue that cannot be opened, a roster, a deadline, a late policy, an
override or an nbgrader course that cannot be read, a common reason of the system's, and each
problem ``simlab translate --check`` names.

The libraries raise these in English (their text is their API, and the simulator's and the
ledger's are not the command line's to change); each English template here is one of their
messages, a ``{field}`` where the message holds a value. :func:`simlab.cli.language.cause_in`
finds the template whose English a message is and says it in the language chosen, the values
kept as the English has them; a field named ``why`` holds another such message (said the same
way), and a message no template here matches stays English. Text a library quotes from outside
the kit (the JSON parser's, the database server's) stays as it is. A setting that makes no sense
inside a schedule file is found by the templates of :mod:`simlab.cli.messages` (``setting.*``),
the ones the command line says of a flag.
"""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    # the system's reasons (an OSError's strerror)
    "os.no_file": "No such file or directory",
    "os.denied": "Permission denied",
    "os.is_folder": "Is a directory",
    "os.not_folder": "Not a directory",
    "os.read_only": "Read-only file system",
    # a schedule file (simlab.sim.schedule)
    "schedule.no_file": "{path}: no such file",
    "schedule.unreadable": "{path}: cannot read it ({error})",
    "schedule.json": "{path}: not JSON ({error}, line {line})",
    "schedule.in": "{path}: {why}",
    "schedule.object": "expected a JSON object with seed, scenario and faults",
    "schedule.key": "unknown key {key} (expected seed, scenario, faults)",
    "schedule.seed": "seed must be an integer, got {seed}",
    "schedule.faults": "faults must be a list",
    "schedule.repeats": "fault {i} repeats fault {j} ({fault})",
    "schedule.scenario": "scenario must be a JSON object of Scenario fields",
    "schedule.field": "scenario: unknown field {name}",
    "schedule.fault": "fault {i}: expected an object with a kind, got {fault}",
    "schedule.kind": "fault {i}: unknown kind {kind}; choose one of {known}",
    "schedule.fault_field": "fault {i} ({kind}): unknown field {name}",
    "schedule.missing": "fault {i} ({kind}): missing field {name}",
    "schedule.fault_why": "fault {i} ({kind}): {why}",
    "schedule.scenario_why": "scenario: {why}",
    "fault.task": "no task {task} in a run of {n} tasks",
    "fault.call": "no call {call}; choose one of {known}",
    "fault.doc": "no document {doc}; choose one of {known}",
    "fault.count": "{name} must be an integer >= 0, got {value}",
    "fault.step": "step {step} does not exist (steps are 0 to {last})",
    "fault.finite": "{name} must be a finite number, got {value}",
    "fault.time": "{name} is a time and must be >= 0, got {value}",
    "fault.fraction": "fraction must be in [0, 1), got {value}",
    "fault.factor": "factor must be >= 1, got {value}",
    "fault.email": "step {step} sends no e-mail in this scenario",
    "fault.keys": "without idempotency keys no e-mail key is recorded",
    "fault.agent": "document edits need workload 'agent'",
    "fault.retries": "a lost reply needs callers that resend (retries)",
    "fault.late": "a late call needs workers that give a task back when a call times out (late), "
    "and is an e-mail record, a heartbeat or a save (call effect, heartbeat or save)",
    # a ledger (simlab.ledger)
    "ledger.url": "unknown ledger {target}: give a path, ':memory:', sqlite:///PATH or "
    "postgresql://...",
    "ledger.create": "{url}: cannot create schema {name}: {error}",
    "ledger.drop": "{url}: cannot drop schema {name}: {error}",
    "ledger.open": "cannot open ledger {target}: {error}",
    "ledger.missing": "{path} does not exist",
    "ledger.not_ours": "{path} is a SQLite database but not a simlab ledger (it has no "
    "schema_migrations table); it was left untouched",
    "ledger.version": "{path} has schema version {version}, this simlab expects {expected}: not a "
    "simlab ledger",
    # an optional part (simlab.extras)
    "extra": "{module} is not installed ({why}): pip install 'simlab[{name}]'",
    "extra.postgres": "PostgreSQL ledgers and grading queues, postgresql:// URLs",
    "extra.app": "the classroom app, make app: the dashboard served as a page",
    # a grading queue (simlab.grading.queue_store, simlab.grading.queue)
    "queue.none": "no grading queue {path}: the file does not exist",
    "queue.memory": "an in-memory ledger holds no grading queue",
    "queue.holds_none": "{url} holds no grading queue",
    "queue.not": "not a grading queue: {why}",
    "queue.cannot_open": "cannot open {url}: {error}",
    "queue.ledger": "{where} is a simlab ledger but not a grading queue",
    "queue.tasks": "{where} is a simlab ledger with tasks of its own, not a grading queue; give "
    "a new file or an empty database",
    "queue.version": "the queue holds submissions for grader version {theirs}, this machine's "
    "grader is {version}: run the same simlab code here",
    "queue.how": "the queue's submissions are to be graded {how}: say the same",
    # a roster (simlab.grading.roster)
    "roster.utf8": "cannot read the roster {path}: it is not UTF-8 text (save it as CSV UTF-8)",
    "roster.read": "cannot read the roster {path}: {why}",
    "roster.columns": "the roster {path} needs the columns Student and ID, and notebook (one row "
    "per submission) or SIS Login ID (Canvas's gradebook export)",
    "roster.no_id": "the roster {path}, line {n}: {name} has no ID",
    "roster.two_students": "the roster {path} gives the ID {sid} to two students",
    "roster.login": "the roster {path} gives the SIS login ID {login} twice",
    "roster.notebook": "the roster {path} names {key} twice",
    "roster.empty": "the roster {path} lists no students",
    "roster.deadline": "the roster {path}, line {n}: deadline {why}",
    "roster.deadlines": "the roster {path}, line {n}: {sid} has two deadlines",
    # a time and a late policy (simlab.grading.lateness)
    "late.iso": "{text} is not an ISO 8601 time: write it as 2026-12-01T23:59:59+08:00 (or ...Z "
    "for UTC)",
    "late.zone": "{text} has no time zone: write it with one, as 2026-12-01T23:59:59+08:00 (or "
    "...Z for UTC)",
    "late.policy": "--late-policy {text}: write P%/day[,cap=C%][,cutoff=Dd], for example "
    "10%/day,cap=50%,cutoff=7d",
    "late.cap": "--late-policy {text}: write P%/day[,cap=C%][,cutoff=Dd], for example "
    "10%/day,cap=50%,cutoff=7d (cap given twice)",
    "late.cutoff": "--late-policy {text}: write P%/day[,cap=C%][,cutoff=Dd], for example "
    "10%/day,cap=50%,cutoff=7d (cutoff given twice)",
    "late.percent": "--late-policy {text}: a percent is at most 100%",
    # an override (simlab.grading.overrides)
    "override.question": "{text}: write the question as EXERCISE/QUESTION, as --json prints "
    "them (e.g. fencing/cancel-limits)",
    "override.exercise": "no exercise {exercise}; choose one of {known}",
    "override.no_question": "no question {question} in {exercise}; choose one of {known}",
    "override.points": "points {text}: give a number from 0 to {most} (the question's maximum), "
    "with at most 2 decimals",
    # an nbgrader course (simlab.grading.nbgrader)
    "course.assignment": "--assignment {name}: give the assignment's folder name",
    "course.not": "{path} is not an nbgrader course: it has no folder submitted/ (run nbgrader "
    "collect first)",
    "course.read": "cannot read {path}: {why}",
    # feedback pages (simlab.grading.queue_report)
    "pages.folder": "cannot write feedback pages in {path}: {why}",
    "pages.page": "cannot write the page of {student} ({path}): {why}",
    # the sandbox (simlab.grading.sandbox.jail)
    "jail.none": "no sandbox tool: install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)",
    "jail.tool": "{tool} is missing: install util-linux",
    "jail.run": "bubblewrap could not run ({error})",
    "jail.machine": "bubblewrap cannot run simlab in a sandbox on this machine: {error}",
    # the notebooks to translate and their stores (simlab.i18n.build, simlab.i18n.store)
    "translate.notebook": "no English notebook {name} in notebooks/ or solutions/",
    "store.cell": "{path}: cell {key} is not an object",
    "store.strings": "{path}: cell {key} needs the strings 'en_hash' and 'zh'",
    "store.todo": "{path}: cell {key}: 'todo' must be a string",
    "store.keys": "{path}: cell {key} has unknown keys: {keys}",
    "store.read": "{path}: cannot read ({why})",
    "store.json": "{path}: not valid JSON ({error})",
    "store.cells": "{path}: not a translation store (no 'cells' object)",
    "store.comments": "{path}: 'comments' must map each English comment to its Chinese",
    # what simlab translate --check finds (simlab.i18n.build, simlab.i18n.rubric)
    "check.status": "{where}: {why}",
    "check.cell": "{notebook} cell {cell}: {why}",
    "check.rubric": "rubric {exercise} text {key}: {why}",
    "check.no_table": "catalog {name} has no {table} dict",
    "check.no_lang": "{id} has no {lang} template",
    "check.fields": "{id}: the languages' fields differ: {fields}",
    "check.punctuation": "catalog {id}: not full-width punctuation: {text}",
    "check.missing": "no translation",
    "check.pending": "translation not finished (fill 'zh', then delete 'todo', in {store})",
    "check.changed": "the English text changed since it was translated (en_hash differs)",
    "check.no_id": "{notebook} cell #{index}: no cell id (nbformat 4.5 needs one)",
    "check.id_twice": "{notebook} cell {cell}: the cell id is used twice",
    "check.untranslated": "{notebook}: not translated yet (no {store}; start with 'simlab "
    "translate --todo {name} --write')",
    "check.rubric_untranslated": "rubric {exercise}: not translated yet (no {store}; start with "
    "'simlab translate --todo {name} --write')",
    "check.gone": "{store}: cell {cell} is not a markdown cell of {notebook} any more",
    "check.not_markdown": "{store}: cell {cell} of {notebook} is not a markdown cell",
    "check.comment": "{notebook} cell {cell}: comment not translated: {comment}",
    "check.comment_gone": "{store}: comment {comment} is in no code cell of {notebook} any more",
    "check.stale": "{path}: out of date (run 'simlab translate')",
    "check.not_generated": "{path}: not generated (run 'simlab translate')",
    "check.orphan": "{path}: no English notebook or translation makes it (run 'simlab "
    "translate' to remove it)",
    "check.text_gone": "{store}: text {key} is not in the rubric of {exercise} any more",
    "check.quote": "rubric {exercise} text {key}: the quote is not in the markdown of "
    "{notebook}: {quote}",
    # a canary's settings (simlab.rollout.canary), each named by its flag
    "canary.positive": "{flag} must be positive, got {value}",
    "canary.at_least": "{flag} must be at least {n}, got {value}",
    "canary.zero_or_more": "{flag} must be zero or more, got {value}",
    "canary.in": "{flag} must be in {interval}, got {value}",
    "canary.three": "{flag} must be three numbers in [0, 1], got {values}",
    # an agent version (simlab.rollout.versions)
    "version": "unknown version {spec}: use one of {known} or FRAMEWORK/MODEL with FRAMEWORK in "
    "{frameworks} and MODEL in {models}",
}

ZH = {
    "os.no_file": "没有这个文件或目录",
    "os.denied": "权限不足",
    "os.is_folder": "这是一个目录",
    "os.not_folder": "不是目录",
    "os.read_only": "只读文件系统",
    "schedule.no_file": "{path}：没有这个文件",
    "schedule.unreadable": "{path}：无法读取（{error}）",
    "schedule.json": "{path}：不是 JSON（{error}，第 {line} 行）",
    "schedule.in": "{path}：{why}",
    "schedule.object": "应为包含 seed、scenario 和 faults 的 JSON 对象",
    "schedule.key": "未知的键 {key}（应为 seed、scenario、faults）",
    "schedule.seed": "seed 必须是整数，而不是 {seed}",
    "schedule.faults": "faults 必须是列表",
    "schedule.repeats": "故障 {i} 与故障 {j} 重复（{fault}）",
    "schedule.scenario": "scenario 必须是由 Scenario 字段组成的 JSON 对象",
    "schedule.field": "scenario：未知的字段 {name}",
    "schedule.fault": "故障 {i}：应为带 kind 的对象，而不是 {fault}",
    "schedule.kind": "故障 {i}：未知的 kind {kind}；可选：{known}",
    "schedule.fault_field": "故障 {i}（{kind}）：未知的字段 {name}",
    "schedule.missing": "故障 {i}（{kind}）：缺少字段 {name}",
    "schedule.fault_why": "故障 {i}（{kind}）：{why}",
    "schedule.scenario_why": "scenario：{why}",
    "fault.task": "共 {n} 个任务的运行中没有任务 {task}",
    "fault.call": "没有调用 {call}；可选：{known}",
    "fault.doc": "没有文档 {doc}；可选：{known}",
    "fault.count": "{name} 必须是 >= 0 的整数，而不是 {value}",
    "fault.step": "步骤 {step} 不存在（步骤为 0 到 {last}）",
    "fault.finite": "{name} 必须是有限的数字，而不是 {value}",
    "fault.time": "{name} 是时间，必须 >= 0，而不是 {value}",
    "fault.fraction": "fraction 必须在 [0, 1) 内，而不是 {value}",
    "fault.factor": "factor 必须 >= 1，而不是 {value}",
    "fault.email": "在这个场景中步骤 {step} 不发送邮件",
    "fault.keys": "没有幂等键，就不会记录邮件键",
    "fault.agent": "文档修改需要 workload 'agent'",
    "fault.retries": "丢失的回复需要会重发的调用方（retries）",
    "fault.late": "迟到的调用需要调用超时后交还任务的 worker（late），且只能是邮件记录、心跳或保存"
    "（call 为 effect、heartbeat 或 save）",
    "ledger.url": "未知的账本 {target}：请给出路径、':memory:'、sqlite:///PATH 或 postgresql://...",
    "ledger.create": "{url}：无法创建 schema {name}：{error}",
    "ledger.drop": "{url}：无法删除 schema {name}：{error}",
    "ledger.open": "无法打开账本 {target}：{error}",
    "ledger.missing": "{path} 不存在",
    "ledger.not_ours": "{path} 是 SQLite 数据库，但不是 simlab 账本（没有 schema_migrations 表）；"
    "未做任何改动",
    "ledger.version": "{path} 的 schema 版本是 {version}，这个 simlab 需要 {expected}："
    "不是 simlab 账本",
    "extra": "{module} 没有安装（{why}）：pip install 'simlab[{name}]'",
    "extra.postgres": "PostgreSQL 账本和评分队列，postgresql:// URL",
    "extra.app": "课堂应用 make app：以网页形式提供的仪表盘",
    "queue.none": "没有评分队列 {path}：文件不存在",
    "queue.memory": "内存中的账本不含评分队列",
    "queue.holds_none": "{url} 不含评分队列",
    "queue.not": "不是评分队列：{why}",
    "queue.cannot_open": "无法打开 {url}：{error}",
    "queue.ledger": "{where} 是 simlab 账本，但不是评分队列",
    "queue.tasks": "{where} 是带有自己任务的 simlab 账本，不是评分队列；请给出新文件或空数据库",
    "queue.version": "队列中的提交属于评分器版本 {theirs}，本机的评分器是 {version}："
    "请在这里运行同样的 simlab 代码",
    "queue.how": "队列中的提交要求这样评分：{how}；请给出同样的设置",
    "roster.utf8": "无法读取名单 {path}：不是 UTF-8 文本（请另存为 CSV UTF-8）",
    "roster.read": "无法读取名单 {path}：{why}",
    "roster.columns": "名单 {path} 需要 Student 和 ID 列，以及 notebook 列（每份提交一行）或 "
    "SIS Login ID 列（Canvas 的成绩册导出）",
    "roster.no_id": "名单 {path} 第 {n} 行：{name} 没有 ID",
    "roster.two_students": "名单 {path} 把 ID {sid} 给了两个学生",
    "roster.login": "名单 {path} 两次给出 SIS login ID {login}",
    "roster.notebook": "名单 {path} 两次列出 {key}",
    "roster.empty": "名单 {path} 中没有学生",
    "roster.deadline": "名单 {path} 第 {n} 行：deadline {why}",
    "roster.deadlines": "名单 {path} 第 {n} 行：{sid} 有两个截止时间",
    "late.iso": "{text} 不是 ISO 8601 时间：请写成 2026-12-01T23:59:59+08:00（UTC 写作 ...Z）",
    "late.zone": "{text} 没有时区：请带上时区，如 2026-12-01T23:59:59+08:00（UTC 写作 ...Z）",
    "late.policy": "--late-policy {text}：请写成 P%/day[,cap=C%][,cutoff=Dd]，例如 "
    "10%/day,cap=50%,cutoff=7d",
    "late.cap": "--late-policy {text}：请写成 P%/day[,cap=C%][,cutoff=Dd]，例如 "
    "10%/day,cap=50%,cutoff=7d（cap 给了两次）",
    "late.cutoff": "--late-policy {text}：请写成 P%/day[,cap=C%][,cutoff=Dd]，例如 "
    "10%/day,cap=50%,cutoff=7d（cutoff 给了两次）",
    "late.percent": "--late-policy {text}：百分比至多为 100%",
    "override.question": "{text}：请把题目写成 EXERCISE/QUESTION，与 --json 打印的一样"
    "（例如 fencing/cancel-limits）",
    "override.exercise": "没有练习 {exercise}；可选：{known}",
    "override.no_question": "{exercise} 中没有题目 {question}；可选：{known}",
    "override.points": "分数 {text}：请给出 0 到 {most}（该题满分）之间的数，至多两位小数",
    "course.assignment": "--assignment {name}：请给出作业的文件夹名",
    "course.not": "{path} 不是 nbgrader 课程：没有 submitted/ 文件夹（请先运行 nbgrader collect）",
    "course.read": "无法读取 {path}：{why}",
    "pages.folder": "无法在 {path} 中写入反馈页面：{why}",
    "pages.page": "无法写入 {student} 的页面（{path}）：{why}",
    "jail.none": "没有沙箱工具：请安装 bubblewrap（Debian/Ubuntu：apt-get install bubblewrap）",
    "jail.tool": "缺少 {tool}：请安装 util-linux",
    "jail.run": "bubblewrap 无法运行（{error}）",
    "jail.machine": "bubblewrap 无法在这台机器上用沙箱运行 simlab：{error}",
    "translate.notebook": "notebooks/ 或 solutions/ 中没有英文 notebook {name}",
    "store.cell": "{path}：单元格 {key} 不是对象",
    "store.strings": "{path}：单元格 {key} 需要字符串 'en_hash' 和 'zh'",
    "store.todo": "{path}：单元格 {key}：'todo' 必须是字符串",
    "store.keys": "{path}：单元格 {key} 有未知的键：{keys}",
    "store.read": "{path}：无法读取（{why}）",
    "store.json": "{path}：不是有效的 JSON（{error}）",
    "store.cells": "{path}：不是翻译存储文件（没有 'cells' 对象）",
    "store.comments": "{path}：'comments' 必须把每条英文注释映射到它的中文",
    "check.status": "{where}：{why}",
    "check.cell": "{notebook} 单元格 {cell}：{why}",
    "check.rubric": "评分标准 {exercise} 文本 {key}：{why}",
    "check.no_table": "目录 {name} 没有 {table} 字典",
    "check.no_lang": "{id} 没有 {lang} 模板",
    "check.fields": "{id}：各语言的字段不同：{fields}",
    "check.punctuation": "目录 {id}：标点不是全角：{text}",
    "check.missing": "没有翻译",
    "check.pending": "翻译未完成（在 {store} 中填好 'zh'，再删除 'todo'）",
    "check.changed": "翻译之后英文原文改了（en_hash 不同）",
    "check.no_id": "{notebook} 第 #{index} 个单元格：没有单元格 ID（nbformat 4.5 需要）",
    "check.id_twice": "{notebook} 单元格 {cell}：单元格 ID 用了两次",
    "check.untranslated": "{notebook}：尚未翻译（没有 {store}；从 'simlab translate --todo "
    "{name} --write' 开始）",
    "check.rubric_untranslated": "评分标准 {exercise}：尚未翻译（没有 {store}；"
    "从 'simlab translate --todo {name} --write' 开始）",
    "check.gone": "{store}：单元格 {cell} 已不再是 {notebook} 的 markdown 单元格",
    "check.not_markdown": "{store}：{notebook} 的单元格 {cell} 不是 markdown 单元格",
    "check.comment": "{notebook} 单元格 {cell}：注释没有翻译：{comment}",
    "check.comment_gone": "{store}：注释 {comment} 已不在 {notebook} 的任何代码单元格中",
    "check.stale": "{path}：已过时（请运行 'simlab translate'）",
    "check.not_generated": "{path}：尚未生成（请运行 'simlab translate'）",
    "check.orphan": "{path}：没有英文 notebook 或翻译生成它（运行 'simlab translate' 即可删除）",
    "check.text_gone": "{store}：文本 {key} 已不在 {exercise} 的评分标准中",
    "check.quote": "评分标准 {exercise} 文本 {key}：引文不在 {notebook} 的 markdown 中：{quote}",
    "canary.positive": "{flag} 必须是正数，而不是 {value}",
    "canary.at_least": "{flag} 至少为 {n}，而不是 {value}",
    "canary.zero_or_more": "{flag} 必须是零或正数，而不是 {value}",
    "canary.in": "{flag} 必须在 {interval} 内，而不是 {value}",
    "canary.three": "{flag} 必须是 [0, 1] 内的三个数，而不是 {values}",
    "version": "未知的版本 {spec}：请用 {known} 之一，或 FRAMEWORK/MODEL，其中 FRAMEWORK 取 "
    "{frameworks}，MODEL 取 {models}",
}
