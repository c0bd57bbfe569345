"""A block of a documentation page generated from a registry of the kit.

The block stands between two HTML comments on the page, ``<!-- NAME: generated from SOURCE -->``
and ``<!-- NAME: end -->``. Its test compares it with what the registry gives now and fails until
it is written again; running the test module (``python -m tests.MODULE`` from the top of the
checkout) writes it (:meth:`Block.write`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Block:
    """The block ``name`` of ``page``, generated from ``source`` by ``make``; ``module`` is the
    test module that writes it when run (named in a failing test's message)."""

    page: Path
    name: str
    source: str
    make: Callable[[], str]
    module: str

    @property
    def _pattern(self) -> re.Pattern:
        start = re.escape(f"<!-- {self.name}: generated from {self.source} -->\n")
        return re.compile(f"({start})(.*?)({re.escape(f'<!-- {self.name}: end -->')})", re.S)

    def text(self) -> str:
        """The block as the page holds it (fails when the page lost its markers)."""
        found = self._pattern.search(self.page.read_text())
        assert found, f"{self.page.name} lost its {self.name} markers"
        return found.group(2)

    def check(self) -> None:
        """Fails unless the page's block is what the registry gives now."""
        assert self.text() == self.make(), f"run: python -m {self.module}"

    def write(self) -> None:
        """Writes what the registry gives now between the markers."""
        self.text()
        page = self.page.read_text()
        self.page.write_text(
            self._pattern.sub(lambda m: m.group(1) + self.make() + m.group(3), page)
        )
