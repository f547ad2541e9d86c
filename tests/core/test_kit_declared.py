"""The kit's DeclaredState with a representation of the game's own: ints inside, a part of
the game's own, a hand that must keep a card; the partial loading's defaults."""

import random
from dataclasses import dataclass

import pytest

from cardcore.engine.cards import CardError, standard_deck
from cardcore.engine.game import StateError
from cardcore.engine.kit import HIDDEN, OWNER, Cards, Count, DeclaredState, Part
from cardcore.engine.kit.parts import where
from cardcore.engine.seating import Seating

NAMES = tuple(sorted(standard_deck()))


@dataclass(frozen=True)
class Pair(Part):
    """Two counters kept as the state's ``low`` and ``high``, exported as one object."""

    def empty(self):
        return 0, 0

    def read(self, state, name):
        return state.low, state.high

    def export(self, value):
        return {"low": value[0], "high": value[1]}

    def load_one(self, path, value, strict):
        if not isinstance(value, dict) or not isinstance(value.get("low"), int):
            raise StateError(f"{where((*path, 'low'))}: an integer", (*path, "low"))
        return value["low"], value.get("high", 0)


class IntState(DeclaredState):
    game_id = "ints"
    parts = {"hands": Cards(per="seat", shown=OWNER, names=NAMES),
             "stock": Cards(shown=HIDDEN, names=NAMES),
             "pair": Pair(),
             "debt": Count(per="seat", least=None)}

    def __init__(self, seating, hands, stock, low=0, high=0, debt=None):
        self.seating, self.to_play, self.hands, self.stock = seating, seating.leader, hands, stock
        self.low, self.high, self.debt = low, high, debt or [0] * seating.players

    players = property(lambda self: self.seating.players)
    dealer = property(lambda self: self.seating.dealer)
    is_over = property(lambda self: False)

    def header(self):
        return {"game": "ints", "players": self.players, "dealer": self.dealer, "to_play": self.to_play}

    def options_json(self):
        return {}

    def clone(self):
        return IntState(self.seating, [h[:] for h in self.hands], self.stock[:], self.low,
                        self.high, self.debt[:])

    def must_hold(self):
        """Seat 1 keeps an ace (ids: NAMES[i])."""
        return {("hands", 1): [lambda c: NAMES[c].startswith("A")]}

    legal_actions = apply = score = zones = None


def _state():
    return IntState(Seating(2), [[NAMES.index("AS"), 5], [NAMES.index("AH"), 7, 8]],
                    list(range(9, 17)), 3, 4, [-2, 1])


def test_ints_inside_notation_in_the_export_and_the_views():
    state = _state()
    data = state.export()
    assert data["hands"] == [["AS", NAMES[5]], ["AH", NAMES[7], NAMES[8]]]
    assert data["pair"] == {"low": 3, "high": 4} and data["debt"] == [-2, 1]
    assert list(data) == ["game", "players", "dealer", "to_play", "hands", "stock", "pair", "debt",
                          "options"]
    assert state.view(0)["hands"] == [["AS", NAMES[5]], [None] * 3]
    assert state.view(None)["hands"] == [[None] * 2, [None] * 3]
    assert state.view(1)["stock"] == [None] * 8 and state.view(1)["pair"] == data["pair"]
    assert state.all_cards() == [c for h in data["hands"] for c in h] + data["stock"]


def test_determinize_keeps_what_must_be_held_and_the_seats_own_hand():
    state = _state()
    for i in range(10):
        twin = state.determinize(0, random.Random(i))
        assert twin.hands[0] == state.hands[0] and len(twin.hands[1]) == 3
        assert any(NAMES[c].startswith("A") for c in twin.hands[1])
        assert sorted(twin.hands[1] + twin.stock) == sorted(state.hands[1] + state.stock)


def test_parts_load_with_their_places_named():
    part = IntState.parts["hands"]
    assert part.load_one(("hands", 0), ["as", "10d"], False) == [NAMES.index("AS"), NAMES.index("10D")]
    with pytest.raises(CardError) as refused:  # a StateCardError: both
        part.load_one(("hands", 0), ["AS", 3], False)
    assert refused.value.path == ("hands", 0, 1) and str(refused.value).startswith("hands[0][1]:")
    with pytest.raises(StateError, match=r"^pair\.low: an integer") as refused:
        IntState.parts["pair"].load_one(("pair",), {"low": "x"}, False)
    assert refused.value.path == ("pair", "low")
    assert Count(least=None).load_one(("debt", 0), -7, False) == -7
    with pytest.raises(StateError, match=r"out of range \(up to 2\)"):
        Count(least=None, most=2).load_one(("debt",), 3, False)
    assert where(("table", "builds", 0, "groups", 1, 2)) == "table.builds[0].groups[1][2]"


def test_a_partial_position_without_a_dealer_is_dealt_by_the_seat_before_the_one_to_play(crazy_eights):
    state = crazy_eights.state_from_json({"players": 3, "to_play": 0, "hands": [["AS"], ["2S"], ["3S"]],
                                          "discard": ["4S"]})
    assert state.dealer == 2 and state.seating.leader == 0
    assert crazy_eights.state_from_json({"players": 3, "hands": [["AS"], ["2S"], ["3S"]],
                                         "discard": ["4S"]}).dealer == 0
