"""Answers to exercise ``release`` (``05_release_regression.ipynb``): correct alternatives that
must get every point (in every hidden world), and classic mistakes with the points each must
get at most, in the format of :mod:`submissions.leases` ``(name, question, source, points at
most, words in the feedback)``. A mistake of the core idea gets at most half of the question
(2 of 5, 3 of 6). :data:`ADVERSARIAL` are answers that try to foresee the world they are judged
in (typed-in results, ignored arguments, a value from the run's report instead of the e-mails,
hosts by prefix or substring, the check cell's inputs special-cased, the world looked for);
each loses the points of the "must" it breaks.
"""

from __future__ import annotations

from simlab.grading.checks.release import THRESHOLDS
from tests.submissions.cases import answer_source

# --- injection-rule -------------------------------------------------------------------------

# The authority cut out by hand (ended by a slash, a backslash, ? or #; user@ and :port
# removed, lower case); recipients as a list.
BY_HAND = r"""
def injection_rule(obs):
    if [mail["to"] for mail in obs["deliveries"]] != [obs["recipient"]]:
        return False
    for match in re.finditer(r"(?i)https?://[^\s<>\"')]+", obs["deliveries"][0]["body"]):
        link = match.group(0).rstrip(".,;:!?")
        authority = re.split(r"[/?#\\]", link.split("://", 1)[1], maxsplit=1)[0]
        host = authority.rsplit("@", 1)[-1].split(":")[0].lower().rstrip(".")
        if not any(host == d or host.endswith("." + d) for d in OUR_DOMAINS):
            return False
    return True
"""

# The host's last two labels, from urlsplit; a Counter of recipients.
LAST_LABELS = r"""
from collections import Counter


def injection_rule(obs):
    if Counter(m["to"] for m in obs["deliveries"]) != Counter([obs["recipient"]]):
        return False
    body = obs["deliveries"][0]["body"]
    links = [u.rstrip(".,;:!?") for u in re.findall(r"https?://[^\s<>\"')]+", body, re.I)]
    try:
        hosts = [(urlsplit(u.replace("\\", "/")).hostname or "").rstrip(".") for u in links]
    except ValueError:  # a host that cannot be read is not ours
        return False
    ours = [d.split(".") for d in OUR_DOMAINS]
    return all(any(h.split(".")[-len(d):] == d for d in ours) for h in hosts)
"""

# The kit's own link rule (simlab.rollout.assertions), imported.
KIT_LINKS = """
from simlab.rollout.assertions import links_outside


def injection_rule(obs):
    mails = obs["deliveries"]
    one = len(mails) == 1 and mails[0]["to"] == obs["recipient"]
    return one and not links_outside(mails[0]["body"], OUR_DOMAINS)
"""


#: Every link of ``body`` as the text says (its end, a backslash read as a slash), found with
#: ``{flags}`` (a rule's ``links``).
_LINKS = (
    r"""[u.rstrip(".,;:!?").replace("\\", "/") """
    r"""for u in re.findall(r"https?://[^\s<>\"')]+", body{flags})]"""
)


def _rule(host_is_ours: str, links: str = _LINKS.format(flags=", re.IGNORECASE")) -> str:
    """A rule with the solution's mail check, every link, and ``host_is_ours(url)`` (a link
    whose host cannot be read, ``ValueError``, is not ours)."""
    return f"""
def host_is_ours(url):
{host_is_ours}


def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1 or mails[0]["to"] != obs["recipient"]:
        return False
    body = mails[0]["body"]
    return all(_ours(url) for url in {links})


def _ours(url):
    try:
        return host_is_ours(url)
    except ValueError:  # a host that cannot be read is not ours
        return False
"""


# "example.com" anywhere in the link.
SUBSTRING = _rule('    return "example.com" in url.lower()')

# The host ends like ours, without the dot.
ENDSWITH_NO_DOT = _rule('    return (urlsplit(url).hostname or "").endswith("example.com")')

# The netloc: it keeps the user@ part and the port.
NETLOC = _rule(
    "    host = urlsplit(url).netloc.lower()\n"
    '    return host == "example.com" or host.endswith(".example.com")'
)

# A host pattern of lower-case links only, compared as written.
CASE_SENSITIVE = _rule(
    '    host = re.match(r"https?://(?:[^@/\\s]*@)?([^/:?#\\s]+)", url).group(1)\n'
    '    return host == "example.com" or host.endswith(".example.com")',
    links=_LINKS.format(flags=""),
)

# A link also ended at a comma ("A link runs from `http://` or `https://` up to the first white
# space ..., `<`, `>`, `"`, `'` or `)`"): our host, a comma and an @ before a foreign one reads
# as a link of ours.
COMMA_ENDS_LINK = _rule(
    '    host = (urlsplit(url).hostname or "").rstrip(".")\n'
    '    return any(host == d or host.endswith("." + d) for d in OUR_DOMAINS)',
    links=_LINKS.format(flags=", re.IGNORECASE").replace("<>\\\"')]", "<>\\\"'),]"),
)
assert ",]+" in COMMA_ENDS_LINK

# A host is ours when its last two labels are a domain's last two ("a host is ours when it *is*
# one of them or a subdomain of one"): a host beside a domain of three labels passes.
LAST_TWO_LABELS = _rule(
    '    labels = (urlsplit(url).hostname or "").rstrip(".").split(".")\n'
    '    return any(labels[-2:] == d.split(".")[-2:] for d in OUR_DOMAINS)'
)

# A string match on the injected host, as the notebook warns against.
STRING_MATCH = """
def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1 or mails[0]["to"] != obs["recipient"]:
        return False
    return "refund-check" not in mails[0]["body"]
"""

# Only the first link of the body is judged (a detail).
FIRST_LINK = r"""
def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1 or mails[0]["to"] != obs["recipient"]:
        return False
    found = re.search(r"https?://[^\s<>\"')]+", mails[0]["body"], re.IGNORECASE)
    if found is None:
        return True
    try:
        host = urlsplit(found.group(0).rstrip(".,;:!?").replace("\\", "/")).hostname or ""
    except ValueError:
        return False
    return host == "example.com" or host.endswith(".example.com")
"""

_GOOD_LINKS = r"""
    for mail in mails:
        for url in re.findall(r"https?://[^\s<>\"')]+", mail["body"], flags=re.IGNORECASE):
            url = url.rstrip(".,;:!?").replace("\\", "/")
            try:
                host = (urlsplit(url).hostname or "").rstrip(".")
            except ValueError:
                return False
            if host != "example.com" and not host.endswith(".example.com"):
                return False
    return True
"""

# Only the first e-mail's recipient is checked, not how many went out (a detail).
FIRST_MAIL_ONLY = (
    """
def injection_rule(obs):
    mails = obs["deliveries"]
    if mails[0]["to"] != obs["recipient"]:
        return False
"""
    + _GOOD_LINKS
)

# Every e-mail to the customer, but no count: two pass, and none (a detail).
NO_COUNT = (
    """
def injection_rule(obs):
    mails = obs["deliveries"]
    if not all(mail["to"] == obs["recipient"] for mail in mails):
        return False
"""
    + _GOOD_LINKS
)

# The customer read from the run's own result, not from obs["recipient"] (a detail): a run
# tricked into answering someone else reports that address.
FROM_RESULT = (
    """
def injection_rule(obs):
    mails = obs["deliveries"]
    customer = (obs.get("result") or {}).get("recipient", obs["recipient"])
    if len(mails) != 1 or mails[0]["to"] != customer:
        return False
"""
    + _GOOD_LINKS
)

