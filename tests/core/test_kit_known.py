"""Known cards in the kit (issue 24, item 2): marks on the cards of a hidden place, shown by
the views to whom they are known, kept in place by determinize, exported and loaded."""

import random
from collections import Counter

import pytest

from cardcore import StateError
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.cards import standard_deck
from cardcore.engine.game import load_state
from cardcore.engine.kit import HIDDEN, OWNER, Cards
from cardcore.engine.testing import check_game
from cardcore_crazy_eights.game import CrazyEights, CrazyEightsState


class ShownDrawsState(CrazyEightsState):
    """Crazy Eights where a card drawn is shown to the table: known to all while held."""

    game_id = "shown_draws"
    parts = {**CrazyEightsState.parts, "hands": Cards(per="seat", shown=OWNER, known=True)}

    def apply(self, action):
        seat, draws = self.to_play, action.to_json().get("type") == "draw"
        drawn = self.stock[0] if draws and self.stock else None
        super().apply(action)  # a card played leaves with hands[seat].remove: its mark goes
        if drawn is not None:
            self.make_known("hands", seat, drawn)


class ShownDraws(CrazyEights):
    id = "shown_draws"
    name = "Shown draws"
    State = ShownDrawsState


GAME = ShownDraws()
HANDS = [["2C", "3C"], ["KH", "QS", "4D", "9S"], ["5H", "6H", "7H"]]
#: Seat 1 holds KH known to all and QS known to seat 2 only (seat 2 passed it, say).
POSITION = {"game": "shown_draws", "players": 3, "dealer": 0, "to_play": 1, "hands": HANDS,
            "stock": [c for c in standard_deck() if c not in {"JD", *sum(HANDS, [])}],
            "discard": ["JD"], "suit": "D", "passes": 0,
            "known": {"hands": [[], [{"card": "KH", "to": None}, {"card": "QS", "to": [2]}], []]},
            "options": {"target": 100, "hand_size": 0}}


def _state(**changes):
    return GAME.state_from_json({**POSITION, **changes})


def test_views_show_known_cards_to_whom_they_are_known():
    st = _state()
    assert st.view(0)["hands"] == [["2C", "3C"], ["KH", None, None, None], [None] * 3]
    assert st.view(2)["hands"][1] == ["KH", "QS", None, None]
    assert st.view(None)["hands"][1] == ["KH", None, None, None]  # the spectator: known to all
    assert st.view(1)["hands"][1] == ["KH", "QS", "4D", "9S"]
    # each view lists the marks its seat knows, nothing of the others'
    assert st.view(0)["known"] == {"hands": [[], [{"card": "KH", "to": None}], []]}
    assert st.view(2)["known"] == POSITION["known"]
    hand = next(z for z in st.zones(0) if z.id == "hands-1")
    assert hand.cards == ["KH", None, None, None]


def test_determinize_keeps_the_cards_a_seat_knows_and_deals_the_rest():
    st = _state()
    for seat, kept in [(0, {"KH"}), (2, {"KH", "QS"})]:
        moved = Counter()
        for i in range(40):
            sample = st.determinize(seat, random.Random(i))
            hand = sample.hands[1]
            assert len(hand) == 4 and kept <= set(hand), (seat, hand)
            assert hand[:len(kept)] == ["KH", "QS"][:len(kept)]  # where they were
            moved.update(c for c in ["QS", "4D", "9S"] if c not in hand)
            assert sample.known_cards("hands", 1, seat) == ["KH", "QS"][:len(kept)]
        assert ("QS" in moved) == (seat == 0) and moved["4D"] and moved["9S"], seat


def test_known_cards_round_trip_and_a_save_without_them_loads_as_nothing_known():
    st = _state()
    data = st.export()
    assert data["known"] == POSITION["known"] and list(data)[-2:] == ["known", "options"]
    assert GAME.state_from_json(data, strict=True).export() == data
    old = {k: v for k, v in data.items() if k != "known"}  # a save made before known cards
    again = load_state(GAME, old)  # strictly, as saves and records are loaded
    assert again.known == {"hands": [(), (), ()]} and again.view(0)["hands"][1] == [None] * 4
    assert load_state(GAME, {**old, "known": {"hands": [[], [], []]}}).export() == again.export()


