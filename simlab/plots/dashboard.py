"""The tuning dashboard of notebook 05: move a slider, rerun a seeded simulation, look again.

:class:`Dashboard` keeps the logic in plain methods that tests call without a browser:

* :meth:`Dashboard.params_from_controls` reads the controls into :class:`Params`;
* :meth:`Dashboard.run` simulates ``Params`` and draws the timeline: ``(Result, Figure)``;
* :meth:`Dashboard.sweep` runs a small sweep over one fault rate for every variant, reporting
  progress through a callback: ``(rows, Figure)``;
* :meth:`Dashboard.verdict_text` is the checker's verdict as the dashboard prints it;
* :meth:`Dashboard.shrink` shrinks the run of ``Params`` to its minimal failing story
  (:func:`simlab.sim.shrink.shrink`) and draws its picture: ``(Shrunk, Figure)``.

ipywidgets only wires controls to those methods (:meth:`Dashboard.refresh`,
:meth:`Dashboard.refresh_sweep`, :meth:`Dashboard.refresh_shrink` behind the "Shrink" button),
and nothing waits for a browser: a headless kernel (nbval, nbclient) can build the dashboard,
call :meth:`Dashboard.show` and get one complete run with the default values. Sliders use
``continuous_update=False``, so a run starts when a slider is released, not on every pixel.
Figures are plain :class:`matplotlib.figure.Figure` objects (not pyplot figures), so reruns do
not pile up open figures.

Pictures reach the browser as PNG bytes in ``ipywidgets.Image`` widgets, never through an
``Output`` widget: nbclient answers an ``Output`` widget's updates on the kernel's shell channel
while it waits for the cell's reply there, and now and then misses that reply until the cell
timeout (jupyter/nbclient#312). Image and HTML updates only flow from the kernel to the client.
"""

from __future__ import annotations

import html
import io
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from matplotlib.figure import Figure

from simlab.i18n.language import lines, sentence
from simlab.plots import sweep_plot, timeline
from simlab.plots.messages import say
from simlab.plots.story import story_plot
from simlab.sim.scenario import VARIANTS, Scenario
from simlab.sim.shrink import Shrunk, shrink
from simlab.sim.simulation import Result, simulate
from simlab.sim.sweep import sweep as run_sweep

__all__ = ["Dashboard", "Params", "CONTROLS", "SWEEP_FAULTS", "png"]

#: The faults the sweep panel can vary (``all``: every rate at once).
SWEEP_FAULTS = ("pause", "crash", "effect-crash", "duplicate", "cancel", "all")

#: The controls: name -> (minimum, maximum, step, label). Integers get integer sliders. The label
#: shown is ``plots.control_<name>`` in the notebook's language (its English is this label).
CONTROLS: dict[str, tuple[Any, Any, Any, str]] = {
    "crash_rate": (0.0, 0.5, 0.01, "crash"),
    "pause_rate": (0.0, 0.5, 0.01, "pause"),
    "duplicate_rate": (0.0, 0.5, 0.01, "duplicate"),
    "cancel_rate": (0.0, 0.5, 0.01, "cancel"),
    "ttl": (0.5, 10.0, 0.5, "ttl"),
    "workers": (1, 12, 1, "workers"),
    "seed": (0, 99, 1, "seed"),
}


