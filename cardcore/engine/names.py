"""Names people type (players, sides) and other text they send: plain text, short.

A name is drawn as typed on every screen, so control and direction characters are
refused wherever one enters: a setup, a network message, a record's seat event.
"""

from __future__ import annotations

import re
from typing import Annotated

import pydantic
from pydantic import Field

#: A player's or a side's name: short enough for every screen.
MAX_NAME_CHARS = 24

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def plain_text(text: str) -> str:
    """``text`` if it holds no control or direction characters; ValueError otherwise."""
    if _CONTROL.search(text):
        raise ValueError("control characters are not allowed")
    return text


#: A name as people type it: 1-24 printable characters.
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS), pydantic.AfterValidator(plain_text)]
