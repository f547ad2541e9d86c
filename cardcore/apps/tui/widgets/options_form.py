"""A form generated from a game's Options model: bool, int, enum/Literal, str fields."""

from __future__ import annotations

import enum
from typing import Any

import pydantic
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Checkbox, Input, Label, Select, Static

from cardcore.apps.tui.plain import plain
from cardcore.engine.game import GameOptions
from cardcore.engine.option_fields import kind as _kind
from cardcore.language import _


class Tick(Checkbox):
    """A checkbox whose mark says on or off without colour: ``▐X▌`` ticked, ``▐ ▌`` not
    (Textual's draws ``X`` both ways, only its colour differs)."""

    def render(self) -> Any:
        self.BUTTON_INNER = "X" if self.value else " "
        return super().render()


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


class OptionsForm(Vertical):
    """One row per field: its name and a control holding the default on one line, and
    under them its whole description (wrapped to the width) or pydantic's message."""

    DEFAULT_CSS = """
    OptionsForm { height: auto; }
    OptionsForm .opt-row { height: auto; }
    OptionsForm .opt-line { height: 1; }
    OptionsForm .opt-name { width: 24; padding: 0 1 0 0; }
    OptionsForm .opt-control { width: 24; }
    OptionsForm Input.opt-control { width: 24; }
    OptionsForm .opt-help { width: 1fr; height: auto; color: $text-muted; padding: 0 0 0 2; }
    OptionsForm .opt-error { width: 1fr; height: auto; color: $error; text-style: bold;
                             padding: 0 0 0 2; }
    """

    class Changed(Message):
        """The values changed: ``options`` is the model instance, or None with ``errors``."""

        def __init__(self, form: OptionsForm, options: GameOptions | None, errors: dict[str, str]) -> None:
            super().__init__()
            self.form = form
            self.options = options
            self.errors = errors

        @property
        def control(self) -> OptionsForm:
            return self.form

    def __init__(self, model: type[GameOptions], values: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model = model
        self.initial = values or {}
        self.kinds = {name: _kind(f.annotation) for name, f in model.model_fields.items()}
        self.options: GameOptions | None = None
        self.errors: dict[str, str] = {}
        #: The fields the player set (and those given): only they reach the model, so a
        #: validator that fills the others (a preset) decides them; the rest are refreshed.
        self.touched: set[str] = set(self.initial)

    def compose(self) -> ComposeResult:
        for name, info in self.model.model_fields.items():
            kind, choices, _ = self.kinds[name]
            default = _plain(info.get_default(call_default_factory=True))
            value = _plain(self.initial.get(name, default))
            wid = f"opt-{name}"
            with Vertical(classes="opt-row"):
                with Horizontal(classes="opt-line"):
                    yield Label(name.replace("_", " "), classes="opt-name")
                    if kind == "bool":
                        yield Tick(yes_no(bool(value)), bool(value), id=wid,
                                   classes="opt-control", compact=True)
                    elif kind == "choice":
                        yield Select([(str(c), c) for c in choices], value=value,
                                     allow_blank=False, id=wid, classes="opt-control", compact=True)
                    else:
                        yield Input("" if value is None else str(value), id=wid,
                                    classes="opt-control", compact=True, placeholder=str(default))
                yield Static(help_line(info.description, default, kind), id=f"help-{name}",
                             classes="opt-help", markup=False)
                yield Static("", id=f"err-{name}", classes="opt-error")
        yield Static("", id="err-general", classes="opt-error")

    def on_mount(self) -> None:
        self.validate_now()

    def raw_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for name in self.model.model_fields:
            kind, _, optional = self.kinds[name]
            widget = self.query_one(f"#opt-{name}")
            if isinstance(widget, (Checkbox, Select)):
                values[name] = widget.value
            elif isinstance(widget, Input):
                text = widget.value.strip()
                values[name] = None if (optional and not text) else text
        return values

    def validate_now(self) -> None:
        errors: dict[str, str] = {}
        values = {k: v for k, v in self.raw_values().items() if k in self.touched}
        try:
            self.options = self.model(**values)
            self._refresh_untouched(self.options)
        except pydantic.ValidationError as exc:
            self.options = None
            for detail in exc.errors():
                field = str(detail["loc"][0]) if detail["loc"] else ""
                errors.setdefault(field, detail["msg"])
        self.errors = errors
        for name in self.model.model_fields:
            message = errors.get(name, "")
            err = self.query_one(f"#err-{name}", Static)
            err.update(plain(message))
            err.display = bool(message)
            self.query_one(f"#help-{name}", Static).display = not message
            self.query_one(f"#opt-{name}").set_class(bool(message), "-invalid")
        general = [m for f, m in errors.items() if f not in self.model.model_fields]
        self.query_one("#err-general", Static).update(Text("\n").join(map(plain, general)))
        self.query_one("#err-general", Static).display = bool(general)
        self.post_message(self.Changed(self, self.options, errors))

    def _refresh_untouched(self, options: GameOptions) -> None:
        """The fields the player left alone show what the model made of them (a preset)."""
        for name in self.model.model_fields:
            if name in self.touched:
                continue
            value = _plain(getattr(options, name))
            widget = self.query_one(f"#opt-{name}")
            if isinstance(widget, Checkbox) and widget.value != bool(value):
                widget.value = bool(value)
            elif isinstance(widget, Select) and widget.value != value:
                widget.value = value
            elif isinstance(widget, Input) and widget.value != ("" if value is None else str(value)):
                widget.value = "" if value is None else str(value)

    def _shows_model(self, name: str, widget: Message | object) -> bool:
        """The control holds what the model has (a refresh, not the player)."""
        if self.options is None or name not in self.model.model_fields:
            return False
        value = _plain(getattr(self.options, name))
        if isinstance(widget, Checkbox):
            return widget.value == bool(value)
        if isinstance(widget, Select):
            return bool(widget.value == value)
        if isinstance(widget, Input):
            return widget.value.strip() == ("" if value is None else str(value))
        return False

    @on(Input.Changed)
    @on(Checkbox.Changed)
    @on(Select.Changed)
    def _changed(self, event: Input.Changed | Checkbox.Changed | Select.Changed) -> None:
        event.stop()
        widget = event.control
        if isinstance(widget, Checkbox):
            widget.label = yes_no(widget.value)
        name = (widget.id or "").removeprefix("opt-") if widget is not None else ""
        if name and not self._shows_model(name, widget):
            self.touched.add(name)
        self.validate_now()


def help_line(description: str | None, default: Any, kind: str) -> str:
    """A field's description and its default, as the form shows them (a bool's as yes/no)."""
    shown = yes_no(bool(default)) if kind == "bool" else default
    return (_("{description} (default {value})") if description else _("default {value}")).format(
        description=description, value=shown)


def yes_no(value: bool) -> str:
    """A checkbox's state in words, beside its mark."""
    return _("yes") if value else _("no")