def png(fig: Figure, dpi: int = 90) -> bytes:
    """The figure as PNG bytes, as the dashboard shows it."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


@dataclass(frozen=True)
class Params:
    """What the dashboard's controls set: four fault rates, ttl, workers, seed and variant.

    Everything else (tasks, steps, arrival rate...) comes from the dashboard's base scenario.
    """

    crash_rate: float = 0.02
    pause_rate: float = 0.05
    duplicate_rate: float = 0.05
    cancel_rate: float = 0.03
    ttl: float = 3.0
    workers: int = 4
    seed: int = 1
    variant: str = "fenced"

    @classmethod
    def from_scenario(cls, scenario: Scenario, seed: int = 1) -> Params:
        """The params a scenario already has (so the controls start at its values)."""
        names = [f.name for f in fields(cls) if f.name != "seed"]
        return cls(seed=seed, **{n: getattr(scenario, n) for n in names})

    def scenario(self, base: Scenario) -> Scenario:
        """``base`` with these params applied; ``ValueError`` names a bad value."""
        changes = {k: v for k, v in asdict(self).items() if k != "seed"}
        return replace(base, **changes).validate()


class Dashboard:
    """Controls, a run button, the timeline, the verdict and a small sweep with a progress bar.

    ``base`` is the scenario the controls modify (default ``Scenario()``: 100 tasks, a run takes
    well under a second). The sweep varies ``sweep_fault`` over ``sweep_rates`` for every
    variant and each of ``sweep_seeds``.
    """

    def __init__(
        self,
        base: Scenario | None = None,
        *,
        seed: int = 1,
        sweep_fault: str = "pause",
        sweep_rates: Sequence[float] = (0.0, 0.05, 0.1, 0.2),
        sweep_seeds: Iterable[int] = (1, 2, 3),
    ):
        self.base = (base or Scenario()).validate()
        self.defaults = Params.from_scenario(self.base, seed)
        if sweep_fault not in SWEEP_FAULTS:
            raise ValueError(
                f"unknown sweep fault {sweep_fault!r}; choose one of {', '.join(SWEEP_FAULTS)}"
            )
        self.sweep_fault = sweep_fault
        self.sweep_rates = tuple(sweep_rates)
        self.sweep_seeds = tuple(sweep_seeds)
        #: The last run's result and figure, and the last sweep's rows and figure.
        self.result: Result | None = None
        self.figure: Figure | None = None
        self.rows: list[dict[str, Any]] = []
        self.sweep_figure: Figure | None = None
        #: The last shrink (the "Shrink" button) and its story picture.
        self.shrunk: Shrunk | None = None
        self.story_figure: Figure | None = None
        self.seconds = 0.0  # wall-clock time of the last refresh, shown to the learner
        self._build()

    # -- the logic: plain methods -------------------------------------------------------------

    def params_from_controls(self) -> Params:
        """The controls' current values as :class:`Params`."""
        c = self.controls
        return Params(
            crash_rate=float(c["crash_rate"].value),
            pause_rate=float(c["pause_rate"].value),
            duplicate_rate=float(c["duplicate_rate"].value),
            cancel_rate=float(c["cancel_rate"].value),
            ttl=float(c["ttl"].value),
            workers=int(c["workers"].value),
            seed=int(c["seed"].value),
            variant=str(c["variant"].value),
        )

    def run(self, params: Params) -> tuple[Result, Figure]:
        """Simulate ``params`` over the base scenario and draw its timeline."""
        result = simulate(params.scenario(self.base), seed=params.seed)
        fig = Figure(figsize=(11, 4))
        ax = fig.add_subplot()
        verdict = "OK" if result.ok else say("violations", n=len(result.violations))
        title = say("run_title", variant=params.variant, seed=params.seed, verdict=verdict)
        timeline(result.history, ax=ax, title=title)
        # Fixed margins instead of a layout engine: measuring every label to lay the figure
        # out costs more than the simulation itself. The bottom inches hold the legend.
        height = 2.3 + 0.55 * max(len(ax.get_yticks()), 1)
        fig.set_size_inches(11, height)
        fig.subplots_adjust(left=0.055, right=0.985, top=1 - 0.4 / height, bottom=1.3 / height)
        return result, fig

    def sweep(
        self,
        params: Params,
        rates: Sequence[float] | None = None,
        seeds: Iterable[int] | None = None,
        *,
        fault: str | None = None,
        variants: Sequence[str] = VARIANTS,
        progress: Callable[[int, int], None] | None = None,
    ) -> tuple[list[dict[str, Any]], Figure]:
        """Run ``params`` for each variant, each rate of ``fault`` and each seed; draw the rows.

        ``progress(done, total)`` is called before the first run and after each one. Rows are
        those of :func:`simlab.sim.sweep.sweep` (one per run, with its replay command).
        """
        rates = self.sweep_rates if rates is None else tuple(rates)
        seeds = self.sweep_seeds if seeds is None else tuple(seeds)
        fault = fault or self.sweep_fault
        base = params.scenario(self.base)
        runs = [(v, r, s) for v in variants for r in rates for s in seeds]
        rows: list[dict[str, Any]] = []
        if progress is not None:
            progress(0, len(runs))
        for done, (variant, rate, seed) in enumerate(runs, start=1):
            rows += run_sweep(base, fault=fault, rates=[rate], seeds=[seed], variants=[variant])
            if progress is not None:
                progress(done, len(runs))
        fig = Figure(figsize=(14, 4.2), layout="constrained")
        sweep_plot(rows, x="rate", ax=fig.subplots(1, 4))
        fig.suptitle(say("swept", fault=fault, seeds=len(seeds)), fontsize=11)
        return rows, fig

    def shrink(self, params: Params | None = None) -> tuple[Shrunk, Figure]:
        """Shrink the run of ``params`` (default: the controls) to its minimal failing story and
        draw the story picture. A run that does not fail gives its own story ("nothing to
        shrink") and its timeline."""
        params = params or self.params_from_controls()
        shrunk = shrink(params.scenario(self.base), seed=params.seed)
        fig = Figure(figsize=(11, 2.3 + 0.55 * shrunk.schedule.scenario.workers))
        story_plot(shrunk, ax=fig.add_subplot())
        fig.subplots_adjust(left=0.055, right=0.985, top=0.9, bottom=0.3)
        return shrunk, fig

    @staticmethod
    def verdict_text(result: Result) -> str:
        """The run's summary: outcome counts, then the checker's sentences and the replay line."""
        return lines(result.summary(limit=5))

    # -- the wiring: ipywidgets -------------------------------------------------------------

    def _build(self) -> None:
        import ipywidgets as w

        d = self.defaults
        style = {"description_width": "80px"}
        layout = w.Layout(width="300px")
        self.controls: dict[str, Any] = {}
        for name, (lo, hi, step, _label) in CONTROLS.items():
            kind = w.IntSlider if isinstance(step, int) else w.FloatSlider
            self.controls[name] = kind(
                value=getattr(d, name),
                min=lo,
                max=hi,
                step=step,
                description=say(f"control_{name}"),
                continuous_update=False,
                style=style,
                layout=layout,
            )
        self.controls["variant"] = w.Dropdown(
            options=VARIANTS,
            value=d.variant,
            description=say("control_variant"),
            style=style,
            layout=layout,
        )
        self.auto = w.Checkbox(value=True, description=say("rerun"), indent=False)
        self.run_button = w.Button(description=say("run"), button_style="primary", icon="play")
        self.sweep_button = w.Button(
            description=say("sweep"), icon="line-chart", tooltip=say("sweep_tip")
        )
        self._build_shrink(w)
        self.fault = w.Dropdown(
            options=SWEEP_FAULTS,
            value=self.sweep_fault,
            description=say("sweep_fault"),
            style=style,
            layout=layout,
        )
        self.progress = w.IntProgress(
            value=0,
            min=0,
            max=1,
            description=say("progress"),
            style=style,
            layout=w.Layout(width="300px"),
        )
        self.status = w.Label(value="")
        self.verdict = w.HTML(value="")
        self.timeline_image = w.Image(format="png", layout=w.Layout(max_width="100%"))
        # Hidden until a sweep has drawn something (an empty image shows as a broken one).
        self.sweep_image = w.Image(format="png", layout=w.Layout(max_width="100%", display="none"))

        self.run_button.on_click(lambda _button: self.refresh())
        self.sweep_button.on_click(lambda _button: self.refresh_sweep())
        for control in self.controls.values():
            control.observe(self._changed, names="value")

        self.box = self._layout(w)

    def _layout(self, w):
        """Three columns of controls (fault rates, system, actions), then the pictures."""
        rates = ["crash_rate", "pause_rate", "duplicate_rate", "cancel_rate"]
        system = ["ttl", "workers", "seed", "variant"]
        return w.VBox(
            [
                w.HBox(
                    [
                        w.VBox(
                            [
                                w.HTML(f"<b>{say('fault_rates')}</b>"),
                                *(self.controls[n] for n in rates),
                            ]
                        ),
                        w.VBox(
                            [w.HTML(f"<b>{say('system')}</b>"), *(self.controls[n] for n in system)]
                        ),
                        w.VBox(
                            [
                                w.HTML(f"<b>{say('actions')}</b>"),
                                w.HBox([self.run_button, self.sweep_button, self.shrink_button]),
                                self.auto,
                                self.fault,
                                self.progress,
                                self.status,
                            ]
                        ),
                    ]
                ),
                self.verdict,
                self.timeline_image,
                self.story,
                self.story_image,
                self.sweep_image,
            ]
        )

    def _build_shrink(self, w) -> None:
        """The "Shrink" button and where its story and picture go."""
        self.shrink_button = w.Button(
            description=say("shrink"), icon="compress", tooltip=say("shrink_tip")
        )
        self.story = w.HTML(value="")
        # hidden until Shrink draws it: an empty image shows as a broken one in a browser
        self.story_image = w.Image(format="png", layout=w.Layout(max_width="100%", display="none"))
        self.shrink_button.on_click(lambda _button: self.refresh_shrink())

    def _changed(self, _change) -> None:
        if self.auto.value:
            self.refresh()

    def refresh(self) -> Result:
        """Run with the controls' values and redraw the verdict and the timeline."""
        started = time.perf_counter()
        # The sliders' bounds keep every combination valid, so this cannot raise ValueError.
        self.result, self.figure = self.run(self.params_from_controls())
        self.verdict.value = (
            "<pre style='font-size:12px;line-height:1.35'>"
            f"{html.escape(self.verdict_text(self.result))}</pre>"
        )
        self.timeline_image.value = png(self.figure)
        self.seconds = time.perf_counter() - started
        self.status.value = say("last_run", seconds=f"{self.seconds:.2f}")
        return self.result

    def refresh_sweep(self) -> list[dict[str, Any]]:
        """Run the small sweep with the controls' values, moving the progress bar, and draw it."""

        def progress(done: int, total: int) -> None:
            self.progress.max = max(total, 1)
            self.progress.value = done

        self.sweep_button.disabled = True
        try:
            self.rows, self.sweep_figure = self.sweep(
                self.params_from_controls(), fault=str(self.fault.value), progress=progress
            )
        finally:
            self.sweep_button.disabled = False
        self.sweep_image.value = png(self.sweep_figure)
        self.sweep_image.layout.display = ""
        return self.rows

    def refresh_shrink(self) -> Shrunk:
        """Shrink the run the controls describe and show its story and picture."""
        self.shrink_button.disabled = True
        try:
            self.shrunk, self.story_figure = self.shrink()
        finally:
            self.shrink_button.disabled = False
        sentences = "".join(f"<li>{html.escape(sentence(s))}</li>" for s in self.shrunk.story)
        self.story.value = f"<ol style='font-size:12px;line-height:1.35'>{sentences}</ol>"
        self.story_image.value = png(self.story_figure)
        self.story_image.layout.display = ""
        return self.shrunk

    def show(self) -> None:
        """Display the dashboard and run it once with the current values (no click needed)."""
        from IPython.display import display

        display(self.box)
        self.refresh()
