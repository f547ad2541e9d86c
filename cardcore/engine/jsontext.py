"""Compact JSON text, the same bytes wherever cardcore writes it (record lines, snapshots,
the library's columns)."""

from __future__ import annotations

import json
from typing import Any

import orjson

_AS_GIVEN = orjson.OPT_NON_STR_KEYS
_SORTED = orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS


def compact_json(value: Any, *, sort_keys: bool = False) -> bytes:
    """Compact JSON as UTF-8, text as it is (not escaped to ASCII), keys that are not
    strings written as strings. orjson writes the same bytes as ``json`` here, five times
    as fast (a server writes a record line and a snapshot for every action); ``json``
    takes what orjson refuses (integers past 64 bits)."""
    try:
        return orjson.dumps(value, option=_SORTED if sort_keys else _AS_GIVEN)
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=sort_keys).encode()
