"""Does the tree still read as the path of a task? The architecture, checked on every run.

Each rule is what the package layout promises (docs/development.md, "Where things live"): SQL
sits with its concept (the task ledger's in ``simlab/ledger``, the grader's own in the grading
queue's store and the readers of what a learner's code wrote, named module by module), SimPy only
in ``simlab/sim``, argparse only in ``simlab/cli``, pictures only in ``simlab/plots``, a pure
``simlab/checker``, arrows that point one way (the grader may use the ledger, never the reverse),
no import circle (imports inside functions included), small modules and functions. Imports are
read with :mod:`ast`, so a lazy import counts too.
"""

from __future__ import annotations

import ast
import functools
import re
from collections import defaultdict
from pathlib import Path

import pytest

from simlab.i18n.catalog import tables

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "simlab"

#: The grader's modules that speak SQL, each for its own concept: the grading queue's store (its
#: flow over the ledger, its migrations, its statements per engine) and the readers of what a
#: learner's code wrote or asks (a ledger file from a jail, statements on the grader's ledger).
QUEUE_STORE = "simlab.grading.queue_store"
UNTRUSTED = "simlab.grading.untrusted"
#: the bench of the SQLite schema times the ledger's statements on variants of its table
SCHEMA_BENCH = "simlab.bench.schema"
#: external module -> the only subpackages (a name) or modules (a dotted path) that may import it
ONLY_IN = {
    "sqlite3": (
        "ledger",
        f"{QUEUE_STORE}.migrate",
        f"{UNTRUSTED}.ledger_file",
        f"{UNTRUSTED}.sql",
        SCHEMA_BENCH,
    ),
    "psycopg": ("ledger", f"{QUEUE_STORE}.store", f"{QUEUE_STORE}.migrate"),
    "simpy": ("sim",),
    "argparse": ("cli",),
    "matplotlib": ("plots",),
    "ipywidgets": ("plots",),
}
#: subpackage -> simlab subpackages it must never import (checker/ stays pure)
NEVER = {
    "checker": ("ledger", "sim", "plots", "cli", "grading", "rollout", "agent", "props", "testing"),
    "ledger": ("sim", "checker", "plots", "cli", "grading", "rollout", "agent", "props", "testing"),
    # what a learner's notebook imports holds no grading: the grader uses it, not the reverse
    "learn": ("grading", "cli", "plots"),
    # the chapter's props stand on the ledger, beside what a learner imports, under the rest
    "props": ("sim", "checker", "plots", "cli", "grading", "rollout", "agent", "learn", "testing"),
    # the throwaway server knows nothing of the kit it serves
    "testing": ("ledger", "sim", "checker", "plots", "cli", "grading", "rollout", "agent", "props"),
}
#: the only subpackages (a name) or modules (a dotted path) whose strings may hold SQL text; the
#: fencing exercise's hidden worlds break a ledger's cancel with statements of their own; exercise
#: 02's sentence catalog holds its stubs' hints word for word, and one sketches an INSERT ... SELECT
SQL_TEXT_IN = (
    "ledger",
    "simlab.grading.checks.fencing.broken",
    "simlab.grading.checks.leases.broken",
    "simlab.i18n.sentences.exercise02",
    SCHEMA_BENCH,
    f"{QUEUE_STORE}.sqlite_statements",
    f"{QUEUE_STORE}.postgres_statements",
    f"{UNTRUSTED}.ledger_file",
)
#: the grader's SQL modules sit on the ledger, under the rest of the grader: they import only
#: these (and one another), so the concept they store stays apart from how grading is done
SQL_SIDE_IMPORTS = (
    "simlab.ledger",
    "simlab.errors",
    "simlab.extras",
    "simlab.records",
    QUEUE_STORE,
    UNTRUSTED,
)
MAX_FLAT_MODULES = 6
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 100


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The syntax tree of ``path``, parsed once for every test that reads it (none changes it)."""
    return ast.parse(path.read_text(), str(path))


@functools.cache
def _imports(path: Path) -> list[tuple[str, int]]:
    """Every module ``path`` imports, at any depth, with its line: ``from a import b`` counts as
    ``a.b`` when that is a simlab module, else as ``a``."""
    out = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            out += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                out.append((sub if sub in MODULES else node.module, node.lineno))
    return out


def _subpackage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in _PACKAGES) else None


_PACKAGES = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}


def test_every_subpackage_of_the_layout_exists():
    expected = {
        "ledger",
        "sim",
        "checker",
        "plots",
        "agent",
        "rollout",
        "grading",
        "learn",
        "cli",
        "i18n",
    }
    assert expected <= _PACKAGES


def _allowed(module: str, places: tuple[str, ...]) -> bool:
    """Is ``module`` in one of ``places``: a subpackage's name, or a module's dotted path?"""
    return _subpackage(module) in places or module in places


def _imports_of(module: str, external: str) -> bool:
    return any(name.split(".")[0] == external for name, _ in _imports(MODULES[module]))


def _has_sql_text(path: Path) -> list[str]:
    """Where ``path``'s strings hold SQL text (``file:line``), and the templates of the message
    catalog beside it (``<module>.toml``, which the module serves as its strings)."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value)
    ]
    catalog = path.with_suffix(".toml")
    if catalog.is_file():
        lines = catalog.read_text(encoding="utf-8").splitlines()
        found += [
            f"{catalog.relative_to(ROOT)}:{n}"
            for lang, table in zip(("en", "zh"), tables(str(path)), strict=True)
            for key, text in table.items()
            if SQL.search(text)
            for n, line in enumerate(lines, 1)
            if line.startswith(f"{key}.{lang} ")
        ]
    return found


