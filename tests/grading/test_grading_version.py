"""Is the grader version a digest of what decides a grade, and does the kit grade right as
installed?

The version (:mod:`simlab.grading.version`) is read from the installed package alone: every file
under ``simlab/grading/`` and the kit modules the grading package imports, transitively. The
small tests build a package tree of their own and change one file at a time. The last test
builds a wheel of this checkout, installs it into a fresh virtual environment, and grades copies
of the shipped solutions and exercises there, with no checkout in sight: it proves the wheel
carries everything a grade needs (the hidden checks' data files included) and that the
installed kit has the checkout's version.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import simlab
from simlab.grading.checks import EXERCISES
from simlab.grading.version import REMEMBERED, grader_version, grading_files, version_of

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(simlab.__file__).resolve().parent

#: A package tree: a grading package whose checks import a reference module (lazily, inside a
#: function), which imports another (relatively); a package that serves a name from a module
#: it names in a string; a data file of the checks; a message catalog beside the module that
#: reads it; a cache; and a module (with a catalog) nothing imports.
FAKE = {
    "simlab/__init__.py": '"""The kit."""\n',
    "simlab/grading/__init__.py": '"""The grader."""\n',
    "simlab/grading/checks/__init__.py": (
        "def check():\n"
        "    from simlab.reference import answer\n"
        "    from simlab.served import Thing\n"
        "    return answer, Thing\n"
    ),
    "simlab/grading/checks/corpus/case.json": '{"v": 1}\n',
    "simlab/grading/checks/__pycache__/__init__.cpython-311.pyc": "compiled",
    "simlab/grading/.hidden": "editor state",
    "simlab/reference/__init__.py": "from .deep import answer\n",
    "simlab/reference/deep.py": "from simlab.reference.words import EN\nanswer = 42\n",
    "simlab/reference/words.py": "EN = {}\n",
    "simlab/reference/words.toml": 'answer.en = "the answer"\n',
    "simlab/served/__init__.py": '_SERVED = {"Thing": "simlab.served.thing:Thing"}\n',
    "simlab/served/thing.py": "class Thing: ...\n",
    "simlab/unrelated.py": "import simlab.reference\n",
    "simlab/unrelated.toml": 'answer.en = "the answer"\n',
}


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root / "simlab"


def test_which_files_decide_a_grade_in_a_package_of_our_own(tmp_path):
    assert grading_files(_tree(tmp_path, FAKE)) == [
        "__init__.py",
        "grading/__init__.py",
        "grading/checks/__init__.py",
        "grading/checks/corpus/case.json",
        "reference/__init__.py",
        "reference/deep.py",
        "reference/words.py",
        "reference/words.toml",
        "served/__init__.py",
        "served/thing.py",
    ]


@pytest.mark.parametrize(
    ("changed", "new_version"),
    [
        ("simlab/grading/checks/__init__.py", True),
        ("simlab/grading/checks/corpus/case.json", True),
        ("simlab/reference/deep.py", True),
        ("simlab/served/thing.py", True),
        ("simlab/reference/words.toml", True),
        ("simlab/__init__.py", True),
        ("simlab/unrelated.py", False),
        ("simlab/unrelated.toml", False),
        ("simlab/grading/checks/__pycache__/__init__.cpython-311.pyc", False),
        ("simlab/grading/.hidden", False),
    ],
)
def test_does_a_change_make_a_new_version_exactly_when_it_can_change_a_grade(
    tmp_path, changed, new_version
):
    package = _tree(tmp_path, FAKE)
    before = version_of(package)
    (tmp_path / changed).write_text((tmp_path / changed).read_text() + "# changed\n")
    assert (version_of(package) != before) is new_version


def test_is_the_version_the_same_wherever_the_package_is_installed(tmp_path):
    here = version_of(_tree(tmp_path / "a", FAKE))
    assert re.fullmatch(r"[0-9a-f]{16}", here)
    assert version_of(_tree(tmp_path / "elsewhere" / "b", FAKE)) == here
    renamed = {k.replace("deep.py", "deeper.py"): v for k, v in FAKE.items()}
    renamed["simlab/reference/__init__.py"] = "from .deeper import answer\n"
    assert version_of(_tree(tmp_path / "c", renamed)) != here  # a path is part of it


@pytest.fixture
def writes_bytecode(monkeypatch):
    """Python may write bytecode (and the grading files are kept beside it)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def _kept(package: Path) -> Path:
    return package / "__pycache__" / REMEMBERED


