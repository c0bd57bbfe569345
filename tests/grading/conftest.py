"""The grading tests' batch of answers (:mod:`tests.submissions.grading`) ends with the module
that used it: no sandbox of it outlives its module, and none is left for the host to clean."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(scope="module", autouse=True)
def _batch_ends_with_its_module():
    yield
    grading = sys.modules.get("tests.submissions.grading")
    if grading is not None:
        grading.close_batch()
