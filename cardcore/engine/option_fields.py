"""A game's options as a person reads them, from its pydantic ``Options`` model: each
field's ``--option`` key, default, what values it takes and what it does. ``cardcore rules
GAME`` lists them, a refused option names them (``complaints.option_complaint``) and the
setup form reads each field's kind from here."""

from __future__ import annotations

import enum
import json
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import annotated_types
import pydantic
from pydantic.fields import FieldInfo


@dataclass(frozen=True)
class OptionField:
    """One option: its key as typed (``--option KEY=VALUE``), its default as typed, the
    values it takes ("true or false", "a whole number from 1 to 420") and what it does."""

    key: str
    default: str
    takes: str
    does: str


def kind(annotation: Any) -> tuple[str, list[Any], bool]:
    """("bool" | "choice" | "int" | "float" | "str", choices, optional) of a field's type."""
    optional = False
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(args) < len(typing.get_args(annotation))
        if len(args) == 1:
            annotation = args[0]
            origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return "choice", list(typing.get_args(annotation)), optional
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "choice", [m.value for m in annotation], optional
    if annotation is bool:
        return "bool", [], optional
    if annotation is int:
        return "int", [], optional
    if annotation is float:
        return "float", [], optional
    return "str", [], optional


def option_fields(model: type[pydantic.BaseModel],
                  translate: Callable[[str], str] = str) -> list[OptionField]:
    """The model's options in its field order; ``translate`` (a game's ``Game.translate``)
    gives each description in the language in use."""
    return [OptionField(key, as_typed(info.get_default(call_default_factory=True)),
                        takes(model, key),
                        " ".join(translate(info.description).split()) if info.description else "")
            for key, info in model.model_fields.items()]


def as_typed(value: Any) -> str:
    """A value as ``--option`` takes it: ``true``, ``5000``, ``classic``."""
    value = value.value if isinstance(value, enum.Enum) else value
    return value if isinstance(value, str) else json.dumps(value)


def takes(model: type[pydantic.BaseModel], key: str) -> str:
    """The values option ``key`` takes, in words."""
    info = model.model_fields[key]
    what, choices, optional = kind(info.annotation)
    if what == "bool":
        text = "true or false"
    elif what == "choice":
        text = " or ".join(as_typed(c) for c in choices)
    elif what in ("int", "float"):
        text = _number(what, *_bounds(model, key, info))
    else:
        text = "text"
    return text + " or null" if optional else text


def _bounds(model: type[pydantic.BaseModel], key: str, info: FieldInfo) -> tuple[Any, Any]:
    low: Any = None
    high: Any = None
    for rule in info.metadata:
        if isinstance(rule, annotated_types.Ge):
            low = rule.ge
        elif isinstance(rule, annotated_types.Gt):
            low = rule.gt + 1 if isinstance(rule.gt, int) else rule.gt
        elif isinstance(rule, annotated_types.Le):
            high = rule.le
        elif isinstance(rule, annotated_types.Lt):
            high = rule.lt - 1 if isinstance(rule.lt, int) else rule.lt
    most = getattr(model, "most_target", None)  # GameOptions bounds its target by its default
    if key == "target" and callable(most) and most() is not None:
        high = most() if high is None else min(high, most())
    return low, high


def _number(what: str, low: Any, high: Any) -> str:
    noun = "a whole number" if what == "int" else "a number"
    if low is not None and high is not None:
        return f"{noun} from {low} to {high}"
    if low is not None:
        return f"{noun}, at least {low}"
    if high is not None:
        return f"{noun}, at most {high}"
    return noun


def options_markdown(model: type[pydantic.BaseModel], translate: Callable[[str], str] = str) -> str:
    """The options as a Markdown section (``cardcore rules GAME`` adds it to the rules)."""
    lines = ["## Options", "",
             "Given as `--option KEY=VALUE` (`--target T` is `--option target=T`):", ""]
    for f in option_fields(model, translate):
        does = f": {f.does}" if f.does else ""
        lines.append(f"- `{f.key}` (default `{f.default}`; {f.takes}){does}")
    return "\n".join(lines)
