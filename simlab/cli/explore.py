"""``simlab explore``: certify a ledger within a small scope, or show its shortest failing run.

``simlab explore [--tasks N] [--workers N] [--steps N] [--max-faults K] [--ttl X] [--max-attempts N]
[--effects last|all] [--pull] [--checkpoints] [--retries] [--releases] [--late]
[--variant fenced|unfenced|racy-claim]
[--db PATH|URL] [--no-dedup] [--json]`` searches every fault schedule of the scope breadth first
(:mod:`simlab.sim.explore`). Exit status 0 when certified, 1 with a counterexample (saved to
``--out``; its story printed, its picture drawn with ``--story``/``--timeline``), 2 for a usage
mistake, 3 when ``--time-limit`` stopped it and 130 after Ctrl-C (neither is ever a
certificate). The time limit holds inside a ledger call that never returns: the command arms the
real timer (:class:`~simlab.sim.timeup.Alarm`), which cuts a run still going :data:`STUCK`
seconds past the limit; that run is named, saved to ``--out`` and given a replay command.
``--lang zh`` prints the verdict, and says a usage mistake, in Chinese.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from pathlib import Path

from simlab.cli.args import (
    Switch,
    UsageError,
    integer,
    non_negative_int,
    positive_int,
    positive_number,
    writable_file,
)
from simlab.cli.explore_words import WORDS
from simlab.cli.stuck import GRACE, ended_when_stuck
from simlab.errors import LedgerError, SettingError
from simlab.sim.faults import LATE_CALL, LOST_REPLY
from simlab.sim.scenario import EFFECTS, VARIANTS
from simlab.sim.story_words import describe_in
from simlab.sim.timeup import Alarm

__all__ = ["register", "certificate_line", "stopped_line"]

#: Exit statuses besides 0 (certified), 1 (counterexample) and 2 (usage mistake).
TIME_LIMIT, INTERRUPTED = 3, 130
#: Seconds past ``--time-limit`` after which a run still going is taken as stuck (a run takes
#: milliseconds): the alarm cuts it there, and the answer names the ledger call in progress.
STUCK = 1.0


#: The scope's e-mailing steps other than the default (the last), as the certificate says them
#: (``Scenario.effects``).
_EFFECTS_SAID = {
    "en": {"all": "every", "none": "no"},
    "zh": {"all": "每个步骤都", "none": "没有步骤"},
}


#: The scope's modes that are off unless their flag is given, and what each flag does.
_MODE_FLAGS = {
    "--pull": "workers take the oldest claimable task with claim_next instead of claiming the "
    "task a message names, and the client submits a health probe first: the search judges what "
    "claim_next answers [off]",
    "--checkpoints": "every save carries a checkpoint (the completing save none) and every claim "
    "shows the one its lease hands back: the search judges the checkpoints the ledger keeps "
    "[off]",
    "--retries": f"a call's reply may be lost (fault {LOST_REPLY.name} at every submit, "
    "cancel, heartbeat, e-mail record, save and release) and its caller resends the same call: "
    "the search judges the answers to resent calls [off]",
    "--releases": "a worker that wakes from a pause before its save after its lease's end "
    "releases the task: the search judges what release answers [off]",
    "--late": f"the network may hold a worker's e-mail record, heartbeat or save (fault "
    f"{LATE_CALL.name} "
    "at every one): the worker's call times out, it gives the task back, and the held call "
    "reaches the ledger a reply timeout later: the search judges the answers to calls that "
    "land after their sender released the task [off]",
}
#: The names of those modes, as the scope and ``explore`` spell them.
_MODES = tuple(flag.removeprefix("--") for flag in _MODE_FLAGS)


def _scope_words(scope: dict, lang: str) -> str:
    words = WORDS[lang]["scope"]
    said = words.format(t=scope["tasks"], w=scope["workers"], st=scope["steps"], v=scope["variant"])
    said += WORDS[lang]["ttl"].format(ttl=scope["ttl"])  # every scope names its ttl
    if scope.get("max_attempts") is not None:
        said += WORDS[lang]["limit"].format(a=scope["max_attempts"])
    if scope.get("effects") is not None:
        said += WORDS[lang]["effects"].format(e=_EFFECTS_SAID[lang][scope["effects"]])
    for mode in _MODES:
        if scope.get(mode):
            said += WORDS[lang][mode]
    return said


def _figures(x, lang: str) -> dict:
    """The search's counts, each said with its noun as ``lang`` says a count, and its time."""
    w = WORDS[lang]

    def said(count: int, noun: str) -> str:
        return w[f"{noun}.1" if count == 1 else f"{noun}.n"].format(n=f"{count:,}")

    return {
        "n": said(x.schedules, "schedules"),
        "m": said(x.states, "states"),
        "s": f"{x.seconds:.1f}",
    }


