"""A real PostgreSQL server for the tests: Debian's binaries (``/usr/lib/postgresql/NN/bin``)
run on a data dir in a temporary directory, listening on 127.0.0.1 at a free port and on a
socket in that directory, as an unprivileged user (``initdb`` and ``pg_ctl`` refuse to run
as root, and CI runs as root: then as ``nobody``). One server a test process (each xdist
worker starts its own); each test gets a database of its own (``new_database``)."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

#: Bounds on the server's start and stop (seconds).
START_TIMEOUT = 30
STOP_TIMEOUT = 30
#: The server's superuser (trusted on its own socket and on 127.0.0.1 only).
USER = "cardcore"


def binaries() -> Path | None:
    """The newest installed server's bin directory (None: no server installed)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    def __init__(self, bin_dir: Path, durable: bool = False):
        """``durable``: fsync on, as in service (the tests turn it off: a test server's
        crash loses nothing anyone needs)."""
        self.durable = durable
        self.bin = bin_dir
        # not under pytest's tmp dir: that is root's (0700) and the server's user must reach it
        self.root = Path(tempfile.mkdtemp(prefix="cardcore-pg-"))
        self.data = self.root / "data"
        self.port = 0
        self._names = itertools.count(1)
        self._as: list[str] = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.root, nobody.pw_uid, nobody.pw_gid)
            self._as = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"]

    def _run(self, *args: str, timeout: float) -> None:
        done = subprocess.run([*self._as, *args], capture_output=True, text=True, timeout=timeout,
                              cwd=self.root, env={**os.environ, "LC_ALL": "C.UTF-8"})
        if done.returncode != 0:
            log = self.root / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr.strip()} {tail}")

    def start(self) -> None:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", USER, "--auth=trust",
                  "-E", "UTF8", "--no-sync", "--no-instructions", timeout=START_TIMEOUT)
        for attempt in range(3):  # a port taken between the probe and the start: another
            self.port = _free_port()
            options = f"-h 127.0.0.1 -p {self.port} -k {self.root} -c max_connections=60"
            if not self.durable:
                options += " -F -c full_page_writes=off"
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"),
                          "-o", options, "-w", "-t", str(START_TIMEOUT), "start", timeout=START_TIMEOUT + 5)
                return
            except RuntimeError:
                if attempt == 2:
                    raise

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w",
                      "-t", str(STOP_TIMEOUT), "stop", timeout=STOP_TIMEOUT + 5)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database on the server."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        return self.url(name)