def test_are_the_files_kept_read_back_only_for_the_same_package(tmp_path, writes_bytecode):
    package = _tree(tmp_path, FAKE)
    found = grading_files(package)
    kept = json.loads(_kept(package).read_text())
    assert kept["files"] == found
    # what is kept is what the next reader gets, while the package is the same
    _kept(package).write_text(json.dumps({**kept, "files": ["told.py"]}))
    assert grading_files(package) == ["told.py"]
    # a change anywhere in the package (here: the checks import a module nothing imported)
    checks = package / "grading" / "checks" / "__init__.py"
    checks.write_text(checks.read_text() + "import simlab.unrelated\n")
    now = sorted([*found, "unrelated.py", "unrelated.toml"])  # with the catalog it reads
    assert grading_files(package) == now
    assert json.loads(_kept(package).read_text())["files"] == now
    (package / "unrelated.py").unlink()  # a file removed
    assert grading_files(package) == found


def test_is_a_broken_kept_list_found_again(tmp_path, writes_bytecode):
    package = _tree(tmp_path, FAKE)
    found = grading_files(package)
    key = json.loads(_kept(package).read_text())["key"]
    wrong = ({"key": key, "files": [1]}, {"key": key, "files": "grading/x.py"})
    for broken in ("{", "[]", '{"key": 1}', *map(json.dumps, wrong)):
        _kept(package).write_text(broken)
        assert grading_files(package) == found
    assert json.loads(_kept(package).read_text())["files"] == found


