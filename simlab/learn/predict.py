"""Predict, then observe: the one-sentence answer to a learner's prediction.

A *predict* cell (cell metadata ``{"simlab": {"role": "predict"}}``) asks the learner to set
``prediction = ...`` (a number or one of a few choices) *before* running an experiment. The next
cell runs the experiment and calls :func:`reveal`, which answers in one sentence: right, or wrong
and why. A prediction left as ``None`` gets "make a prediction first" and the notebook carries
on, so a notebook run top to bottom (nbval, CI) never stops at a prediction.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["reveal", "MAKE_A_PREDICTION"]

MAKE_A_PREDICTION = (
    "Make a prediction first: set `prediction` in the cell above, run it, then run this cell."
)


def _matches(prediction: Any, actual: Any, tolerance: float) -> bool:
    if isinstance(prediction, str) and isinstance(actual, str):
        return prediction.strip().lower() == actual.strip().lower()
    if isinstance(prediction, bool) or isinstance(actual, bool):
        return type(prediction) is type(actual) and prediction == actual
    if isinstance(prediction, int | float) and isinstance(actual, int | float):
        return math.isclose(prediction, actual, rel_tol=tolerance, abs_tol=tolerance)
    return prediction == actual


def reveal(
    prediction: Any,
    actual: Any,
    *,
    why: str,
    tolerance: float = 0.0,
    right: Callable[[Any, Any], bool] | None = None,
    say: Callable[[str], None] = print,
) -> bool | None:
    """Answer ``prediction`` against what the experiment gave (``actual``) in one sentence.

    ``why`` is the reason, said either way (it is what the learner should take away).
    ``tolerance`` (relative and absolute) is how close a number must be; ``right(prediction,
    actual)`` replaces the comparison entirely (e.g. "any number above 0"). Returns True or
    False, or None for a prediction left as None (nothing is judged, nothing raises).
    """
    if prediction is None:
        say(MAKE_A_PREDICTION)
        return None
    ok = right(prediction, actual) if right is not None else _matches(prediction, actual, tolerance)
    if ok:
        say(f"Right: you predicted {prediction!r} and the run gave {actual!r}. {why}")
    else:
        say(f"Not quite: you predicted {prediction!r}, but the run gave {actual!r}. {why}")
    return bool(ok)
