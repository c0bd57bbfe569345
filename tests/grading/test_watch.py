"""Does the sandbox's watch report a watched module's attribute replaced, whether the module was
loaded before the watch started or only after (simlab.grading.sandbox.watch)?"""

from __future__ import annotations

import sys

import pytest

from simlab.grading.sandbox import watch


@pytest.fixture
def kit(tmp_path, monkeypatch):
    """Two watched modules of a package of its own: ``early`` loaded before the watch starts,
    ``late`` not loaded at all."""
    package = tmp_path / "watched_kit"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in ("early", "late"):
        (package / f"{name}.py").write_text("def helper():\n    return 1\n\nVALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(watch, "WATCHED_MODULES", ("watched_kit.early", "watched_kit.late"))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    yield
    for name in ("watched_kit", "watched_kit.early", "watched_kit.late"):
        sys.modules.pop(name, None)


def test_is_a_module_loaded_after_the_watch_started_watched_as_one_loaded_before(kit):
    import watched_kit.early

    seen = watch.Watch()
    assert "watched_kit.late" not in sys.modules, "nothing is loaded for the watch"
    assert seen.report({}) == []
    import watched_kit.late  # loaded by the learner's code, replaced at once

    watched_kit.late.helper = lambda: 2
    watched_kit.early.VALUE = 2
    assert seen.report({}) == ["watched_kit.early.VALUE", "watched_kit.late.helper"]


def test_is_a_check_helper_of_a_module_never_loaded_reported_when_the_namespace_holds_one(
    kit, monkeypatch
):
    monkeypatch.setattr(watch, "WATCHED_NAMES", {"helper": "watched_kit.late"})
    seen = watch.Watch()
    assert seen.report({"helper": lambda: 1}) == ["helper"], "not the kit's: it was never loaded"
    import watched_kit.late

    assert seen.report({"helper": watched_kit.late.helper}) == []
    assert seen.report({"helper": lambda: 1}) == ["helper"]