def _faults(n: int, lang: str) -> str:
    """``n`` faults, said as ``lang`` says a count."""
    return WORDS[lang]["faults.0" if n == 0 else "faults.1" if n == 1 else "faults.n"].format(n=n)


def _passed(covered: int, lang: str) -> str:
    """What passed when every schedule of at most ``covered`` faults (0 or more) passed."""
    w = WORDS[lang]
    return w["passed"].format(faults=_faults(covered, lang)) if covered else w["passed.0"]


def certificate_line(x, lang: str = "en") -> str:
    """The verdict's first line, in ``lang``: a certificate, a counterexample or a stop. A
    count of faults is said as a count (1 fault, 2 faults), and none as a run without faults."""
    w = WORDS[lang]
    scope = _scope_words(x.scope, lang)
    if x.certified:
        k = x.scope["max_faults"]
        if not k:
            return w["certified.0"].format(scope=scope, **_figures(x, lang))
        return w["certified"].format(k=_faults(k, lang), scope=scope, **_figures(x, lang))
    if x.faults == 0:
        return w["found.0"].format(scope=scope, **_figures(x, lang))
    if x.faults is not None:
        f, passed = _faults(x.faults, lang), _passed(x.covered, lang)
        return w["found"].format(f=f, scope=scope, passed=passed, **_figures(x, lang))
    return stopped_line(x, lang)


def stopped_line(x, lang: str = "en") -> str:
    """What a stopped search covered."""
    w, why = WORDS[lang], x.stopped or "interrupted"
    if x.covered < 0:
        return w[f"{why}.none"]
    return w[why].format(passed=_passed(x.covered, lang), **_figures(x, lang))


def _timing_line(x, lang: str) -> str:
    w = WORDS[lang]
    sep = "、" if lang == "zh" else ", "
    horizon = sep.join(f"{h:g}" for h in x.scope["horizon"].values()) or "-"
    return w["timing"].format(
        seeds=sep.join(str(s) for s in x.scope["seeds"]),
        lengths=sep.join(f"{n:g}" for n in x.lengths),
        horizon=horizon,
        dedup=w["dedup"] if x.scope["dedup"] else "",
    )


def _unsearched_line(x, lang: str) -> str | None:
    """The modes of the callers this answer did not search (each off unless its flag is
    given), said as the scope says them, each with its flag; None when every mode was on."""
    w = WORDS[lang]
    said = [
        w["unsearched.mode"].format(words=w[mode].strip(", （）"), flag=flag)
        for flag, mode in zip(_MODE_FLAGS, _MODES, strict=True)
        if not x.scope.get(mode)
    ]
    if not said:
        return None
    return w["unsearched"].format(modes=("、" if lang == "zh" else ", ").join(said))


def _db_factory(db: str, variant: str, made: list[str]):
    """A fresh ledger per run over ``--db``: the SQLite file at PATH made anew each run (the
    last run's stays for inspection; an existing file is refused at the start), or a new schema
    per run in the PostgreSQL database a URL names (each dropped when the search ends)."""
    from simlab.cli.args import new_file
    from simlab.ledger.connect import connect, is_postgres_url, sqlite_path

    chapter = variant != "fenced"
    if is_postgres_url(db):
        from simlab.ledger.postgres.probes import create_schema

        base = f"simlab_explore_{uuid.uuid4().hex[:8]}"

        def pg(clock):
            name = f"{base}_{len(made)}"
            target = create_schema(db, name)
            made.append(name)
            return connect(target, clock=clock, chapter=chapter)

        return pg
    try:
        path = new_file(sqlite_path(db), "--db")
    except ValueError as exc:
        raise UsageError("db", why=str(exc)) from None

    def fresh(clock):
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        return connect(str(path), clock=clock, chapter=chapter)

    return fresh


