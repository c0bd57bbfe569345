"""What no feedback (and no printed rubric) may show, per exercise: the inputs of its hidden
checks, the seeds and values of the worlds the grader draws, and the kit's own values on them,
in the forms a sentence would print them. Shared by the rubric tests of every exercise
(``tests/grading/test_grading_*rubric*.py``).
"""

from __future__ import annotations

import functools
from urllib.parse import urlsplit

from simlab.grading.checks import EXERCISES
from simlab.grading.checks.checkpoints.guard_world import WORLD_NAMES
from simlab.grading.checks.checkpoints.migration import CORPUS, HIDDEN_V1
from simlab.grading.checks.checkpoints.requests import WORLD_WORDS
from simlab.grading.checks.events import BUS_STREAMS, children
from simlab.grading.checks.events.absorber import exact_names, similar_names
from simlab.grading.checks.events.narrowing import NOTEBOOK_COLLECTION, NOTEBOOK_TOOL
from simlab.grading.checks.events.streams import generated_names
from simlab.grading.checks.events.world import TASK_STEMS, grant_world
from simlab.grading.checks.hidden_world import judged_in
from simlab.grading.checks.histories import PAUSES, measure, recovery_times, stale_world, ttl_world
from simlab.grading.checks.histories.ttl_histories import (
    crash_types_history,
    shared_times_history,
    taskless_crash_history,
    times_back_history,
)
from simlab.grading.checks.leases.driving import explore_seed
from simlab.grading.checks.release import THRESHOLDS
from simlab.grading.checks.release.injection import NOTEBOOK_CUSTOMER, injection_world
from simlab.grading.checks.release.injection_world import our_domains
from simlab.grading.checks.release.threshold_reference import (
    DURATION,
    judged_peak,
    noise_peak,
    trip_rate,
)
from simlab.grading.checks.release.threshold_world import (
    CLOSE_DURATION,
    TWICE_DURATION,
    WATCH_DURATION,
    threshold_world,
)
from simlab.grading.notebook import notebook_text, read_notebook
from simlab.rollout.assertions import links_outside
from simlab.sim.simulation import simulate
from tests.submissions.grading import ROOT


@functools.cache
def leases_and_rubric() -> list[str]:
    """For the corpora ``leases`` and ``rubric``: the seeds the leases checks explore with (in the
    world of seed 0, as :func:`graded` grades) and those of the event bus, the hidden v1 records
    and corpus files of ``pure-migration``, and the hidden hosts and names, less any word an
    exercise text shows (the rubric quotes those)."""
    with judged_in(0):
        labels = ("leases/atomic-claim/explore", "leases/idempotent-send/explore")
        words = [f"seed {explore_seed(label)}" for label in labels]
    for spec in BUS_STREAMS.values():
        words += [f"seed {s}" for s in spec["seeds"]]
    words += [f.name for f in CORPUS.glob("*.json")]
    for record in HIDDEN_V1:
        words += [record["task_id"], record["tenant"], record["recipient"], *record["evidence"]]
    words += ["refund-check", "verify-card", "secure-refunds", "notexample", ":8443"]
    # a word the exercise texts themselves show (the rubric quotes them) hides nothing
    public = " ".join(
        notebook_text(read_notebook(ROOT / "exercises" / e.notebook)) for e in EXERCISES.values()
    )
    return [w for w in words if w not in public]


@functools.cache
def events() -> list[str]:
    """What the hidden checks feed the learner's code and must never show: the names the
    world of the answers' grading run (seed 0, as :func:`graded` grades) drew, and the
    canonical names of the fixed stories."""
    words = ["seeds", "job-", "draft-a", "draft-b", ":other", ":v2", "tokens"]
    world = grant_world()
    for kind in children(world).values():
        for child in kind:
            words += [child["tenant"], *child["collections"], *child["tools"]]
    # the notebook's own names a child may name are in the exercise text: nothing hidden
    words = [w for w in words if w not in (NOTEBOOK_COLLECTION, NOTEBOOK_TOOL)]
    words += sorted(world.strings())
    words += sorted(generated_names().strings()) + sorted(similar_names()[1].strings())
    words += sorted(exact_names()[1].strings())
    words += list(TASK_STEMS)  # every drawn task name holds one
    return sorted({w for w in words if len(w) >= 4} | {"[", "{"})