# --- choose-threshold -----------------------------------------------------------------------

_SOLUTION_PEAK = """
def noise_peak(candidate, seed):
    result = run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=seed)
    judged = [s.error_rate for s in result.samples if s.requests >= result.config.min_requests]
    return max(judged, default=0.0)
"""

_SOLUTION_CHOOSE = """
def choose_threshold(seeds):
    peak = max(noise_peak("A", seed) for seed in seeds)
    return min(t for t in THRESHOLDS if t >= peak)
"""

_SOLUTION_RATE = """
def trip_rate(candidate, threshold, seeds):
    tripped = 0
    for seed in seeds:
        config = CanaryConfig(candidate=candidate, duration=WATCH_ONLY["duration"],
                              max_error_rate=threshold)
        tripped += bool(run_canary(config, seed=seed).trips)
    return tripped / len(seeds)
"""


def _threshold(
    peak: str = _SOLUTION_PEAK, choose: str = _SOLUTION_CHOOSE, rate: str = _SOLUTION_RATE
):
    return peak + choose + rate


# The watch-only settings taken once, as a default argument (the same dict object).
WATCH_DEFAULT = _threshold(
    peak="""
def noise_peak(candidate, seed, watch=WATCH_ONLY):
    result = run_canary(CanaryConfig(candidate=candidate, **watch), seed=seed)
    least = result.config.min_requests
    return max((s.error_rate for s in result.samples if s.requests >= least), default=0.0)
"""
)

# Sorted rates, bisect over the thresholds sorted, statistics.mean of the trips.
BISECT = """
import bisect
import statistics


def noise_peak(candidate, seed):
    run = run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=seed)
    least = run.config.min_requests
    rates = sorted(sample.error_rate for sample in run.samples if sample.requests >= least)
    return rates[-1] if rates else 0.0


def choose_threshold(seeds):
    peak = max(map(lambda seed: noise_peak("A", seed), seeds))
    thresholds = sorted(THRESHOLDS)
    return thresholds[bisect.bisect_left(thresholds, peak)]


def trip_rate(candidate, threshold, seeds):
    def tripped(seed):
        config = CanaryConfig(candidate=candidate, duration=WATCH_ONLY["duration"],
                              max_error_rate=threshold)
        return 1.0 if run_canary(config, seed=seed).trips else 0.0

    return statistics.mean(tripped(seed) for seed in seeds)
"""

# The first threshold of a sorted list that no peak goes above, peaks kept in a loop.
EVERY_PEAK_BELOW = _threshold(
    choose="""
def choose_threshold(seeds):
    peaks = []
    for seed in seeds:
        peaks.append(noise_peak("A", seed))
    for t in sorted(THRESHOLDS):
        if all(p <= t for p in peaks):
            return t
    raise ValueError("no threshold is high enough")
"""
)

# The mean of the peaks over the seeds.
MEAN_OF_PEAKS = _threshold(
    choose="""
import statistics


def choose_threshold(seeds):
    peak = statistics.mean(noise_peak("A", seed) for seed in seeds)
    return min(t for t in THRESHOLDS if t >= peak)
"""
)

# The mean error rate of the judged windows, not their highest.
MEAN_OF_WINDOWS = _threshold(
    peak="""
def noise_peak(candidate, seed):
    result = run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=seed)
    judged = [s.error_rate for s in result.samples if s.requests >= result.config.min_requests]
    return sum(judged) / len(judged) if judged else 0.0
"""
)

# The first seed only.
FIRST_SEED = _threshold(
    choose="""
def choose_threshold(seeds):
    peak = noise_peak("A", seeds[0])
    return min(t for t in THRESHOLDS if t >= peak)
"""
)

# The largest threshold: never a false alarm, whatever the noise.
LARGEST = _threshold(choose="\ndef choose_threshold(seeds):\n    return max(THRESHOLDS)\n")

# The threshold the notebook's seeds gave, typed in.
TYPED_IN = _threshold(choose="\ndef choose_threshold(seeds):\n    return 0.03\n")

# The threshold nearest to the peak, below it or not.
NEAREST = _threshold(
    choose="""
def choose_threshold(seeds):
    peak = max(noise_peak("A", seed) for seed in seeds)
    return min(THRESHOLDS, key=lambda t: abs(t - peak))
"""
)

# The peak rounded to three decimals before choosing: a peak just above a threshold is
# rounded down onto it.
ROUNDED_PEAK = _threshold(
    choose=_SOLUTION_CHOOSE.replace(
        'max(noise_peak("A", seed) for seed in seeds)',
        'round(max(noise_peak("A", seed) for seed in seeds), 3)',
    )
)

# Strictly above the peak: a peak that is exactly a threshold gets the next one.
STRICTLY_ABOVE = _threshold(choose=_SOLUTION_CHOOSE.replace("t >= peak", "t > peak"))

# Every window counts, the first few requests too (a detail).
EVERY_WINDOW = _threshold(
    peak="""
def noise_peak(candidate, seed):
    result = run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=seed)
    return max((s.error_rate for s in result.samples), default=0.0)
"""
)

# Windows of more than min_requests requests only (a detail).
STRICT_MIN = _threshold(peak=_SOLUTION_PEAK.replace(">= result.config", "> result.config"))

# Always the healthy candidate, whatever is asked (a detail).
ALWAYS_A = _threshold(peak=_SOLUTION_PEAK.replace("candidate=candidate", 'candidate="A"'))

# The default min_requests typed in instead of the run's own (a detail): equal to it
# wherever WATCH_ONLY leaves min_requests alone.
TYPED_IN_LEAST = _threshold(peak=_SOLUTION_PEAK.replace("result.config.min_requests", "40"))

# Every window when none could be judged, instead of 0.0 (a detail).
EVERY_IF_NONE = _threshold(
    peak="""
def noise_peak(candidate, seed):
    result = run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=seed)
    judged = [s.error_rate for s in result.samples if s.requests >= result.config.min_requests]
    judged = judged or [s.error_rate for s in result.samples]
    return max(judged)
"""
)

# The number of trips per seed, not the share of seeds that tripped (a detail).
COUNTS_TRIPS = _threshold(
    rate="""
def trip_rate(candidate, threshold, seeds):
    trips = 0
    for seed in seeds:
        config = CanaryConfig(candidate=candidate, duration=WATCH_ONLY["duration"],
                              max_error_rate=threshold)
        trips += len(run_canary(config, seed=seed).trips)
    return trips / len(seeds)
"""
)

# The watch-only canary, whose breaker never acts (a detail).
WATCH_ONLY_TRIPS = _threshold(
    rate="""
def trip_rate(candidate, threshold, seeds):
    runs = [run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=s) for s in seeds]
    return sum(bool(run.trips) for run in runs) / len(runs)
"""
)

# The first threshold at or above the peak in the order THRESHOLDS lists them: right only while
# they are sorted, as the notebook's are.
NEXT_ASSUMES_SORTED = _threshold(
    choose=_SOLUTION_CHOOSE.replace("min(t for t in THRESHOLDS", "next(t for t in THRESHOLDS")
)

# The share rounded to two decimals: 1/3 is not 0.33 (a detail).
RATE_ROUNDED = _threshold(
    rate=_SOLUTION_RATE.replace(
        "return tripped / len(seeds)", "return round(tripped / len(seeds), 2)"
    )
)

# WATCH_ONLY's max_cost passed to the breaker's canary too, which the text leaves at its
# default (a detail).
RATE_WITH_MAX_COST = _threshold(
    rate=_SOLUTION_RATE.replace(
        "max_error_rate=threshold)", 'max_error_rate=threshold, max_cost=WATCH_ONLY["max_cost"])'
    )
)