def _handle_explore(args: argparse.Namespace) -> int:
    from simlab.sim.explore import explore

    out = writable_file(args.out, "--out")
    story_png = writable_file(args.story, "--story") if args.story else None
    timeline_png = writable_file(args.timeline, "--timeline") if args.timeline else None
    if args.db and args.jobs > 1:
        raise UsageError("explore_jobs")
    made: list[str] = []
    factory = _db_factory(args.db, args.variant, made) if args.db else None
    bar = _Bar(quiet=args.quiet or args.json)
    # The real timer is this command's: the library counts time only on the clock it is given,
    # between runs; the alarm cuts a run still going STUCK seconds later.
    alarm = Alarm(args.time_limit + STUCK) if args.time_limit is not None else None
    stuck = ended_when_stuck(alarm if args.jobs == 1 else None, lambda: _stuck(args))
    try:
        with stuck:
            x = explore(
                factory,
                tasks=args.tasks,
                workers=args.workers,
                steps=args.steps,
                max_faults=args.max_faults,
                variant=args.variant,
                dedup=not args.no_dedup,
                seeds=args.seeds,
                first_seed=args.seed,
                lengths=args.lengths,
                time_limit=args.time_limit,
                progress=bar.update,
                jobs=args.jobs,
                max_attempts=args.max_attempts,
                effects=args.effects,
                ttl=args.ttl,
                alarm=alarm,
                **{mode: getattr(args, mode) for mode in _MODES},
            )
    except LedgerError as exc:
        raise UsageError("db", why=str(exc)) from None
    except SettingError:
        raise  # the command line names the settings as its flags
    except ValueError as exc:
        raise UsageError.passed_on(exc) from None
    finally:
        bar.close()
        if made:
            _drop(args.db, made)
    if x.faults is not None:
        x.result.schedule.save(out)
        x.schedule_file = str(out)
        # over a ledger of the caller's own, the command would refuse the file: Python's call
        x.replay = x.result.replay if x.result.own_ledger else f"simlab simulate --schedule {out}"
        if story_png is not None:
            from simlab.plots.story import save_story_png

            save_story_png(x.result, story_png)
        if timeline_png is not None:
            from simlab.plots.files import save_timeline_png

            save_timeline_png(x.result, timeline_png)
    elif x.stopped_schedule is not None:  # the run the time limit cut, to replay alone
        x.stopped_schedule.save(out)
        x.schedule_file = str(out)
        x.replay = f"simlab simulate --schedule {out} --time-limit {args.time_limit:g}"
    _in_language(x, args.lang)
    if args.json:
        print(json.dumps(x.to_dict(), ensure_ascii=False))
    else:
        _print_text(x, args.lang, story_png, timeline_png)
    if x.certified:
        return 0
    if x.faults is not None:
        return 1
    return TIME_LIMIT if x.stopped == "time-limit" else INTERRUPTED


def _stuck(args: argparse.Namespace) -> int:
    """Say that the time limit stopped a search whose ledger call took no signal (the process
    is ended next: :mod:`simlab.cli.stuck`); :data:`TIME_LIMIT`."""
    if args.json:
        print(json.dumps({"certified": False, "stopped": "time-limit", "in_progress": None}))
    else:
        print(WORDS[args.lang]["time-limit.stuck"].format(grace=GRACE))
    return TIME_LIMIT


def _drop(db: str, names: list[str]) -> None:
    from simlab.ledger.postgres.probes import drop_schema

    for name in names:
        try:
            drop_schema(db, name)
        except LedgerError:
            pass  # the server went away: nothing more can be cleaned


def _print_text(x, lang: str, story_png: Path | None, timeline_png: Path | None) -> None:
    w = WORDS[lang]
    print(certificate_line(x, lang))
    print("  " + _timing_line(x, lang))
    if x.faults is None and (unsearched := _unsearched_line(x, lang)):
        print("  " + unsearched)
    if x.faults is None:
        if story_png is not None or timeline_png is not None:
            print("  " + w["nothing drawn"])
        if x.in_progress is not None:
            _print_cut(x, lang)
        return
    for n, fault in enumerate(x.result.schedule.faults, start=1):
        print(w["fault"].format(n=n, fault=describe_in(fault, lang)))
    print(w["story"])
    for sentence in x.story or []:
        print(f"  {sentence}")
    print(w["schedule"].format(path=x.schedule_file))
    for what, path in (("story picture", story_png), ("timeline", timeline_png)):
        if path is not None:
            print(w[what].format(path=path))
    print(w["replay"].format(command=x.replay))


def _print_cut(x, lang: str) -> None:
    """Where the time limit's alarm rang: the ledger call in progress, the run's faults, its
    saved schedule and the command that replays it."""
    from simlab.checker.operations import at

    w, cut = WORDS[lang], x.in_progress
    said = dict(seed=cut["seed"], faults=_faults(len(cut["faults"]), lang))
    if "call" not in cut:
        print("  " + w["cut.none"].format(**said))
    else:
        name = "cut" if cut["task"] is not None else "cut.untasked"
        print("  " + w[name].format(process=cut["process"], call=cut["call"], task=cut["task"],
                                    t=at(cut["time"]), **said))  # fmt: skip
    for n, fault in enumerate(cut["faults"], start=1):
        print(w["fault"].format(n=n, fault=describe_in(fault, lang)))
    if x.schedule_file is not None:
        print(w["schedule"].format(path=x.schedule_file))
        print(w["replay"].format(command=x.replay))


def _in_language(x, lang: str) -> None:
    """The counterexample's story and findings in ``lang`` (the search tells them in English)."""
    if lang == "en" or x.result is None:
        return
    from simlab.sim.story import tell

    x.story = tell(x.result, lang=lang)
    x.findings = [f.text(lang) for f in x.result.findings]


