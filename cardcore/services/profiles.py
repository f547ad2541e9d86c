"""Local profiles: a person's name kept across matches (docs/library.md, "People").

A profile is a stable random id and a name, kept in ``profiles.json`` in the data dir
(``CARDCORE_HOME``), checked by pydantic when read: at most ``MAX_PROFILES`` profiles, each
name a ``Name``. A human seat given a name (the setup form, ``cardcore play --names``) is the
profile of that name, made the first time the name is used; its key
(``cardcore.engine.people.profile_key``) goes into the match's record, so the person is the
same in every match whatever seat they sit in. A seat left at its default name ("South",
"Player 2") is nobody in particular: no profile.

A file that is not a profiles file is set aside (``profiles.json.damaged-...``) when a new
profile is to be written, never overwritten. Two cardcores writing at once: the last write
wins (a profile made in the other is made again, with another id, the next time its name is
used).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Literal

import pydantic
from pydantic import ConfigDict, Field

from cardcore.engine.match_setup import Setup
from cardcore.engine.name_fields import Name
from cardcore.engine.people import distinct_name, profile_key
from cardcore.engine.seating import said_names
from cardcore.services import files

FILE_NAME = "profiles.json"
#: The profiles one data dir keeps at most (the least recently used go first).
MAX_PROFILES = 500
#: The file's size at most (500 profiles of 24-character names are about 50 kB).
MAX_FILE_BYTES = 256 * 1024

ProfileId = Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]


class Profile(pydantic.BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: ProfileId
    name: Name
    last_used: float = Field(0.0, ge=0)

    @property
    def key(self) -> str:
        """The person key the records keep (``people.profile_key``)."""
        return profile_key(self.id)


class ProfilesFile(pydantic.BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: Literal[1] = 1
    profiles: list[Profile] = Field(default_factory=list, max_length=MAX_PROFILES)


def profiles_path() -> Path:
    return files.data_dir() / FILE_NAME


def _read(path: Path) -> ProfilesFile | None:
    """The file (an empty one when there is none), None when it is no profiles file."""
    return files.read_model(path, ProfilesFile, "profiles file", MAX_FILE_BYTES)


def load() -> list[Profile]:
    """The profiles, the most recently used first (none when the file cannot be read)."""
    found = _read(profiles_path())
    return sorted(found.profiles if found else [], key=lambda p: -p.last_used)


def known_names() -> list[str]:
    """The profiles' names, the most recently used first (what the setup form offers)."""
    return [p.name for p in load()]


def remember(names: Sequence[str | None]) -> list[str | None]:
    """The person key of each name (None: no person), each name's profile made if it is
    new and marked as used now; the file written once. OSError when it cannot be written."""
    path = profiles_path()
    found = _read(path)
    if found is None:
        files.set_aside(path)
        found = ProfilesFile()
    now = time.time()
    by_name = {p.name: p for p in found.profiles}
    keys: list[str | None] = []
    for name in names:
        if name is None:
            keys.append(None)
            continue
        old = by_name.get(name)
        by_name[name] = Profile(id=old.id if old else secrets.token_hex(8), name=name, last_used=now)
        keys.append(by_name[name].key)
    kept = sorted(by_name.values(), key=lambda p: -p.last_used)[:MAX_PROFILES]
    files.write_atomic(path, ProfilesFile(profiles=kept).model_dump_json(indent=1) + "\n")
    return keys


def with_people(setup: Setup) -> Setup:
    """``setup`` with each seat's person key, for a match played here: a human seat named
    otherwise than its default name is the profile of its name (``remember``); bots and
    default names are nobody in particular. A second human seat given a name already
    taken at the table is "Ann (2)" (``people.distinct_name``), its own profile. As it is
    when it has keys already, or when the profiles cannot be written (play goes on, each
    person then the person of their name)."""
    if setup.people is not None or not setup.names:
        return setup
    seating = setup.game.seating(setup.players, setup.options, names=tuple(setup.names))
    defaults = setup.game.seating(setup.players, setup.options).names
    said = said_names(defaults)
    names = list(setup.names)
    chosen: list[str | None] = [None] * len(names)
    for i, kind in enumerate(setup.seats):
        if kind == "human" and names[i] not in (defaults[i], said[i]):
            names[i] = chosen[i] = distinct_name(names[i], names[:i])
    if not any(chosen):
        return setup
    try:
        people = remember(chosen)
    except OSError:
        return setup
    sides = setup.side_names
    if names != list(setup.names) and sides == list(seating.side_names):
        sides = None  # named after their players: after the names as told apart
    return replace(setup, names=names, side_names=sides, people=people)
