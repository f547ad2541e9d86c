"""pydantic's complaints as the one line a person reads (every edge that validates)."""

from __future__ import annotations

from typing import Any

import pydantic


def message(err: Any) -> str:
    """One complaint's message on one line, without pydantic's "Value error, " prefix."""
    return " ".join(str(err["msg"]).split()).removeprefix("Value error, ")


def first_error(exc: pydantic.ValidationError) -> str:
    """pydantic's first complaint on one line: ``field.path: message``."""
    err = exc.errors(include_url=False)[0]
    where = ".".join(map(str, err["loc"])) or "value"
    return f"{where}: {message(err)}"


def option_complaint(game_id: str, model: type[pydantic.BaseModel], exc: pydantic.ValidationError) -> str:
    """A game's refused options in one line: an unknown key names the valid keys; a bad
    value names its key and what the key takes (``option_fields.takes``)."""
    from cardcore.engine.option_fields import takes

    err = exc.errors(include_url=False)[0]
    key = str(err["loc"][0]) if err["loc"] else ""
    fields = model.model_fields
    if key and key not in fields:
        return (f"bad option for {game_id}: no option {key[:40]!r} "
                f"(options: {', '.join(fields)})")
    if not key:
        return f"bad option for {game_id}: {message(err)}"
    return f"bad option for {game_id}: {key}: {message(err)} (it takes {takes(model, key)})"
