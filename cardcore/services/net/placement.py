"""Which server process holds a table: one rule, read by the servers (which tables to
hold, to take over, to hand back) and by the proxy's configuration (where a connection to
``/play/CODE`` goes), so the two never disagree (docs/hosting.md, "Several server processes").

The servers of one card room are numbered 0..n-1 (their *slots*). A table code's **home**
is the slot its first letter names (the letter's index, mod n): a server makes codes of
its own slot only, so a new table lives where it was made and codes stay unique across
servers (the library checks each new code, whichever server drew it). A code's **chain**
is its home, then the slots after it in order, wrapping round: the table is held by the
first live server of its chain. The proxy's backend for home k lists k, then k+1, k+2, ...
as backups in the same order (HAProxy sends to the first backup that is up), and a server
takes over a dead server's tables, and hands them back once their home is up again, by the
same order.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Collection
from urllib.parse import urlsplit, urlunsplit

#: The path of a play connection ends with this and the table's code: ``/play/KQX-482``.
PLAY = "play"
#: The path the proxy's health checks ask for: answered ``200`` by a server that runs.
HEALTH = "/health"
_PLAY_PATH = re.compile(r"/play/([A-Za-z]{3}-[0-9]{3})/?$")
#: Slots at most: one first letter each.
MAX_SLOTS = len(string.ascii_uppercase)


def home(code: str, slots: int) -> int:
    """The slot whose server makes and normally holds table ``code``."""
    return (ord(code[0].upper()) - ord("A")) % slots


def chain(code: str, slots: int) -> list[int]:
    """The slots that hold ``code``, in order of preference: its home, then the next ones."""
    return successors(home(code, slots), slots)


def successors(slot: int, slots: int) -> list[int]:
    """``slot``, then the slots after it in order, wrapping round."""
    return [(slot + i) % slots for i in range(slots)]


def holder(code: str, slots: int, live: Collection[int]) -> int | None:
    """The slot that should hold ``code`` when the servers of ``live`` run: the first live
    one of its chain (None: none runs)."""
    return next((slot for slot in chain(code, slots) if slot in live), None)


def letters(slot: int, slots: int) -> str:
    """The first letters of the codes ``slot`` makes."""
    return "".join(c for c in string.ascii_uppercase if home(c, slots) == slot)


def new_code(slot: int, slots: int, rng: random.Random) -> str:
    """A code whose home is ``slot`` (``ABC-123``); whether it is free is the caller's."""
    first = rng.choice(letters(slot, slots))
    rest = "".join(rng.choice(string.ascii_uppercase) for _ in range(2))
    return f"{first}{rest}-{rng.randrange(1000):03d}"


def check_slots(slot: int, slots: int) -> None:
    """ValueError, one line, unless ``slot`` is one of ``slots`` servers (1..26)."""
    if not 1 <= slots <= MAX_SLOTS:
        raise ValueError(f"a card room has 1 to {MAX_SLOTS} servers, not {slots}")
    if not 0 <= slot < slots:
        raise ValueError(f"the slot of one of {slots} servers is 0 to {slots - 1}, not {slot}")


def table_of(path: str) -> str | None:
    """The table a connection's path names (``.../play/KQX-482``; any case), or None for a
    lobby connection (any other path)."""
    found = _PLAY_PATH.search(urlsplit(path).path)
    return found[1].upper() if found else None


def play_url(server: str, code: str) -> str:
    """The address of table ``code``'s play connection on ``server`` (``ws://HOST:PORT``,
    ``wss://HOST/PREFIX``): ``ws://HOST:PORT/play/KQX-482``."""
    parts = urlsplit(server)
    return urlunsplit((parts.scheme, parts.netloc, f"{parts.path.rstrip('/')}/{PLAY}/{code}", "", ""))
