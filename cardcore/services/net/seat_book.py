"""The seats this client has claimed: each seat's token, by server and table.

A seat link's invite claims the seat once; the server answers with the seat's own token,
and the client comes back with it (docs/protocol.md, "Seats"). The terminal client keeps
the tokens in one file under the data dir (``seats/tokens.json``, readable by its owner
only); ``CARDCORE_SEATS_DIR`` names another directory (``cardcore web`` gives each browser
its own, reached through a key kept in that browser's storage).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

from cardcore.services.files import data_dir, write_atomic

#: The environment variable naming the directory of the tokens (else the data dir's).
SEATS_ENV = "CARDCORE_SEATS_DIR"
#: Tables remembered at most (the oldest go first).
MAX_SEATS = 500
_FILE = "tokens.json"
#: The server last joined from the launcher (the join box offers it again).
_LAST_SERVER = "last_server"


def seats_dir() -> Path:
    given = os.environ.get(SEATS_ENV)
    return Path(given) if given else data_dir() / "seats"


class SeatBook:
    """Tokens by server, table and the invite that claimed the seat (so one machine may
    hold two seats of a table, as two players at one desk do). A file that cannot be read
    is a book with nothing in it: the seat is claimed again with a re-issued invite."""

    def __init__(self, root: Path | None = None) -> None:
        self.path = (root or seats_dir()) / _FILE

    def get(self, server: str, code: str, invite: str) -> str | None:
        """The token of the seat ``invite`` claimed, if it is kept here."""
        token = self._read().get(_key(server, code, invite))
        return token if isinstance(token, str) else None

    def put(self, server: str, code: str, invite: str, token: str) -> None:
        tokens = self._read()
        key = _key(server, code, invite)
        tokens.pop(key, None)
        tokens[key] = token
        for old in list(tokens)[:-MAX_SEATS]:
            del tokens[old]
        self._write(tokens)

    def forget(self, server: str, code: str, invite: str) -> None:
        self.forget_entry(_key(server, code, invite))

    def at_table(self, server: str, code: str) -> list[tuple[str, str]]:
        """The seats of table ``code`` kept here, the latest first: (their entry, token)."""
        prefix = _key(server, code, "")[:-32]
        return [(key, token) for key, token in reversed(self._read().items())
                if key.startswith(prefix) and isinstance(token, str)]

    def forget_entry(self, key: str) -> None:
        tokens = self._read()
        if tokens.pop(key, None) is not None:
            self._write(tokens)

    def last_server(self) -> str | None:
        """The server last joined (``remember_server``), if any."""
        try:
            text = (self.path.parent / _LAST_SERVER).read_text(encoding="utf-8").strip()
        except (OSError, ValueError):
            return None
        return text or None

    def remember_server(self, url: str) -> None:
        with contextlib.suppress(OSError):
            write_atomic(self.path.parent / _LAST_SERVER, url + "\n")

    def _read(self) -> dict[str, object]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, tokens: dict[str, object]) -> None:
        with contextlib.suppress(OSError):  # not kept: a re-issued invite claims the seat anew
            write_atomic(self.path, json.dumps(tokens, indent=0))


def _key(server: str, code: str, invite: str) -> str:
    """The invite itself is not written: its hash names the seat it claimed."""
    return f"{server.rstrip('/')} {code} {hashlib.sha256(invite.encode()).hexdigest()[:32]}"
