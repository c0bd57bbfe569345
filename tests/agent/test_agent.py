"""The deterministic agent: retrieval with permissions and a versioned cache, the business API,
the fake model, events, sub-agent grants, and steps as pure functions of checkpoint and world."""

from __future__ import annotations

import copy
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simlab.agent import (
    EVENT_VERSION,
    INVENTORY_API,
    TOOLS,
    AgentEvent,
    EventAbsorber,
    FakeModel,
    Grant,
    InventoryAPI,
    PermissionDenied,
    RetrievalCache,
    Retriever,
    cache_key,
    count_tokens,
    email_key,
    is_known_version,
    new_checkpoint,
    normalize_query,
    step,
)
from simlab.agent.checkpoint import CheckpointError, Goal
from simlab.agent.example import example_goals, example_world


def grant(world, tenant="acme") -> Grant:
    return world.grant_for(tenant)


# -- retrieval: filter first, verify last, cache by versions ---------------------------------------


def test_can_a_document_outside_the_grant_ever_be_retrieved():
    world = example_world()
    hits = Retriever(world).search(grant(world, "globex"), "return a blender within days")
    assert hits
    assert all(world.document(h.doc_id).collection == "public" for h in hits)
    assert "acme/vip-returns" not in {h.doc_id for h in hits}
    assert "acme/vip-returns" in {
        h.doc_id for h in Retriever(world).search(grant(world, "acme"), "return blender")
    }


def test_does_the_permission_filter_run_before_ranking():
    # Forbidden documents that match better must not push readable ones out of the top k.
    world = example_world()
    for i in range(5):
        world.publish(f"secret/{i}", "blender blender return days warranty", "acme-internal")
    retriever = Retriever(world, k=2)
    hits = retriever.search(grant(world, "globex"), "blender return days warranty")
    assert len(hits) == 2
    assert all(h.doc_id.startswith("kb/") for h in hits)


def test_is_ranking_deterministic_and_best_first():
    world = example_world()
    a = Retriever(world).search(grant(world), "How many days do I have to return a blender?")
    b = Retriever(world).search(grant(world), "How many days do I have to return a blender?")
    assert a == b
    scores = [h.score for h in a]
    assert scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)


def test_does_every_hit_carry_its_source_and_version():
    world = example_world()
    for hit in Retriever(world).search(grant(world), "blender warranty"):
        assert hit.source == "retrieval"
        assert hit.version == world.document(hit.doc_id).version


def test_does_the_same_query_come_from_the_cache():
    world = example_world()
    cache = RetrievalCache()
    retriever = Retriever(world, cache)
    first = retriever.search(grant(world), "Blender warranty?")
    second = retriever.search(grant(world), "  blender   WARRANTY ")
    assert second == first
    assert (cache.misses, cache.hits) == (1, 1)


def test_do_questions_in_any_script_keep_their_words():
    """Letters of every script are words: two different Chinese questions never share a key
    (nor a cache entry), an accented word keeps its accent, and a question differing only in
    capitals, white space, punctuation or Unicode form (composed or decomposed accent,
    full-width letters and punctuation) is the same question."""
    assert cache_key("acme", "v1", 1, "退货期限是多少天？") != cache_key(
        "acme", "v1", 1, "订单多快发货？"
    )
    assert normalize_query("退货期限是多少天？") == "退货期限是多少天"
    assert normalize_query("退货期限是多少天?") == normalize_query("　退货期限是多少天？！")
    assert normalize_query("Сколько стоит ДОСТАВКА?") == "сколько стоит доставка"
    assert normalize_query("Café") == "café" == normalize_query("CAFE\u0301")
    assert normalize_query("café") != normalize_query("cafe")
    assert normalize_query("ＶＩＰ customers？") == "vip customers"
    assert normalize_query("Straße") == normalize_query("STRASSE") == "strasse"
    assert normalize_query("हिंदी भाषा") == "हिंदी भाषा"  # vowel signs are marks, not breaks
    assert normalize_query("？！ …") == ""
    world = example_world()
    cache = RetrievalCache()
    retriever = Retriever(world, cache)
    retriever.search(grant(world), "退货期限是多少天？")
    retriever.search(grant(world), "订单多快发货？")
    assert (cache.misses, cache.hits) == (2, 0)


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_is_an_ascii_question_normalised_as_before(query):
    """On ASCII text the words are the runs of ASCII letters and digits, lower-cased."""
    assert normalize_query(query) == " ".join(re.findall(r"[a-z0-9]+", query.lower()))


