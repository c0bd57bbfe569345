"""The command line skips jsonschema's slow optional IRI checker (``rfc3987_syntax``, over a
second of CPU at import) while a command runs, and leaves the import system as it found it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from simlab.cli import SKIPPED_IMPORTS, skipped_imports


def test_is_a_skipped_module_unimportable_inside_and_importable_after():
    name = "simlab_test_module_that_is_not_there"
    with skipped_imports((name,)):
        assert sys.modules[name] is None
        with pytest.raises(ImportError):
            __import__(name)
    assert name not in sys.modules


def test_does_skipping_leave_an_already_imported_module_alone():
    with skipped_imports(("json",)):
        import json

        assert json.dumps([1]) == "[1]"
    assert sys.modules["json"] is json


def test_do_notebooks_read_and_validate_without_the_slow_checker():
    """In a fresh Python: nbformat imports and validates a notebook with the module skipped,
    the module was never loaded, and once the command is over it is importable again (nothing
    of the skip left in sys.modules, its spec found)."""
    code = (
        "import sys\n"
        "from simlab.cli import skipped_imports, SKIPPED_IMPORTS\n"
        "with skipped_imports():\n"
        "    import nbformat\n"
        "    nbformat.validate(nbformat.v4.new_notebook())\n"
        "assert not any(sys.modules.get(n) for n in SKIPPED_IMPORTS)\n"
        # importable again: no None left in sys.modules, a spec found on the import path (not
        # imported here: the import is the second of CPU the skip saves)
        "import importlib.util\n"
        "assert all(n not in sys.modules for n in SKIPPED_IMPORTS)\n"
        "assert all(importlib.util.find_spec(n) for n in SKIPPED_IMPORTS)\n"
        "print('ok')\n"
    )
    assert _fresh_python(code) == "ok"
    assert SKIPPED_IMPORTS == ("rfc3987_syntax",)


def test_does_building_the_command_line_leave_the_slow_checker_unloaded():
    """In a fresh Python: building every command's parser (outside the skip, before any
    command runs) does not import the checker, so no command pays for it."""
    code = (
        "import sys\n"
        "from simlab.cli import build_parser, SKIPPED_IMPORTS\n"
        "build_parser()\n"
        "print([n for n in SKIPPED_IMPORTS if n in sys.modules])\n"
    )
    assert _fresh_python(code) == "[]"


def _fresh_python(code: str) -> str:
    """What ``code`` prints in a fresh interpreter (it must succeed)."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()
