"""The sentences of the instructor's overrides (:mod:`simlab.grading.overrides`), in every
export and on the feedback page: catalog ``override`` of :mod:`simlab.grading.messages`."""

from simlab.i18n.catalog import tables

EN, ZH = tables(__file__)
