"""The fault kinds as tables: the Markdown table of docs/simulator.md and the list in the
schedule module's docstring, both generated from the registry (:data:`~simlab.sim.faults.KINDS`).
"""

from __future__ import annotations

import textwrap

from simlab.sim.faults import KINDS, POINTS

__all__ = ["faults_table", "docstring_table"]


def faults_table() -> str:
    """The kinds as a Markdown table (docs/simulator.md)."""
    lines = [
        "| kind | fields | strikes | rate (default) | what happens |",
        "|---|---|---|---|---|",
    ]
    for k in KINDS.values():
        rate = f"`{k.rate}` ({k.default_rate:g}) {k.per}"
        fields = ", ".join(k.fields)
        row = f"| `{k.name}` | {fields} | {POINTS[k.point]} | {rate} | {k.does} |"
        lines.append(row.replace("``", "`"))
    return "\n".join(lines) + "\n"


def docstring_table() -> str:
    """The kinds as a reStructuredText list (the schedule module's docstring)."""
    out = []
    for k in KINDS.values():
        line = f"* ``{k.name}`` ({', '.join(k.fields)}): {k.does}."
        out.append(textwrap.fill(line, 96, subsequent_indent="  ", break_on_hyphens=False))
    return "\n".join(out) + "\n"
