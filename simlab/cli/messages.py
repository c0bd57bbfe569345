"""What the command line says of a usage mistake, by ID (``cli.<key>``), in English (``EN``)
and Chinese (``ZH``): argparse's own messages and headings, the kit's words for a flag's bad
value, and the settings that make no sense.

Each English template is the text looked up (:func:`simlab.cli.language.said` finds the Chinese
by it, byte for byte): argparse's message ID, the kit's sentence for a value its argument types
refuse, or the template of a :class:`~simlab.errors.SettingError` as the simulator and the search
raise it. argparse's and the argument types' are ``%``-format, as argparse fills its own; a
setting's are ``str.format``, its fields the settings (said as their flags) and values. A
language keeps the other's fields. The kit's help sentences stay English; the usage line's
prefix and the help's section titles are here.
"""

from __future__ import annotations

from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH"]

EN, ZH = tables(__file__)
