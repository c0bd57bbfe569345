"""What the command line says of a mistake a command finds itself, after parsing, by ID
(``cli_mistakes.<key>``), in English (``EN``) and Chinese (``ZH``): a file that cannot be read or
written, options that contradict each other, a value the command refuses; the frame of the line
(``simlab COMMAND: error: ...``) and the few lines a command ends on with another status.

``str.format`` templates: a command raises :class:`~simlab.cli.args.UsageError` with a key and
its values, and :func:`simlab.cli.language.mistake_says` fills the template of the language
chosen. A field named ``why`` holds text another part of the kit wrote (a library's exception),
said in Chinese when :mod:`simlab.cli.causes` knows it. Flags, names, paths and values stay as
they are in both languages.
"""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    # the frame
    "error": "simlab {command}: error: {message}",
    "interrupted": "simlab: interrupted",
    "grade_line": "simlab grade: {message}",
    "and": " and ",
    "cause": "{why}",
    # output files (every command)
    "file_exists": "{flag} {path}: the file exists; give a new path (runs never mix)",
    "no_folder": "{flag} {path}: folder {folder!r} does not exist",
    "folder_not_writable": "{flag} {path}: folder {folder!r} is not writable",
    "is_folder": "{flag} {path}: is a folder",
    "cannot_write_there": "{flag} {path}: cannot write there",
    "cannot_write": "cannot write {path}: {why}",
    "cannot_write.folder": "cannot write {path}: it is a folder",
    "cannot_write.denied": "cannot write {path}: permission denied",
    "cannot_write.no_folder": "cannot write {path}: no such folder",
    # options that go together or not
    "option_of": "{flag} is an option of {mode}",
    "needs": "{flag} needs {other}",
    # simulate, sweep, shrink, explore, demo
    "db": "--db: {why}",
    "schedule": "--schedule {why}",
    "schedule_drop": "--schedule takes the scenario and seed from the file; drop {flag}",
    "sweep_fault": "--fault {fault}: unknown fault; choose one of {known}",
    "sweep_variant": "--variants {v}: unknown variant; choose one of {known}",
    "sweep_rates": "--rates needs at least one rate",
    "sweep_rate": "--rates: {rate} is not a probability in [0, 1]",
    "sweep_seeds": "--seeds must be >= 1, got {seeds}",
    "explore_jobs": "--jobs: one process per ledger with --db (a run makes its ledger anew)",
    "demo_url": "--db must be a postgresql:// URL, got {db!r}",
    "demo_processes": "--processes must be at least 2: a race needs two runners",
    # bench
    "bench_ledger": "-n and --rounds must be positive",
    "bench_explore": "--rounds and --jobs must be positive and --faults at least 0",
    "bench_sim": "--rounds must be positive, --bare not negative",
    "bench_notebook": "no such notebook: {notebook}",
    "bench_grade": "--rounds, --batch-rounds and --jobs must be positive, --copies >= 0",
    "bench_queue": "--queue measures one notebook and at least one copy",
    "bench_jail": "cannot measure jailed grading: {why}",
    "bench_seeds": "--rounds and --seeds must be positive",
    "bench_variant": "unknown variant {v!r}; choose one of {known}",
    # backup, golden, canary, health
    "backup_no_ledger": "--db {db}: no such ledger file (a backup never creates one)",
    "golden_runs": "--runs must be at least 1, got {runs}",
    "health_timeout": "--timeout must be a positive number of seconds, got {timeout}",
    # translate
    "translate_root": "no notebooks/ or solutions/ in {root!r} (run from the repository root)",
    "translate_write": "--write goes with --todo",
    "translate_both": "choose --check or --todo, not both",
    "translate_failed": "translation check failed: {n} problem(s); 'simlab translate --todo "
    "NOTEBOOK' lists the text to translate",
    "translate_needed": "needs translating: {n} problem(s); 'simlab translate --todo NOTEBOOK' "
    "lists the text to translate",
    # grade, build-exercises
    "no_exercise": "no exercise {exercise!r}; choose one of {known}",
    "no_sandbox": "refusing to grade without a sandbox: {why} (or grade your own work unjailed "
    "with --no-sandbox)",
    "late_policy": "--late-policy needs --deadline TIME (or --extension, or a roster's deadline "
    "column)",
    "no_solutions": "no solutions folder {folder!r} (run from the repository root)",
    "build_problem": "problem: {why}",
    "build_stale": "exercises are out of date: run 'simlab build-exercises'",
    "grade_paths": "give notebooks or folders to grade (or {hint})",
    "grade_no_path": "no such file or folder: {path}",
    "grade_no_notebooks": "no notebooks (*.ipynb) found in {paths}",
    "nbgrader_paths": "--nbgrader COURSE_DIR takes no PATH: the course holds them",
    "mode_nbgrader": "{mode} takes no --nbgrader: the queue holds the submissions",
    "timestamp": "--submitted-at timestamp reads nbgrader's timestamp.txt: give --nbgrader",
    "submitted_at": "--submitted-at is read when the submissions are enqueued",
    "term_worker": "{option} is given to the grading command or to --report",
    "rubric_course": "--rubric prints a rubric; it takes no course or deadline",
    "no_submission": "no submission of {assignment!r} in {folder} ({n} student folder(s))",
    "deadline": "--deadline {why}",
    "extension_form": "--extension {text!r}: write ID=TIME, as jdoe=2026-12-03T23:59:59Z",
    "extension_time": "--extension {sid}: {why}",
    "term_student.roster": "{option}: no student {sid!r} in {roster}",
    "term_student.paths": "{option}: no student {sid!r} in the paths given",
    "term_student.queue": "{option}: no student {sid!r} in the queue",
    "stored_deadline": "the queue's stored deadline cannot be read: {why}",
    "untimed": "simlab grade: warning: no submission times (give --nbgrader COURSE_DIR or "
    "--submitted-at mtime): the deadline penalizes no one",
    "why_override": "--why is the reason of an --override (or a --clear-override)",
    "override_alone": "{flag} only changes the queue: give it alone (with --queue DB and "
    "--roster FILE)",
    "override_why": "--override needs --why TEXT: the reason, shown with the points",
    "override_student.roster": "no student {student!r} in the roster {roster} nor the queue",
    "override_student.queue": "no student {student!r} in the queue (give --roster FILE to name "
    "students by their IDs)",
    "override_none": "{student} has no override of {exercise}/{qid} to clear",
    "history_student": "no student {student!r} in the queue: give the ID as --json prints it",
    "history_student.hint": "no student {student!r} in the queue: give the ID as --json "
    "prints it (with --roster FILE, the roster's ID)",
    "rubric_queue": "--rubric prints a rubric; it does not take --queue",
    "modes_exclude": "{modes} exclude each other",
    "mode_paths": "{flag} takes no PATH: the queue holds the submissions",
    "canvas_roster": "--canvas FILE needs --roster FILE (the class's students)",
    "grade_interrupted": "simlab grade: interrupted: {n} submission(s) handed back to the queue; "
    "run the same command to resume",
    "canvas_form": '--canvas-assignment {text!r}: write EXERCISE="Title (id)", the '
    "assignment's name and its Canvas ID as the gradebook export shows them",
    "canvas_exercise": "--canvas-assignment: no exercise {exercise!r}; choose one of {known}",
    "canvas_twice": "--canvas-assignment names {exercise} twice",
}

