"""A step-through of one race: a slider over the events of one task, and after each event the
task's ledger row and its effects table.

:class:`RaceStepper` reads a history (a list of events, or a simulation's ``result.history``)
and rebuilds the task's row after every event with :func:`simlab.checker.rows.task_rows`, the
pure replay the tests hold against the real ledger. The logic is in plain methods that tests
call without a browser:

* :meth:`RaceStepper.event_line` -- event ``i`` in one sentence (a refused save says why:
  :func:`simlab.checker.rows.refusal_reasons`);
* :meth:`RaceStepper.row_html` / :meth:`RaceStepper.effects_html` -- the row (the cells that
  event ``i`` changed in bold) and the effects table after event ``i``;
* :meth:`RaceStepper.figure` -- the task's timeline with a cursor at event ``i``.

ipywidgets only wire a slider and two buttons to :meth:`RaceStepper.go`, which fills an HTML
widget and an Image widget (PNG bytes, as the dashboard does: no ``Output`` widget).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

from matplotlib.figure import Figure

from simlab.checker.history import Event, HistoryView
from simlab.checker.rows import Row, Snapshot, refusal_reasons, task_rows
from simlab.plots.dashboard import png
from simlab.plots.timeline import timeline

__all__ = ["RaceStepper", "first_refused_task", "ROW_FIELDS"]

#: The ledger columns shown, in order.
ROW_FIELDS = ("status", "step", "epoch", "worker", "lease_until")


def first_refused_task(history: Iterable[Event]) -> str | None:
    """The task of the first refused save in ``history`` (a race worth stepping through), or of
    the first save, or None."""
    view = HistoryView(history)
    saves = [e for e in view if e.op == "save" and e.task is not None]
    refused = [e for e in saves if e.type == "fail"]
    pick = refused or saves
    return pick[0].task if pick else None


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


class RaceStepper:
    """Step through the events of ``task`` in ``history`` (default: :func:`first_refused_task`).

    ``variant`` is the run's (see :func:`simlab.checker.rows.refusal_reasons`). ``ValueError`` if
    the history holds no event of the task.
    """

    def __init__(self, history: Iterable[Event], task: str | None = None, *, variant="fenced"):
        self.view = HistoryView(history)
        self.task = task if task is not None else first_refused_task(self.view)
        self.snapshots: list[Snapshot] = (
            task_rows(self.view, self.task) if self.task is not None else []
        )
        if not self.snapshots:
            raise ValueError(f"no event of task {self.task!r} in this history")
        self.reasons = refusal_reasons(self.view, variant=variant)
        self.index = 0
        self.box: Any = None  # the widgets, once widget() built them
        self.slider: Any = None
        self.buttons: tuple[Any, ...] = ()
        self.text: Any = None
        self.image: Any = None

    def __len__(self) -> int:
        return len(self.snapshots)

    # -- the logic: plain methods ----------------------------------------------------------------

    def event_line(self, i: int) -> str:
        """Event ``i`` of the task in one sentence: who did what, with which epoch, and how it
        ended."""
        e = self.snapshots[i].event
        what = f"{e.op} {e.type}"
        details = []
        if e.epoch is not None:
            details.append(f"epoch {e.epoch}")
        if e.step is not None:
            details.append(f"step {e.step}")
        for key in ("lease_until", "until", "key"):
            if e.value.get(key) is not None:
                details.append(f"{key.replace('_', ' ')} {_cell(e.value[key])}")
        if e.op == "save" and e.value.get("done"):
            details.append("done")
        line = f"event {i + 1} of {len(self)}, t={e.time:.3f}: {e.process} {what}"
        if details:
            line += f" ({', '.join(details)})"
        if e.op == "save" and e.type == "fail":
            line += f": refused, {self.reasons.get(e.index, 'unknown').replace('-', ' ')}"
        elif e.op == "claim" and e.type == "fail":
            line += f": {e.value.get('reason', 'refused')}"
        return line

    def changed(self, i: int) -> set[str]:
        """The row's columns that event ``i`` changed (all of them for the first row)."""
        now = self.snapshots[i].row
        before = self.snapshots[i - 1].row if i > 0 else None
        if now is None:
            return set()
        if before is None:
            return set(ROW_FIELDS)
        return {f for f in ROW_FIELDS if getattr(now, f) != getattr(before, f)}

    def row_html(self, i: int) -> str:
        """The ledger row after event ``i`` as an HTML table; changed cells in bold."""
        row: Row | None = self.snapshots[i].row
        if row is None:
            return "<p>no row yet: the task is not submitted</p>"
        bold = self.changed(i)
        cells = "".join(
            f"<td>{'<b>' if f in bold else ''}{html.escape(_cell(getattr(row, f)))}"
            f"{'</b>' if f in bold else ''}</td>"
            for f in ROW_FIELDS
        )
        head = "".join(f"<th>{f}</th>" for f in ROW_FIELDS)
        return (
            f"<table><caption>tasks row of {html.escape(self.task)}</caption>"
            f"<tr>{head}</tr><tr>{cells}</tr></table>"
        )

    def effects_html(self, i: int) -> str:
        """The effects table after event ``i`` (one row per recorded idempotency key)."""
        effects = self.snapshots[i].effects
        if not effects:
            return "<p>effects: none recorded</p>"
        rows = "".join(
            f"<tr><td>{html.escape(x.key)}</td><td>{x.epoch}</td><td>{html.escape(x.worker)}"
            f"</td><td>{x.recorded_at:.3f}</td></tr>"
            for x in effects
        )
        return (
            "<table><caption>effects</caption><tr><th>key</th><th>epoch</th><th>worker</th>"
            f"<th>recorded_at</th></tr>{rows}</table>"
        )

    def figure(self, i: int) -> Figure:
        """The task's timeline with a vertical cursor at event ``i`` (gid ``"cursor"``)."""
        fig = Figure(figsize=(10, 3.2), layout="constrained")
        ax = fig.add_subplot()
        timeline(self.view, ax=ax, tasks=[self.task], title=f"{self.task}, event {i + 1}")
        ax.axvline(self.snapshots[i].event.time, color="black", lw=1.2, ls="--", gid="cursor")
        return fig

    # -- the wiring: ipywidgets ----------------------------------------------------------------

    def widget(self):
        """The slider, the buttons, the event line, the tables and the timeline (built once;
        afterwards ``slider``, ``buttons``, ``text`` and ``image`` are the widgets)."""
        if self.box is None:
            import ipywidgets as w

            self.slider = w.IntSlider(
                value=0,
                min=0,
                max=len(self) - 1,
                description="event",
                continuous_update=False,
                layout=w.Layout(width="500px"),
            )
            self.buttons = (w.Button(description="previous"), w.Button(description="next"))
            self.text = w.HTML()
            self.image = w.Image(format="png", layout=w.Layout(max_width="100%"))
            self.buttons[0].on_click(lambda _b: self.go(self.index - 1))
            self.buttons[1].on_click(lambda _b: self.go(self.index + 1))
            self.slider.observe(lambda change: self.go(change["new"]), names="value")
            controls = w.HBox([self.buttons[0], self.slider, self.buttons[1]])
            self.box = w.VBox([controls, self.text, self.image])
            self.go(0)
        return self.box

    def go(self, i: int) -> int:
        """Show event ``i`` (clamped to the events there are); return the index shown."""
        i = max(0, min(int(i), len(self) - 1))
        self.index = i
        if self.box is not None:
            if self.slider.value != i:
                self.slider.value = i  # the slider's observer calls go(i) and draws
                return i
            self.text.value = (
                f"<p><b>{html.escape(self.event_line(i))}</b></p>"
                f"{self.row_html(i)}{self.effects_html(i)}"
            )
            self.image.value = png(self.figure(i))
        return i

    def show(self) -> None:
        """Display the widget (at the first event)."""
        from IPython.display import display

        display(self.widget())
