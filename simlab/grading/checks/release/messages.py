"""The feedback of exercise ``release``'s hidden checks, by ID (``release.<key>``), in English
(``EN``) and Chinese (``ZH``); the checks speak them with :data:`say`. Keys are grouped by the
question that says them. See :mod:`simlab.grading.messages`."""

from __future__ import annotations

from simlab.grading.messages import speaker
from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH", "say"]

#: A message of this exercise: ``say(key, **values)``.
say = speaker("release")

EN, ZH = tables(__file__)
