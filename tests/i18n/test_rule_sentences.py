"""Does every notebook that names a checker rule in its own catalog name it as the checker does?

A Chinese notebook finds the translation of a sentence the kit hands it by its English
(:mod:`simlab.i18n.language`): a rule whose English text changed in the checker but not in the
notebook's catalog would reach a Chinese reader in English. A key ``rule_<letter>`` of a
sentence catalog, for a letter of the checker's rules, is that rule's English phrase."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import simlab.i18n.sentences as catalogs
from simlab.checker.rules import RULES, rule_phrase

_LETTERS = {r.letter for r in RULES}
_NAMED = [
    (module.name, key)
    for module in pkgutil.iter_modules(catalogs.__path__)
    for key in importlib.import_module(f"{catalogs.__name__}.{module.name}").EN
    if key.startswith("rule_") and key.removeprefix("rule_").replace("_prime", "'") in _LETTERS
]


def test_do_the_catalogs_name_some_rule():
    assert _NAMED, "no catalog names a rule: this test checks nothing"


@pytest.mark.parametrize(("module", "key"), _NAMED, ids=[f"{m}:{k}" for m, k in _NAMED])
def test_is_a_rule_named_in_a_catalog_as_the_checker_names_it(module, key):
    catalog = importlib.import_module(f"{catalogs.__name__}.{module}")
    letter = key.removeprefix("rule_").replace("_prime", "'")
    assert catalog.EN[key] == rule_phrase(letter, "en")
    assert catalog.ZH.get(key), f"{module} has no Chinese for {key}"