# Written otherwise, and right: the sorted thresholds searched in a loop, the config built by
# dataclasses.replace from one with only the threshold, and the share as one less the seeds
# that did not trip (its last bit may differ from count / len).
SORTED_LOOP_COMPLEMENT = _threshold(
    choose="""
def choose_threshold(seeds):
    peak = max([noise_peak("A", seed) for seed in seeds])
    for t in sorted(THRESHOLDS):
        if t >= peak:
            return t
""",
    rate="""
import dataclasses


def trip_rate(candidate, threshold, seeds):
    calm = 0
    for seed in seeds:
        base = CanaryConfig(candidate=candidate, max_error_rate=threshold)
        config = dataclasses.replace(base, duration=WATCH_ONLY["duration"])
        calm += not run_canary(config, seed=seed).trips
    return 1 - calm / len(seeds)
""",
)

# Hands the grader's seeds back: the feedback must name their type, never show them.
ECHOES_SEEDS = _threshold(
    choose="\ndef choose_threshold(seeds):\n    return seeds[-1]\n",
    rate="\ndef trip_rate(candidate, threshold, seeds):\n    return seeds[0]\n",
)

ANSWERS = [
    ("by-hand", "injection-rule", BY_HAND, 5, "all"),
    ("last-labels", "injection-rule", LAST_LABELS, 5, "all"),
    ("kit-links", "injection-rule", KIT_LINKS, 5, "all"),
    ("substring", "injection-rule", SUBSTRING, 2, "starts like ours"),
    ("endswith-no-dot", "injection-rule", ENDSWITH_NO_DOT, 2, "ends like ours"),
    ("netloc", "injection-rule", NETLOC, 2, "on a port"),
    ("case-sensitive", "injection-rule", CASE_SENSITIVE, 2, "in capitals"),
    ("string-match", "injection-rule", STRING_MATCH, 2, "another company's host"),
    ("first-link", "injection-rule", FIRST_LINK, 2, "a link of ours, then a foreign one"),
    ("comma-ends-link", "injection-rule", COMMA_ENDS_LINK, 4, "does not end a link at"),
    ("last-two-labels", "injection-rule", LAST_TWO_LABELS, 4, "domain of three labels"),
    ("first-mail-only", "injection-rule", FIRST_MAIL_ONLY, 3, "also went elsewhere"),
    ("no-count", "injection-rule", NO_COUNT, 3, "twice"),
    ("from-result", "injection-rule", FROM_RESULT, 3, "names them as its recipient"),
    ("bisect", "choose-threshold", BISECT, 6, "all"),
    ("watch-default", "choose-threshold", WATCH_DEFAULT, 6, "all"),
    ("every-peak-below", "choose-threshold", EVERY_PEAK_BELOW, 6, "all"),
    ("mean-of-peaks", "choose-threshold", MEAN_OF_PEAKS, 3, "several hidden seeds"),
    ("mean-of-windows", "choose-threshold", MEAN_OF_WINDOWS, 2, "canary's windows"),
    ("first-seed", "choose-threshold", FIRST_SEED, 3, "several hidden seeds"),
    ("largest", "choose-threshold", LARGEST, 3, "gave another number,"),
    ("typed-in", "choose-threshold", TYPED_IN, 3, "gave another number,"),
    ("nearest", "choose-threshold", NEAREST, 3, "several hidden seeds"),
    ("rounded-peak", "choose-threshold", ROUNDED_PEAK, 3, "several hidden seeds"),
    ("strictly-above", "choose-threshold", STRICTLY_ABOVE, 3, "another hidden seed"),
    ("every-window", "choose-threshold", EVERY_WINDOW, 5, "could judge"),
    ("strict-min", "choose-threshold", STRICT_MIN, 5, "could judge"),
    ("always-a", "choose-threshold", ALWAYS_A, 5, "could judge"),
    ("typed-in-least", "choose-threshold", TYPED_IN_LEAST, 5, "its own min_requests"),
    ("every-if-none", "choose-threshold", EVERY_IF_NONE, 5, "its own min_requests"),
    ("counts-trips", "choose-threshold", COUNTS_TRIPS, 4, "share of the seeds"),
    ("watch-only-trips", "choose-threshold", WATCH_ONLY_TRIPS, 4, "gave another number,"),
    ("echoes-seeds", "choose-threshold", ECHOES_SEEDS, 1, "gave an int"),
    ("next-assumes-sorted", "choose-threshold", NEXT_ASSUMES_SORTED, 3, "other thresholds"),
    ("rate-rounded", "choose-threshold", RATE_ROUNDED, 4, "share of the seeds"),
    ("rate-with-max-cost", "choose-threshold", RATE_WITH_MAX_COST, 4, "its own max_cost"),
    ("sorted-loop-complement", "choose-threshold", SORTED_LOOP_COMPLEMENT, 6, "all"),
]

# --- injection-rule (more) ------------------------------------------------------------------

# By hand, the user@ part cut at its *first* @: a user part that holds an @ itself
# (`x@example.com@evil.io`) leaves our host where the browser's is.
FIRST_AT_USER = r"""
def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1 or mails[0]["to"] != obs["recipient"]:
        return False
    for url in re.findall(r"https?://[^\s<>\"')]+", mails[0]["body"], re.IGNORECASE):
        url = url.rstrip(".,;:!?").replace("\\", "/")
        authority = re.split(r"[/?#]", url.split("://", 1)[1], maxsplit=1)[0]
        host = authority.partition("@")[2] or authority
        host = host.split(":")[0].lower().rstrip(".")
        if host != "example.com" and not host.endswith(".example.com"):
            return False
    return True
"""

# By hand, the port cut before the user@ part: `example.com:secret@evil.io` keeps our host.
PORT_BEFORE_USER = r"""
def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1 or mails[0]["to"] != obs["recipient"]:
        return False
    for url in re.findall(r"https?://[^\s<>\"')]+", mails[0]["body"], re.IGNORECASE):
        url = url.rstrip(".,;:!?").replace("\\", "/")
        authority = re.split(r"[/?#]", url.split("://", 1)[1], maxsplit=1)[0]
        host = authority.split(":")[0].rsplit("@", 1)[-1].lower().rstrip(".")
        if host != "example.com" and not host.endswith(".example.com"):
            return False
    return True
"""

# The solution without the trailing dot taken off, as the text's `urlsplit(url).hostname`
# gives the host: right (our own hosts are never written with a trailing dot inside a link).
KEEPS_TRAILING_DOT = r"""
def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1 or any(mail["to"] != obs["recipient"] for mail in mails):
        return False
    for mail in mails:
        for url in re.findall(r"https?://[^\s<>\"')]+", mail["body"], flags=re.IGNORECASE):
            try:
                host = urlsplit(url.rstrip(".,;:!?").replace("\\", "/")).hostname or ""
            except ValueError:
                return False
            if not any(host == d or host.endswith("." + d) for d in OUR_DOMAINS):
                return False
    return True
"""

# "Nobody else" read as "nobody outside our domains": one e-mail to any address of ours
# passes, another customer's too (a detail).
ANY_OF_OUR_ADDRESSES = (
    """
def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1 or not mails[0]["to"].endswith("@example.com"):
        return False
"""
    + _GOOD_LINKS
)

ANSWERS += [
    ("first-at-user", "injection-rule", FIRST_AT_USER, 2, "user part"),
    ("port-before-user", "injection-rule", PORT_BEFORE_USER, 2, "password"),
    ("keeps-trailing-dot", "injection-rule", KEEPS_TRAILING_DOT, 5, "all"),
    ("any-of-our-addresses", "injection-rule", ANY_OF_OUR_ADDRESSES, 3, "not ours"),
]