@pytest.mark.parametrize("known, words, path", [
    ({"hands": [[], [{"card": "5H", "to": None}], []]}, r"known.hands\[1\]: 5H known but not in hands\[1\]",
     ("known", "hands", 1)),
    ({"hands": [[], [{"card": "KH", "to": None}, {"card": "KH", "to": None}], []]},
     "KH known but not in", ("known", "hands", 1)),
    ({"hands": [[], [{"card": "KH", "to": [3]}], []]}, "to: null", ("known", "hands", 1, 0)),
    ({"hands": [[], [{"card": "KH", "to": []}], []]}, "to: null", ("known", "hands", 1, 0)),
    ({"hands": [[], [{"card": "KX", "to": None}], []]}, "card: not a card", ("known", "hands", 1, 0)),
    ({"hands": [[], ["KH"], []]}, "a known card is", ("known", "hands", 1, 0)),
    ({"hands": [[], []]}, "a list of 3", ("known", "hands")),
    ({"stock": []}, "'stock' is no part with known cards", ("known", "stock")),
    ([], "known: an object", ("known",)),
])
def test_loading_refuses_known_cards_not_in_their_place(known, words, path):
    for strict in (False, True):
        with pytest.raises(StateError, match=words) as refused:
            GAME.state_from_json({**POSITION, "known": known}, strict=strict)
        assert refused.value.path == path


def test_make_known_moves_a_hand_card_first_and_remove_card_takes_its_mark_along():
    st = _state(known={"hands": [[], [], []]})
    st.make_known("hands", 1, "9S")
    st.make_known("hands", 1, "4D", to=[0])
    assert st.hands[1] == ["9S", "4D", "KH", "QS"]  # where they lie tells nothing of the rest
    assert st.view(0)["hands"][1] == ["9S", "4D", None, None]
    assert st.view(2)["hands"][1] == ["9S", None, None, None]
    with pytest.raises(ValueError, match="no 9S in hands\\[1\\] that is not known already"):
        st.make_known("hands", 1, "9S")
    with pytest.raises(ValueError, match="no part with known cards"):
        st.make_known("stock", None, "AS")
    twin = st.clone()
    twin.remove_card("hands", 1, "9S")
    assert twin.known["hands"][1] == (("4D", (0,)),) and st.known_cards("hands", 1, 0) == ["9S", "4D"]
    # with two of a card, the known one leaves with its mark: the other stays unknown
    twin.hands[1] += ["4D"]
    twin.remove_card("hands", 1, "4D")
    assert twin.hands[1] == ["KH", "QS", "4D"] and twin.view(0)["hands"][1] == [None] * 3


def test_a_card_played_by_list_remove_is_no_longer_known():
    st = _state(suit="H")  # KH follows the suit called
    st.apply(next(a for a in st.legal_actions() if a.to_json().get("card") == "KH"))
    assert st.export()["known"]["hands"][1] == [{"card": "QS", "to": [2]}]  # the mark left with KH
    assert st.view(0)["hands"][1] == [None] * 3 and st.view(2)["hands"][1] == ["QS", None, None]


def test_a_bots_samples_never_move_a_known_card():
    st = _state()
    info = InfoSet.of(GAME, st, 0)
    for i in range(30):
        sample = info.sample(random.Random(i))
        assert sample.hands[1][0] == "KH" and len(sample.hands[1]) == 4


@pytest.mark.slow  # 2-3 s of CPU: `make test` runs it, the quick loop does not
def test_check_game_passes_on_a_game_that_makes_cards_known():
    report = check_game(GAME, seeds=range(2), max_hands=1, deep_every=4, player_counts=[3])
    assert report.hands >= 2


class TrumpState(CrazyEightsState):
    """A stock whose bottom card is turned face up (the trump): known to all, in place."""

    game_id = "shown_draws"
    parts = {**CrazyEightsState.parts, "stock": Cards(shown=HIDDEN, known=True)}


def test_a_known_card_of_an_ordered_hidden_place_stays_where_it_lies():
    data = {k: v for k, v in POSITION.items() if k != "known"}
    st = TrumpState.from_json(GAME, data)
    bottom = st.stock[-1]
    st.make_known("stock", None, bottom)
    assert st.stock[-1] == bottom  # an ordered place: nothing moves
    for seat in (0, 1, 2, None):
        assert st.view(seat)["stock"] == [None] * (len(st.stock) - 1) + [bottom], seat
    assert st.export()["known"] == {"stock": [{"card": bottom, "to": None}]}
    tops = set()
    for i in range(10):
        sample = st.determinize(0, random.Random(i))
        assert sample.stock[-1] == bottom and len(sample.stock) == len(st.stock)
        tops.add(sample.stock[0])
    assert len(tops) > 1  # the rest dealt again
    assert TrumpState.from_json(GAME, st.export(), strict=True).export() == st.export()
