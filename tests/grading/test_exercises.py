"""Are the exercises keyed by their own IDs, in the order of the learning path, and does a
grader of one exercise's notebook import that exercise's checks only?"""

from __future__ import annotations

import ast
import subprocess
import sys

from simlab.grading.checks import EXERCISES
from tests.submissions.cases import ROOT


def test_is_each_exercise_filed_under_its_own_id_in_the_order_of_the_notebooks():
    assert [EXERCISES[name].id for name in EXERCISES] == list(EXERCISES)
    notebooks = [EXERCISES[name].notebook for name in EXERCISES]
    assert notebooks == sorted(notebooks) and len(EXERCISES) == 6
    assert "nothing" not in EXERCISES and EXERCISES.get("nothing") is None


def test_does_grading_one_exercise_import_the_checks_of_that_one_only():
    """A fresh process: what it imports to find a fencing notebook's exercise."""
    probe = (
        "import sys\n"
        "from simlab.grading.checks import exercise_for\n"
        "from simlab.grading.grader import grade\n"
        "from simlab.grading.notebook import read_notebook\n"
        f"nb = read_notebook({str(ROOT / 'solutions' / EXERCISES['fencing'].notebook)!r})\n"
        "assert exercise_for(nb).id == 'fencing'\n"
        "print(sorted({m.split('.')[3] for m in sys.modules\n"
        "              if m.startswith('simlab.grading.checks.') and m.count('.') >= 3}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert ast.literal_eval(done.stdout) == ["fencing", "hidden_world"]
