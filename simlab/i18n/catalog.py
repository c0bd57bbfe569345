"""A message catalog's two languages, read from the TOML file beside its module.

Every catalog of the kit (the grader's, each exercise's, the notebooks' sentences, the
pictures', the command line's) keeps its templates as data in ``<module>.toml``, one entry per
message ID with both languages side by side, so a translator adds or mends a message in one
place::

    # what the group of messages below is for
    lease_held.en = "the lease of {task} is held until t={until}"
    lease_held.zh = "{task} 的租约到 t={until} 前仍被持有"

Its module serves them as the plain ``EN`` and ``ZH`` dicts every reader of a catalog takes
(``EN, ZH = tables(__file__)``); :func:`simlab.grading.messages.problems` holds the two to the
same IDs and fields. Like :mod:`simlab.i18n.language`, whose languages it reads, it imports
none of the kit's packages, so a notebook's imports stay light.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from simlab.i18n.language import LANGS

__all__ = ["tables", "entries", "NOTES", "CatalogError"]

#: What an entry may keep beside its templates, for a catalog whose English lives elsewhere
#: (the command line's help, :mod:`simlab.cli.helptext`): the hash of the English its
#: translation was made from, and that English while a translator still has to do it.
NOTES = ("en_hash", "todo")


class CatalogError(ValueError):
    """A catalog file that is not a table of message IDs, each with a template per language."""


def entries(module_file: str) -> dict[str, dict[str, str]]:
    """The entries of the catalog beside ``module_file`` (its ``.toml``), in the file's order:
    each ID's strings by field, a template per language and the :data:`NOTES` it keeps.
    Anything else raises :class:`CatalogError` naming the ID."""
    path = Path(module_file).with_suffix(".toml")
    with path.open("rb") as f:
        try:
            data = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            raise CatalogError(f"{path.name}: {e}") from None
    for key, entry in data.items():
        if not isinstance(entry, dict) or not entry:
            raise CatalogError(f"{path.name}: {key!r} is not a table of templates by language")
        for lang, text in entry.items():
            if lang not in (*LANGS, *NOTES) or not isinstance(text, str):
                raise CatalogError(
                    f"{path.name}: {key}.{lang} is not a template of a known language "
                    f"({', '.join(LANGS)})"
                )
    return data


def tables(module_file: str) -> tuple[dict[str, str], dict[str, str]]:
    """The ``EN`` and ``ZH`` templates of the catalog beside ``module_file`` (its ``.toml``),
    in the file's order. An ID may lack a language (the translation check names it); anything
    but a string template per known language (or a note) raises :class:`CatalogError` naming
    the ID."""
    found: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    for key, entry in entries(module_file).items():
        for lang in LANGS:
            if lang in entry:
                found[lang][key] = entry[lang]
    return found["en"], found["zh"]