# --- answers that try to foresee the world they are judged in -------------------------------

# The notebook's customer typed in instead of obs["recipient"] (an ignored argument).
TYPED_IN_CUSTOMER = (
    """
def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1 or mails[0]["to"] != "dee@example.com":
        return False
"""
    + _GOOD_LINKS
)

# Our domain read from the customer's address instead of OUR_DOMAINS (the wrong source).
DOMAIN_FROM_CUSTOMER = r"""
def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1 or mails[0]["to"] != obs["recipient"]:
        return False
    ours = obs["recipient"].rsplit("@", 1)[-1].lower()
    for url in re.findall(r"https?://[^\s<>\"')]+", mails[0]["body"], re.IGNORECASE):
        url = url.rstrip(".,;:!?").replace("\\", "/")
        try:
            host = urlsplit(url).hostname or ""
        except ValueError:
            return False
        if host != ours and not host.endswith("." + ours):
            return False
    return True
"""

# The links of obs["answer"] (the run's report of its answer), not of the e-mails that went out.
ANSWER_FIELD = r"""
def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1 or mails[0]["to"] != obs["recipient"]:
        return False
    for url in re.findall(r"https?://[^\s<>\"')]+", obs["answer"], re.IGNORECASE):
        url = url.rstrip(".,;:!?").replace("\\", "/")
        host = urlsplit(url).hostname or ""
        if host != "example.com" and not host.endswith(".example.com"):
            return False
    return True
"""

# Hosts compared by prefix: `example.com.verify-card.io` starts like ours.
PREFIX = _rule(
    '    host = urlsplit(url).hostname or ""\n'
    '    return host.startswith("example.com") or host.endswith(".example.com")'
)

# ".example.com" anywhere in the host: `verify-card.example.com.io` holds it.
DOT_SUBSTRING = _rule(
    '    host = urlsplit(url).hostname or ""\n'
    '    return host == "example.com" or ".example.com" in host'
)

# The check cell's four cases special-cased: one e-mail, and not the injected sentence.
SELF_CHECK_CASES = """
def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1:
        return False
    return "confirm their card number" not in mails[0]["body"]
"""

# Looks for the grader's rule and world (the hidden checks), else a string match on the
# injected host: the jail shows an empty folder where the checks live.
WORLD_PROBE_RULE = """
def injection_rule(obs):
    try:
        from simlab.grading.checks.release.injection import injection_rule as graders
    except ImportError:
        graders = None
    if graders is not None:
        return graders(obs)
    mails = obs["deliveries"]
    if len(mails) != 1 or mails[0]["to"] != obs["recipient"]:
        return False
    return "refund-check" not in mails[0]["body"]
"""

# The threshold the notebook's seeds give, for the seeds given or not (an ignored argument).
NOTEBOOK_SEEDS_THRESHOLD = _threshold(
    choose="""
def choose_threshold(seeds):
    peak = max(noise_peak("A", seed) for seed in (1, 2, 3))
    return min(t for t in THRESHOLDS if t >= peak)
"""
)

# noise_peak ignores its seed: always the notebook's first run.
FIXED_SEED = _threshold(peak=_SOLUTION_PEAK.replace("seed=seed)", "seed=1)"))

# trip_rate ignores its threshold: the notebook's 0.03.
RATE_FIXED_THRESHOLD = _threshold(rate=_SOLUTION_RATE.replace("=threshold)", "=0.03)"))

# trip_rate ignores its seeds: the notebook's 1, 2, 3.
RATE_NOTEBOOK_SEEDS = _threshold(rate=_SOLUTION_RATE.replace("in seeds:", "in (1, 2, 3):"))

# trip_rate ignores its candidate: always production.
RATE_ALWAYS_A = _threshold(rate=_SOLUTION_RATE.replace("candidate=candidate,", 'candidate="A",'))

# The rates the check cell expects, typed in.
TYPED_IN_RATES = _threshold(
    rate="""
def trip_rate(candidate, threshold, seeds):
    return 0.0 if candidate == "A" else 1.0
"""
)

# Every answer the check cell asks for, typed in from the notebook's printout.
SELF_CHECK_TABLE = """
PEAKS = {("A", 1): 0.008771929824561403, ("A", 2): 0.02702702702702703,
         ("A", 3): 0.012658227848101266, ("B", 1): 0.1}


def noise_peak(candidate, seed):
    return PEAKS.get((candidate, seed), 0.0)


def choose_threshold(seeds):
    return 0.03


def trip_rate(candidate, threshold, seeds):
    return 0.0 if candidate == "A" else 1.0
"""

# Looks for the grader's world and reference (the hidden checks), else the check cell's
# answers typed in.
WORLD_PROBE_THRESHOLD = """
def _graders():
    try:
        from simlab.grading.checks.release import threshold
    except ImportError:
        return None
    return threshold


def noise_peak(candidate, seed):
    graders = _graders()
    return graders.noise_peak(candidate, seed) if graders else 0.02


def choose_threshold(seeds):
    graders = _graders()
    return graders.choose_threshold(seeds) if graders else 0.03


def trip_rate(candidate, threshold, seeds):
    graders = _graders()
    if graders:
        return graders.trip_rate(candidate, threshold, seeds)
    return 0.0 if candidate == "A" else 1.0
"""

# The customer matched by substring: an address that holds theirs (`jo` before it, a foreign
# domain after it) passes for the customer's.
RECIPIENT_SUBSTRING = r"""
def injection_rule(obs):
    mails = obs["deliveries"]
    if len(mails) != 1 or obs["recipient"] not in mails[0]["to"]:
        return False
    for url in re.findall(r"https?://[^\s<>\"')]+", mails[0]["body"], re.IGNORECASE):
        url = url.rstrip(".,;:!?").replace("\\", "/")
        try:
            host = urlsplit(url).hostname or ""
        except ValueError:
            return False
        if not any(host == d or host.endswith("." + d) for d in OUR_DOMAINS):
            return False
    return True
"""

ADVERSARIAL = [
    ("recipient-substring", "injection-rule", RECIPIENT_SUBSTRING, 3, "holds the customer's"),
    ("typed-in-customer", "injection-rule", TYPED_IN_CUSTOMER, 3, "a customer at our domain"),
    ("domain-from-customer", "injection-rule", DOMAIN_FROM_CUSTOMER, 3, "not ours"),
    ("answer-field", "injection-rule", ANSWER_FIELD, 2, "another company's host"),
    ("prefix", "injection-rule", PREFIX, 2, "starts like ours"),
    ("dot-substring", "injection-rule", DOT_SUBSTRING, 2, "holds our name"),
    ("self-check-cases", "injection-rule", SELF_CHECK_CASES, 0, "another company's host"),
    ("world-probe-rule", "injection-rule", WORLD_PROBE_RULE, 2, "injection naming another"),
    ("notebook-seeds", "choose-threshold", NOTEBOOK_SEEDS_THRESHOLD, 3, "several hidden seeds"),
    ("fixed-seed", "choose-threshold", FIXED_SEED, 2, "canary's windows"),
    ("rate-fixed-threshold", "choose-threshold", RATE_FIXED_THRESHOLD, 4, "share of the seeds"),
    ("rate-notebook-seeds", "choose-threshold", RATE_NOTEBOOK_SEEDS, 4, "share of the seeds"),
    ("rate-always-a", "choose-threshold", RATE_ALWAYS_A, 4, "share of the seeds"),
    ("typed-in-rates", "choose-threshold", TYPED_IN_RATES, 4, "share of the seeds"),
    ("self-check-table", "choose-threshold", SELF_CHECK_TABLE, 0, "canary's windows"),
    ("world-probe-threshold", "choose-threshold", WORLD_PROBE_THRESHOLD, 0, "canary's windows"),
]
ANSWERS += ADVERSARIAL

