"""The chapter's teaching props: small models and real processes that show the ledger's ideas.

None of this is the ledger; each prop stands beside it so a learner can see one idea at a time.

* :mod:`~simlab.props.dict_experiment`: fencing with one dict and two functions (notebook 01).
* :mod:`~simlab.props.fenced_store`: a downstream store that sees only fencing tokens, and the
  cancel story it tells (notebook 01).
* :mod:`~simlab.props.processes`: real worker processes over a shared ledger (the chapter's
  worker, the claim race, the stress test's fleet); :mod:`~simlab.props.worker` is their command
  line, ``python -m simlab.props.worker COMMAND``, which the packages that start a worker name.
* :mod:`~simlab.props.demo`: the chapter's story across those processes, and the claim race it
  leaves open (``simlab demo``, notebook 02).

Props import the ledger, never the reverse; the names below are served on first use, so
``import simlab.props`` starts nothing. A notebook imports them from :mod:`simlab.learn`.
"""

from simlab.lazy import served

_LAZY = {
    "dict_claim": "simlab.props.dict_experiment:claim",
    "dict_commit": "simlab.props.dict_experiment:commit",
    "new_dict_state": "simlab.props.dict_experiment:new_state",
    "FencedStore": "simlab.props.fenced_store",
    "cancel_story": "simlab.props.fenced_store",
    "chapter_story": "simlab.props.demo",
    "claim_race": "simlab.props.demo",
    "resume_one_step": "simlab.props.processes",
}
__all__ = list(_LAZY)
__getattr__, __dir__ = served("simlab.props", _LAZY)
