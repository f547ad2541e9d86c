"""A server table's seats and the keys that claim them (docs/protocol.md, "Seats").

A human seat has an **invite** (handed out by the table's owner: four words read aloud,
``invites``) and, once claimed, a **token** (the claimer's own key for coming back, 128
random bits). The server keeps only their SHA-256
and compares in constant time. An invite claims once; the owner may re-issue it, which
voids the token and leaves the seat unclaimed.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardcore.engine.match_setup import HUMAN
from cardcore.services.net.invites import canonical, new_invite


class Peer(Protocol):
    """A connection as a table sees it."""

    name: str | None
    #: The language its texts are rendered in (``cardcore.language``; English by default).
    language: str
    #: Where it connects from, as the limits per address count it (its bots' share of work).
    address: str
    #: The codes of the tables this connection is at: a table adds and removes its own, so
    #: whatever ends the connection leaves every one of them (``Server.lost``).
    tables: set[str]

    @property
    def open(self) -> bool:
        """The connection can still be written to."""

    def send(self, frame: bytes, after: int = 0) -> None:
        """Queue one frame, its JSON as UTF-8, to go once the library holds the writes
        numbered up to ``after`` (``persist.Gate``; never blocks)."""


def new_secret() -> str:
    """A token or an owner key: 128 random bits (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def matches(secret: str, digest: str | None) -> bool:
    return digest is not None and hmac.compare_digest(hash_secret(secret), digest)


@dataclass
class Seat:
    kind: str                       # "human" or a bot id
    invite_hash: str | None = None  # a human seat's invite (SHA-256)
    token_hash: str | None = None   # its claimer's token: set once the invite is used
    peer: Peer | None = None
    grace: asyncio.TimerHandle | None = field(default=None, repr=False)

    @property
    def human(self) -> bool:
        return self.kind == HUMAN

    @property
    def claimed(self) -> bool:
        return self.token_hash is not None

    def stop_grace(self) -> None:
        """The seat no longer waits for its player (back, re-issued, or the server stops)."""
        if self.grace is not None:
            self.grace.cancel()
            self.grace = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "invite": self.invite_hash, "token": self.token_hash}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        """A seat of a table row; a row from before invites (``secret``, ``joined``) keeps
        its secret as the invite, or as the token once a player had joined with it."""
        kind = data["kind"]
        if not isinstance(kind, str):
            raise TypeError("a seat's kind is not text")
        if "secret" in data:
            secret = _digest(data["secret"])
            return cls(kind, secret, secret if data.get("joined") else None)
        return cls(kind, _digest(data.get("invite")), _digest(data.get("token")))

    def claim(self) -> str:
        """The invite is used: a new token for its claimer (returned; only its hash kept)."""
        token = new_secret()
        self.token_hash = hash_secret(token)
        return token

    def invited_by(self, invite: str) -> bool:
        """``invite`` (as typed: ``invites.canonical``) is this seat's."""
        return matches(canonical(invite), self.invite_hash)

    def reissue(self) -> str:
        """A new invite (returned: four words); the old invite and the token stop working."""
        invite = new_invite()
        self.invite_hash, self.token_hash = hash_secret(invite), None
        return invite


def _digest(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) != 64:
        raise ValueError("a seat's key is not a SHA-256 digest")
    return value


def new_seats(kinds: list[str]) -> tuple[list[Seat], dict[int, str]]:
    """The seats of a new table, and each human seat's invite."""
    seats = [Seat(kind) for kind in kinds]
    return seats, {i: s.reissue() for i, s in enumerate(seats) if s.human}
