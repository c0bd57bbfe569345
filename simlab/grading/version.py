"""The grader version: a digest of what decides a grade, as installed.

A queue grades every submission again at a new version, and the hidden world a submission
is judged in (:mod:`simlab.grading.checks.hidden_world`) is drawn from it, so anything that
can change a grade must be part of it. It is read from the installed ``simlab`` package alone,
so the same kit has one version whether it is installed from a wheel or used from a checkout,
and nothing outside the package (a checkout's ``solutions/`` or ``tests/``) takes part:

* every file under ``simlab/grading/``: the grader, the hidden checks and their data files;
* every other ``simlab`` module the grading package reaches through its imports, followed from
  module to module: the kit's code the hidden checks call as their reference (the ledger, the
  simulator, the agent, ...), with the packages above each module (their ``__init__`` runs on
  import) and the message catalog a module reads from beside it (``<module>.toml``).

Imports are read from the source with :mod:`ast`, not from :data:`sys.modules`, so the set
does not depend on what the process imported before: imports inside functions count, and so
does a string naming a ``simlab`` module (a package serves names from such modules on first
use, :mod:`simlab.lazy`; a worker is started as ``python -m simlab.props.worker``). Following
every such name errs on the side of a new version: a module left out could change a grade
without changing the version. Each file is hashed by its path relative to the package and its
bytes; caches (``__pycache__``, compiled files) and hidden files take no part.

Reading the imports parses every one of those modules. The list of files found is therefore
kept in the package's ``__pycache__`` (:data:`REMEMBERED`), as Python keeps compiled modules
there, under a digest of everything it was found from: the path, kind and bytes of every file
of the package, this module's own source and the running Python's version. The next process
that asks reads it back only when that digest is unchanged, so a changed, added or removed file
anywhere in the package is read afresh.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import sys
import tempfile
import threading
from functools import lru_cache
from pathlib import Path

import simlab

__all__ = ["grader_version", "inherit", "version_of", "grading_files", "REMEMBERED"]

#: A string constant that names a simlab module (``"simlab.plots"``, ``"simlab.ledger.x:Name"``).
_MODULE_NAME = re.compile(r"(simlab(?:\.\w+)*)(?::\w+)?")


def grader_version() -> str:
    """:func:`version_of` the installed ``simlab`` package. Any change to what decides a grade
    is a new version, and a queue grades every submission again at a new version. Computed
    once, by one thread, however many grading threads ask for it at once."""
    # One thread at a time: CPython 3.11's ast.parse may raise SystemError when threads run it
    # side by side.
    with _VERSION_LOCK:
        return _inherited or _installed_version()


_VERSION_LOCK = threading.Lock()
_inherited: str | None = None


def inherit(version: str) -> None:
    """This process grades for a grader whose :func:`grader_version` is ``version``
    (:mod:`simlab.grading.processes`): it is this process's too, never read again here, so
    every notebook of one batch is judged in the world of one version, and a grading process
    does not pay for reading the package."""
    global _inherited
    _inherited = version


@lru_cache(maxsize=1)
def _installed_version() -> str:
    return version_of(Path(simlab.__file__).resolve().parent)


def version_of(package: Path) -> str:
    """The first 16 hex digits of a SHA-256 over :func:`grading_files` of the ``simlab``
    package folder ``package``: each file's package-relative path, then the SHA-256 of its
    bytes, in sorted order."""
    digest = hashlib.sha256()
    for relative in grading_files(package):
        digest.update(relative.encode() + b"\0")
        digest.update(hashlib.sha256((package / relative).read_bytes()).digest())
    return digest.hexdigest()[:16]


#: The file in a package's ``__pycache__`` that keeps its :func:`grading_files` (with the
#: digest of the package they were found from).
REMEMBERED = "simlab-grading-files.json"


def grading_files(package: Path) -> list[str]:
    """The files of the ``simlab`` package folder ``package`` that decide a grade, as sorted
    POSIX paths relative to it: all of ``grading/`` and the modules it imports, transitively.

    Read back from :data:`REMEMBERED` when it was found from the same package (same files, same
    bytes, same finder, same Python), else found and kept there. It is not kept where Python is
    told not to write bytecode (``sys.dont_write_bytecode``) or cannot write the folder, nor for
    a package holding a symbolic link (what lies behind one is outside the digest)."""
    key = _contents_key(package)
    kept = package / "__pycache__" / REMEMBERED
    if key is not None:
        try:
            remembered = json.loads(kept.read_text())
            files = remembered["files"]
            if (
                remembered["key"] == key
                and isinstance(files, list)
                and all(isinstance(f, str) for f in files)
            ):
                return list(files)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # none kept yet, or unreadable: found again below
    files = _find_grading_files(package)
    if key is not None and not sys.dont_write_bytecode:
        _keep(kept, {"key": key, "files": files})
    return files


def _contents_key(package: Path) -> str | None:
    """A digest of all that :func:`_find_grading_files` reads: every file of ``package`` outside
    ``__pycache__`` (its path, whether it is a folder, its bytes), this module's source and the
    Python that parses; None for a folder not named ``simlab`` (its imports name another one)
    or holding a symbolic link."""
    if package.name != "simlab":
        return None
    digest = hashlib.sha256(f"{sys.version}\0".encode())
    digest.update(hashlib.sha256(Path(__file__).read_bytes()).digest())
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(package)
        if "__pycache__" in relative.parts:
            continue
        if path.is_symlink():
            return None
        is_file = path.is_file()
        digest.update(b"F" if is_file else b"D")
        digest.update(relative.as_posix().encode() + b"\0")
        if is_file:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _keep(path: Path, content: dict) -> None:
    """Write ``content`` to ``path`` whole or not at all (a reader never sees half of it);
    a folder that cannot be written keeps nothing."""
    try:
        path.parent.mkdir(exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(handle, "w") as f:
                json.dump(content, f)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass


def _find_grading_files(package: Path) -> list[str]:
    """:func:`grading_files`, found by reading the imports."""
    found = {p for p in (package / "grading").rglob("*") if _counts(p, package)}
    todo = sorted(p for p in found if p.suffix == ".py")
    while todo:
        path = todo.pop()
        for name in _imported_names(path, package):
            for module in _files_of(name, package):
                if module not in found:
                    found.add(module)
                    if module.suffix == ".py":
                        todo.append(module)
    return sorted(p.relative_to(package).as_posix() for p in found)


def _counts(path: Path, package: Path) -> bool:
    parts = path.relative_to(package).parts
    return (
        path.is_file()
        and not path.is_symlink()
        and not any(part == "__pycache__" or part.startswith(".") for part in parts)
        and path.suffix not in (".pyc", ".pyo")
    )


def _imported_names(path: Path, package: Path) -> set[str]:
    """The dotted names ``path`` may import: its imports at any depth (relative ones resolved,
    ``from a import b`` as both ``a`` and ``a.b``) and its strings that name a simlab module."""
    here = list(path.relative_to(package.parent).parts[:-1])  # the package the file is in
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found = _MODULE_NAME.fullmatch(node.value)
            if found:
                names.add(found.group(1))
    return {n for n in names if n == "simlab" or n.startswith("simlab.")}


def _files_of(name: str, package: Path) -> list[Path]:
    """The files importing ``name`` runs: each package's ``__init__`` on the way, then the
    module itself and the message catalog beside it (``<module>.toml``); nothing for a name
    that is not a module of ``package`` (an attribute)."""
    files = []
    folder = package.parent
    for part in name.split("."):
        folder = folder / part
        if (folder / "__init__.py").is_file():
            files.append(folder / "__init__.py")
        elif folder.with_suffix(".py").is_file():
            files.append(folder.with_suffix(".py"))
            # A message catalog's module serves the templates of the TOML file beside it.
            if folder.with_suffix(".toml").is_file():
                files.append(folder.with_suffix(".toml"))
            break
        else:
            break
    return [f for f in files if _counts(f, package)]
