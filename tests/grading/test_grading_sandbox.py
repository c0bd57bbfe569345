"""Can a student's code reach the grader? The sandbox, the wire format and the hidden checks,
without a Jupyter kernel."""

from __future__ import annotations

import math
import os

import nbformat
import pytest

from simlab.checker.history import Event, History
from simlab.errors import LeaseHeld
from simlab.grading.checks import EXERCISES
from simlab.grading.grader import hidden_checks
from simlab.grading.notebook import read_notebook
from simlab.grading.sandbox import supervisor as sandbox_module
from simlab.grading.sandbox import wire
from simlab.grading.sandbox.supervisor import RemoteError, Sandbox, SandboxLost
from simlab.grading.student import RemoteObject, Student
from simlab.records import Lease, TaskRecord
from tests.submissions.cases import FENCING, NO_BUMP, ROOT, with_answers


@pytest.fixture
def box():
    with Sandbox(timeout=5) as sandbox:
        yield sandbox


def test_do_values_survive_the_wire():
    lease = Lease("t1", "w1", 3, 1, 12.5, {"evidence": ["d@1"]}, 2)
    record = TaskRecord("t1", "running", 1, 3, None, "default", 2, 12.5, None)
    event = Event(4, 1.5, "ok", "w1", "save", "t1", 3, 2, {"done": True})
    value = [lease, record, event, (1, "a"), {1: [2.0, None]}, {"x"}, True, math.inf]
    back = wire.decode(wire.loads(wire.dumps(wire.encode(value))))
    assert back == value


def test_does_a_dict_of_names_cross_as_a_json_object_in_its_order():
    """A dict whose keys are all strings (a world, an answer) is a JSON object on the wire,
    its keys never read as tags; any other dict is a list of pairs."""
    value = {"b": 1, "a": {"x": [1, 2]}, "$t": "not a tag"}
    data = wire.encode(value)
    assert data == {"$o": {"b": 1, "a": {"$o": {"x": [1, 2]}}, "$t": "not a tag"}}
    back = wire.decode(wire.loads(wire.dumps(data)))
    assert back == value and list(back) == ["b", "a", "$t"]
    assert wire.encode({1: "x", "y": 2}) == {"$d": [[1, "x"], ["y", 2]]}


def test_does_a_history_come_back_as_a_history():
    """The exercises hand a :class:`History` to the learner's functions: it crosses the wire
    as one, so its documented API (``.events``, ``len``, indexing) works in the sandbox; a
    forged one holding anything but events is refused."""
    history = History()
    history.record(0.0, "ok", "w1", "claim", "t1", 1, 0, lease_until=2.0)
    history.record(1.0, "info", "w1", "crash")
    back = wire.decode(wire.loads(wire.dumps(wire.encode([history]))))[0]
    assert type(back) is History and back.events == history.events
    assert len(back) == 2 and back[1].index == 1 and list(back) == history.events
    assert isinstance(wire.decode({"$H": [1, "x"]}), wire.Opaque)
    assert isinstance(wire.decode({"$H": {"$t": []}}), wire.Opaque)


@pytest.mark.jail
def test_does_a_sandbox_load_the_kits_records_only_when_they_cross(box):
    """A notebook that never imports the kit's records or history does not load them for the
    wire; one that crosses the wire (from the grader) is built as itself all the same."""
    cell = (
        "import sys\n"
        "def loaded():\n"
        "    return [m in sys.modules for m in ('simlab.records', 'simlab.checker.history')]\n"
        "def same(x):\n"
        "    return x\n"
    )
    assert box.exec_cell(0, cell).status == "ok"
    assert box.call("same", (1, {"a"}, frozenset({2}))) == (1, {"a"}, frozenset({2}))
    assert box.call("loaded") == [False, False]
    lease = Lease("t1", "w1", 3, 1, 12.5, {"evidence": ["d@1"]}, 2)
    history = History()
    history.record(0.0, "ok", "w1", "claim", "t1", 1, 0, lease_until=2.0)
    back = box.call("same", [lease, history])
    assert back[0] == lease and type(back[1]) is History and back[1].events == history.events
    assert box.call("loaded") == [True, True]


def test_does_a_frozenset_come_back_hashable():
    """A frozenset is a valid dict key (a learner's cache key may be one); it must not come
    back as a set, which the grader would call unhashable."""
    value = (frozenset({"acme", 1}), {frozenset({2})})
    back = wire.decode(wire.loads(wire.dumps(wire.encode(value))))
    assert back == value and type(back[0]) is frozenset
    assert hash(back[0]) == hash(value[0])


