"""What a learner's notebook imports: the public checks and the pieces it plugs its code into.

* :func:`self_check` (:mod:`~simlab.learn.self_check`): ``with self_check("question-id"):`` runs
  a notebook's plain asserts and prints one line (pass, not yet, fail);
* :func:`reveal` (:mod:`~simlab.learn.predict`): the answer to a prediction the learner wrote
  down before an experiment;
* :func:`set_language` (:mod:`simlab.i18n.language`): the language the notebook reads in,
  set once in its first code cell (English by default);
* :class:`PiecesLedger` and :func:`run_worker` (:mod:`~simlab.learn.pieces`): the real ledger
  with the learner's pieces plugged in, and the chapter's worker in a process of its own;
* the chapter's props a notebook plays with (:mod:`simlab.props`: the dict experiment's
  ``dict_claim``, ``dict_commit`` and ``new_dict_state``, ``cancel_story``, ``claim_race``,
  ``resume_one_step``) and a throwaway PostgreSQL server
  (:func:`simlab.testing.throwaway_postgres`), served from here so a notebook imports the kit
  from a few public paths.

This package holds no grading: the hidden checks, the sandbox and the report live in
:mod:`simlab.grading`, which uses these pieces to run a learner's code and never the other way
round. :mod:`~simlab.learn.state` is the one value a grading sandbox shares with the pieces
(the clock it sent, how workers start there).
"""

from simlab.i18n.language import set_language
from simlab.lazy import served
from simlab.learn.predict import reveal
from simlab.learn.self_check import CheckFailed, self_check

#: Served on first use: the pieces and the props import the ledger, so a notebook that only
#: checks itself stays light.
_LAZY = {
    **dict.fromkeys(("PiecesLedger", "run_worker"), "simlab.learn.pieces"),
    "dict_claim": "simlab.props.dict_experiment:claim",
    "dict_commit": "simlab.props.dict_experiment:commit",
    "new_dict_state": "simlab.props.dict_experiment:new_state",
    "cancel_story": "simlab.props.fenced_store",
    "claim_race": "simlab.props.demo",
    "resume_one_step": "simlab.props.processes",
    "throwaway_postgres": "simlab.testing.throwaway",
}
__all__ = ["self_check", "reveal", "set_language", "CheckFailed", *_LAZY]
__getattr__, __dir__ = served("simlab.learn", _LAZY)