def test_are_the_notebook_questions_normalised_as_before():
    assert normalize_query("How fast do orders ship?") == "how fast do orders ship"
    assert normalize_query("  blender   WARRANTY ") == "blender warranty"
    assert normalize_query("don't_stop-now/2") == "don t stop now 2"


def test_can_a_revoked_permission_be_served_from_the_cache():
    world = example_world()
    cache = RetrievalCache()
    retriever = Retriever(world, cache)
    old = grant(world)
    retriever.search(old, "blender warranty")
    world.revoke("acme")
    with pytest.raises(PermissionDenied, match="revoked"):
        retriever.search(old, "blender warranty")
    with pytest.raises(PermissionDenied):
        retriever.search(grant(world), "blender warranty")
    assert cache.hits == 0


def test_can_an_old_grant_version_be_served_after_the_grant_changed():
    world = example_world()
    retriever = Retriever(world, RetrievalCache())
    old = grant(world)
    retriever.search(old, "return blender")
    world.grant("acme", ["public"])  # acme loses its internal collection
    with pytest.raises(PermissionDenied, match="out of date"):
        retriever.search(old, "return blender")
    hits = retriever.search(grant(world), "return blender")
    assert "acme/vip-returns" not in {h.doc_id for h in hits}


def test_can_a_new_index_version_be_served_from_the_old_cache():
    world = example_world()
    cache = RetrievalCache()
    retriever = Retriever(world, cache)
    before = retriever.search(grant(world), "blender warranty")
    world.publish("kb/warranty", "Every blender has a three year warranty.")
    after = retriever.search(grant(world), "blender warranty")
    assert cache.hits == 0 and cache.misses == 2
    assert {h.doc_id: h.version for h in before}["kb/warranty"] == 2
    assert {h.doc_id: h.version for h in after}["kb/warranty"] == 3


def test_is_a_poisoned_cache_entry_caught_by_re_verification():
    # Someone wrote a forbidden document under a valid key: re-verification must not serve it.
    world = example_world()
    cache = RetrievalCache()
    retriever = Retriever(world, cache)
    globex = grant(world, "globex")
    secret = Retriever(world).search(grant(world, "acme"), "return blender")
    key = cache_key("globex", globex.permission_version, world.index_version, "return blender")
    cache.entries[key] = secret
    hits = retriever.search(globex, "return blender")
    assert "acme/vip-returns" not in {h.doc_id for h in hits}
    assert cache.rejected == 1 and cache.hits == 0


def test_does_a_sub_agent_share_cache_entries_with_its_wider_parent():
    world = example_world()
    cache = RetrievalCache()
    retriever = Retriever(world, cache)
    parent = grant(world)
    child = parent.narrow(collections={"public"})
    retriever.search(parent, "return blender")
    hits = retriever.search(child, "return blender")
    assert cache.hits == 0
    assert "acme/vip-returns" not in {h.doc_id for h in hits}


parts = st.tuples(
    st.text(max_size=5), st.text(max_size=5), st.integers(0, 5), st.text("ab ", max_size=5)
)


@given(parts, parts)
def test_do_two_cache_keys_differ_whenever_tenant_permission_index_or_query_differ(a, b):
    same = a[:3] == b[:3] and " ".join(a[3].split()) == " ".join(b[3].split())
    assert (cache_key(*a) == cache_key(*b)) == same


def test_does_search_need_the_search_tool():
    world = example_world()
    with pytest.raises(PermissionDenied, match="search"):
        Retriever(world).search(grant(world).narrow(tools={"email"}), "blender")


