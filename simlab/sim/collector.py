"""Python's cycle collector paused while a simulated run builds its history
(:func:`collector_paused`), for :func:`~simlab.sim.simulation.simulate` and the searches of
:mod:`simlab.sim.explore`: a run's objects are freed by refcounting, and the collector's walks
would otherwise grow faster than the run."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["collector_paused", "PROMOTE_AFTER"]


#: A run that leaves at least this many new objects tracked by the cycle collector has them
#: moved to its oldest generation at once (:func:`collector_paused`); fewer are walked as usual.
PROMOTE_AFTER = 10_000


@contextlib.contextmanager
def collector_paused(promote: bool = False) -> Iterator[None]:
    """Pause Python's cycle collector while a run builds its history, then resume it.

    A run allocates objects by the hundred thousand and keeps most of them (the history, the
    records); every collection of the oldest generation walks all that are alive, so the
    collector's cost grows faster than the run. Refcounting still frees every acyclic object at
    once; a run leaves no cycle behind (:meth:`simlab.sim.simulation._Run.dismantle`).

    With ``promote`` (one run judged on its own, as :func:`simulate` makes), what the run
    leaves alive (its result) goes to the oldest generation, where it would end up anyway,
    without the walks of the young generations on its way there: the young generations are
    collected as the run begins (what the process made before it is judged as it would have
    been), and when it ends having left at least :data:`PROMOTE_AFTER` new objects, and nobody
    has set objects aside (``gc.freeze``; a heap someone froze stays frozen for them), those
    objects move to the oldest generation at once (``gc.freeze`` then ``gc.unfreeze``).
    Otherwise the collector's generations are left as they are: they belong to the process (a
    kernel, a test session).
    """
    was_enabled = gc.isenabled()
    promote = promote and was_enabled
    if promote:
        gc.collect(1)
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            # get_freeze_count() walks the objects set aside: asked only after a large run
            if promote and gc.get_count()[0] >= PROMOTE_AFTER and gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
