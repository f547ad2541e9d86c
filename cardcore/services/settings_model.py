"""The launcher's settings file as pydantic checks it (``cardcore.services.settings`` reads and
writes it: that module imports this one only when there is a file to read or write, so a
start without one does not load pydantic)."""

from __future__ import annotations

from typing import Literal

import pydantic
from pydantic import ConfigDict

from cardcore.language import LANGUAGES


class Settings(pydantic.BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: Literal[1] = 1
    #: The language chosen in the launcher (a code of ``language.LANGUAGES``), None: not chosen.
    language: str | None = None

    @pydantic.field_validator("language")
    @classmethod
    def _known(cls, code: str | None) -> str | None:
        if code is not None and code not in LANGUAGES:
            raise ValueError(f"not a language cardcore speaks: {code!r}")
        return code