def test_does_the_wire_refuse_to_build_unknown_types():
    data = {"$r": "os.system", "f": {"command": "true"}}
    assert isinstance(wire.decode(data), wire.Opaque)
    assert isinstance(wire.decode({"$x": "Weird", "repr": "<w>"}), wire.Opaque)
    assert isinstance(wire.decode(wire.encode(object())), wire.Opaque)


@pytest.mark.jail
def test_does_student_code_run_in_another_process(box):
    assert box.exec_cell(0, "import os\ndef pid():\n    return os.getpid()\n").status == "ok"
    assert box.call("pid") != os.getpid()


@pytest.mark.jail
def test_do_kit_errors_come_back_as_themselves_and_others_by_name(box):
    box.exec_cell(
        0,
        "from simlab.errors import LeaseHeld\n"
        "def held():\n    raise LeaseHeld('t1', 'w9', 5.0)\n"
        "def broken():\n    return 1 / 0\n",
    )
    student = Student(box)
    with pytest.raises(LeaseHeld) as caught:
        student.function("held")()
    assert (caught.value.task_id, caught.value.worker, caught.value.lease_until) == (
        "t1",
        "w9",
        5.0,
    )
    with pytest.raises(RemoteError) as other:
        student.function("broken")()
    assert other.value.type == "ZeroDivisionError" and "broken()" in str(other.value.what)


@pytest.mark.jail
def test_do_calls_in_one_request_stop_at_the_first_that_raises(box):
    cell = (
        "class Counter:\n"
        "    def __init__(self):\n"
        "        self.seen = []\n"
        "    def add(self, x, by=1):\n"
        "        if x is None:\n"
        "            raise KeyError('none')\n"
        "        self.seen.append(x)\n"
        "        return (x + by, list(self.seen))\n"
    )
    assert box.exec_cell(0, cell).status == "ok"
    counter = box.call("Counter", keep=True)
    calls = [((1,), {}), ((2,), {"by": 10}), ((None,), {}), ((4,), {})]
    values, error = box.call_each(counter, calls, method="add")
    assert values == [(2, [1]), (12, [1, 2])]  # in turn, each seeing the ones before it
    assert isinstance(error, RemoteError) and error.type == "KeyError"
    assert box.call(counter, method="add", x=5) == (6, [1, 2, 5])  # the 4 was never added
    assert box.call_each(counter, [((7,), {})], method="add") == ([(8, [1, 2, 5, 7])], None)
    values, error = box.call_each("nothing_by_that_name", [((1,), {}), ((2,), {})])
    assert values == [] and isinstance(error, RemoteError)  # the first call fails: no more
    # The same through a remote object, result by result, the error in its place.
    each = RemoteObject(box, counter, name="Counter").each("add", [(8,), (None,), (9,)])
    assert next(each) == (9, [1, 2, 5, 7, 8])
    with pytest.raises(RemoteError, match="KeyError"):
        next(each)
    assert box.call(counter, method="add", x=0) == (1, [1, 2, 5, 7, 8, 0])


@pytest.mark.jail
@pytest.mark.parametrize(
    "forged",
    [
        {"ok": True, "values": [1, 2]},  # more results than calls
        {"ok": True, "values": []},  # fewer, and no error
        {"ok": True, "values": [1], "error": {"type": "KeyError"}},  # an error after them all
        {"ok": True, "values": "1"},
        {"ok": True, "values": [], "error": "KeyError"},
        {"ok": False, "error": {"type": "KeyError"}},
    ],
)
def test_is_a_forged_reply_to_calls_in_one_request_a_lost_sandbox(box, forged):
    cell = (
        "import gc\n"
        "def f(x):\n"
        "    return x\n"
        "child = next(o for o in gc.get_objects() if type(o).__name__ == '_Child')\n"
        f"child.op_calls = lambda message: {forged!r}\n"
    )
    assert box.exec_cell(0, cell).status == "ok"
    with pytest.raises(SandboxLost):
        box.call_each("f", [((1,), {})])


@pytest.mark.jail
def test_is_an_endless_call_stopped_and_reported():
    with Sandbox(timeout=1) as box:
        box.exec_cell(0, "def spin():\n    while True:\n        pass\n")
        with pytest.raises(SandboxLost, match="did not finish within 1 s"):
            box.call("spin")
        assert not box.alive


@pytest.mark.jail
def test_is_an_exit_in_a_cell_reported_as_a_dead_sandbox(box):
    result = box.exec_cell(3, "import os\nos._exit(7)\n")
    assert result.status == "dead" and "died" in result.detail and not box.alive
    assert not box.alive


