"""What the player picks at the table, matched against the legal actions; no Textual here.

The player narrows the list of actions by picking cards from the hand (``hand_cards``)
and cards, groups or piles on the table (``Action.table_cards``), plays the turn's
recurring steps with fixed keys (``Action.step``), and lays out several picked cards in
one go (:func:`lay_out`: the front end finds the legal steps that play them). Nothing
here knows a game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from cardcore.engine.game import Action, GameState, Zone
from cardcore.language import N_

#: The fixed key of each step a game may name (``Action.step``); other steps get none.
STEP_KEYS = {"draw": "d", "take": "t", "discard": "x", "pass": "p", "knock": "k"}

#: Each step's name in a line ("No draw now.", translated where shown).
STEP_NAMES = {"draw": N_("draw"), "take": N_("take"), "discard": N_("discard"), "pass": N_("pass"),
              "knock": N_("knock")}

#: What each step's key does, in the help's words (translated where shown).
STEP_WORDS = {"draw": N_("draw from the stock (where the game has it)"),
              "take": N_("take the pile (where the game has it)"),
              "discard": N_("discard the picked card (where the game has it)"),
              "pass": N_("pass (where the game has it)"), "knock": N_("knock (where the game has it)")}

#: The keys that pick table units, in order (typed with shift: they clash with no binding).
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Unit:
    """One thing on the table a player can pick: a face-up loose card of a zone
    (``card`` set, ``place`` the zone), a group (``place`` its id, ``cards`` its cards)
    or a whole zone such as a discard pile (``place`` the zone id, no card)."""

    card: str | None
    place: str
    zone: str
    cards: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.place}/{self.card}" if self.card is not None else self.place


def uses(action: Action, unit: Unit) -> bool:
    """The action takes or uses ``unit`` (by its ``table_cards``; a group also when it is
    among the action's targets or all its cards are among its table cards)."""
    pairs = action.table_cards
    if unit.card is not None:
        return any(c == unit.card and w in (unit.place, unit.zone) for c, w in pairs)
    if any(c is None and w == unit.place for c, w in pairs):
        return True
    if unit.cards and unit.place != unit.zone:
        if unit.place in action.targets:
            return True
        mine = Counter(c for c, w in pairs if c is not None and w in (unit.place, unit.zone))
        return not (Counter(unit.cards) - mine)
    return False


def matches(action: Action, picked: Counter[str], key: Callable[[str], str] = str,
            units: Iterable[Unit] = ()) -> bool:
    """The action plays every picked hand card (as a multiset, cards compared by the game's
    ``card_key``; card-less actions match any hand pick) and uses every picked table unit."""
    units = tuple(units)
    if units and not all(uses(action, u) for u in units):
        return False
    if not action.hand_cards:
        return True
    return not (Counter(map(key, picked.elements())) - Counter(map(key, action.hand_cards)))


def table_units(zones: Sequence[Zone], legal: Sequence[Action]) -> list[Unit]:
    """The units of the table (hands left out) that some legal action uses, in the order
    the table is drawn: each gets a letter."""
    candidates: list[Unit] = []
    for zone in zones:
        if zone.kind == "hand":
            continue
        candidates.append(Unit(None, zone.id, zone.id))
        candidates += [Unit(c, zone.id, zone.id) for c in dict.fromkeys(zone.cards) if c is not None]
        candidates += [Unit(None, g.id, zone.id, tuple(g.cards)) for g in zone.groups]
    wanted = {w for a in legal for _, w in a.table_cards}
    if not wanted:
        return []
    return [u for u in candidates if (u.place in wanted or u.zone in wanted)
            and any(uses(a, u) for a in legal)]


def lettered(units: Sequence[Unit]) -> dict[str, Unit]:
    """The key of each unit: A, B, C, ... (at most 26)."""
    return dict(zip(LETTERS, units, strict=False))


def step_actions(actions: Iterable[Action], step: str) -> list[Action]:
    return [a for a in actions if a.step == step]


def lay_out(state: GameState, picked: Counter[str], key: Callable[[str], str] = str,
            limit: int = 300) -> list[Action]:
    """The longest run of legal actions (none of them a named step: no draw, no discard)
    that together play at most the ``picked`` hand cards, as many of them as can be: a
    small depth-first search over clones of ``state`` (``limit`` positions at most), the
    biggest plays tried first. Empty when no such action exists."""
    want = Counter(map(key, picked.elements()))
    best: list[Action] = []
    best_used = 0
    seen = 0

    def search(st: GameState, left: Counter[str], path: list[Action], used: int) -> None:
        nonlocal best, best_used, seen
        if used > best_used:
            best, best_used = list(path), used
        if seen >= limit or not left or best_used == sum(want.values()):
            return
        seat = st.to_play
        options = []
        for action in st.legal_actions():
            if action.step is not None or not action.hand_cards:
                continue
            cards = Counter(map(key, action.hand_cards))
            if not cards - left:
                options.append((sum(cards.values()), action, cards))
        options.sort(key=lambda o: -o[0])
        for n, action, cards in options:
            if seen >= limit:
                return
            seen += 1
            nxt = st.clone()
            nxt.apply(action)
            path.append(action)
            if nxt.to_play == seat and not nxt.is_over:
                search(nxt, left - cards, path, used + n)
            elif used + n > best_used:
                best, best_used = list(path), used + n
            path.pop()

    search(state.clone(), want, [], 0)
    return best