# -- the business API ------------------------------------------------------------------------------


def test_does_the_inventory_api_return_source_and_version():
    world = example_world()
    api = InventoryAPI(world)
    fact = api.lookup(grant(world), "blender-01")
    assert (fact.source, fact.quantity, fact.version) == (INVENTORY_API, 12, 1)
    world.set_stock("blender-01", 11)
    assert api.lookup(grant(world), "blender-01").version == 2


def test_does_the_inventory_api_refuse_without_authorization():
    world = example_world()
    api = InventoryAPI(world)
    with pytest.raises(PermissionDenied, match="inventory"):
        api.lookup(grant(world).narrow(tools={"search"}), "blender-01")
    world.revoke("acme")
    with pytest.raises(PermissionDenied):
        api.lookup(grant(world), "blender-01")
    with pytest.raises(LookupError):
        api.lookup(grant(world, "globex"), "no-such-sku")


# -- sub-agents ------------------------------------------------------------------------------------


@given(
    st.sets(st.sampled_from(sorted(TOOLS))),
    st.sets(st.sampled_from(["a", "b", "c"])),
    st.sets(st.sampled_from(sorted(TOOLS))),
    st.sets(st.sampled_from(["a", "b", "c"])),
)
def test_can_a_sub_agent_ever_hold_more_than_its_task(tools, cols, want_tools, want_cols):
    parent = Grant("t", 1, frozenset(cols), frozenset(tools))
    try:
        child = parent.narrow(collections=want_cols, tools=want_tools)
    except PermissionDenied as exc:
        assert not (want_tools <= tools and want_cols <= cols)
        extra = sorted((want_cols - cols) | (want_tools - tools))
        assert extra[0] in str(exc)
    else:
        assert child.tools <= parent.tools and child.collections <= parent.collections
        assert child.version == parent.version and child.tenant == parent.tenant


def test_can_a_revoked_grant_be_narrowed():
    with pytest.raises(PermissionDenied):
        Grant("t", 2, frozenset(), frozenset(), revoked=True).narrow()


# -- the fake model --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tokens"), [("", 0), ("Hello, world!", 4), ("a b  c", 3), ("kb/returns v3", 4)]
)
def test_are_tokens_counted_deterministically(text, tokens):
    assert count_tokens(text) == tokens


def test_does_the_fake_model_answer_the_same_prompt_the_same_way():
    prompt = "Question: Why?\n[kb/a v2] Because. More text.\n[sku v1] 3 units.\n"
    a, b = FakeModel().complete(prompt), FakeModel().complete(prompt)
    assert a == b
    assert "Because. [kb/a v2]" in a.text and "[sku v1]" in a.text and "More text" not in a.text
    assert a.prompt_tokens == count_tokens(prompt) and a.completion_tokens == count_tokens(a.text)


def test_does_the_fake_model_admit_when_it_has_no_sources():
    assert FakeModel().complete("Question: Why?\n").text.startswith("I found no evidence")


def test_does_a_prompt_read_as_its_last_question_and_its_sources_in_order():
    """Both fake models read a prompt this way (``fake-2`` answers from the same sources)."""
    from simlab.agent.fakemodel import read_prompt

    prompt = "Question: Why?\n[kb/a v2]  Because. \nnot a source\nQuestion:  How? \n[sku v1] 3."
    assert read_prompt(prompt) == ("How?", [("kb/a v2", "Because."), ("sku v1", "3.")])
    assert read_prompt("[] x\n") == ("", [])


# -- events ----------------------------------------------------------------------------------------


def event(seq, task="t", key=None, version=EVENT_VERSION):
    return AgentEvent(task, seq, version, key or f"{task}:{seq}", "step", {"seq": seq})