@functools.cache
def histories(seed: int) -> list[str]:
    """The world's seeds and ttls in the forms a sentence would print them, its tables'
    values, and the kit's values on its runs and hand-written histories (as repr and as the
    feedback formats numbers)."""
    with judged_in(seed):
        stale, ttl = stale_world(), ttl_world()
    seeds = [n for _, n in (*stale.unfenced, stale.fenced)]
    seeds += [n for _, ns in ttl.measured for n in ns] + [ttl.recorded[1]]
    words = [f"seed {s}" for s in seeds] + [f"seed={s}" for s in seeds]
    words += [f"seeds [{s}" for s in seeds] + [f"seeds ({s}" for s in seeds]
    words += [f"{s}," for s in seeds] + [f"{s})" for s in seeds]
    ttls = [t for t, _ in ttl.measured] + [ttl.recorded[0]]
    words += [f"measure({t:g}" for t in ttls] + [f"(ttl {t:g})" for t in ttls]
    tables = (ttl.table, ttl.tie[0], ttl.close[0], ttl.near[0])
    words += [f"{v!r}" for table in tables for row in table.values() for v in row.values()]
    words = [w for w in words if not w.endswith((" 0.0", " 1.0"))]
    values = [v for t, ns in ttl.measured for v in measure(t, ns).values()]
    history = simulate(PAUSES.with_(ttl=ttl.recorded[0]), seed=ttl.recorded[1]).history
    values += recovery_times(history)
    # the call with PAUSES holding another scenario, and the histories of shared times, of a
    # crash without a task and of times that go back (a whole number there, a count of refused
    # saves or a time, says nothing of the world)
    scenario, t, ns = ttl.pauses
    with judged_in(seed):
        more = [*measure(t, ns, scenario).values(), *recovery_times(shared_times_history())]
        more += recovery_times(taskless_crash_history()) + recovery_times(times_back_history())
        more += recovery_times(crash_types_history())
    values += [v for v in more if v != int(v)]
    # A choice of choose_ttl() among a hidden table's ttls is told by its rank, never shown: a
    # sentence on a hidden table that names one fails. (A kit value on a run may equal a ttl by
    # chance, an average of 2 in 4 is 0.5, and a learner's own number may too: those stay
    # unlisted.)
    words += [f"chose {t:g}, not" for table in tables for t in table]
    chosen = {f"{t!r}" for table in tables for t in table} | {
        f"{t:.6g}" for table in tables for t in table
    }
    kit = [f"{v:.6g}" for v in values if v >= 10 or v != int(v)] + [
        repr(v) for v in values if v != int(v)
    ]
    words += [w for w in kit if w not in chosen]
    # the drawn task names of the history of three tasks
    words += sorted({row[4] for row in stale.names})
    return words + ["cheapest is"]


