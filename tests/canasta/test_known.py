"""D47: the cards a player takes with the open pile are known to all while that player
holds them (the kit's known cards, cardcore/engine/kit/known.py): every view shows them,
determinize and the bots' samples keep them in that hand, the export carries them."""

import random
from collections import Counter

import pytest

from cardcore.engine.bots.base import InfoSet
from cardcore.engine.game import StateError, load_state
from cardcore.engine.seating import Seating
from cardcore.services.net.views import spectator_zones
from cardcore_canasta.rules import ID_TEXT

from .helpers import GAME, play, position

KINGS = [{"rank": "K", "cards": ["KS", "KH", "KD"]}]
#: Seat 0 to take the pile (9C on top), under it 5D, QH and a red three.
TAKE = {"phase": "draw", "hands": [["9S", "9H", "4H", "7C"], ["6S", "8S"], ["9S", "QD"], ["KC"]],
        "discard": ["5D", "QH", "3H", "9C"], "melds": [KINGS, []]}
#: Seat 1 took the pile before: QH, JD and 7C are known to all; seat 0 to draw.
TAKEN = {"dealer": 3, "to_play": 0, "phase": "draw", "stock": ["4C", "5C", "6C", "8C"],
         "discard": ["9D"],
         "hands": [["4H", "5H", "6H"], ["QH", "JD", "7C", "5S", "6S", "8S", "AS"], ["QD", "10S"], ["KC"]],
         "known": {"hands": [[], [{"card": "7C", "to": None}, {"card": "JD", "to": None},
                                  {"card": "QH", "to": None}], [], []]}}
#: As the export and the views write them: known cards first, each group in card order.
SHOWN = ["7C", "JD", "QH"]


def test_d47_the_cards_taken_with_the_open_pile_are_known_to_all_while_held():
    st = position(**TAKE)
    play(st, "take 9S 9H")
    data = st.export()
    assert data["hands"][0] == ["5D", "QH", "4H", "7C"]  # the taken cards first
    assert data["known"]["hands"] == [[{"card": "5D", "to": None}, {"card": "QH", "to": None}],
                                      [], [], []]
    for seat in (1, 2, 3, None):
        assert st.view(seat)["hands"][0] == ["5D", "QH", None, None], seat
        assert st.view(seat)["known"] == data["known"], seat
        zones = spectator_zones(st) if seat is None else st.zones(seat)
        assert next(z for z in zones if z.id == "hand-0").cards == ["5D", "QH", None, None], seat
    assert st.view(0)["hands"][0] == data["hands"][0]
    play(st, "discard 5D")  # it leaves the hand: no longer known
    assert st.export()["known"]["hands"][0] == [{"card": "QH", "to": None}]
    assert st.view(1)["hands"][0] == ["QH", None, None]


def test_d47_the_cards_taken_with_a_squared_pile_stay_unknown():
    st = position(**TAKE, options={"browse_pile": False})
    play(st, "take 9S 9H")
    assert st.export()["known"]["hands"][0] == [] and st.view(1)["hands"][0] == [None] * 4


def test_d47_determinize_keeps_the_known_cards_in_their_hand():
    st = position(**TAKEN)
    for seat in (0, 2, 3):
        moved = Counter()
        for i in range(30):
            hand = st.determinize(seat, random.Random(i)).hands[1]
            texts = [ID_TEXT[c] for c in hand]
            assert texts[:3] == SHOWN and len(hand) == 7, (seat, texts)
            moved.update(c for c in ("5S", "6S", "8S", "AS") if c not in texts)
        assert len(moved) == 4, seat  # the rest of the hand is dealt again


def test_d47_a_bots_samples_never_move_a_card_known_to_all():
    """The info set of seat 0 where seat 1 took the pile: over many samples, the taken cards
    stay in seat 1's hand; the hidden rest goes anywhere."""
    st = position(**TAKEN)
    info = InfoSet.of(GAME, st, 0)
    assert info.view()["hands"][1] == SHOWN + [None] * 4
    moved = Counter()
    for i in range(200):
        sample = info.sample(random.Random(i)).export()
        assert sample["hands"][1][:3] == SHOWN and len(sample["hands"][1]) == 7, i
        assert sample["known"] == TAKEN["known"]
        moved.update(c for c in ("5S", "6S", "8S", "AS") if c not in sample["hands"][1])
    assert len(moved) == 4


def _taken_in_play(seed: int = 3):
    """A hand of random play up to a pile taken (the open pile: known cards)."""
    rng = random.Random(seed)
    st = GAME.new_hand(Seating(4, dealer=3, partnerships=True), GAME.Options(),
                       random.Random(seed), [0, 0])
    while not any(st.known):
        acts = st.legal_actions()
        takes = [a for a in acts if a.to_json()["type"] == "take_pile"]
        st.apply(takes[0] if takes else acts[rng.randrange(len(acts))])
        assert not st.is_over
    return st


def test_d47_known_cards_round_trip_and_an_old_save_loads_as_nothing_known():
    st = _taken_in_play()
    data = st.export()
    assert any(data["known"]["hands"])
    assert load_state(GAME, data).export() == data  # strictly, as saves are loaded
    old = {k: v for k, v in data.items() if k != "known"}  # a save made before known cards
    again = load_state(GAME, old)
    assert not any(again.known) and all(h == [None] * len(h) for h in again.view(None)["hands"])


@pytest.mark.parametrize("known, words, path", [
    ({"hands": [[], [{"card": "KC", "to": None}], [], []]}, r"KC known but not in hands\[1\]",
     ("known", "hands", 1)),
    ({"hands": [[], [{"card": "JD", "to": [0]}], [], []]}, "known to all", ("known", "hands", 1)),
    ({"hands": [[], []]}, "a list of 4", ("known", "hands")),
    ({"stock": []}, "the cards taken with the pile", ("known",)),
    ({"hands": [[], [{"card": "JX", "to": None}], [], []]}, "not a card", ("known", "hands", 1, 0)),
])
def test_d47_loading_refuses_known_cards_not_in_their_hand(known, words, path):
    with pytest.raises(StateError, match=words) as refused:
        position(**{**TAKEN, "known": known})
    assert refused.value.path == path


def test_d47_a_card_played_from_two_copies_takes_the_known_one_along():
    """Seat 1 holds QH taken with the pile and another QH: once one QH is discarded,
    nobody knows which one left, so no QH is known any more."""
    hands = [TAKEN["hands"][0], ["QH", "QH", "5S", "6S"], *TAKEN["hands"][2:]]
    st = position(**{**TAKEN, "to_play": 1, "phase": "play", "hands": hands,
                     "known": {"hands": [[], [{"card": "QH", "to": None}], [], []]}})
    assert st.view(0)["hands"][1] == ["QH", None, None, None]
    play(st, "discard QH")
    assert st.export()["known"]["hands"][1] == [] and st.view(0)["hands"][1] == [None] * 3