@given(st.integers(1, 8), st.randoms(use_true_random=False), st.integers(0, 8))
def test_is_every_event_delivered_once_and_in_order_whatever_the_bus_does(n, rng, dupes):
    events = [event(i) for i in range(1, n + 1)]
    delivered = events + [rng.choice(events) for _ in range(dupes)]
    rng.shuffle(delivered)
    absorber = EventAbsorber()
    for e in delivered:
        absorber.offer(e)
    assert absorber.delivered == events
    assert absorber.duplicates == dupes
    assert absorber.waiting("t") == []


def test_does_an_out_of_order_event_wait_for_the_gap():
    absorber = EventAbsorber()
    assert absorber.offer(event(2)) == []
    assert absorber.waiting("t") == [2]
    assert absorber.offer(event(1)) == [event(1), event(2)]
    assert absorber.next_seq("t") == 3


def test_are_tasks_sequenced_independently():
    absorber = EventAbsorber()
    assert absorber.offer(event(1, "a")) == [event(1, "a")]
    assert absorber.offer(event(1, "b")) == [event(1, "b")]


def test_are_conflicting_and_unknown_version_events_set_aside():
    absorber = EventAbsorber()
    absorber.offer(event(1))
    absorber.offer(event(1, key="other"))
    absorber.offer(event(2, version=EVENT_VERSION + 1))
    assert absorber.delivered == [event(1)]
    assert [e.idempotency_key for e in absorber.conflicts] == ["other"]
    assert [e.seq for e in absorber.rejected] == [2]


@pytest.mark.parametrize("version", [True, 1.0, "1", None, 0, EVENT_VERSION + 1])
def test_is_only_the_int_1_version_1(version):
    # True == 1 and 1.0 == 1 in Python: a check by equality alone would release them.
    absorber = EventAbsorber()
    delivered = AgentEvent.from_dict({**event(1, key="odd").to_dict(), "version": version})
    assert delivered.version is version  # kept as delivered, not coerced
    assert absorber.offer(delivered) == []
    assert [e.idempotency_key for e in absorber.rejected] == ["odd"]
    assert not is_known_version(version)
    # ...and it changed nothing: the version-1 event of that seq is still released.
    assert absorber.offer(event(1)) == [event(1)]
    assert type(absorber.delivered[0].version) is int
    assert is_known_version(EVENT_VERSION)


def test_do_events_survive_a_json_round_trip():
    e = event(3)
    assert AgentEvent.from_dict(copy.deepcopy(e.to_dict())) == e


# -- steps -----------------------------------------------------------------------------------------


def run_pure(world, task="ask-returns"):
    tenant, goal = example_goals()[task]
    cp = new_checkpoint(task, tenant, goal)
    outcomes = []
    while cp.next_step != "done" and cp.status == "running":
        out = step(cp, world)
        outcomes.append(out)
        cp = out.checkpoint
    return outcomes


def test_do_the_three_steps_flow_through_the_checkpoint():
    outcomes = run_pure(example_world())
    assert [o.step for o in outcomes] == ["retrieve", "draft", "send"]
    retrieve, draft, send = outcomes
    assert {e.source for e in retrieve.checkpoint.evidence} == {"retrieval", "inventory-api"}
    assert "12 units of blender-01" in draft.checkpoint.draft
    assert draft.tokens > 0 and retrieve.tokens == 0
    (intent,) = send.intents
    assert intent.key == email_key(send.checkpoint) and intent.body == draft.checkpoint.draft
    assert send.checkpoint.effects == {intent.key: "pending"}
    assert send.checkpoint.status == "completed"


def test_is_a_step_a_pure_function_of_checkpoint_and_world():
    world = example_world()
    a = run_pure(world)
    b = run_pure(world)
    assert a == b
    assert world.mail.deliveries == []  # steps intend; they never send
    assert world.index_version == example_world().index_version


class RecordingRetriever(Retriever):
    """A fake that remembers which grant each search ran under."""

    def __init__(self, world):
        super().__init__(world)
        self.grants = []

    def search(self, grant, query):
        self.grants.append(grant)
        return super().search(grant, query)