def test_is_nothing_kept_where_it_must_not_be(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    told_not_to = _tree(tmp_path / "a", FAKE)
    assert grading_files(told_not_to) and not _kept(told_not_to).exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    linked = _tree(tmp_path / "b", FAKE)
    (linked / "link.py").symlink_to(linked / "reference" / "deep.py")
    assert grading_files(linked) and not _kept(linked).exists()
    # a folder of another name: its imports of simlab name a folder beside it, outside it
    elsewhere = tmp_path / "d" / "kit"
    shutil.copytree(_tree(tmp_path / "c", FAKE), elsewhere)
    assert grading_files(elsewhere) and not _kept(elsewhere).exists()


def test_does_the_kit_version_cover_the_grader_and_the_references_but_not_the_checkout():
    files = grading_files(PACKAGE)
    assert re.fullmatch(r"[0-9a-f]{16}", grader_version())
    for needed in (
        "grading/checks/__init__.py",
        "grading/checks/hidden_world.py",
        "grading/version.py",
        "ledger/sqlite/ledger.py",  # the kit's ledger, which the checks grade against
        "agent/__init__.py",
        "sim/simulation.py",
        "learn/self_check.py",
        "grading/checks/leases/messages.toml",  # the feedback's templates
        "i18n/sentences/common.toml",  # the lines every notebook prints
    ):
        assert needed in files, needed
    assert "__main__.py" not in files  # `python -m simlab` decides no grade
    assert all((PACKAGE / f).is_file() for f in files)  # nothing outside the package


def test_is_the_version_independent_of_what_the_process_imported_before():
    """Here the test session has imported half the kit; a fresh interpreter only the version."""
    fresh = subprocess.run(
        [
            sys.executable,
            "-c",
            "from simlab.grading.version import grader_version as v; print(v())",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert fresh.stdout.strip() == grader_version()


# -- the kit as installed from a wheel -----------------------------------------------------------


def _setuptools_too_old() -> str | None:
    import setuptools

    major = int(setuptools.__version__.split(".")[0])
    if major >= 77:
        return None
    return f"setuptools {setuptools.__version__} cannot build this pyproject (needs >= 77)"


def _link_or_copy(src: str, dst: str) -> None:
    """A hard link where the file system allows (the environment costs no space), else a copy."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _ours(name: str) -> bool:
    """Is this entry of a site-packages folder the checkout's own install of simlab?"""
    return name == "simlab" or name.startswith(("simlab-", "__editable__"))


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The Python of a fresh virtual environment where simlab is the wheel built from this
    checkout, and its dependencies are those of the running environment (linked file by file
    into the new one, so that the jail, which sees the environment's folder, sees them)."""
    reason = _setuptools_too_old()
    if reason:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"cannot build the kit's wheel under CI=true: {reason}", pytrace=False)
        pytest.skip(f"the installed kit is not tested: {reason} (pip install -e '.[dev]')")
    work = tmp_path_factory.mktemp("installed")
    source = work / "source"  # the build writes build/ and egg-info: never into the checkout
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "simlab",
        source / "simlab",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"),
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index"]
        + ["-q", "-w", str(work / "dist"), str(source)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = (work / "dist").glob("simlab-*.whl")

    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    target = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    for folder in sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}):
        for entry in sorted(os.listdir(folder)):
            src, dst = os.path.join(folder, entry), os.path.join(target, entry)
            if _ours(entry) or os.path.lexists(dst):
                continue
            if os.path.isdir(src) and not os.path.islink(src):
                shutil.copytree(src, dst, symlinks=True, copy_function=_link_or_copy)
            else:
                _link_or_copy(src, dst)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return python, Path(target)


def _run(python: Path, cwd: Path, *args: str, timeout: float = 120) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(
        [str(python), "-P", *args],
        cwd=cwd,
        env={**env, "PYTHONPATH": ""},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


@pytest.mark.jail
@pytest.mark.timeout(1500)  # a wheel built, an environment made, then twelve notebooks graded
def test_does_the_installed_kit_grade_solutions_full_and_exercises_zero(installed, tmp_path):
    python, site = installed
    work = tmp_path / "class"  # copies of the notebooks only: no tests/, no checkout in sight
    for kind in ("solutions", "exercises"):
        (work / kind).mkdir(parents=True)
        for exercise in EXERCISES.values():
            shutil.copy2(ROOT / kind / exercise.notebook, work / kind / exercise.notebook)

    where = json.loads(
        _run(
            python,
            work,
            "-c",
            "import json, sys, simlab, simlab.grading.checks as c\n"
            "from simlab.grading.version import grader_version, grading_files\n"
            "from pathlib import Path\n"
            "package = Path(simlab.__file__).resolve().parent\n"
            "print(json.dumps({'simlab': simlab.__file__, 'checks': c.__file__, 'path': sys.path,"
            " 'version': grader_version(), 'files': grading_files(package)}))",
        )
    )
    for name in ("simlab", "checks"):
        assert Path(where[name]).resolve().is_relative_to(site.resolve()), where[name]
    assert not any(p and Path(p).resolve().is_relative_to(ROOT) for p in where["path"]), where
    checkout = grading_files(PACKAGE)
    missing = sorted(set(checkout) - set(where["files"]))  # package data left out of the wheel?
    extra = sorted(set(where["files"]) - set(checkout))
    assert not missing and not extra, f"not in the wheel: {missing}; only in the wheel: {extra}"
    assert where["version"] == grader_version()

    lines = _run(
        python,
        work,
        "-m",
        "simlab",
        "grade",
        "--json",
        "--jobs",
        "2",
        "solutions",
        "exercises",
        timeout=1500,
    )
    grades = {
        (Path(g["notebook"]).parent.name, Path(g["notebook"]).name): g
        for g in map(json.loads, lines.splitlines())
    }
    assert len(grades) == 2 * len(EXERCISES) == 12
    for exercise in EXERCISES.values():
        solved = grades[("solutions", exercise.notebook)]
        assert solved["error"] is None and solved["score"] == exercise.max_score, solved
        blank = grades[("exercises", exercise.notebook)]
        assert blank["error"] is None and blank["score"] == 0, blank
        assert blank["max_score"] == exercise.max_score


@pytest.mark.jail  # it runs `simlab grade`, which the lanes keep out of the fast lane
def test_does_the_installed_kit_print_the_chinese_rubric(installed, tmp_path):
    """The rubrics' translations are package data: with no checkout in sight, ``simlab grade
    --rubric EXERCISE --lang zh`` prints what the checkout prints, every text in Chinese."""
    from simlab.grading.report import format_rubric

    python, _ = installed
    for exercise in EXERCISES.values():
        out = _run(
            python, tmp_path, "-m", "simlab", "grade", "--rubric", exercise.id, "--lang", "zh"
        )
        assert out == format_rubric(exercise, "zh") + "\n"
        assert "只有英文" not in out and "没有最新的中文翻译" not in out
