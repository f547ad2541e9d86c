"""Names as pydantic fields: the rule of ``names`` (plain text, short) checked wherever a
model takes a name (a setup, a record, a network message, a profile)."""

from __future__ import annotations

from typing import Annotated

import pydantic
from pydantic import Field

from cardcore.engine.names import MAX_SIDE_NAME_CHARS, check_name, plain_text

#: A name as people type it: 1-24 characters of plain text.
Name = Annotated[str, pydantic.AfterValidator(check_name)]
#: A side's name as a record holds it (a chosen one, or its players' names joined).
SideName = Annotated[str, Field(min_length=1, max_length=MAX_SIDE_NAME_CHARS),
                     pydantic.AfterValidator(plain_text)]
