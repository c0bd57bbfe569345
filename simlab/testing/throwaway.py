"""A throwaway PostgreSQL server in a temporary folder, for tests, notebooks and benchmarks.

``with throwaway_postgres() as url:`` runs ``initdb`` into a new temporary folder, starts the
server on a free port of 127.0.0.1 (its Unix socket in the same folder), yields a
``postgresql://`` URL for it, then stops the server (``pg_ctl -m immediate``) and removes the
folder, also when the body raises. Nothing outside the folder is touched.

The server is for throwaway data only: ``fsync=off`` (a crash of the machine may lose or
corrupt it) and ``trust`` authentication on the loopback address.

``initdb`` refuses to run as root. As root, every server command runs as the ``postgres`` system
user (``runuser -u postgres --``) and the folder is handed to that user.

Binaries are looked up in ``pg_config --bindir``, then ``/usr/lib/postgresql/<version>/bin``
(newest first), then ``PATH``. :func:`find_postgres_bin` returns None when no ``initdb`` is
found; :func:`throwaway_postgres` then raises :class:`PostgresUnavailable` with one sentence
saying so.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["throwaway_postgres", "find_postgres_bin", "PostgresUnavailable"]

#: Server settings for a disposable server: no fsync, a socket in the folder, loopback only.
_SETTINGS = ("-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off")


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server binaries here, or the server could not be started."""


def find_postgres_bin() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``, or None if there is none."""
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10
            ).stdout.strip()
            if out:
                candidates.append(Path(out))

    def version(p: Path) -> tuple[int, str]:
        return (int(p.parent.name), "") if p.parent.name.isdigit() else (0, p.parent.name)

    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(Path(initdb).resolve().parent)
    for folder in candidates:
        if all((folder / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_server_user() -> list[str]:
    """The command prefix that runs a server command as a user ``initdb`` accepts."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    if runuser is None:
        raise PostgresUnavailable("running as root and 'runuser' is missing: cannot run initdb")
    try:
        import pwd

        pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresUnavailable(
            "running as root and there is no 'postgres' system user to run the server as"
        ) from None
    return [runuser, "-u", "postgres", "--"]


def _run(cmd: list[str], what: str, timeout: float) -> None:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PostgresUnavailable(f"{what} failed: {exc}") from None
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise PostgresUnavailable(f"{what} failed (exit {proc.returncode}): {' | '.join(tail)}")


def _initdb(prefix: list[str], bindir: Path, data: Path, timeout: float) -> None:
    cmd = [*prefix, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]
    cmd += ["-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"]
    _run(cmd, "initdb", timeout)


def _start(prefix: list[str], bindir: Path, folder: Path, timeout: float) -> int:
    """Start the server on a free port of 127.0.0.1, its socket in ``folder``; return the port.

    A free port may be taken between our probe and the server's bind: three tries.
    """
    log = folder / "server.log"
    for attempt in range(3):
        port = _free_port()
        options = ["-p", str(port), "-k", str(folder), "-c", "listen_addresses=127.0.0.1"]
        cmd = [*prefix, str(bindir / "pg_ctl"), "-D", str(folder / "data"), "-l", str(log)]
        cmd += ["-w", "-t", str(int(timeout)), "-o", " ".join([*options, *_SETTINGS]), "start"]
        try:
            _run(cmd, "pg_ctl start", timeout + 10)
            return port
        except PostgresUnavailable as exc:
            if attempt == 2:
                tail = (
                    log.read_text(errors="replace").strip().splitlines()[-2:]
                    if log.exists()
                    else []
                )
                raise PostgresUnavailable(" | ".join([str(exc), *tail])) from None
    raise AssertionError("unreachable")


def _stop(prefix: list[str], bindir: Path, data: Path, timeout: float) -> None:
    """Stop a server still running in ``data`` (its pid file says so); ignore failures."""
    if (data / "postmaster.pid").exists():
        with contextlib.suppress(PostgresUnavailable):
            cmd = [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w"]
            _run([*cmd, "stop"], "pg_ctl stop", timeout)


@contextlib.contextmanager
def throwaway_postgres(*, timeout: float = 60.0) -> Iterator[str]:
    """Start a disposable PostgreSQL server, yield its URL, stop it and delete its folder.

    The URL is ``postgresql://postgres@127.0.0.1:PORT/postgres`` (trust authentication, no
    password). Raises :class:`PostgresUnavailable` when there are no server binaries or the
    server does not start within ``timeout`` seconds. The server is stopped and the folder
    removed whatever happens, a failed start included.
    """
    bindir = find_postgres_bin()
    if bindir is None:
        raise PostgresUnavailable(
            "PostgreSQL server binaries (initdb, pg_ctl) not found: install the 'postgresql' "
            "package or put its bin folder on PATH"
        )
    prefix = _as_server_user()
    folder = Path(tempfile.mkdtemp(prefix="simlab-pg-"))
    try:
        if prefix:
            shutil.chown(folder, "postgres", "postgres")
        _initdb(prefix, bindir, folder / "data", timeout)
        port = _start(prefix, bindir, folder, timeout)
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        _stop(prefix, bindir, folder / "data", timeout)
        shutil.rmtree(folder, ignore_errors=True)
