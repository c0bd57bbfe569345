"""Is the public surface small and true? ``simlab.__all__`` is the front door (what a learner
or instructor reaches for first), each public subpackage's ``__all__`` the rest; every name
listed resolves, a name served lazily is the module's own object, and the names the top package
served only for compatibility are gone, each one import away where the changelog says."""

from __future__ import annotations

import importlib
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import simlab

SUBPACKAGES = ("ledger", "sim", "checker", "agent", "rollout", "plots", "learn", "props", "testing")


def test_is_the_front_door_small():
    assert 15 <= len(simlab.__all__) <= 20, simlab.__all__
    assert len(set(simlab.__all__)) == len(simlab.__all__)
    for name in ("simulate", "Scenario", "check", "Ledger", "MemoryLedger", "timeline"):
        assert name in simlab.__all__, name


@pytest.mark.parametrize("package", ["simlab", *(f"simlab.{p}" for p in SUBPACKAGES)])
def test_does_every_listed_name_resolve_to_its_modules_object(package):
    module = importlib.import_module(package)
    assert module.__all__, package
    for name in module.__all__:
        value = getattr(module, name)
        assert name in dir(module), name
        home = getattr(value, "__module__", None)
        if home and home.startswith("simlab.") and callable(value):
            # a re-export is the defining module's object, never a copy or a wrapper
            assert getattr(importlib.import_module(home), value.__name__) is value, name


#: Where each name the front door no longer serves lives now (what CHANGELOG.md says).
HOMES = {
    **dict.fromkeys(("RacyClaimLedger", "TaskLedger", "LedgerError"), "simlab.ledger"),
    **dict.fromkeys(("UnknownTask", "TerminalTask", "LeaseHeld"), "simlab.ledger"),
    **dict.fromkeys(("Effect", "QUEUED", "RUNNING", "COMPLETED", "CANCELLED"), "simlab.records"),
    **dict.fromkeys(("DEAD", "STATUSES", "TERMINAL_STATUSES"), "simlab.records"),
    **dict.fromkeys(("dumps_jsonl", "loads_jsonl", "history_digest"), "simlab.checker.history"),
    "Shrunk": "simlab.sim.shrink",
    **dict.fromkeys(("Checkpoint", "CheckpointError", "resume_guard", "run_step"), "simlab.agent"),
    **dict.fromkeys(("needs_review", "reopen"), "simlab.agent"),
}


#: The chapter's props and the throwaway server, which 0.1.0 served from ``simlab.ledger``.
PROPS = ("dict_claim", "dict_commit", "new_dict_state", "cancel_story", "claim_race")
PROPS += ("resume_one_step",)
TESTING = ("throwaway_postgres", "PostgresUnavailable")
#: Modules 0.2.0 moved out of the ledger into the package of their concept: old -> new.
MOVED = {
    **{f"simlab.ledger.{m}": f"simlab.props.{m}" for m in ("demo", "processes")},
    **{f"simlab.ledger.{m}": f"simlab.props.{m}" for m in ("dict_experiment", "fenced_store")},
    "simlab.ledger.throwaway": "simlab.testing.throwaway",
    "simlab.ledger.broken": "simlab.grading.checks.fencing.broken",
    "simlab.cli.worker": "simlab.props.worker",
    "simlab.ledger.bench": "simlab.bench.ledger",
    "simlab.ledger.bench_schema": "simlab.bench.schema",
    **{f"simlab.sim.bench_{m}": f"simlab.bench.{m}" for m in ("explore", "mmc", "shrink")},
    "simlab.sim.bench": "simlab.bench.sim",
    "simlab.grading.bench": "simlab.bench.grading",
    "simlab.grading.queue_bench": "simlab.bench.queue",
}


#: Names 0.1.0 served only for compatibility, retired in 0.2.0 (CHANGELOG.md says where each
#: lives now): package -> names.
RETIRED = {
    "simlab": (*HOMES, "ChapterLedger"),  # ChapterLedger is RacyClaimLedger
    "simlab.ledger": ("ChapterLedger", "PostgresChapterLedger", *PROPS, *TESTING),
    "simlab.ledger.sqlite.racy": ("ChapterLedger",),
    "simlab.ledger.racy": ("ChapterPrimitives",),
    "simlab.ledger.connect": ("is_chapter_ledger",),
}


