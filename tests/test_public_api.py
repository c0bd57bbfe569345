"""Is the public surface small and true? ``simlab.__all__`` is the front door (what a learner
or instructor reaches for first), each public subpackage's ``__all__`` the rest; every name
listed resolves, a name served lazily is the module's own object, and the names the top package
exported before its list was narrowed are still served."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import simlab

SUBPACKAGES = ("ledger", "sim", "check", "agent", "release", "plots", "learn")


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


def test_are_the_names_that_left_the_front_door_still_served():
    from simlab.check.history import history_digest
    from simlab.errors import LeaseHeld
    from simlab.records import COMPLETED

    assert simlab.LeaseHeld is LeaseHeld
    assert simlab.history_digest is history_digest
    assert simlab.COMPLETED == COMPLETED
    for name in ("LeaseHeld", "history_digest", "COMPLETED", "run_step"):
        assert name not in simlab.__all__
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        simlab.nothing_here  # noqa: B018


def test_does_a_renamed_export_serve_the_original():
    from simlab.agent import load_checkpoint
    from simlab.agent.checkpoint import load
    from simlab.ledger import dict_claim, new_dict_state
    from simlab.ledger.dict_experiment import claim, new_state

    assert load_checkpoint is load
    assert dict_claim is claim and new_dict_state is new_state


def test_does_importing_simlab_leave_the_heavy_libraries_unloaded():
    code = (
        "import sys, simlab, simlab.ledger, simlab.release, simlab.agent;"
        "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'psycopg') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