@pytest.mark.jail
def test_is_a_syntax_error_reported_with_its_line(box):
    result = box.exec_cell(0, "x = 1\ndef f(:\n    pass\n")
    assert result.status == "error" and "SyntaxError" in result.detail and "line 2" in result.detail


@pytest.mark.jail
def test_is_an_oversized_reply_refused(box, monkeypatch):
    monkeypatch.setattr(sandbox_module, "MAX_REPLY", 10_000)
    box.exec_cell(0, "def big():\n    return 'x' * 50_000\n")
    with pytest.raises(SandboxLost, match="more than"):
        box.call("big")


@pytest.mark.jail
def test_does_student_output_never_reach_the_graders_terminal(box, capfd):
    source = (
        "import os, sys\nprint('x' * 5_000_000)\nsys.stderr.write('y' * 1000)\n"
        "os.write(1, b'raw'); os.write(2, b'raw')\n"
    )
    assert box.exec_cell(0, source).status == "ok"
    out, err = capfd.readouterr()
    assert "x" * 10 not in out and "raw" not in out + err and "y" * 10 not in err


_LOADED = "def loaded():\n    import sys\n    return 'IPython' in sys.modules\n"


@pytest.mark.jail
def test_does_a_plain_notebook_run_without_the_shell_and_show_what_it_would(box):
    box.prepare([_LOADED, "x = 1\nraise ValueError('v')\n", "'x' * 1000"])
    assert box.exec_cell(0, _LOADED).status == "ok"
    assert box.call("loaded") is False  # plain Python: no IPython started
    failed = box.exec_cell(1, "x = 1\nraise ValueError('v')\n")
    assert failed.status == "error" and failed.detail == "ValueError: v (line 2)"
    assert box.exec_cell(2, "'x' * 1000;  # quiet", max_output=500).status == "ok"
    assert box.exec_cell(3, "'x' * 1000", max_output=500).status == "flood"  # displayed
    assert box.exec_cell(4, "None", max_output=0).status == "ok"  # None shows nothing
    # the sandbox's own future features stay its own: annotations are evaluated, as in IPython
    assert box.exec_cell(5, "def f(x: int) -> None:\n    pass\n").status == "ok"
    kinds = "kinds = [type(v).__name__ for v in f.__annotations__.values()]"
    assert box.exec_cell(6, kinds).status == "ok"
    assert box.get("kinds") == ["type", "NoneType"]
    assert box.call("loaded") is True  # the value shown above started the shell


@pytest.mark.jail
def test_does_a_notebook_that_needs_the_shell_get_it_before_its_first_cell(box):
    cells = [_LOADED, "%time y = 2\n", "z = len(In)\n"]
    box.prepare(cells)
    assert box.exec_cell(0, cells[0]).status == "ok"
    assert box.call("loaded") is True
    assert [box.exec_cell(i, c).status for i, c in enumerate(cells)] == ["ok"] * 3
    assert box.get("y") == 2 and box.get("z") > 0


@pytest.mark.jail
def test_is_the_garbage_collector_on_for_the_learners_cells(box):
    """A sandbox imports its modules with the collector off; the learner's cells find it on,
    and a cycle they drop is collected, as in a kernel."""
    cell = (
        "import gc, weakref\n"
        "class Node:\n    pass\n"
        "a, b = Node(), Node()\na.b, b.a = b, a\nprobe = weakref.ref(a)\ndel a, b\n"
        "gc.collect()\nstate = [gc.isenabled(), probe() is None]\n"
    )
    assert box.exec_cell(0, cell).status == "ok"
    assert box.get("state") == [True, True]


@pytest.mark.jail
def test_does_a_cell_reading_a_name_of_the_shell_start_it(box):
    cell = "def hidden():\n    return [get_ipython is not None, _i1]\n"
    assert box.exec_cell(0, cell).status == "ok"  # no prepare: the shell starts at this cell
    assert box.call("hidden") == [True, cell.rstrip()]


@pytest.mark.jail
def test_can_a_monkeypatch_in_the_sandbox_reach_the_grader(box):
    from simlab.checker import checker

    before = checker.stale_commits
    box.exec_cell(
        0,
        "from simlab.checker import checker\nchecker.stale_commits = lambda h: []\n"
        "def self_check(q):\n    pass\n",
    )
    assert checker.stale_commits is before
    report = box.request({"op": "tampered"}, what="test")["value"]
    assert "simlab.checker.checker.stale_commits" in report and "self_check" in report


def _fencing(answers: dict) -> object:
    return with_answers(read_notebook(ROOT / "solutions" / FENCING), answers)