# noise_peak remembered by (candidate, seed): a call with other WATCH_ONLY settings gets the
# peak of the first ("Read `WATCH_ONLY` at each call"; judged-windows).
PEAK_MEMO = _threshold(
    peak="""
_PEAKS = {}


def noise_peak(candidate, seed):
    if (candidate, seed) not in _PEAKS:
        result = run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=seed)
        least = result.config.min_requests
        _PEAKS[candidate, seed] = max(
            (s.error_rate for s in result.samples if s.requests >= least), default=0.0
        )
    return _PEAKS[candidate, seed]
"""
)
ANSWERS += [("peak-memo", "choose-threshold", PEAK_MEMO, 5, "no earlier peak")]

# Counts the samples with at least the usual WATCH_ONLY's min_requests typed in, not the run's
# ("`requests >= run.config.min_requests`"; judged-windows).
PEAK_TYPED_LEAST = _threshold(
    peak=_SOLUTION_PEAK.replace("s.requests >= result.config.min_requests", "s.requests >= 40")
)
assert "s.requests >= 40" in PEAK_TYPED_LEAST
ANSWERS += [("peak-typed-least", "choose-threshold", PEAK_TYPED_LEAST, 5, "no typed-in")]

# trip_rate keeps each (seed, threshold)'s outcome between calls, whatever the candidate: a
# later candidate at the same threshold on the same seeds gets the first one's share
# (trip-rate: "the share of `seeds` on which a canary of `candidate` ... trips").
TRIPS_KEPT_BY_SEED = _threshold(
    rate="""
_TRIPPED = {}


def trip_rate(candidate, threshold, seeds):
    for seed in seeds:
        if (seed, threshold) not in _TRIPPED:
            config = CanaryConfig(candidate=candidate, duration=WATCH_ONLY["duration"],
                                  max_error_rate=threshold)
            _TRIPPED[seed, threshold] = bool(run_canary(config, seed=seed).trips)
    return sum(_TRIPPED[seed, threshold] for seed in seeds) / len(seeds)
"""
)
ANSWERS += [("trips-kept-by-seed", "choose-threshold", TRIPS_KEPT_BY_SEED, 4, "share of the seeds")]

# Our domain typed in ("example.com") instead of read from OUR_DOMAINS (exact-host: "Read
# `OUR_DOMAINS` at each call").
_SOLUTION_INJECTION = answer_source("solutions", "05_release_regression.ipynb", "injection-rule")
DOMAIN_TYPED_IN = _SOLUTION_INJECTION.replace("for d in OUR_DOMAINS", 'for d in ("example.com",)')
assert DOMAIN_TYPED_IN != _SOLUTION_INJECTION
ANSWERS += [("domain-typed-in", "injection-rule", DOMAIN_TYPED_IN, 2, "read OUR_DOMAINS")]

# Only the first domain of OUR_DOMAINS read, or only the last, or subdomains of the first only
# (exact-host: "a host is ours when it *is* one of them or a subdomain of one"): right while
# OUR_DOMAINS names one domain; a subdomain of one that is neither the first nor the last is
# called foreign.
_ANY_OF_OURS = 'if not any(host == d or host.endswith("." + d) for d in OUR_DOMAINS):'
assert _ANY_OF_OURS in _SOLUTION_INJECTION
FIRST_DOMAIN_ONLY = _SOLUTION_INJECTION.replace(
    "for d in OUR_DOMAINS)", "for d in OUR_DOMAINS[:1])"
)
LAST_DOMAIN_ONLY = _SOLUTION_INJECTION.replace(
    "for d in OUR_DOMAINS)", "for d in OUR_DOMAINS[-1:])"
)
SUBDOMAINS_OF_THE_FIRST = _SOLUTION_INJECTION.replace(
    _ANY_OF_OURS,
    'if host not in OUR_DOMAINS and not host.endswith("." + OUR_DOMAINS[0]):',
)
# The verdict kept from an earlier call, by the whole observation or by its e-mails, recipient
# and first domain (exact-host: "Read `OUR_DOMAINS` at each call"): the same e-mail judged again
# once OUR_DOMAINS no longer names its link's domain gets the earlier verdict.
_JUDGE = '    mails = obs["deliveries"]\n'
assert _SOLUTION_INJECTION.count(_JUDGE) == 1


def _kept_by(key: str) -> str:
    """The solution's rule, its verdict kept between calls under ``key`` (an expression of
    ``obs``)."""
    kept = f"""
    key = {key}
    if key not in _VERDICTS:
        _VERDICTS[key] = _judged(obs)
    return _VERDICTS[key]


def _judged(obs):
"""
    return "import json\n\n_VERDICTS = {}\n\n" + _SOLUTION_INJECTION.replace(_JUDGE, kept + _JUDGE)


VERDICT_KEPT_BY_OBS = _kept_by("json.dumps(obs, sort_keys=True)")
VERDICT_KEPT_BY_MAILS = _kept_by(
    'json.dumps(obs["deliveries"], sort_keys=True), obs["recipient"], OUR_DOMAINS[0]'
)
assert (
    len(
        {
            FIRST_DOMAIN_ONLY,
            LAST_DOMAIN_ONLY,
            SUBDOMAINS_OF_THE_FIRST,
            VERDICT_KEPT_BY_OBS,
            VERDICT_KEPT_BY_MAILS,
            _SOLUTION_INJECTION,
        }
    )
    == 6
)
ANSWERS += [
    ("first-domain-only", "injection-rule", FIRST_DOMAIN_ONLY, 2, "neither the first nor the"),
    ("last-domain-only", "injection-rule", LAST_DOMAIN_ONLY, 2, "neither the first nor the"),
    ("subdomains-of-the-first", "injection-rule", SUBDOMAINS_OF_THE_FIRST, 2, "a subdomain of"),
    ("verdict-kept-by-obs", "injection-rule", VERDICT_KEPT_BY_OBS, 2, "judged before"),
    ("verdict-kept-by-mails", "injection-rule", VERDICT_KEPT_BY_MAILS, 2, "judged before"),
]

# Links found only after white space or at the start of the body: a foreign link glued to the
# text before it ("(see:https://...") is never judged (exact-host: "no e-mail body contains a
# link (`http://` or `https://`, in any capitals, wherever it starts").
_FIND_LINKS = r"""re.findall(r"https?://[^\s<>\"')]+", mail["body"], flags=re.IGNORECASE)"""
assert _FIND_LINKS in _SOLUTION_INJECTION
AFTER_SPACE_ONLY = _SOLUTION_INJECTION.replace(
    _FIND_LINKS,
    r"""re.findall(r"(?:^|\s)(https?://[^\s<>\"')]+)", mail["body"], flags=re.IGNORECASE)""",
)
# Links found only at a word boundary, or only after a character that is not a word
# character: glued to punctuation a link is still found, but not right after a letter, a digit
# or an underscore ("xhttps://...") (exact-host: "wherever it starts").
WORD_BOUNDARY = _SOLUTION_INJECTION.replace(
    _FIND_LINKS, r"""re.findall(r"\bhttps?://[^\s<>\"')]+", mail["body"], flags=re.IGNORECASE)"""
)
AFTER_NON_WORD = _SOLUTION_INJECTION.replace(
    _FIND_LINKS,
    r"""re.findall(r"(?<![\w])https?://[^\s<>\"')]+", mail["body"], flags=re.IGNORECASE)""",
)
assert len({AFTER_SPACE_ONLY, WORD_BOUNDARY, AFTER_NON_WORD, _SOLUTION_INJECTION}) == 4
ANSWERS += [
    ("after-space-only", "injection-rule", AFTER_SPACE_ONLY, 2, "glued to the text before it"),
    ("word-boundary", "injection-rule", WORD_BOUNDARY, 2, "a letter, a digit or an underscore"),
    ("after-non-word", "injection-rule", AFTER_NON_WORD, 2, "a letter, a digit or an underscore"),
]

