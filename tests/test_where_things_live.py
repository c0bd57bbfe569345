"""The map "Where things live" (docs/development.md) is generated from the package tree.

Each package and module of ``simlab`` is listed under its folder with the first sentence of its
docstring, so a module added, moved or removed changes the map, and this test fails until the
map is written again: ``python -m tests.test_where_things_live`` rewrites it between its
markers. The hidden checks are listed by package only (their modules are the grader's, one per
question). A module without a docstring fails the test: the map would have nothing to say.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from tests.generated import Block

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "development.md"
PACKAGE = ROOT / "simlab"
#: Folders whose modules are not listed, only their subpackages (the hidden checks; the
#: notebooks' sentence catalogs, one per notebook).
BY_PACKAGE_ONLY = (PACKAGE / "grading" / "checks", PACKAGE / "i18n" / "sentences")


def first_sentence(path: Path) -> str:
    """The docstring's first sentence (up to its first full stop, or its first paragraph),
    with reST roles and double backquotes made Markdown."""
    doc = ast.get_docstring(ast.parse(path.read_text())) or ""
    paragraph = " ".join(doc.split("\n\n")[0].split())
    found = re.match(r"(.+?[.!?])(\s|$)", paragraph)
    sentence = found.group(1) if found else paragraph
    sentence = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", sentence)
    return sentence.replace("``", "`")


def entries(folder: Path, depth: int = 0) -> list[str]:
    """The list lines of ``folder``: its modules, then its subpackages, each sorted."""
    indent = "  " * depth
    lines = []
    if not any(folder == f or f in folder.parents for f in BY_PACKAGE_ONLY):
        for module in sorted(folder.glob("*.py")):
            if module.name != "__init__.py":
                lines.append(f"{indent}- `{module.name}`: {first_sentence(module)}")
    for sub in sorted(p for p in folder.iterdir() if (p / "__init__.py").is_file()):
        lines.append(f"{indent}- **`{sub.name}/`**: {first_sentence(sub / '__init__.py')}")
        lines += entries(sub, depth + 1)
    return lines


def layout() -> str:
    """The whole map, as Markdown: ``simlab/`` and everything under it."""
    lines = [f"- **`simlab/`**: {first_sentence(PACKAGE / '__init__.py')}"] + entries(PACKAGE, 1)
    return "\n".join(lines) + "\n"


MAP = Block(PAGE, "layout", "the docstrings of simlab/", layout, "tests.test_where_things_live")


def test_does_every_module_have_a_docstring_to_list():
    bare = [str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py") if not first_sentence(p)]
    assert not bare, bare


def test_is_the_map_the_package_tree():
    MAP.check()


def test_does_the_map_name_every_module_and_package():
    """Independent of the generator: every module's file name appears in the map under its
    folder's entry (the hidden checks' modules aside)."""
    text = MAP.text()
    missing = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "__init__.py":
            name = f"`{path.parent.name}/`"
        elif any(f == path.parent or f in path.parents for f in BY_PACKAGE_ONLY):
            continue
        else:
            name = f"`{path.name}`"
        if name not in text:
            missing.append(str(path.relative_to(ROOT)))
    assert not missing, missing


if __name__ == "__main__":
    MAP.write()
    sys.exit(0)
