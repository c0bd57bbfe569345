"""The site's table of the checker's rules (docs/simulator.md) is generated from the one registry.

``python tests/checker/test_rule_table.py`` rewrites the table between its markers.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from simlab.checker.rules import RULES, rule_phrase, rules_table
from tests.generated import Block

PAGE = Path(__file__).resolve().parents[2] / "docs" / "simulator.md"
TABLE = Block(
    PAGE, "rules", "simlab.checker.rules.RULES", rules_table, "tests.checker.test_rule_table"
)


def test_is_the_table_of_rules_the_registry():
    TABLE.check()


def test_does_each_rule_have_a_unique_letter_a_sentence_and_a_judge():
    letters = [r.letter for r in RULES]
    assert len(set(letters)) == len(letters)
    for r in RULES:
        assert r.says and not r.says.endswith(".") and callable(r.judge)
        assert rule_phrase(r.letter) == f"rule ({r.letter}), {r.name}: {r.says}"


def test_does_the_rules_module_docstring_list_every_rule():
    doc = importlib.import_module("simlab.checker.rules").__doc__
    for r in RULES:
        assert f"({r.letter}) **{r.name}**: {r.says}." in doc


if __name__ == "__main__":
    TABLE.write()
    sys.exit(0)
