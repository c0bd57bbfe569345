"""What can code inside the grading jail see and do? The jail, the frames and the exchange folder,
probed directly (no Jupyter kernel): one probe script answers most questions in one jail run."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from simlab.grading.sandbox import frames
from simlab.grading.sandbox.exchange import MAX_FILE, Exchange
from simlab.grading.sandbox.jail import (
    SANDBOX_UID,
    Jail,
    Limits,
    lifeline,
    make_shared,
    require,
)
from simlab.grading.sandbox.supervisor import Sandbox, SandboxLost

# Process counts and leftovers are per user nobody across the machine: another test's jails
# running beside these would be counted with them. make test runs this module alone.
pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parents[2]
MARKER = "simlab-jail-probe-marker"

PROBE = textwrap.dedent(
    """
    import json, os, resource, socket, subprocess, sys
    root, shared, port, marker = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    facts = {"uid": os.getuid(), "gid": os.getgid(), "pid": os.getpid()}
    facts["top"] = sorted(os.listdir("/"))
    facts["procs"] = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    facts["seen"] = {p: os.path.exists(os.path.join(root, p)) for p in
                     ("solutions", "tests", "exercises", "README.md", ".git")}
    checks = os.path.join(root, "simlab", "grading", "checks")
    facts["checks"] = os.listdir(checks) if os.path.isdir(checks) else None
    facts["home"] = os.listdir(sys.argv[5]) if os.path.isdir(sys.argv[5]) else None
    facts["interfaces"] = [name for _, name in socket.if_nameindex()]
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        facts["host_loopback"] = "connected"
    except OSError as exc:
        facts["host_loopback"] = type(exc).__name__
    raised = {}
    for name in ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_NOFILE"):
        what = getattr(resource, name)
        soft, hard = resource.getrlimit(what)
        try:
            resource.setrlimit(what, (hard + 1, hard + 1))
            raised[name] = "raised"
        except (ValueError, OSError):
            raised[name] = [soft, hard]
    facts["limits"] = raised
    writes = {}
    for target in (os.path.join(sys.prefix, "lib", "evil.pth"),
                   os.path.join(root, "simlab", "evil.py"), "/tmp/scratch.txt",
                   os.path.join(shared, "ok.txt"), "/usr/evil"):
        try:
            with open(target, "w") as f:
                f.write("x")
            writes[target] = "written"
        except OSError as exc:
            writes[target] = type(exc).__name__
    facts["writes"] = writes
    facts["userns"] = subprocess.run(["unshare", "--user", "true"], capture_output=True).returncode
    sleeper = [sys.executable, "-c", "import time; time.sleep(300)", marker]
    subprocess.Popen(sleeper, start_new_session=True)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, sleeper)
        os._exit(0)
    print(json.dumps(facts), flush=True)
    sys.stdin.read()  # stay alive until the test has looked at the host side
    """
)


def _with_marker(marker: str = MARKER) -> list[tuple[int, int]]:
    """(pid, host uid) of every process whose last argument is ``marker`` (the sleepers)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        if cmdline.rstrip(b"\0").split(b"\0")[-1] == marker.encode():
            uid = int(
                next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1]
            )
            found.append((int(entry), uid))
    return found


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    """Run PROBE in one jail; yield (facts, host view while it runs, shared folder)."""
    require()
    shared = make_shared(tmp_path_factory.mktemp("shared"))
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    argv = [sys.executable, "-c", PROBE, str(ROOT), shared, str(port), MARKER, str(Path.home())]
    proc = subprocess.Popen(
        Jail(shared=[shared]).command(argv),
        pass_fds=(lifeline(),),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        facts = json.loads(proc.stdout.readline())
        time.sleep(0.3)
        host = _with_marker()
        yield facts, host, shared
    finally:
        proc.stdin.close()
        proc.wait(30)
        listener.close()


@pytest.mark.jail
def test_is_the_jail_user_nobody_inside_and_on_the_host(probe):
    facts, host, _ = probe
    assert (facts["uid"], facts["gid"]) == (SANDBOX_UID, SANDBOX_UID)
    assert host, "the probe's sleeping children should be visible from the host"
    expected = SANDBOX_UID if os.geteuid() == 0 else os.geteuid()
    assert {uid for _, uid in host} == {expected}


@pytest.mark.jail
def test_does_the_jail_see_only_the_runtime_and_simlab(probe):
    facts, _, shared = probe
    system = {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "proc", "dev", "tmp"}
    bound = {Path(p).parts[1] for p in [*Jail().sources, shared]}
    assert set(facts["top"]) <= system | bound, facts["top"]
    assert facts["seen"] == dict.fromkeys(facts["seen"], False), facts["seen"]
    assert facts["checks"] == [], "the hidden checks' folder must look empty"
    home_inside = facts["home"] or []
    runtime = Path(os.path.realpath(sys.base_prefix))
    allowed = (
        {runtime.relative_to(Path.home()).parts[0]} if Path.home() in runtime.parents else set()
    )
    assert set(home_inside) <= allowed, home_inside


@pytest.mark.jail
def test_are_the_graders_processes_and_network_out_of_reach(probe):
    facts, _, _ = probe
    assert facts["procs"] == [1] == [facts["pid"]], "only the jail's own process is visible"
    assert facts["interfaces"] == ["lo"]
    assert facts["host_loopback"] != "connected"


@pytest.mark.jail
def test_are_the_limits_hard_and_the_sources_read_only(probe):
    facts, _, shared = probe
    limits = Limits()
    expected = {
        "RLIMIT_AS": limits.memory,
        "RLIMIT_CPU": limits.cpu,
        "RLIMIT_NPROC": limits.processes,
        "RLIMIT_FSIZE": limits.file_size,
        "RLIMIT_NOFILE": limits.open_files,
    }
    assert facts["limits"] == {k: [v, v] for k, v in expected.items()}
    writes = facts["writes"]
    # The scratch file and the shared folder are writable; everything else (the venv, the
    # checkout, /usr) is not, even when the checkout itself lies under /tmp (a CI clone).
    allowed = ("/tmp/scratch.txt", str(Path(shared, "ok.txt")))
    assert [writes[k] for k in allowed] == ["written"] * 2
    others = {k: v for k, v in writes.items() if k not in allowed}
    assert set(others.values()) <= {"OSError", "PermissionError", "FileNotFoundError"}, others
    assert not (ROOT / "simlab" / "evil.py").exists()
    assert Path(shared, "ok.txt").read_text() == "x"
    assert facts["userns"] != 0, "a new user namespace inside the jail must be refused"


@pytest.mark.jail
@pytest.mark.parametrize("ending", ["exits", "killed"])
def test_does_every_process_of_a_jail_die_with_it(ending):
    marker = f"{MARKER}-{ending}"
    spawn = (
        "import os, subprocess, sys, time\n"
        f"sleeper = [sys.executable, '-c', 'import time; time.sleep(300)', {marker!r}]\n"
        "subprocess.Popen(sleeper, start_new_session=True)\n"
        "if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        "        os.execv(sys.executable, sleeper)\n    os._exit(0)\n"
        "print('up', flush=True)\n"
        # the jail's own process ends only when told (or killed): the sleepers are counted first
        "sys.stdin.readline()\n"
    )
    proc = subprocess.Popen(
        Jail().command([sys.executable, "-c", spawn]),
        pass_fds=(lifeline(),),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stdout.readline() == b"up\n"
    deadline = time.monotonic() + 20  # on a loaded machine a sleeper may not have exec'd yet
    while len(_with_marker(marker)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(_with_marker(marker)) == 2
    if ending == "killed":
        os.killpg(proc.pid, 9)  # what the grader does when a sandbox hangs
    else:
        proc.stdin.write(b"exit\n")
        proc.stdin.flush()
    proc.wait(30)
    deadline = time.monotonic() + 5
    while _with_marker(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _with_marker(marker) == []


@pytest.mark.jail
def test_one_jails_fork_bomb_does_not_starve_another():
    bomb = (
        "import os, sys, time\nn = 0\nwhile n < 200:\n    try:\n        pid = os.fork()\n"
        "    except OSError:\n        break\n    if pid == 0:\n        time.sleep(20)\n"
        "        os._exit(0)\n    n += 1\nprint(n, flush=True)\nsys.stdin.read()\n"
    )
    small = Limits(processes=16)
    bomb_jail = subprocess.Popen(
        Jail(limits=small).command([sys.executable, "-c", bomb]),
        pass_fds=(lifeline(),),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        forked = int(bomb_jail.stdout.readline())
        assert 5 <= forked < 16, "the process limit holds inside the bomb's jail"
        other = subprocess.run(
            Jail(limits=small).command([sys.executable, "-c", bomb.replace("200", "8")]),
            pass_fds=(lifeline(),),
            input="",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert other.stdout.split() == ["8"], "another jail still forks while the bomb holds"
    finally:
        bomb_jail.stdin.close()
        bomb_jail.wait(30)


@pytest.mark.jail
def test_is_a_cpu_hog_killed_at_its_cpu_limit():
    started = time.monotonic()
    done = subprocess.run(
        Jail(limits=Limits(cpu=1)).command([sys.executable, "-c", "while True: pass"]),
        pass_fds=(lifeline(),),
        capture_output=True,
        timeout=60,
    )
    # it ran (a jail that refused to start would end at once) and was killed at its limit
    assert done.returncode != 0 and 0.9 < time.monotonic() - started < 30


# ------------------------------------------------------------------------ frames ------------


def _pipe_with(data: bytes) -> int:
    r, w = os.pipe()
    os.write(w, data)
    threading.Timer(5, os.close, (w,)).start()
    return r


def test_is_half_a_frame_a_quick_partial_not_a_hang():
    r = _pipe_with(frames.HEADER.pack(100) + b'{"ok"')
    started = time.monotonic()
    with pytest.raises(frames.FrameError) as caught:
        frames.read_frame(r, time.monotonic() + 0.5, 1000)
    assert caught.value.kind == "partial" and time.monotonic() - started < 2
    os.close(r)


def test_is_an_oversized_frame_refused_before_reading_it():
    r = _pipe_with(frames.HEADER.pack(10**9))
    with pytest.raises(frames.FrameError) as caught:
        frames.read_frame(r, time.monotonic() + 5, 1000)
    assert caught.value.kind == "oversized" and "more than 1,000" in caught.value.reason
    os.close(r)


def test_is_a_replys_nesting_read_from_its_bytes_as_its_value_has_it():
    # Brackets inside strings (escaped quotes and backslashes around them) are not nesting.
    value = {"a": [[1, "[[[{"], {"b": ['"]]\\', []]}], "c": "\\["}
    payload = json.dumps(value).encode()
    assert frames.nesting(payload, 160) == frames.measure(value, 160, 1 << 62)[0] == 5
    assert frames.nesting(payload, 3) == 4  # counted only past the limit
    assert frames.nesting(b"[" * 200 + b"]" * 200, 160) == 161


@pytest.mark.parametrize(
    ("payload", "kind"),
    [
        (b"\xff\xfe not utf-8", "malformed"),
        (b'{"ok": tru', "malformed"),
        (b"[" * 300 + b"]" * 300, "deep"),
        (b"[" * 100_000 + b"]" * 100_000, "deep"),
    ],
)
def test_are_malformed_and_deep_frames_refused(payload, kind):
    with pytest.raises(frames.FrameError) as caught:
        frames.parse_frame(payload)
    assert caught.value.kind == kind


def test_do_frames_round_trip_and_writes_have_a_deadline():
    r, w = os.pipe()
    frames.send_frame(w, b'{"ok": true}', time.monotonic() + 1)
    assert frames.parse_frame(frames.read_frame(r, time.monotonic() + 1, 100)) == {"ok": True}
    os.set_blocking(w, False)  # as the grader's request pipe is
    os.write(w, b"y" * 60_000)  # the pipe is nearly full: a blocking write would hang
    started = time.monotonic()
    with pytest.raises(frames.FrameError) as caught:
        frames.send_frame(w, b"x" * 1_000_000, time.monotonic() + 0.3)  # nobody reads
    assert caught.value.kind == "timeout" and time.monotonic() - started < 2
    os.close(r)
    os.close(w)


@pytest.mark.jail
@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("os.write(fd, HEADER.pack(1000) + b'{\"ok\": true')", "incomplete reply"),
        ("os.write(fd, HEADER.pack(10**9))", "more than"),
        ("body = b'[' * 5000 + b']' * 5000\nos.write(fd, HEADER.pack(len(body)) + body)", "deep"),
        ("os.write(fd, HEADER.pack(4) + b'nope')", "malformed"),
    ],
)
def test_does_a_forged_frame_cost_the_sandbox_and_not_the_grader(source, words):
    cell = (
        "import os, struct\nHEADER = struct.Struct('>I')\nfor fd in range(3, 64):\n"
        "    try:\n        os.fstat(fd)\n    except OSError:\n        continue\n"
        "    try:\n" + textwrap.indent(source, "        ") + "\n    except OSError:\n        pass\n"
    )
    with Sandbox(timeout=2) as box:
        started = time.monotonic()
        result = box.exec_cell(0, cell)
        assert result.status in ("dead", "timeout") and words in result.detail, result
        assert time.monotonic() - started < 10
        with pytest.raises(SandboxLost):
            box.call("anything")


# ------------------------------------------------------------------------ exchange ----------


def test_does_the_exchange_refuse_links_fifos_and_huge_files(tmp_path):
    secret = tmp_path / "graders-secret.txt"
    secret.write_text("secret")
    exchange = Exchange()
    try:
        with exchange.folder() as folder:
            os.symlink(secret, Path(folder, "link.sqlite"))
            os.mkfifo(Path(folder, "fifo.sqlite"))
            with open(Path(folder, "huge.sqlite"), "wb") as f:
                f.truncate(MAX_FILE + 1)
            Path(folder, "ok.sqlite").write_bytes(b"data")
            Path(folder, "ok.sqlite-wal").symlink_to(secret)
            for name in ("link.sqlite", "fifo.sqlite", "huge.sqlite", "missing.sqlite"):
                with exchange.copy_out(str(Path(folder, name))) as copy:
                    assert copy is None, name
            with exchange.copy_out(str(Path(folder, "ok.sqlite"))) as copy:
                assert Path(copy).read_bytes() == b"data"
                assert not Path(copy + "-wal").exists(), "a linked -wal is not followed"
            os.symlink(secret, Path(folder, "taken.sqlite"))
            with pytest.raises(OSError):
                exchange.copy_in(
                    str(tmp_path / "graders-secret.txt"), str(Path(folder, "taken.sqlite"))
                )
            assert secret.read_text() == "secret"
        with exchange.folder() as folder:
            inner = Path(folder, "sub")
            inner.mkdir()
            (inner / "f.sqlite").write_bytes(b"mine")
            os.rename(inner, Path(folder, "moved"))
            os.symlink(tmp_path, inner)  # the folder swapped for a link to the grader's files
            with exchange.copy_out(str(inner / "graders-secret.txt")) as copy:
                assert copy is None
        with pytest.raises(ValueError):
            exchange.copy_in(str(secret), str(tmp_path / "outside.sqlite"))
    finally:
        exchange.close()
    assert not Path(exchange.path).exists() and secret.read_text() == "secret"


@pytest.mark.jail
def test_does_require_refuse_a_jail_that_cannot_import_simlab(monkeypatch):
    """The probe runs this Python importing the sandbox's child module inside a jail. A jail that
    hid the checkout (a private /tmp mounted over a clone under /tmp did, in CI) used to pass the
    old ``/bin/true`` probe and then made every question of a batch wait for a sandbox that never
    started; now ``require`` names the failed import in one line."""
    from simlab.grading.sandbox import jail

    require()
    jail._probe.cache_clear()
    assert jail._probe(jail._tool("bwrap")) is None  # the real probe passes here
    monkeypatch.setattr(jail, "_PROBE", [sys.executable, "-c", "import simlab_hidden_by_the_jail"])
    jail._probe.cache_clear()
    try:
        problem = jail._probe(jail._tool("bwrap"))
    finally:
        jail._probe.cache_clear()
    assert problem is not None
    assert "simlab_hidden_by_the_jail" in problem and "\n" not in problem


#: Files every jail sees: simlab's source, the runtime, /usr, /etc, a device and its own stdout.
LOCKED = ["{simlab}", "{os_py}", "/usr/bin/env", "/etc/ld.so.cache", "/dev/null", "/dev/urandom"]

HOLD = textwrap.dedent(
    """
    import fcntl, os, sys, time
    held = []
    for path in sys.argv[1:]:
        f = open(path, "rb")
        fcntl.lockf(f, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, 7)  # a read lock on a read-only file
        held.append(f)
    out = open("/dev/null", "wb")
    fcntl.lockf(out, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 9)
    fcntl.lockf(1, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 9)
    fcntl.flock(held[0], fcntl.LOCK_SH | fcntl.LOCK_NB)
    os.write(int(os.environ["READY"]), b"held")
    time.sleep(30)
    """
)

PROBE_LOCKS = textwrap.dedent(
    """
    import fcntl, json, os, struct, sys
    def seen(f, start):
        asked = struct.pack("hhqqi", fcntl.F_WRLCK, 0, start, 1, 0)
        return struct.unpack("hhqqi", fcntl.fcntl(f, fcntl.F_GETLK, asked))[0] != fcntl.F_UNLCK
    found = {p: seen(open(p, "rb"), 7) for p in sys.argv[1:]}
    found["/dev/null (write)"] = seen(open("/dev/null", "rb"), 9)
    found["stdout"] = seen(1, 9)  # both jails' stdout is the grader's /dev/null
    try:
        fcntl.flock(open(sys.argv[1], "rb"), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        found["flock"] = True
    os.write(int(os.environ["REPORT"]), json.dumps(found).encode())
    """
)


@pytest.mark.jail
def test_can_two_jails_pass_nothing_through_locks_on_what_both_see():
    require()
    if os.geteuid() != 0:
        pytest.skip("jails get inodes of their own only when the grader is root")
    import simlab

    paths = [p.format(simlab=simlab.__file__, os_py=os.__file__) for p in LOCKED]
    ready_r, ready_w = os.pipe()
    holder = subprocess.Popen(
        Jail(env={"READY": str(ready_w)}).command([sys.executable, "-c", HOLD, *paths]),
        pass_fds=(ready_w, lifeline()),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    os.close(ready_w)
    try:
        assert os.read(ready_r, 4) == b"held", "the holder could not take its locks"
        report_r, report_w = os.pipe()
        probe = subprocess.run(
            Jail(env={"REPORT": str(report_w)}).command(
                [sys.executable, "-c", PROBE_LOCKS, *paths]
            ),
            pass_fds=(report_w, lifeline()),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=60,
        )
        os.close(report_w)
        with os.fdopen(report_r) as report:
            text = report.read()
        assert probe.returncode == 0 and text, probe.returncode
        found = json.loads(text)
        assert not any(found.values()), found
    finally:
        os.close(ready_r)
        os.killpg(holder.pid, 9)
        holder.wait()


_LEAVE = textwrap.dedent(
    """
    import os, signal, sys
    from simlab.grading.sandbox.cgroup import Group
    from simlab.grading.sandbox.exchange import Exchange
    if sys.argv[1] == "late":  # a grading thread starting a jail after the exit's release ran
        import atexit
        atexit.register(lambda: print(Exchange().path, flush=True))  # runs after the release
    exchange, group = Exchange(), Group.make(processes=8, memory=2**28)
    print(exchange.path, *(group.paths.values() if group else ()), flush=True)
    if sys.argv[1] == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    # "exit": the process ends with its exchange still open, as when a grading thread is
    # abandoned by Ctrl-C
    """
)


def _mounted(path: str) -> bool:
    with open("/proc/self/mounts") as f:
        return any(line.split()[1] == path for line in f)


def _leave(how: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _LEAVE, how], capture_output=True, text=True, timeout=60
    )
    assert done.stdout, done.stderr
    return done.stdout.split()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root mounts tmpfs and makes control groups")
def test_does_a_grader_that_ends_or_is_killed_leave_no_mount_or_group_behind():
    folder, *_ = _leave("exit")
    assert not _mounted(folder) and not os.path.exists(folder)
    folder, *groups = _leave("kill")
    assert _mounted(folder) and all(map(os.path.isdir, groups))
    _leave("exit")  # the next grader removes what a killed one left
    assert not _mounted(folder) and not os.path.exists(folder)
    assert not any(map(os.path.exists, groups))


@pytest.mark.skipif(os.geteuid() != 0, reason="only root mounts tmpfs")
def test_is_no_folder_capped_after_the_exit_has_released_them():
    first, *_, late = _leave("late")
    assert not _mounted(first) and not _mounted(late)
