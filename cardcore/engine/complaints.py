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