@pytest.mark.jail
def test_does_a_call_that_hangs_fail_only_its_own_question():
    hang = NO_BUMP.replace(
        '    if state["status"] != "cancelled":',
        '    while True:\n        pass\n    if state["status"] != "cancelled":',
    )
    grades, boxes = hidden_checks(
        _fencing({"cancel-after-claim": hang}), EXERCISES["fencing"], timeout=5, budget=60
    )
    assert grades["cancel-after-claim"].points == 0
    assert "did not finish" in grades["cancel-after-claim"].feedback
    assert grades["cancel-after-first-step"].points == 6
    assert grades["cancel-limits"].points == 5
    assert boxes.used == 2, "a fresh sandbox for the questions after the hang"


@pytest.mark.jail
def test_does_a_cell_that_hangs_cost_only_its_definitions():
    cell = "import time\ntime.sleep(60)\n" + NO_BUMP
    nb = _fencing({"cancel-after-claim": cell})
    grades, boxes = hidden_checks(nb, EXERCISES["fencing"], timeout=5, budget=60)
    assert grades["cancel-after-claim"].points == 0
    assert "not defined" in grades["cancel-after-claim"].feedback
    assert grades["cancel-limits"].points == 5
    hung = [i for i, c in enumerate(nb.cells) if c.source == cell]
    assert list(boxes.bad) == hung, "only the cell that hung is left out of the next sandbox"


ODD = """
from simlab.errors import LeaseHeld


def cancel(state):
    return object()


def requeue(state):
    raise LeaseHeld("t1", "w1", 1.0)


def cancel_after_first_step(path):
    return {1, 2, 3}


def what_cancel_does(path):
    return (fact for fact in range(3))
"""


@pytest.mark.jail
def test_do_odd_answers_cost_their_question_and_never_the_grader():
    nb = _fencing({"cancel-after-claim": ODD, "cancel-after-first-step": "", "cancel-limits": ""})
    grades, _ = hidden_checks(nb, EXERCISES["fencing"], timeout=5, budget=60)
    assert [g.points for g in grades.values()] == [0, 0, 0]
    feedback = " ".join(g.feedback for g in grades.values())
    assert "grader error" not in feedback and "could not run" not in feedback
    said = grades["cancel-after-claim"].feedback
    assert "cancel() of a running task returned an object, expected True" in said
    assert "<object" not in said  # the learner's value by its type, never its repr
    assert "expected a dict" in grades["cancel-after-first-step"].feedback


def test_does_an_unjailed_sandbox_work_in_a_process_and_folder_of_its_own():
    with Sandbox(timeout=20, jailed=False) as plain:
        assert plain.exec_cell(0, "import os\ndef pid():\n    return os.getpid()\n").status == "ok"
        assert plain.call("pid") == plain.pid != os.getpid()
        # It works in its own folder, IPython's too: nothing lands where the grader was started.
        cell = (
            "import os\nfrom IPython.paths import get_ipython_dir\n"
            "where = (os.getcwd(), get_ipython_dir())\n"
        )
        assert plain.exec_cell(1, cell).status == "ok"
        cwd, ipython = plain.get("where")
        assert cwd == plain.workdir != os.getcwd()
        assert ipython.startswith(plain.workdir + os.sep)


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


_BURN = "t = time.process_time()\nwhile time.process_time() - t < 0.5:\n    pass\n"


def test_does_the_cpu_time_of_the_notebooks_run_reach_the_grader():
    """The notebook's run is a fork of the sandbox (split off before a public check); ending
    the run reaps it, so the CPU time its cells spent counts among the grader's children, as
    ``simlab bench grade`` counts it, not lost to whichever process inherits it."""
    before = _children_cpu()
    with Sandbox(timeout=30, jailed=False) as plain:
        assert plain.exec_cell(0, "import time\ndef two():\n    return 2\n").status == "ok"
        plain.split()
        assert plain.exec_cell(1, _BURN, line="run").status == "ok"
        plain.end_run()
        assert plain.call("two") == 2  # the checks' line goes on
    assert _children_cpu() - before >= 0.45


_FONTS = """
import os, sys
folder = os.environ["MPLCONFIGDIR"]
found = {name: open(os.path.join(folder, name)).read() for name in sorted(os.listdir(folder))}
matplotlib_loaded = "matplotlib" in sys.modules
"""


