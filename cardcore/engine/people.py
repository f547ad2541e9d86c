"""People, not seats: who a seat's player is, across matches (docs/library.md, "People").

A record may keep a **person key** per seat (``match_start``'s ``people``, a ``seat``
event's ``person``): a short text ``KIND:HEX``:

- ``p:`` + 16 hex digits: a local **profile** (``cardcore.services.profiles``), a stable
  random id kept with the person's name in the data dir. Wherever the library was played,
  the profile is the person.
- ``s:`` + 16 hex digits: a seat at a server, derived from the seat's token
  (``seat_key``; never the token itself, which claims the seat). It tells apart two people
  of one table (and its rematches) who chose one name; at a server a person is otherwise
  the name they chose (a new token at each table), so ``person_id`` reads such a key as
  the name.

A seat without a key (every record before keys, a bot, a seat nobody named) is the person
of its name, as before. ``person_id`` is the one rule; ``distinct_name`` gives a second
person choosing a name already at the table "Ann (2)"; ``told_apart`` labels people who
share a name ("Ann · 3f9c"). Leagues and statistics use these, nothing else.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated

import pydantic

from cardcore.engine.names import MAX_NAME_CHARS

#: A person key: a kind letter, a colon, 16 hex digits (64 bits).
PERSON_KEY = re.compile(r"[a-z]:[0-9a-f]{16}")
PROFILE, SEAT = "p", "s"


def check_key(text: str) -> str:
    """``text`` if it is a person key (``PERSON_KEY``); ValueError in one line otherwise."""
    if not isinstance(text, str) or not PERSON_KEY.fullmatch(text):
        raise ValueError("a person key is a letter, ':' and 16 hex digits (e.g. p:3f9c0a...)")
    return text


#: A person key as a record, a snapshot or the profiles file holds it.
PersonKey = Annotated[str, pydantic.AfterValidator(check_key)]


def profile_key(hex_digits: str) -> str:
    """The key of a local profile whose random id is ``hex_digits`` (16 hex digits)."""
    return check_key(f"{PROFILE}:{hex_digits}")


def seat_key(token: str) -> str:
    """The person key of a server seat claimed with ``token``: a domain-separated SHA-256
    (not the stored hash of the token, which is SHA-256 of the token alone), 64 bits."""
    digest = hashlib.sha256(b"cardcore person key\x00" + token.encode()).hexdigest()
    return f"{SEAT}:{digest[:16]}"


def person_id(name: str, key: str | None) -> str:
    """Who a seat's player is across matches: a profile's key, else the name (a seat key
    is the table's alone: at a server a person is the name they chose)."""
    if key is not None and key.startswith(PROFILE + ":"):
        return key
    return "name:" + name


def short(key: str | None) -> str:
    """Four hex digits of a key, to tell two people of one name apart on a screen."""
    return key.partition(":")[2][:4] if key else ""


def distinct_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or "name (2)", "name (3)", ... when another seat of the table has it
    (shortened to fit ``MAX_NAME_CHARS``)."""
    used = set(taken)
    if name not in used:
        return name
    n = 2
    while True:
        tail = f" ({n})"
        candidate = name[:MAX_NAME_CHARS - len(tail)].rstrip() + tail
        if candidate not in used:
            return candidate
        n += 1


def told_apart(people: Mapping[str, str]) -> dict[str, str]:
    """Each person's label (``people``: person id -> name): the name, or "name · 3f9c" for
    the people of a name that several people share (one of them without a key: the name)."""
    by_name: dict[str, list[str]] = {}
    for pid, name in people.items():
        by_name.setdefault(name, []).append(pid)
    out = {}
    for pid, name in people.items():
        shared = len(by_name[name]) > 1 and pid.startswith(PROFILE + ":")
        out[pid] = f"{name} · {short(pid)}" if shared else name
    return out


def seat_people(names: Sequence[str], people: Sequence[str | None] | None) -> list[str]:
    """The person id of every seat (``person_id``); ``people`` may be missing or short."""
    keys = list(people or [])
    return [person_id(name, keys[i] if i < len(keys) else None) for i, name in enumerate(names)]


__all__ = ["PERSON_KEY", "PersonKey", "check_key", "distinct_name", "person_id", "profile_key",
           "seat_key", "seat_people", "short", "told_apart"]