ZH = {
    "error": "simlab {command}：错误：{message}",
    "interrupted": "simlab：已中断",
    "grade_line": "simlab grade：{message}",
    "and": "、",
    "cause": "{why}",
    "file_exists": "{flag} {path}：文件已存在；请给一个新路径（不同运行的文件从不混用）",
    "no_folder": "{flag} {path}：文件夹 {folder!r} 不存在",
    "folder_not_writable": "{flag} {path}：文件夹 {folder!r} 不可写",
    "is_folder": "{flag} {path}：这是一个文件夹",
    "cannot_write_there": "{flag} {path}：无法写入该位置",
    "cannot_write": "无法写入 {path}：{why}",
    "cannot_write.folder": "无法写入 {path}：这是一个文件夹",
    "cannot_write.denied": "无法写入 {path}：权限不足",
    "cannot_write.no_folder": "无法写入 {path}：文件夹不存在",
    "option_of": "{flag} 是 {mode} 的选项",
    "needs": "{flag} 需要 {other}",
    "db": "--db：{why}",
    "schedule": "--schedule {why}",
    "schedule_drop": "--schedule 从文件中读取场景和种子；请去掉 {flag}",
    "sweep_fault": "--fault {fault}：未知的故障；可选：{known}",
    "sweep_variant": "--variants {v}：未知的 variant；可选：{known}",
    "sweep_rates": "--rates 至少需要一个比率",
    "sweep_rate": "--rates：{rate} 不是 [0, 1] 内的概率",
    "sweep_seeds": "--seeds 必须 >= 1，而不是 {seeds}",
    "explore_jobs": "--jobs：使用 --db 时每个账本一个进程（每次运行都重新建立它的账本）",
    "demo_url": "--db 必须是 postgresql:// URL，而不是 {db!r}",
    "demo_processes": "--processes 至少为 2：竞争需要两个运行者",
    "bench_ledger": "-n 和 --rounds 必须是正数",
    "bench_explore": "--rounds 和 --jobs 必须是正数，--faults 至少为 0",
    "bench_sim": "--rounds 必须是正数，--bare 不能是负数",
    "bench_notebook": "没有这个 notebook：{notebook}",
    "bench_grade": "--rounds、--batch-rounds 和 --jobs 必须是正数，--copies >= 0",
    "bench_queue": "--queue 只测量一个 notebook，且至少一份副本",
    "bench_jail": "无法测量沙箱中的评分：{why}",
    "bench_seeds": "--rounds 和 --seeds 必须是正数",
    "bench_variant": "未知的 variant {v!r}；可选：{known}",
    "backup_no_ledger": "--db {db}：没有这个账本文件（备份从不新建账本）",
    "golden_runs": "--runs 至少为 1，而不是 {runs}",
    "health_timeout": "--timeout 必须是正的秒数，而不是 {timeout}",
    "translate_root": "{root!r} 中没有 notebooks/ 或 solutions/（请在仓库根目录下运行）",
    "translate_write": "--write 要与 --todo 一起给出",
    "translate_both": "--check 和 --todo 只能选一个",
    "translate_failed": "翻译检查未通过：{n} 个问题；'simlab translate --todo NOTEBOOK' "
    "列出要翻译的文本",
    "translate_needed": "需要翻译：{n} 个问题；'simlab translate --todo NOTEBOOK' 列出要翻译的文本",
    "no_exercise": "没有练习 {exercise!r}；可选：{known}",
    "no_sandbox": "拒绝在没有沙箱的情况下评分：{why}（或用 --no-sandbox 在沙箱外给自己的作业评分）",
    "late_policy": "--late-policy 需要 --deadline TIME（或 --extension，或名单的 deadline 列）",
    "no_solutions": "没有 solutions 文件夹 {folder!r}（请在仓库根目录下运行）",
    "build_problem": "问题：{why}",
    "build_stale": "练习已过时：请运行 'simlab build-exercises'",
    "grade_paths": "请给出要评分的 notebook 或文件夹（或 {hint}）",
    "grade_no_path": "没有这个文件或文件夹：{path}",
    "grade_no_notebooks": "在 {paths} 中没有找到 notebook（*.ipynb）",
    "nbgrader_paths": "--nbgrader COURSE_DIR 不接受 PATH：课程里已有提交",
    "mode_nbgrader": "{mode} 不接受 --nbgrader：提交都在队列里",
    "timestamp": "--submitted-at timestamp 读取 nbgrader 的 timestamp.txt：请给出 --nbgrader",
    "submitted_at": "--submitted-at 在提交入队时读取",
    "term_worker": "{option} 应交给评分命令或 --report",
    "rubric_course": "--rubric 只打印评分标准；它不接受课程或截止时间",
    "no_submission": "{folder} 中没有 {assignment!r} 的提交（{n} 个学生文件夹）",
    "deadline": "--deadline {why}",
    "extension_form": "--extension {text!r}：请写成 ID=TIME，如 jdoe=2026-12-03T23:59:59Z",
    "extension_time": "--extension {sid}：{why}",
    "term_student.roster": "{option}：{roster} 中没有学生 {sid!r}",
    "term_student.paths": "{option}：给出的路径中没有学生 {sid!r}",
    "term_student.queue": "{option}：队列中没有学生 {sid!r}",
    "stored_deadline": "无法读取队列中保存的截止时间：{why}",
    "untimed": "simlab grade：警告：没有提交时间（请给出 --nbgrader COURSE_DIR 或 "
    "--submitted-at mtime）：截止时间不会扣任何人的分",
    "why_override": "--why 是 --override（或 --clear-override）的理由",
    "override_alone": "{flag} 只修改队列：请单独给出它（带上 --queue DB 和 --roster FILE）",
    "override_why": "--override 需要 --why TEXT：理由，与分数一起显示",
    "override_student.roster": "名单 {roster} 和队列中都没有学生 {student!r}",
    "override_student.queue": "队列中没有学生 {student!r}（给出 --roster FILE 即可用学号指明学生）",
    "override_none": "{student} 没有可清除的 {exercise}/{qid} 改分",
    "history_student": "队列中没有学生 {student!r}：请按 --json 打印的样子给出 ID",
    "history_student.hint": "队列中没有学生 {student!r}：请按 --json 打印的样子给出 ID"
    "（给了 --roster FILE 时，用名单中的 ID）",
    "rubric_queue": "--rubric 只打印评分标准；它不接受 --queue",
    "modes_exclude": "{modes} 不能同时给出",
    "mode_paths": "{flag} 不接受 PATH：提交都在队列里",
    "canvas_roster": "--canvas FILE 需要 --roster FILE（全班的学生）",
    "grade_interrupted": "simlab grade：已中断：{n} 份提交已交还队列；运行同一命令即可继续",
    "canvas_form": '--canvas-assignment {text!r}：请写成 EXERCISE="Title (id)"，'
    "即成绩册导出中显示的作业名称和 Canvas ID",
    "canvas_exercise": "--canvas-assignment：没有练习 {exercise!r}；可选：{known}",
    "canvas_twice": "--canvas-assignment 两次指定了 {exercise}",
}