@pytest.mark.parametrize("package", sorted(RETIRED))
def test_are_the_retired_names_gone(package):
    module = importlib.import_module(package)
    for name in RETIRED[package]:
        assert not hasattr(module, name), f"{package}.{name}"
        assert name not in dir(module) and name not in getattr(module, "__all__", ()), name
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        simlab.nothing_here  # noqa: B018


def test_does_every_retired_name_of_the_front_door_live_one_import_away():
    for name, home in HOMES.items():
        assert hasattr(importlib.import_module(home), name), (name, home)


def test_does_the_changelog_say_what_became_what():
    log = (Path(__file__).resolve().parents[1] / "CHANGELOG.md").read_text()
    entry = log.split(f"## {simlab.__version__}\n")[1].split("\n## ")[0]
    for package, names in RETIRED.items():
        for name in names:
            assert re.search(rf"`{re.escape(package)}\.{name}`", entry), f"{package}.{name}"
    for name, home in HOMES.items():
        assert f"`{home}" in entry, (name, home)
    for old, new in MOVED.items():
        assert f"`{old}" in entry and f"`{new}" in entry, (old, new)
    for name in PROPS:
        assert hasattr(importlib.import_module("simlab.props"), name), name
    for name in TESTING:
        assert hasattr(importlib.import_module("simlab.testing"), name), name


@pytest.mark.parametrize("old", sorted(MOVED))
def test_does_a_moved_module_live_only_at_its_new_home(old):
    assert importlib.util.find_spec(old) is None, old
    assert importlib.util.find_spec(MOVED[old]) is not None, MOVED[old]


def test_does_a_renamed_export_serve_the_original():
    from simlab.agent import load_checkpoint
    from simlab.agent.checkpoint import load
    from simlab.props import dict_claim, new_dict_state
    from simlab.props.dict_experiment import claim, new_state

    assert load_checkpoint is load
    assert dict_claim is claim and new_dict_state is new_state


def test_does_importing_simlab_leave_the_heavy_libraries_unloaded():
    code = (
        "import sys, simlab, simlab.ledger, simlab.rollout, simlab.agent;"
        "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'psycopg') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.mark.skipif(
    importlib.util.find_spec("rfc3987_syntax") is None, reason="jsonschema's IRI checker absent"
)
def test_does_reading_a_notebook_leave_the_iri_parsers_unbuilt_and_iri_checks_whole():
    # nbformat imports jsonschema, which takes its "iri" format from rfc3987_syntax; the kit
    # puts a stand-in there, so neither building the command line nor reading and validating a
    # notebook builds that module's parsers, a check of the format still answers as the real
    # module does (loading it then), and the import system still finds the module's spec (a
    # test's skipif asks for it once the kit is imported).
    code = (
        "import sys, importlib.util, simlab, nbformat, jsonschema;"
        "assert importlib.util.find_spec('rfc3987_syntax').origin.endswith('__init__.py');"
        "from simlab.cli import build_parser; build_parser();"
        "nbformat.validate(nbformat.v4.new_notebook());"
        "stand_in = type(sys.modules['rfc3987_syntax']).__name__;"
        "loaded = 'lark' in sys.modules;"
        "fc = jsonschema.FormatChecker();"
        "answers = [fc.conforms(v, f) for v, f in [('http://e.org/a', 'iri'), "
        "('http://e .org', 'iri'), ('../a', 'iri-reference'), ('%zz', 'iri-reference')]];"
        "print(stand_in, loaded, answers, type(sys.modules['rfc3987_syntax']).__name__)"
    )
    assert _run(code) == "_StandIn False [True, False, True, False] module"


def test_does_a_stand_in_leave_an_imported_or_missing_module_alone():
    from simlab import lazy

    code = (
        "import sys, types;"
        "real = types.ModuleType('rfc3987_syntax'); sys.modules['rfc3987_syntax'] = real;"
        "import simlab.lazy as lazy;"
        "lazy.DEFERRED['simlab_no_such_module'] = ('f',);"
        "lazy.defer_unused();"
        "print(sys.modules['rfc3987_syntax'] is real, 'simlab_no_such_module' in sys.modules)"
    )
    assert _run(code) == "True False"
    assert lazy.DEFERRED, "nothing deferred: the test above would pass vacuously"
