"""Names people type (players, sides) and other text they send: plain text, short.

A name is drawn as typed on every screen, so control, invisible and direction characters
are refused wherever one enters: a setup, a network message (names and chat lines), an
imported record. ``plain_text`` is that one rule; ``check_name`` adds the length (and
``name_fields.Name`` makes it a pydantic field). Screens still draw every name as text,
never as markup (``shown`` for a terminal). No pydantic here: the command line's one-line
errors and listings use ``shown`` (docs/design.md, Start-up).
"""

from __future__ import annotations

import unicodedata

#: A player's or a side's name: short enough for every screen.
MAX_NAME_CHARS = 24
#: A side's name in a record: one chosen (a ``Name``) or the default, its players' names
#: joined by " & " (at most four players a side).
MAX_SIDE_NAME_CHARS = 4 * MAX_NAME_CHARS + 3 * len(" & ")

#: Letters and symbols that draw as nothing (fillers, the Braille blank, invisible marks);
#: every other character refused is one ``str.isprintable`` refuses: the categories
#: Cc, Cf (bidi and zero-width controls, U+FEFF, U+2060), Cs, Co, Cn, Zl, Zp, and Zs but
#: the space.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")


def refused_char(text: str) -> str | None:
    """The first character of ``text`` the rule refuses, None when it is plain text."""
    if text.isprintable() and (text.isascii() or BLANKS.isdisjoint(text)):
        return None
    return next(ch for ch in text if not ch.isprintable() or ch in BLANKS)


def describe_char(ch: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE)``: a character by its code and name, never itself."""
    name = unicodedata.name(ch, "") or _KINDS.get(unicodedata.category(ch), "unnamed")
    return f"U+{ord(ch):04X} ({name})"


_KINDS = {"Cc": "a control character", "Cf": "a format character", "Cs": "a surrogate",
          "Co": "private use", "Cn": "unassigned"}


def plain_text(text: str) -> str:
    """``text`` if it is plain text (see the module); ValueError saying which character
    is not, in one line."""
    ch = refused_char(text)
    if ch is not None:
        kind = "a blank other than the space" if unicodedata.category(ch) == "Zs" else \
            "an invisible character" if ch in BLANKS else "a control, invisible or direction character"
        raise ValueError(f"{describe_char(ch)} is not allowed: {kind}")
    return text


def check_name(text: str) -> str:
    """``text`` if it is a name: 1-24 characters of plain text with something to see, not
    begun or ended by a space; ValueError saying what is wrong in one line otherwise."""
    if not 1 <= len(text) <= MAX_NAME_CHARS:
        raise ValueError(f"a name is 1 to {MAX_NAME_CHARS} characters, not {len(text):,}")
    plain_text(text)
    if not text.strip():
        raise ValueError("a name needs a visible character")
    if text != text.strip():
        raise ValueError("a name does not begin or end with a space")
    return text


def shown(text: str) -> str:
    """``text`` for a terminal: every character the rule refuses as U+FFFD (data from a
    library written before the rule, or from elsewhere, never moves a terminal's cursor
    or colours)."""
    if refused_char(text) is None:
        return text
    return "".join("\ufffd" if not ch.isprintable() or ch in BLANKS else ch for ch in text)

