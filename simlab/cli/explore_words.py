"""What ``simlab explore`` says of its verdict, in English and Chinese: the certificate, the
counterexample, a stop, the scope and its modes, where the time ran out (``WORDS[lang][key]``,
``str.format`` templates whose fields both languages share), kept as data in the catalog beside
this module and checked by ``simlab translate --check`` with the kit's other catalogs."""

from __future__ import annotations

from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH", "WORDS"]

EN, ZH = tables(__file__)
#: Both languages' templates, by language.
WORDS = {"en": EN, "zh": ZH}
