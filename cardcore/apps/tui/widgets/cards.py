"""Card text for the screen: glyphs in suit colours, face-down blocks, marks that need no colour."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from cardcore.engine.cards import glyph

#: Suit colours: the two-colour (classic) and the four-colour deck.
SUIT_COLOURS = {
    "two": {"S": "white", "H": "red", "D": "red", "C": "white"},
    "four": {"S": "white", "H": "red", "D": "dodger_blue1", "C": "green"},
}

FACE_DOWN = "▒▒"
JOKER_STYLE = "bold magenta"


def card_style(card: str | None, palette: str = "two") -> str:
    if card is None:
        return "grey50"
    if card == "JK":
        return JOKER_STYLE
    colour = SUIT_COLOURS.get(palette, SUIT_COLOURS["two"]).get(card[-1:], "")
    return f"bold {colour}".strip()


def card_text(card: str | None, palette: str = "two", *, marked: bool = False) -> Text:
    """One card: ``10♦`` in its colour, ``▒▒`` face down; marked cards in reverse video."""
    text = Text(FACE_DOWN if card is None else glyph(card), style=card_style(card, palette))
    if marked:
        text.stylize("reverse")
    return text


def cards_text(cards: Sequence[str | None], palette: str = "two", marked: set[int] | None = None,
               compact_hidden: bool = True) -> Text:
    """A row of cards; a run of face-down cards reads ``▒▒ ×13``. ``marked``: the positions
    of the cards to mark (``▸`` and reverse video), so one copy of a card can be marked."""
    if compact_hidden and cards and all(c is None for c in cards):
        return Text(f"{FACE_DOWN} ×{len(cards)}", style="grey50")
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        is_marked = marked is not None and i in marked
        if is_marked:
            out.append("▸")
        out.append_text(card_text(card, palette, marked=is_marked))
    return out