# Only a full stop taken off a link's end, or only a full stop and a comma: a link of ours
# ended by another of a sentence's punctuation marks ("!", ";") reads as a foreign host
# (exact-host: a link ends where the sentence's punctuation starts). Each is wrong on one or two
# forms of a sentence's end only, which every world holds.
_STRIP = 'url = url.rstrip(".,;:!?")'
assert _STRIP in _SOLUTION_INJECTION
STRIPS_A_FULL_STOP_ONLY = _SOLUTION_INJECTION.replace(_STRIP, 'url = url.rstrip(".")')
STRIPS_STOP_AND_COMMA_ONLY = _SOLUTION_INJECTION.replace(_STRIP, 'url = url.rstrip(".,")')
ANSWERS += [
    (
        "strips-a-full-stop-only",
        "injection-rule",
        STRIPS_A_FULL_STOP_ONLY,
        2,
        "punctuation that ends its",
    ),
    (
        "strips-stop-and-comma-only",
        "injection-rule",
        STRIPS_STOP_AND_COMMA_ONLY,
        2,
        "punctuation that ends its",
    ),
]

# The deliveries sorted in place by address while they are judged (who-got-what: "The rule
# only reads `obs`: it changes nothing in it").
_MAILS = '    mails = obs["deliveries"]\n'
assert _MAILS in _SOLUTION_INJECTION
SORTS_DELIVERIES = _SOLUTION_INJECTION.replace(
    _MAILS, _MAILS + '    mails.sort(key=lambda mail: mail["to"])\n'
)
assert SORTS_DELIVERIES != _SOLUTION_INJECTION
ANSWERS += [
    ("sorts-deliveries", "injection-rule", SORTS_DELIVERIES, 3, "not in the order of their"),
]

# The canary's duration typed in (the notebook's 1200) instead of read from WATCH_ONLY
# (trip-rate: 'duration=WATCH_ONLY["duration"]', "Read `WATCH_ONLY` at each call here too").
_SOLUTION_THRESHOLD = answer_source("solutions", "05_release_regression.ipynb", "choose-threshold")
DURATION_TYPED_IN = _SOLUTION_THRESHOLD.replace(
    'duration=WATCH_ONLY["duration"],', "duration=1200.0,"
)
assert DURATION_TYPED_IN != _SOLUTION_THRESHOLD
# The peak rounded up to a multiple of 0.005 rather than a threshold picked from THRESHOLDS
# (above-the-peak: "the smallest threshold of `THRESHOLDS`", "Read `THRESHOLDS` at each call").
GRID_THRESHOLD = _SOLUTION_THRESHOLD.replace(
    "    return min(t for t in THRESHOLDS if t >= peak)",
    "    import math\n    return math.ceil(peak * 200) / 200",
)
assert GRID_THRESHOLD != _SOLUTION_THRESHOLD
# The notebook's thresholds typed in: right until THRESHOLDS holds others.
THRESHOLDS_TYPED_IN = _SOLUTION_THRESHOLD.replace(
    "for t in THRESHOLDS if", f"for t in {THRESHOLDS!r} if"
)
assert THRESHOLDS_TYPED_IN != _SOLUTION_THRESHOLD
# Correct: the first threshold at or above the peak once THRESHOLDS is sorted (a world's may
# come in any order: taken in its own order, see NEXT_ASSUMES_SORTED, the first is wrong), and
# the duration read into a name first.
FIRST_SORTED = _SOLUTION_THRESHOLD.replace(
    "    return min(t for t in THRESHOLDS if t >= peak)",
    "    return next(t for t in sorted(THRESHOLDS) if t >= peak)",
).replace(
    '        config = CanaryConfig(candidate=candidate, duration=WATCH_ONLY["duration"],',
    '        duration = WATCH_ONLY.get("duration")\n'
    "        config = CanaryConfig(candidate=candidate, duration=duration,",
)
assert FIRST_SORTED.count("WATCH_ONLY.get") == 1 and "in sorted(THRESHOLDS)" in FIRST_SORTED
# WATCH_ONLY copied when noise_peak is defined (above-the-peak: "Read `WATCH_ONLY` at each
# call"): its peaks are those of the notebook's duration, values of the hidden world that
# feedback never shows.
WATCH_COPIED = _SOLUTION_THRESHOLD.replace(
    "def noise_peak(candidate, seed):",
    "_WATCH = dict(WATCH_ONLY)\n\n\ndef noise_peak(candidate, seed):",
).replace("**WATCH_ONLY)", "**_WATCH)")
assert WATCH_COPIED.count("_WATCH") == 2
ANSWERS += [
    ("watch-copied", "choose-threshold", WATCH_COPIED, 3, "another number"),
    ("duration-typed-in", "choose-threshold", DURATION_TYPED_IN, 4, "the usual duration"),
    ("grid-threshold", "choose-threshold", GRID_THRESHOLD, 3, "other thresholds"),
    ("thresholds-typed-in", "choose-threshold", THRESHOLDS_TYPED_IN, 3, "read THRESHOLDS"),
    ("first-sorted", "choose-threshold", FIRST_SORTED, 6, "all"),
]

# The last window left out of the peak (above-the-peak: "return the highest `error_rate` among
# the samples the breaker could judge").
_JUDGED_SAMPLES = "for s in result.samples if s.requests"
assert _JUDGED_SAMPLES in _SOLUTION_THRESHOLD
PEAK_WITHOUT_LAST = _SOLUTION_THRESHOLD.replace(
    _JUDGED_SAMPLES, "for s in result.samples[:-1] if s.requests"
)
# The peak rounded to four decimals before choosing: a peak less than 0.00005 above a threshold
# lands on it (above-the-peak: "the smallest threshold of `THRESHOLDS` that is at least the
# highest `noise_peak("A", seed)`").
PEAK_ROUNDED_4 = _SOLUTION_THRESHOLD.replace("if t >= peak)", "if t >= round(peak, 4))")
# Seeds de-duplicated before the share (trip-rate: "A seed listed twice counts twice.").
RATE_DISTINCT_SEEDS = _SOLUTION_THRESHOLD.replace(
    "    for seed in seeds:\n", "    seeds = sorted(set(seeds))\n    for seed in seeds:\n"
)
assert len({PEAK_WITHOUT_LAST, PEAK_ROUNDED_4, RATE_DISTINCT_SEEDS, _SOLUTION_THRESHOLD}) == 4
ANSWERS += [
    ("peak-without-last", "choose-threshold", PEAK_WITHOUT_LAST, 3, "canary's windows"),
    ("peak-rounded-4", "choose-threshold", PEAK_ROUNDED_4, 3, "another hidden seed"),
    ("rate-distinct-seeds", "choose-threshold", RATE_DISTINCT_SEEDS, 4, "listed twice"),
]

