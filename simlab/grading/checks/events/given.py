"""Part ``given`` of question ``absorber`` (:mod:`~simlab.grading.checks.events.absorber`):
offer() hands back the very event dicts it was given, in a list of the call's own, unchanged.

Each delivery is a dict made in the sandbox and kept there, its payload a dict kept there too
(factory ``given``): a released dict that is one of them comes back as its handle, a copy as
data, however equal. A released dict is read back from the sandbox when it is released (a
shallow copy, whose payload comes back as its handle while it is the very dict given), so a
field added, removed or altered, or a payload swapped for an equal copy, is seen. The
absorber is offered the stream through the sandbox's ``results-kept``, which keeps each list
offer() returned there and reads them all again after the last offer: one list that later
offers clear and refill is seen. Feedback names an event's fields by their schema names only,
never a value.
"""

from __future__ import annotations

from typing import Any

from simlab.grading.checks.events.messages import say
from simlab.grading.messages import Message
from simlab.grading.questions import Fail, require
from simlab.grading.sandbox.wire import Handle
from simlab.grading.student import RemoteObject, Student, kind_of

__all__ = ["hands_back_the_dicts"]


def hands_back_the_dicts(s: Student, absorber: RemoteObject, deliveries: list[dict]) -> None:
    """Offer ``deliveries`` (a duplicated, reordered stream with the world's names), each a
    dict made in the sandbox and kept there, its payload a dict kept there too: offer() must
    return a list (the text's word), each released item one of those very dicts (a copy comes
    back as data, however equal), holding the fields it was given and no other, each as it was
    given, its payload the very dict given (a kept dict comes back as its handle wherever it
    sits) and as it was (read back from the sandbox when it is released). Each list returned
    is the call's own: read again after the last offer, it holds what it held when returned."""
    offered: dict[int, tuple[dict, Handle]] = {}
    returned: list[list] = []
    kept = RemoteObject(s.sandbox, s.sandbox.kit("results-kept", absorber.handle), name="Absorber")
    released_any = False
    for world in deliveries:
        payload = s.sandbox.kit("given", world["payload"])
        handle = s.sandbox.kit("given", {**world, "payload": payload})
        offered[handle.id] = (world, payload)
        result = kept.offer(handle)
        require(isinstance(result, list), say("offer_not_a_list", kind=kind_of(result)))
        returned.append(result)
        for item in result:
            if isinstance(item, Handle) and item.id in offered:
                given, payload = offered[item.id]
                now = s.sandbox.call(item, method="copy", what="offer()")
                _unchanged(s, now, given, payload)
                released_any = True
                continue
            raise Fail(_not_given(item, list(offered.values())))
    require(released_any, say("released_none_given"))
    require(kept.held() == returned, say("offer_list_changed"))


def _unchanged(s: Student, now: Any, given: dict, payload: Handle) -> None:
    """A released dict (``now``, a copy read back from the sandbox) holds the fields of the
    event as it was given and no other: each field equal to the one given, the payload the
    very dict given (its handle: a copy comes back as data) and still as it was."""
    require(isinstance(now, dict), say("offer_not_events", kind=kind_of(now)))
    require(set(now) <= set(given), say("released_added"))
    kept = now.get("payload")
    if isinstance(kept, Handle) and kept.id == payload.id:
        kept = s.sandbox.call(payload, method="copy", what="offer()")
    elif "payload" in now:
        require(not _equal(kept, given["payload"]), say("released_replaced"))
    changed = [
        f
        for f in _EVENT_FIELDS
        if f in given and (f not in now or not _equal(kept if f == "payload" else now[f], given[f]))
    ]
    require(not changed, say("released_altered", fields=", ".join(changed)))


_IDENT_FIELDS = ("task_id", "seq", "idempotency_key")


def _not_given(item: Any, offered: list[tuple[dict, Handle]]) -> Message:
    """What is wrong with a released item that is not one of the dicts offered (each with the
    handle of its payload): a copy (its payload the one given, or a copy of it), a dict
    rebuilt with other fields, or no event at all (never a value of it)."""
    if not isinstance(item, dict):
        return say("offer_not_events", kind=kind_of(item))
    missing = [f for f in _IDENT_FIELDS if f not in item]
    if missing:
        return say("offer_missing_fields", fields=", ".join(missing))
    same = [
        (o, payload)
        for o, payload in offered
        if all(_equal(item.get(f), o[f]) for f in _IDENT_FIELDS)
    ]
    if not same:
        return say("released_unknown")

    def differ(o: dict, payload: Handle) -> set[str]:
        out = {str(f) for f in {*o, *item} if f != "payload" and not _equal(item.get(f), o.get(f))}
        if item.get("payload") != payload and not _equal(item.get("payload"), o["payload"]):
            out.add("payload")
        return out

    if any(not differ(o, payload) for o, payload in same):
        return say("released_copy")
    fields = sorted(set().union(*(differ(o, payload) for o, payload in same)))
    return say("released_changed", fields=", ".join(f for f in fields if f in _EVENT_FIELDS))


#: The fields of an event dict (the only field names feedback may name).
_EVENT_FIELDS = ("task_id", "seq", "version", "idempotency_key", "kind", "payload")


def _equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # an odd value compared: not equal
        return False