@pytest.mark.parametrize("external", sorted(ONLY_IN))
def test_an_external_library_is_imported_only_where_it_belongs(external):
    allowed = ONLY_IN[external]
    misplaced = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for module, path in MODULES.items()
        for name, line in _imports(path)
        if name.split(".")[0] == external and not _allowed(module, allowed)
    ]
    assert not misplaced, f"{external} belongs in {' | '.join(allowed)}: {misplaced}"


@pytest.mark.parametrize("external", sorted(ONLY_IN))
def test_every_module_allowed_a_library_by_name_exists_and_uses_it(external):
    """An allowance names a module precisely, and only one that needs it: a module moved or
    renamed, or one that stopped using the library, leaves no stale door open."""
    named = [place for place in ONLY_IN[external] if "." in place]
    stale = [m for m in named if m not in MODULES or not _imports_of(m, external)]
    assert not stale, f"allowed to import {external} but do not: {stale}"


def test_every_module_allowed_sql_text_by_name_exists_and_holds_some():
    named = [place for place in SQL_TEXT_IN if "." in place]
    stale = [m for m in named if m not in MODULES or not _has_sql_text(MODULES[m])]
    assert not stale, f"allowed SQL text but hold none: {stale}"


def test_the_grader_sql_modules_sit_on_the_ledger_under_the_rest_of_the_grader():
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for module, path in MODULES.items()
        if module.startswith((QUEUE_STORE, UNTRUSTED))
        for name, line in _imports(path)
        if name.startswith("simlab")
        and not any(name == p or name.startswith(p + ".") for p in SQL_SIDE_IMPORTS)
    ]
    assert not bad, bad


def test_the_allowance_rules_tell_a_module_from_a_subpackage():
    """The rules above rest on this: a dotted path allows that module alone, a name its whole
    subpackage; a sibling of an allowed module is not allowed."""
    places = ("ledger", f"{QUEUE_STORE}.migrate")
    assert _allowed("simlab.ledger.sqlite.ledger", places)
    assert _allowed(f"{QUEUE_STORE}.migrate", places)
    assert not _allowed(f"{QUEUE_STORE}.store", places)
    assert not _allowed("simlab.grading.queue", places)


@pytest.mark.parametrize("package", sorted(NEVER))
def test_lower_layers_never_import_higher_ones(package):
    bad = _arrows_up(package, _imports, "imports")
    assert not bad, bad


def _arrows_up(package: str, arrows, verb: str) -> list[str]:
    """Every arrow ``arrows(path)`` finds from a module of ``package`` to one it must never
    lean on, as ``path:line VERB module``."""
    return [
        f"{path.relative_to(ROOT)}:{line} {verb} {name}"
        for module, path in MODULES.items()
        if _subpackage(module) == package
        for name, line in arrows(path)
        if name.startswith("simlab.") and name.split(".")[1] in NEVER[package]
    ]


#: a module of simlab named in a string: ``"simlab.cli.worker"`` for ``python -m``, or
#: ``"simlab.props.demo:claim_race"`` for a lazily served name
MODULE_NAME = re.compile(r"\bsimlab\.(\w+)")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree``: prose about a module is no arrow to it."""
    owners = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, owners)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def _modules_named_in_strings(path: Path) -> list[tuple[str, int]]:
    """Every ``simlab.PACKAGE`` a string of ``path`` (docstrings aside) names, with its line: a
    module started with ``python -m`` or imported by name is an arrow the imports do not show."""
    tree = _tree(path)
    prose = _docstrings(tree)
    return [
        (f"simlab.{match.group(1)}", node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
        for match in MODULE_NAME.finditer(node.value)
    ]


@pytest.mark.parametrize("package", sorted(NEVER))
def test_lower_layers_never_name_higher_ones_in_a_string(package):
    bad = _arrows_up(package, _modules_named_in_strings, "names")
    assert not bad, bad


def test_only_the_command_line_imports_a_bench():
    """A bench stands above what it measures: nothing of the kit but ``cli/`` leans on one."""
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for module, path in MODULES.items()
        if _subpackage(module) not in ("bench", "cli")
        for name, line in _imports(path) + _modules_named_in_strings(path)
        if name == "simlab.bench" or name.startswith("simlab.bench.")
    ]
    assert not bad, bad


def test_a_module_named_in_a_string_is_found_and_a_docstring_is_not(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        '"""Started as ``python -m simlab.cli.worker``."""\n'
        'CMD = ["python", "-m", "simlab.cli.worker"]\n'
        'LAZY = {"x": "simlab.grading.queue:x"}\n'
    )
    assert _modules_named_in_strings(source) == [("simlab.cli", 2), ("simlab.grading", 3)]


SQL = re.compile(r"\b(SELECT\s.+\sFROM|UPDATE\s+\w+\s+SET|INSERT\s+INTO|CREATE\s+TABLE)\b", re.S)


def test_sql_text_sits_with_its_concept():
    bad = [
        place
        for module, path in MODULES.items()
        if not _allowed(module, SQL_TEXT_IN)
        for place in _has_sql_text(path)
    ]
    assert not bad, f"SQL text outside {' | '.join(SQL_TEXT_IN)}: {bad}"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_import_circle_lazy_imports_included():
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in MODULES.items():
        graph[module]
        for name, _ in _imports(path):
            if name in MODULES and name != module:
                graph[module].add(name)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_at_most_six_modules_stay_flat_at_the_top():
    flat = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(flat) <= MAX_FLAT_MODULES, flat


def test_no_module_is_over_600_lines():
    long = {
        str(p.relative_to(ROOT)): n
        for p in MODULES.values()
        if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert not long, long


def test_no_function_is_over_100_lines():
    long = []
    for path in MODULES.values():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({n})")
    assert not long, long
