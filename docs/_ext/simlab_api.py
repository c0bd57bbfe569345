"""Sphinx extension of the course site: the API reference follows the code.

At the start of a build it writes one page per top-level package (or plain module) of
``simlab`` into ``docs/api/`` (generated, not in git): the package's docstring, then each of its
modules and subpackages, all found by walking the package tree (a module that moves or a
package that is added needs no edit here), less the internals of :data:`INTERNAL`. One page per
package, not per module, keeps the site to a few dozen pages, which the book theme renders
quickly. ``{simlab-packages}`` writes the table of those pages, from the same walk.

``{simlab-names}`` writes an autosummary table of every name in ``simlab.__all__``, each linked
to the page of the module that defines it, so the table stays what ``import simlab`` offers
without a list to keep by hand. A module's page documents the names of its ``__all__`` that it
defines: a name a package re-exports is documented once, on the page of the module defining it.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective


#: Left out: the grader's hidden checks (learners read this site), its sandbox machinery, and
#: the command line (``simlab --help`` documents it).
INTERNAL = ("simlab.grading.checks", "simlab.grading.sandbox", "simlab.cli")


def packages() -> list[str]:
    """The top-level packages and plain modules of ``simlab``, sorted, less :data:`INTERNAL`
    and ``simlab.__main__``."""
    import simlab

    names = [f"simlab.{info.name}" for info in pkgutil.iter_modules(simlab.__path__)]
    return sorted(n for n in names if n != "simlab.__main__" and not _internal(n))


def _internal(name: str) -> bool:
    return any(name == i or name.startswith(i + ".") for i in INTERNAL)


def modules_of(package: str) -> list[str]:
    """``package`` and every module under it, sorted, less :data:`INTERNAL`."""
    found = [package]
    module = importlib.import_module(package)
    if hasattr(module, "__path__"):
        for info in pkgutil.walk_packages(module.__path__, prefix=package + "."):
            found.append(info.name)
    return sorted(name for name in found if not _internal(name))


def page(package: str) -> str:
    """The reST of one package's page: its modules, each with its own members."""
    lines = [package, "=" * len(package), "", f".. automodule:: {package}", ""]
    for name in modules_of(package)[1:]:
        lines += [name, "-" * len(name), "", f".. automodule:: {name}", ""]
    return "\n".join(lines)


def write_pages(app) -> None:
    """Write ``docs/api/<package>.rst``; a page whose text is unchanged is left alone, so an
    incremental build reads again only what changed."""
    folder = Path(app.confdir) / "api"
    folder.mkdir(exist_ok=True)
    wanted = packages()
    for stale in folder.glob("*.rst"):  # a package that moved or went away leaves no page
        if stale.stem not in wanted:
            stale.unlink()
    for package in wanted:
        target = folder / f"{package}.rst"
        text = page(package)
        if not target.exists() or target.read_text() != text:
            target.write_text(text)


def canonical(name: str) -> str:
    """The dotted path autosummary should show for ``simlab.<name>``: where it is defined when
    that module holds the very object, else the top-level path."""
    import simlab

    obj = getattr(simlab, name)
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str) and module.startswith("simlab"):
        try:
            found = importlib.import_module(module)
            for part in qualname.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError):
            found = None
        if found is obj:
            return f"~{module}.{qualname}"
    return f"simlab.{name}"


class SimlabNames(SphinxDirective):
    """An autosummary table of ``simlab.__all__``, in its order."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        import simlab

        # The page is MyST, whose nested parse reads Markdown: the table goes in as reST.
        lines = ["```{eval-rst}", ".. currentmodule:: None", "", ".. autosummary::", "   :nosignatures:", ""]
        lines += [f"   {canonical(name)}" for name in simlab.__all__]
        lines += ["```"]
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="simlab.__all__"), 0, container)
        return container.children


class SimlabPackages(SphinxDirective):
    """An autosummary table of the packages :func:`packages` finds, one reference page each."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        lines = ["```{eval-rst}", ".. currentmodule:: None", "", ".. autosummary::", "   :nosignatures:", ""]
        lines += [f"   {name}" for name in packages()]
        lines += ["```"]
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="simlab packages"), 0, container)
        return container.children


class _Documenting:
    """The module whose members autodoc is choosing (its docstring is processed first)."""

    module: str | None = None


def _note_module(app, what, name, obj, options, lines):
    if what == "module":
        _Documenting.module = name


def _skip_imported(app, what, name, obj, skip, options):
    """Skip a module member that another simlab module defines (it is documented there)."""
    if what != "module" or skip:
        return None
    defined_in = getattr(obj, "__module__", None)
    if isinstance(defined_in, str) and defined_in.startswith("simlab"):
        if _Documenting.module and defined_in != _Documenting.module:
            return True
    return None


def setup(app):
    from pygments.lexers.special import TextLexer

    app.add_directive("simlab-names", SimlabNames)
    app.add_directive("simlab-packages", SimlabPackages)
    # The README's state diagram is Mermaid, which GitHub draws; here it stays plain text.
    app.add_lexer("mermaid", TextLexer)
    app.connect("builder-inited", write_pages)
    app.connect("autodoc-process-docstring", _note_module)
    app.connect("autodoc-skip-member", _skip_imported)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