@pytest.mark.jail
def test_does_a_jail_start_with_the_graders_font_list_and_no_other_file(tmp_path, monkeypatch):
    """A jail's matplotlib folder starts empty: the runtime hands it the grader's font list
    before the first cell (so matplotlib reads it instead of scanning the system's fonts),
    and the sandbox writes font lists only, by their own name."""
    from simlab.grading.runtime import Runtime, font_lists, plan

    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path))
    (tmp_path / "fontlist-v9.9.json").write_text('{"probe": 1}')
    (tmp_path / "matplotlibrc").write_text("backend: TkAgg")  # not a font list: stays here
    font_lists.cache_clear()
    try:
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(_FONTS)])
        runtime = Runtime(plan(nb), 60)
        try:
            assert runtime.run()[0].status == "ok"
            sandbox = runtime.get()
            assert sandbox.get("found") == {"fontlist-v9.9.json": '{"probe": 1}'}
            assert sandbox.get("matplotlib_loaded") is False
            forged = {"../evil.json": "x", "fontlist-v1.json/../x": "x", "fontlist-v2.json": 3}
            sandbox.request({"op": "fonts", "files": forged}, what="a test")
            assert sandbox.exec_cell(1, _FONTS).status == "ok"
            assert sandbox.get("found") == {"fontlist-v9.9.json": '{"probe": 1}'}
        finally:
            runtime.close()
    finally:
        font_lists.cache_clear()


def test_does_the_cpu_time_of_an_unjailed_sandbox_reach_the_grader():
    """An unjailed sandbox is reaped when closed, so its CPU time is among the grader's
    children's (what ``simlab bench grade`` counts for grading without the jail), not lost to
    whichever process inherits it."""
    before = _children_cpu()
    with Sandbox(timeout=30, jailed=False) as plain:
        # Much memory to give back: the sandbox takes a while to end.
        assert plain.exec_cell(0, "import time\nheap = b'x' * 300 * 1024**2\n").status == "ok"
        assert plain.exec_cell(1, _BURN).status == "ok"
    assert _children_cpu() - before >= 0.5


@pytest.mark.jail
def test_does_a_cell_that_raises_only_on_the_checks_line_say_why(tmp_path):
    """A learner's cell runs twice after the split: in the notebook's run, then on the checks'
    line. One that raises only the second time (here: it makes a file of the jail's own /tmp
    that the run's copy made first; in life, a limit both lines share) leaves its names
    undefined for the checks, and the feedback says which error, not only "not defined"."""
    from simlab.grading.grader import grade_notebook
    from simlab.grading.notebook import notebook_text
    from tests.submissions.cases import answer_source

    once = 'open("/tmp/made-once", "x").close()\n'
    answer = once + answer_source("solutions", FENCING, "cancel-limits")
    path = tmp_path / FENCING
    path.write_text(notebook_text(_fencing({"cancel-limits": answer})))
    grade = grade_notebook(path, timeout=20)
    points = {q.id: q.points for q in grade.questions}
    assert points == {"cancel-after-claim": 6, "cancel-after-first-step": 6, "cancel-limits": 0}
    said = {q.id: q.feedback for q in grade.questions}["cancel-limits"]
    assert said.startswith("not defined: `what_cancel_does`: a cell raised an error"), said
    assert "FileExistsError" in said, said


@pytest.mark.jail
def test_is_a_cell_that_raised_in_the_run_too_not_blamed_for_another_questions_name(tmp_path):
    """A cell that raises on both lines is told by the run's verdict, for its own question; a
    name of another question that was simply never defined is told as "not defined" alone."""
    from simlab.grading.grader import grade_notebook
    from simlab.grading.notebook import notebook_text

    nb = _fencing({"cancel-after-claim": 'raise RuntimeError("boom")\n', "cancel-limits": "pass\n"})
    path = tmp_path / FENCING
    path.write_text(notebook_text(nb))
    said = {q.id: q.feedback for q in grade_notebook(path, timeout=20).questions}
    assert "RuntimeError: boom" in said["cancel-after-claim"], said
    assert said["cancel-limits"] == "not defined: `what_cancel_does`", said


@pytest.mark.jail
@pytest.mark.parametrize("elsewhere", [0, 1])
def test_is_the_grader_replaced_by_a_call_seen_here_and_in_another_process(box, elsewhere):
    # In the other process the reply is written there: a replaced encoder could forge it.
    cell = (
        "import simlab.grading.sandbox.wire as w\n"
        "def f(x):\n"
        "    w.encode = lambda value, *a, **k: 'forged'\n"
        "    return x\n"
    )
    assert box.exec_cell(0, cell).status == "ok"
    with pytest.raises(SandboxLost, match=r"replaced the grader's .*wire\.encode"):
        box.call("f", 1, elsewhere=elsewhere)