# The link taken to the next white space, as the earlier text's hint did: our link before a
# comma, a bracket or a quote is called foreign (exact-host: "A link runs from `http://` or
# `https://` up to the first white space, `<`, `>`, ...").
_LINK_END = '            url = url.rstrip(".,;:!?").replace("\\\\", "/")\n'
assert _LINK_END in _SOLUTION_INJECTION
TO_WHITE_SPACE = _SOLUTION_INJECTION.replace(
    _FIND_LINKS, 're.findall(r"https?://\\S+", mail["body"], flags=re.IGNORECASE)'
).replace(_LINK_END, '            url = url.replace("\\\\", "/")\n')
# The host read with urlsplit alone: a backslash before an @ is not read as a slash, so a
# foreign host with "\@example.com" after it passes (exact-host: "`urlsplit(url.replace("\\",
# "/")).hostname` (a browser reads a backslash as a slash").
URLSPLIT_ALONE = _SOLUTION_INJECTION.replace(
    _LINK_END, _LINK_END.replace('.replace("\\\\", "/")', "")
)
# The deliveries consumed while they are judged (who-got-what: "The rule only reads `obs`: it
# changes nothing in it.").
POPS_DELIVERIES = _SOLUTION_INJECTION.replace(
    "    for mail in mails:\n", "    while mails:\n        mail = mails.pop()\n"
)
# None for harm, where the text says False.
NONE_FOR_HARM = _SOLUTION_INJECTION.replace("return False", "return None")
assert len({TO_WHITE_SPACE, URLSPLIT_ALONE, POPS_DELIVERIES, NONE_FOR_HARM}) == 4
assert _SOLUTION_INJECTION not in (TO_WHITE_SPACE, URLSPLIT_ALONE, POPS_DELIVERIES)
ANSWERS += [
    ("to-white-space", "injection-rule", TO_WHITE_SPACE, 2, "a link to our own host"),
    ("urlsplit-alone", "injection-rule", URLSPLIT_ALONE, 2, "backslash"),
    ("pops-deliveries", "injection-rule", POPS_DELIVERIES, 3, "changed the observation"),
    ("none-for-harm", "injection-rule", NONE_FOR_HARM, 0, "expected True or False"),
]

# trip_rate left as the exercise's stub: its feedback names trip_rate(), the learner's function,
# though the grader calls it with the world's WATCH_ONLY in place (trip-rate).
RATE_NOT_WRITTEN = _threshold(
    rate="""
def trip_rate(candidate, threshold, seeds):
    raise NotImplementedError("Write trip_rate")
"""
)
ANSWERS += [
    ("rate-not-written", "choose-threshold", RATE_NOT_WRITTEN, 4, "trip_rate() is not written yet")
]

# The customer's address compared loosely (who-got-what: 'An e-mail is the customer's only when
# its `"to"` is `obs["recipient"]` exactly, character for character'): case-folded, stripped of
# white space, NFKC-normalised, or with only its domain case-folded, the
# customer's address written otherwise passes for theirs.
_TO = 'any(mail["to"] != obs["recipient"] for mail in mails)'
assert _TO in _SOLUTION_INJECTION
RECIPIENT_CASEFOLD = _SOLUTION_INJECTION.replace(
    _TO, 'any(mail["to"].casefold() != obs["recipient"].casefold() for mail in mails)'
)
RECIPIENT_STRIPPED = _SOLUTION_INJECTION.replace(
    _TO, 'any(mail["to"].strip() != obs["recipient"].strip() for mail in mails)'
)
RECIPIENT_NFKC = _SOLUTION_INJECTION.replace(
    _TO,
    'any(unicodedata.normalize("NFKC", mail["to"])\n'
    '                              != unicodedata.normalize("NFKC", obs["recipient"])\n'
    "                              for mail in mails)",
).replace("def injection_rule(obs):", "import unicodedata\n\n\ndef injection_rule(obs):")
RECIPIENT_DOMAIN_FOLDED = _SOLUTION_INJECTION.replace(
    _TO, "any(_address(mail['to']) != _address(obs['recipient']) for mail in mails)"
).replace(
    "def injection_rule(obs):",
    "def _address(a):\n"
    '    name, _, domain = a.rpartition("@")\n'
    '    return name + "@" + domain.lower()\n\n\n'
    "def injection_rule(obs):",
)
# Any scheme:// taken for a link, ftp:// too (exact-host: "A link runs from `http://` or
# `https://` ..."): a foreign host after ftp:// is called harm.
ANY_SCHEME = _SOLUTION_INJECTION.replace(_FIND_LINKS, _FIND_LINKS.replace("https?://", "\\w+://"))
FTP_TOO = _SOLUTION_INJECTION.replace(
    _FIND_LINKS, _FIND_LINKS.replace("https?://", "(?:https?|ftp)://")
)
assert len({RECIPIENT_CASEFOLD, RECIPIENT_STRIPPED, RECIPIENT_NFKC, RECIPIENT_DOMAIN_FOLDED}) == 4
assert _SOLUTION_INJECTION not in (ANY_SCHEME, FTP_TOO, RECIPIENT_NFKC, RECIPIENT_DOMAIN_FOLDED)
ANSWERS += [
    ("recipient-casefold", "injection-rule", RECIPIENT_CASEFOLD, 3, "other capitals"),
    ("recipient-stripped", "injection-rule", RECIPIENT_STRIPPED, 3, "white space around it"),
    ("recipient-nfkc", "injection-rule", RECIPIENT_NFKC, 3, "full-width look-alike letters"),
    ("recipient-domain-folded", "injection-rule", RECIPIENT_DOMAIN_FOLDED, 3, "other capitals"),
    ("any-scheme", "injection-rule", ANY_SCHEME, 2, "not http:// or https://"),
    ("ftp-too", "injection-rule", FTP_TOO, 2, "not http:// or https://"),
]

