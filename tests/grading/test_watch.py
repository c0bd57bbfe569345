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


@pytest.fixture
def guarded(tmp_path, monkeypatch):
    """A package of its own guarded as the grader's code: ``early`` loaded before the guard
    records, ``late`` after."""
    package = tmp_path / "guarded_kit"
    package.mkdir()
    (package / "__init__.py").write_text("")
    source = (
        "def helper(x, k=1):\n    return x + k\n\n"
        "def outer():\n    seen = [1]\n    def inner():\n        return seen\n    return inner\n\n"
        "inner = outer()\n\n"
        "class Kit:\n    def read(self):\n        return 1\n"
    )
    for name in ("early", "late"):
        (package / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(watch, "GUARDED_PACKAGE", "guarded_kit")
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    import guarded_kit.early  # noqa: F401

    yield
    for name in ("guarded_kit", "guarded_kit.early", "guarded_kit.late"):
        sys.modules.pop(name, None)


def _replaced_in_place(module):
    """Every way of changing the grader's code without rebinding a module's name."""
    yield "code", lambda: setattr(module.helper, "__code__", (lambda x, k=1: 0).__code__)
    yield "defaults", lambda: setattr(module.helper, "__defaults__", (2,))
    yield "closure", lambda: setattr(module.inner.__closure__[0], "cell_contents", [])
    yield "method", lambda: setattr(module.Kit, "read", lambda self: 2)
    yield "added member", lambda: setattr(module.Kit, "__eq__", lambda self, other: True)
    yield "shadowing builtin", lambda: setattr(module, "isinstance", lambda *a: True)
    yield "name", lambda: setattr(module, "helper", lambda x, k=1: 0)


@pytest.mark.parametrize("late", [False, True])
@pytest.mark.parametrize("way", [w for w, _ in _replaced_in_place(None)])
def test_does_the_guard_see_the_graders_code_changed_in_every_way(guarded, late, way):
    guard = watch.Guard()
    if late:
        import guarded_kit.late as module
    else:
        import guarded_kit.early as module
    assert guard.changed() == [] and guard.changed(quick=True) == []
    dict(_replaced_in_place(module))[way]()
    changed = guard.changed()
    assert changed and all(name.startswith(module.__name__) for name in changed), changed


def test_does_the_guard_see_a_builtin_replaced_and_ignore_a_submodule_loaded(guarded, monkeypatch):
    guard = watch.Guard()
    import guarded_kit.late  # noqa: F401  (the package gains an attribute: not a change)

    assert guard.changed() == []
    monkeypatch.setattr("builtins.id", lambda obj: 0)
    assert guard.changed(quick=True) == ["builtins.id"]
