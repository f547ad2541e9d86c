"""A bot with some of its settings changed, named by a spec: ``hard[exploration=0.5]``.

Tournaments and tuning runs play variants of a level without a plugin: the spec names
a registered bot and, in brackets, new values for settings the bot class lists in
``tunable``, comma-separated. A value is read as the setting's current type (an int, a
float, a string; ``none`` for a setting that may be off). The variant is a subclass made
where it is played, so a spec string is all a worker process needs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from cardcore.engine.bots.base import Bot

#: Settings are ASCII letters, digits and ``_.=, -``: a spec is printed in tables and kept in
#: records, so no control character, markup or look-alike digit (``int`` reads "٣" as 3).
_SPEC = re.compile(r"(?P<id>[A-Za-z0-9_.-]+)(?:\[(?P<params>[A-Za-z0-9_.=, -]*)\])?", re.ASCII)
#: A spec's length at most, as any seat's kind (``match_setup.SeatKind``).
MAX_SPEC = 64
#: A comma between specs: not one inside a spec's brackets (no ``]`` ahead before a ``[``).
_BETWEEN = re.compile(r",(?![^\[]*\])")


class VariantError(ValueError):
    """A spec that names no bot, or a setting the bot does not let change, or a bad value."""


def split_specs(text: str) -> list[str]:
    """A command line's comma-separated bots, each stripped: ``hard[a=1,b=2],medium`` is two."""
    return [part.strip() for part in _BETWEEN.split(text)]


def base_id(spec: str) -> str:
    """The registered bot a spec names (``hard`` for ``hard[exploration=0.5]``)."""
    return spec.split("[", 1)[0]


def resolve(bots: Mapping[str, type[Bot]], spec: str) -> type[Bot]:
    """The bot class ``spec`` names: a registered one, or a variant of one."""
    if spec in bots:
        return bots[spec]
    return _variant(bots.get(base_id(spec)), spec, sorted(bots))


def _variant(cls: type[Bot] | None, spec: str, known: list[str]) -> type[Bot]:
    match = _SPEC.fullmatch(spec) if len(spec) <= MAX_SPEC else None
    if match is None:
        raise VariantError(f"bad bot {spec[:40]!r}: write an id, or id[setting=value,...]")
    if cls is None:
        raise VariantError(f"unknown bot {match['id']!r} (bots: {', '.join(known)})")
    if match["params"] is None:
        return cls
    changed = dict(_setting(cls, item) for item in match["params"].split(",") if item.strip())
    return type(f"{cls.__name__}Variant", (cls,), {"id": spec, "__module__": cls.__module__,
                                                   **changed})


def changed_settings(cls: type[Bot]) -> set[str]:
    """The settings variants changed in ``cls`` and its bases (a variant's id is its spec,
    brackets and all; a level's has none): empty for a registered level."""
    return {name for k in cls.__mro__ if "[" in vars(k).get("id", "")
            for name in vars(k) if name in cls.tunable}


def check_settings(cls: type[Bot], settings: Mapping[str, Any]) -> None:
    """VariantError unless every one of ``settings`` (a game's for the level ``cls``,
    ``Game.search_settings``) is one a spec could write: the same names and values."""
    for name, value in settings.items():
        text = "none" if value is None else str(value)
        if _setting(cls, f"{name}={text}") != (name, value):
            raise VariantError(f"bot {cls.id}: {name}={value!r} is not of the setting's type")


def _setting(cls: type[Bot], item: str) -> tuple[str, Any]:
    name, eq, text = (part.strip() for part in item.partition("="))
    if not eq or name not in cls.tunable:
        can = ", ".join(cls.tunable) or "none"
        raise VariantError(f"bot {cls.id}: {name!r} is not a setting it lets change ({can})")
    current = getattr(cls, name)
    words = cls.choices.get(name)
    value: Any = text
    try:
        if text.lower() == "none" and _may_be_off(cls, name):
            value = None
        elif words is not None:
            if text not in words:
                raise ValueError
        elif isinstance(current, int) and not isinstance(current, bool):
            value = int(text)
        elif isinstance(current, float) or current is None:
            value = float(text)
        else:
            raise ValueError
        if isinstance(value, int | float) and not 0 <= value < 1e12:
            raise ValueError
    except ValueError:
        kind = "one of " + ", ".join(words) if words else "a number from 0"
        raise VariantError(f"bot {cls.id}: {name}={text!r} is not {kind}") from None
    return name, value


def _may_be_off(cls: type[Bot], name: str) -> bool:
    """The setting's annotation allows None (``widening: float | None``: off)."""
    return any("None" in str(k.__dict__.get("__annotations__", {}).get(name, ""))
               for k in cls.__mro__)