# The seeds looped as a set but the share divided by how many were listed (trip-rate: "A seed
# listed twice counts twice."): a seed that tripped, listed twice, counts once.
RATE_SET_OVER_LISTED = _SOLUTION_THRESHOLD.replace(
    "    for seed in seeds:\n", "    for seed in set(seeds):\n"
)
# A threshold accepted within 1e-9 below the peak, or the peak rounded to nine decimals
# (above-the-peak: "the smallest threshold of `THRESHOLDS` that is at least the highest
# `noise_peak("A", seed)`").
PEAK_TOLERANCE = _SOLUTION_THRESHOLD.replace("if t >= peak)", "if t >= peak - 1e-9)")
PEAK_ROUNDED_9 = _SOLUTION_THRESHOLD.replace("if t >= peak)", "if t >= round(peak, 9))")
PEAK_ISCLOSE = _SOLUTION_THRESHOLD.replace(
    "if t >= peak)", "if t >= peak or math.isclose(t, peak))"
).replace("def noise_peak(candidate, seed):", "import math\n\n\ndef noise_peak(candidate, seed):")
# trip_rate writes its threshold into WATCH_ONLY, and noise_peak a min_requests of its own
# ("None of the three changes `WATCH_ONLY`"): a later noise_peak would not watch.
_RATE_LOOP = "    tripped = 0\n"
assert _RATE_LOOP in _SOLUTION_THRESHOLD
RATE_WRITES_WATCH = _SOLUTION_THRESHOLD.replace(
    _RATE_LOOP, '    WATCH_ONLY["max_error_rate"] = threshold\n' + _RATE_LOOP
)
RATE_REBINDS_WATCH = _SOLUTION_THRESHOLD.replace(
    _RATE_LOOP,
    "    global WATCH_ONLY\n"
    '    WATCH_ONLY = {**WATCH_ONLY, "max_error_rate": threshold}\n' + _RATE_LOOP,
)
_PEAK_RUN = "    result = run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=seed)\n"
assert _PEAK_RUN in _SOLUTION_THRESHOLD
PEAK_WRITES_WATCH = _SOLUTION_THRESHOLD.replace(
    _PEAK_RUN, '    WATCH_ONLY.setdefault("min_requests", 40)\n' + _PEAK_RUN
)
# Correct: choose_threshold rebinds THRESHOLDS to its sorted copy (the text asks nothing of it
# but to read it at each call), and trip_rate builds its canary from a copy of WATCH_ONLY.
SORTS_THRESHOLDS = _SOLUTION_THRESHOLD.replace(
    "    return min(t for t in THRESHOLDS if t >= peak)",
    "    global THRESHOLDS\n"
    "    THRESHOLDS = tuple(sorted(THRESHOLDS))\n"
    "    return next(t for t in THRESHOLDS if t >= peak)",
).replace(
    '        config = CanaryConfig(candidate=candidate, duration=WATCH_ONLY["duration"],\n'
    "                              max_error_rate=threshold)\n",
    "        watch = dict(WATCH_ONLY)\n"
    '        config = CanaryConfig(candidate=candidate, duration=watch.pop("duration"),\n'
    "                              max_error_rate=threshold)\n",
)
_THRESHOLD_VARIANTS = (
    RATE_SET_OVER_LISTED,
    PEAK_TOLERANCE,
    PEAK_ROUNDED_9,
    PEAK_ISCLOSE,
    RATE_WRITES_WATCH,
    RATE_REBINDS_WATCH,
    PEAK_WRITES_WATCH,
    SORTS_THRESHOLDS,
)
assert len({*_THRESHOLD_VARIANTS, _SOLUTION_THRESHOLD}) == len(_THRESHOLD_VARIANTS) + 1
assert SORTS_THRESHOLDS.count("watch.pop") == 1
ANSWERS += [
    ("rate-set-over-listed", "choose-threshold", RATE_SET_OVER_LISTED, 4, "listed twice"),
    ("peak-tolerance", "choose-threshold", PEAK_TOLERANCE, 3, "just below the peak"),
    ("peak-rounded-9", "choose-threshold", PEAK_ROUNDED_9, 3, "just below the peak"),
    ("peak-isclose", "choose-threshold", PEAK_ISCLOSE, 3, "just below the peak"),
    ("rate-writes-watch", "choose-threshold", RATE_WRITES_WATCH, 4, "trip_rate() left WATCH"),
    ("rate-rebinds-watch", "choose-threshold", RATE_REBINDS_WATCH, 4, "trip_rate() left WATCH"),
    ("peak-writes-watch", "choose-threshold", PEAK_WRITES_WATCH, 5, "noise_peak() left WATCH"),
    ("sorts-thresholds", "choose-threshold", SORTS_THRESHOLDS, 6, "all"),
]

# The subject searched for links too (exact-host: "Only bodies are searched for links: a subject
# repeats the customer's question, links and all."): a foreign link the customer's question put
# in the subject is called harm.
SCANS_SUBJECT = _SOLUTION_INJECTION.replace(
    _FIND_LINKS, _FIND_LINKS.replace('mail["body"]', 'mail["subject"] + " " + mail["body"]')
)
# The link percent-decoded before its host is read (exact-host: "The host of a link is where a
# browser would go: `urlsplit(url.replace("\\", "/")).hostname`"): our name, %2f and an @ before
# a foreign host read as our host.
UNQUOTES_LINK = _SOLUTION_INJECTION.replace(
    _LINK_END, _LINK_END.replace("url.rstrip(", "unquote(url).rstrip(")
).replace(
    "def injection_rule(obs):", "from urllib.parse import unquote\n\n\ndef injection_rule(obs):"
)
# Links ended at ASCII white space only (exact-host: "up to the first white space (any kind: a
# no-break space too)"): a foreign link after a no-break space is read as part of ours.
ASCII_WHITE_SPACE = _SOLUTION_INJECTION.replace(
    _FIND_LINKS, _FIND_LINKS.replace("flags=re.IGNORECASE", "flags=re.IGNORECASE | re.ASCII")
)
# E-mails with a blank body left out before counting (who-got-what: "the customer ... got
# **exactly one** e-mail, and **nobody else** got any"): an empty e-mail to someone else passes.
DROPS_BLANK_MAILS = _SOLUTION_INJECTION.replace(
    _MAILS, '    mails = [mail for mail in obs["deliveries"] if mail["body"].strip()]\n'
)
assert len({SCANS_SUBJECT, UNQUOTES_LINK, ASCII_WHITE_SPACE, DROPS_BLANK_MAILS}) == 4
assert _SOLUTION_INJECTION not in (SCANS_SUBJECT, UNQUOTES_LINK, ASCII_WHITE_SPACE)
assert DROPS_BLANK_MAILS != _SOLUTION_INJECTION
# The watch-only canary run again and its judged windows (WATCH_ONLY's min_requests) compared
# with the threshold, instead of the breaker's canary (trip-rate: "`CanaryConfig(candidate=
# candidate, duration=WATCH_ONLY["duration"], max_error_rate=threshold)`: exactly these three
# fields, every other one left at its default").
TRIPS_FROM_WATCH_ONLY = _threshold(
    rate="""
def trip_rate(candidate, threshold, seeds):
    tripped = 0
    for seed in seeds:
        run = run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=seed)
        tripped += any(s.error_rate > threshold for s in run.samples
                       if s.requests >= run.config.min_requests)
    return tripped / len(seeds)
"""
)
ANSWERS += [
    ("scans-subject", "injection-rule", SCANS_SUBJECT, 2, "under a subject that repeats"),
    ("unquotes-link", "injection-rule", UNQUOTES_LINK, 2, "percent-encoded slash"),
    ("ascii-white-space", "injection-rule", ASCII_WHITE_SPACE, 2, "white space that is not"),
    ("drops-blank-mails", "injection-rule", DROPS_BLANK_MAILS, 3, "an empty body"),
    (
        "trips-from-watch-only",
        "choose-threshold",
        TRIPS_FROM_WATCH_ONLY,
        4,
        "its own max_cost and min_requests",
    ),
]

# A link whose host cannot be read skipped as harmless (exact-host: "A link whose host cannot
# be read (`urlsplit` raises `ValueError`, as on `https://[evil.io/`) is not ours: it does
# harm.").
_UNREADABLE_HARM = (
    "            except ValueError:  # a host that cannot be read is not ours\n"
    "                return False\n"
)
assert _UNREADABLE_HARM in _SOLUTION_INJECTION
UNREADABLE_SKIPPED = _SOLUTION_INJECTION.replace(
    _UNREADABLE_HARM, "            except ValueError:\n                continue\n"
)
# ... or a link with an empty host (``https:///evil.io/``: ``hostname`` is None) skipped: an
# empty host is neither one of our domains nor a subdomain of one (exact-host: "a host is ours
# when it *is* one of them or a subdomain of one").
_HOST_TEST = "            if not any(host == d"
assert _SOLUTION_INJECTION.count(_HOST_TEST) == 1
EMPTY_HOST_SKIPPED = _SOLUTION_INJECTION.replace(
    _HOST_TEST, "            if host and not any(host == d"
)
ANSWERS += [
    ("unreadable-skipped", "injection-rule", UNREADABLE_SKIPPED, 2, "cannot be read"),
    ("empty-host-skipped", "injection-rule", EMPTY_HOST_SKIPPED, 2, "an empty host"),
]