def test_does_the_researcher_sub_agent_hold_less_than_the_task():
    world = example_world()
    tenant, goal = example_goals()["ask-returns"]
    retriever = RecordingRetriever(world)
    step(new_checkpoint("ask-returns", tenant, goal), world, retriever=retriever)
    (used,) = retriever.grants
    assert used.tools == {"search", "inventory"}  # no model, no e-mail
    assert used.tools < world.grant_for(tenant).tools


def test_does_the_researcher_stop_when_the_task_lacks_a_tool_it_needs():
    world = example_world()
    world.grant("acme", ["public", "acme-internal"], tools={"search", "model", "email"})
    (retrieve,) = run_pure(world)[:1]
    assert retrieve.checkpoint.status == "needs_review"
    assert retrieve.checkpoint.review[0].code == "permission-denied"
    assert "inventory" in retrieve.checkpoint.review[0].detail


def test_does_draft_stop_when_there_is_no_evidence():
    world = example_world()
    cp = new_checkpoint("t", "globex", Goal("zebra quantum?", "z@example.com"))
    cp = step(cp, world).checkpoint
    assert cp.evidence == () and cp.next_step == "draft"
    stopped = step(cp, world)
    assert stopped.checkpoint.status == "needs_review" and stopped.intents == ()
    assert stopped.checkpoint.review[0].code == "evidence-empty"


def test_does_send_wait_for_approval():
    world = example_world()
    outcomes = run_pure(world, "ask-warranty")
    assert outcomes[1].checkpoint.approval.status == "pending"
    assert outcomes[-1].checkpoint.review[0].code == "approval-pending"
    assert outcomes[-1].intents == ()
    world.approve("ask-warranty", "lead")
    sent = step(outcomes[1].checkpoint, world)
    assert sent.checkpoint.approval.by == "lead" and len(sent.intents) == 1


@pytest.mark.parametrize("status", ["sent", "unknown"])
def test_does_send_skip_an_email_that_may_have_left(status):
    world = example_world()
    before_send = run_pure(world)[1].checkpoint
    cp = before_send.with_effect(email_key(before_send), status)
    out = step(cp, world)
    assert out.intents == () and out.checkpoint.effects[email_key(cp)] == status


def test_is_a_malformed_goal_refused_naming_the_field():
    with pytest.raises(CheckpointError, match="goal.query") as info:
        new_checkpoint("t", "acme", {"recipient": "r"})
    assert info.value.field == "goal.query"
    with pytest.raises(CheckpointError, match="goal.sku"):
        new_checkpoint("t", "acme", {"query": "q", "recipient": "r", "sku": 3})
    with pytest.raises(CheckpointError, match="goal"):
        new_checkpoint("t", "acme", "just a string")


def test_does_the_example_world_come_fresh_every_time():
    a = example_world()
    a.revoke("acme")
    assert not example_world().grant_for("acme").revoked


def test_does_a_world_survive_a_json_round_trip():
    import json

    from simlab.agent import World

    world = example_world()
    world.publish("kb/returns", "Returns: 14 days.")
    world.revoke("globex")
    world.set_stock("kettle-02", 4)
    world.approve("t", "lead")
    world.remove_tool("email")
    again = World.from_dict(json.loads(json.dumps(world.to_dict())))
    assert again.to_dict() == world.to_dict()
    cp = new_checkpoint("t", "acme", Goal("return blender", "r@example.com"))
    assert step(cp, again) == step(cp, world)


def test_is_a_weak_cache_key_caught_serving_a_revoked_tenant_nothing():
    # A key without the permission version would hit after a grant change; re-verification
    # still keeps the now-forbidden document out of the answer.
    world = example_world()
    cache = RetrievalCache()
    weak = Retriever(world, cache, key=lambda tenant, pv, iv, q: (tenant, iv, q))
    weak.search(grant(world), "return blender")
    world.grant("acme", ["public"])
    hits = weak.search(grant(world), "return blender")
    assert "acme/vip-returns" not in {h.doc_id for h in hits}
    assert cache.rejected == 1