class _Bar:
    """A progress bar on stderr, one per number of faults (tqdm), unless quiet."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet or not sys.stderr.isatty()
        self.level = -1
        self.bar = None

    def update(self, level: int, done: int, total: int) -> None:
        if self.quiet:
            return
        if level != self.level:
            self.close()
            from tqdm import tqdm

            self.level = level
            self.bar = tqdm(total=total, desc=f"{level} fault(s)", unit="run", leave=False)
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _lengths(text: str) -> list[float]:
    return [positive_number(part.strip()) for part in text.split(",")]


def _add_scope(p: argparse.ArgumentParser) -> None:
    """The options of ``simlab explore`` that set its scope: its sizes, the faults a schedule
    holds, the lease length asked, the e-mailing steps, the callers' modes, the limit on
    attempts and the variant."""
    p.add_argument("--tasks", type=positive_int, default=2, metavar="N", help="tasks submitted [2]")
    p.add_argument(
        "--workers", type=positive_int, default=2, metavar="N", help="worker processes [2]"
    )
    p.add_argument("--steps", type=positive_int, default=2, metavar="N", help="steps per task [2]")
    p.add_argument(
        "--max-faults",
        type=non_negative_int,
        default=2,
        metavar="K",
        help="faults per schedule [2]",
    )
    p.add_argument(
        "--effects",
        choices=EFFECTS,
        default="last",
        help="the steps of a task that send an e-mail: all shows the order of a task's keys "
        "(effects() lists them in the order recorded) [last]",
    )
    for flag, says in _MODE_FLAGS.items():
        p.add_argument(flag, action=Switch, default=False, help=says)
    p.add_argument(
        "--ttl",
        type=positive_number,
        metavar="X",
        help="the lease length the workers ask for: a ledger that ignores the ttl it is given "
        "shows only under one other than its own [3, the simulator's default]",
    )
    p.add_argument(
        "--max-attempts",
        type=positive_int,
        metavar="N",
        help="the ledger's limit on the claims of one task, past which a claim moves the task "
        "to the dead letter [no limit: no task may go dead]",
    )
    p.add_argument(
        "--variant",
        choices=VARIANTS,
        default="fenced",
        help=f"ledger variant: {', '.join(VARIANTS)} [fenced]",
    )


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "explore",
        help="certify a ledger within a small scope, or find its shortest failing run",
        description=(
            "Search every fault schedule of at most --max-faults faults over --tasks x "
            "--workers x --steps, breadth first, replaying the simulator over the ledger and "
            "checking each run. Either every schedule passes (a certificate, exit 0) or the "
            "first failing one has the fewest faults (its story, a saved schedule and a replay "
            "command, exit 1). --time-limit stops it with exit 3, Ctrl-C with 130; neither "
            "certifies. The same scope always gives the same answer."
        ),
        epilog=(
            "What a certificate covers: the arrivals and step times of the seeds searched, the "
            "pause lengths listed, faults before the scope's horizon, and (without --no-dedup) "
            "ledgers whose behaviour depends only on the observable state. See "
            "docs/simulator.md."
        ),
    )
    _add_scope(p)
    p.add_argument(
        "--db",
        metavar="PATH|URL",
        help="explore over a SQLite file at PATH (made anew for each run; an existing file is "
        "refused) or over new schemas in the PostgreSQL database at postgresql://URL [an "
        "in-memory SQLite ledger]",
    )
    p.add_argument(
        "--no-dedup",
        action="store_true",
        help="search every schedule, even past a state already explored",
    )
    p.add_argument("--seed", type=integer, default=1, help="the seed whose timing is used [1]")
    p.add_argument(
        "--seeds",
        type=positive_int,
        default=1,
        metavar="N",
        help="search this many seeds from --seed [1]",
    )
    p.add_argument(
        "--lengths",
        type=_lengths,
        default=[0.5, 1.5, 4.0],
        metavar="A,B,...",
        help="pause lengths, in units of the ttl [0.5,1.5,4]",
    )
    p.add_argument(
        "--time-limit",
        type=positive_number,
        default=None,
        metavar="S",
        help="stop after S s of wall-clock time (exit 3, never a certificate); a run still "
        "going 1 s later, a ledger call that never returns, is cut and saved to --out",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=positive_int,
        default=1,
        metavar="N",
        help="share each number of faults among N processes; the answer is the same [1]",
    )
    p.add_argument(
        "--out",
        default="explore-schedule.json",
        metavar="FILE.json",
        help="where a counterexample's schedule is saved [explore-schedule.json]",
    )
    p.add_argument("--story", metavar="FILE.png", help="draw a counterexample's story picture")
    p.add_argument("--timeline", metavar="FILE.png", help="draw a counterexample's timeline")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--lang",
        choices=("en", "zh"),
        default="en",
        help="language of the verdict, the story, the help and the usage mistakes [en]",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_handle_explore)