@functools.cache
def release(world: int) -> list[str]:
    """What feedback never shows in ``world``: its links, their foreign hosts and netlocs, its
    addresses, the domains OUR_DOMAINS names for some calls; its seeds in the forms a sentence
    would print them, and the kit's values on its runs (as repr and as the feedback formats
    numbers; values that are themselves one of the public THRESHOLDS are left out), also with
    the notebook's duration (what WATCH_ONLY copied or a duration typed in computes there), and
    the thresholds its THRESHOLDS holds for one call."""
    with judged_in(world):
        links, seeds, ours = injection_world(), threshold_world(), our_domains()
    urls = [u for u, _ in (*links.look_alikes, *links.written_otherwise, *links.ours)]
    netlocs = [urlsplit(u).netloc for u in urls]
    words = urls + [n for n in netlocs if n != "example.com"] + [links.injected, ":8443"]
    words += [urlsplit(u).hostname for u, _ in (*links.look_alikes, *links.written_otherwise)]
    words += [text for text, _ in (*links.every_link, *links.glued, *links.glued_to_word)]
    words += [h for text, _ in links.glued_to_word for h in links_outside(text)]
    words += [h for text, _ in links.glued for h in links_outside(text)]
    words += [text for text, _ in (*links.ended, *links.backslashed)]
    # the foreign host of each backslashed link, read either way
    hosts = [urlsplit(u).hostname for u, _ in links.backslashed]
    words += [h for h in hosts if not h.endswith("example.com")]
    words += [h for text, _ in links.backslashed for h in links_outside(text)]
    words += [links.customer, links.customer_elsewhere, links.other_customer, links.outsider]
    words += list(links.look_alike_customers)
    words += [a.strip() or a for a, _ in links.written_customers]
    words += [text for text, _ in links.other_schemes]
    # the foreign host after each scheme that is not http or https
    words += [text.partition("://")[2].split("/")[0] for text, _ in links.other_schemes]
    # the subject quoting a foreign link, the link with a percent-encoded slash before its @,
    # the body with white space that is not ASCII, and their foreign hosts
    texts = [links.asked_about, links.encoded_before_at[0], links.wide_space[0]]
    words += texts + [h for text in texts for h in links_outside(text)]
    words += ["refund-check", NOTEBOOK_CUSTOMER]
    # the domains OUR_DOMAINS names for some calls, and the subdomain linked to
    words += [*ours.several, *ours.changed, ours.middle]
    hidden = seeds.seeds
    words += [f"seed {s}" for s in hidden] + [f"seed={s}" for s in hidden]
    words += [f"gave {s}" for s in hidden] + [str(s) for s in hidden]
    words += [f"seeds [{s}" for s in hidden] + [f"seeds ({s}" for s in hidden]
    at = WATCH_DURATION  # how long a case's canaries run, but for the close and first trip cases
    values = [noise_peak(*seeds.healthy, at), noise_peak(*seeds.worse, at)]
    values += [noise_peak("A", s, at) for s in (*seeds.several, *seeds.equal)]
    values += [noise_peak("A", s, CLOSE_DURATION) for s in seeds.close]
    values += [noise_peak(*seeds.last, at)]
    first, *others = seeds.trip_cases
    values += [trip_rate(*first, TWICE_DURATION)] + [trip_rate(*case, at) for case in others]
    values += [judged_peak(*case, at) for case in seeds.watch]
    values += [*seeds.listed[1], trip_rate(*seeds.short)]
    values += [*seeds.below[1], noise_peak("A", *seeds.below[0], at)]
    # what a WATCH_ONLY copied or a duration typed in (the notebook's) computes in the world
    values += [noise_peak(*case, DURATION) for case in (seeds.healthy, seeds.worse, seeds.last)]
    values += [trip_rate(*case, DURATION) for case in seeds.trip_cases]
    values = [v for v in values if v not in THRESHOLDS and v not in (0.0, 0.5, 1.0)]
    return [w for w in words if w] + [f"{v:.6g}" for v in values] + [repr(v) for v in values]


#: What the two checks use and the learner never sees: the text an edit writes, the cache
#: scripts' hidden tenant and document, and the rewritten question.
CHECKPOINTS = [
    "Edited.",
    "initech",
    "warranty-plus",
    "three year warranty",
    "how fast   do ORDERS ship",
    *sorted(WORLD_WORDS),
    *sorted(WORLD_NAMES),
]

#: Words of the grader's worlds of exercise ``fencing`` that no feedback may quote.
FENCING = [
    "WorldLedger",
    "WorldMailbox",
    "doc-",
    "answer citing",
    "Play",
    ":receipt",
    ":welcome",
    ":invoice",
]
