"""Which cells a sandbox runs as plain Python, without IPython's shell, and their code.

A cell that reads nothing IPython's shell provides (:data:`IPYTHON_NAMES`, the history's
``_1``, ``_i1``...) and imports nothing from ``__future__`` or ``IPython`` is compiled and run
as the shell would run it (:mod:`~simlab.grading.sandbox.child`: the shell on demand). Each
cell is parsed and judged once per sandbox, however often it runs.
"""

from __future__ import annotations

import ast
import re
from typing import Any

__all__ = ["IPYTHON_NAMES", "plain_tree", "plain_code"]

#: Names IPython's shell puts in the learner's namespace or the builtins: a cell that reads one
#: needs the shell (so do ``_1``, ``_i1``, ``_ii``...).
IPYTHON_NAMES = frozenset(
    {"In", "Out", "_", "__", "___", "__builtin__", "_dh", "_ih", "_oh", "exit", "quit", "open"}
    | {"get_ipython", "display", "__IPYTHON__"}
)
_HISTORY_NAME = re.compile(r"_i*\d*")


#: Each cell's parsed tree, by its source, once judged plain (None: it needs the shell): a
#: cell is judged when the notebook is prepared and runs on both lines (before the split, in
#: the one process both inherit), so each is parsed and walked once.
_TREES: dict[str, ast.Module | None] = {}


def plain_tree(source: str) -> ast.Module | None:
    """``source`` parsed, when the shell would run it as plain Python; None when the cell
    needs the shell (module doc). The tree is shared: never changed."""
    if source in _TREES:
        return _TREES[source]
    tree: ast.Module | None = None
    try:
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Name)
                and not isinstance(node.ctx, ast.Store)  # a name a cell only sets reads nothing
                and (node.id in IPYTHON_NAMES or _HISTORY_NAME.fullmatch(node.id))
            ) or (isinstance(node, ast.ImportFrom) and node.module in ("__future__", "IPython")):
                tree = None
                break
    except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError):
        tree = None
    _TREES[source] = tree
    return tree


def plain_code(source: str, n: int) -> tuple[Any, Any] | None:
    """``source`` compiled as the shell would run it, as ``(body, last expression or None)``,
    in a file named after the cell's execution count ``n``; None when the cell needs the
    shell (module doc)."""
    tree = plain_tree(source)
    if tree is None:
        return None
    try:
        body, last = tree.body, None
        if body and isinstance(body[-1], ast.Expr):
            body, last = body[:-1], ast.Expression(body[-1].value)
        where = f"<ipython-input-{n}-plain>"
        # Never the future features of this module (its annotations are postponed).
        code = compile(ast.Module(body, tree.type_ignores), where, "exec", dont_inherit=True)
        return code, last and compile(last, where, "eval", dont_inherit=True)
    except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError):
        return None
