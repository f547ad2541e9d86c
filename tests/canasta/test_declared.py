"""Canasta declared with the kit (cardcore_canasta.parts): its exports and views are byte for
byte what the hand-written ones wrote, every position of play loads back (strictly too), and
a sample (determinize) keeps what the seat knows."""

import hashlib
import json
import random
from collections import Counter

import pytest

from cardcore.engine.game import StateError
from cardcore.engine.seating import Seating
from cardcore_canasta.rules import FREEZES, RANK_OF, RED_THREES

from .helpers import GAME

#: sha256 of the JSON of export(), view(None) and every view(seat) at every step of the seeded
#: random hands of ``_walk``, as cardcore 0.1's hand-written export and view wrote them.
EXPORTS_0_1 = {
    (2, True):
        "9821e928f78d9f55cb2dc14b9dac59b0c491ec35b2f37aca0840f1a035c53692",
    (2, False):
        "9788c6cd1cf88f8470a3c7663ff8b01ad025b90039c60eb749aceed09440c014",
    (3, True):
        "9d3041b57ca42deb666dfec2ea0db60219896ff9c0e6ed95ba200a27f47ba8f6",
    (3, False):
        "8ba3c1ed43f0efe3083931d471f5f1c226d2e697b6af3cb3cd9146e0e251ca05",
    (4, True):
        "0cb6bb3b380f2fb6400563412ad4ea0c01065d5c95dffdb7114dca1a4ffa78e4",
    (4, False):
        "04147d4395f70e348d65623ead4e1811bca671ae686d217ca97cf97d25da7173",
}


def _walk(players, browse, seed):
    """The states of a seeded hand played by random legal steps; the steps prefer taking
    the pile, so that hands hold known cards (D47)."""
    options = GAME.Options(browse_pile=browse)
    sides = 2 if players == 4 else players
    seating = Seating(players, dealer=seed % players, partnerships=players == 4)
    state = GAME.new_hand(seating, options, random.Random(seed), [seed * 100] * sides)
    rng = random.Random(seed)
    while True:
        yield state
        if state.is_over:
            return
        acts = state.legal_actions()
        takes = [a for a in acts if a.to_json()["type"] == "take_pile"]
        state.apply(rng.choice(takes) if takes and rng.random() < 0.7 else rng.choice(acts))


@pytest.mark.parametrize("players,browse", list(EXPORTS_0_1))
def test_exports_and_views_are_those_of_0_1(players, browse):
    h = hashlib.sha256()
    known = 0
    for seed in range(4):
        for state in _walk(players, browse, seed):
            for data in [state.export(), state.view(None), *map(state.view, range(players))]:
                h.update(json.dumps(data).encode())
            known += any(state.export()["known"]["hands"])
    assert h.hexdigest() == EXPORTS_0_1[players, browse]
    assert bool(known) == browse  # cards taken with the open pile are known (D47)


@pytest.mark.parametrize("players,browse", [(2, False), (3, True), (4, True)])
def test_every_position_of_play_loads_back_strictly_too(players, browse):
    for state in _walk(players, browse, 5):
        data = json.loads(json.dumps(state.export()))
        assert GAME.state_from_json(data).export() == data
        again = GAME.state_from_json(data, strict=True)
        assert again.export() == data
        assert [a.to_json() for a in again.legal_actions()] == \
            [a.to_json() for a in state.legal_actions()]


@pytest.mark.parametrize("players,browse", [(2, False), (4, False), (3, True), (4, True)])
def test_a_sample_keeps_what_the_seat_knows(players, browse):
    rng = random.Random(3)
    for step, state in enumerate(_walk(players, browse, 7)):
        if step % 3 or state.is_over:
            continue
        seat = state.to_play if rng.random() < 0.5 else rng.randrange(players)
        view = state.view(seat)
        acts = state.legal_actions()
        cards = Counter(json.dumps(state.export()["known"]))  # unchanged by sampling
        sample = state.determinize(seat, random.Random(step))
        assert sample.view(seat) == view
        assert Counter(json.dumps(state.export()["known"])) == cards
        assert Counter(c for h in sample.hands for c in h) + Counter(sample.stock) + \
            Counter(sample.pile) == Counter(c for h in state.hands for c in h) + \
            Counter(state.stock) + Counter(state.pile)
        assert not any(c in RED_THREES for h in sample.hands for c in h)
        assert (sample.freezers > 0) == (state.freezers > 0)
        freezes = FREEZES[state.setup.black_three_freezes]
        assert (sample.freezers > 0) == any(freezes[c] for c in sample.pile)
        for s, hand in enumerate(sample.hands):
            counts = [0] * 14
            for c in hand:
                counts[RANK_OF[c]] += 1
            assert sample.rank_counts[s] == counts
        if seat == state.to_play:
            assert sample.legal_actions() is acts  # a search reuses them


def _strict_position():
    """A position of play with every key and the whole deck."""
    return json.loads(json.dumps(next(s for i, s in enumerate(_walk(4, True, 1)) if i == 40)
                                 .export()))


@pytest.mark.parametrize("change,words,path", [
    (lambda d: d["hands"][0].append("3H") or d["red_threes"][0].remove("3H"),
     "hands.0: a red three is never held", ("hands", 0)),
    (lambda d: d.pop("turn"), "turn: missing", ("turn",)),
    (lambda d: d["turn"].pop("new_ranks"), "turn.new_ranks: missing", ("turn", "new_ranks")),
    (lambda d: d["melds"][0].append({"rank": "4", "cards": ["2C", "2D", "JK"]}),
     "melds.0.", ("melds", 0)),
    (lambda d: d.__setitem__("frozen", not d["frozen"]), "frozen: ", ("frozen",)),
    (lambda d: d["hands"][1].__setitem__(0, 7), "hands.1.0: a card in notation", ("hands", 1, 0)),
    (lambda d: d.__setitem__("went_out", 9), "went_out: 9 is not a seat", ("went_out",)),
])
def test_strict_loading_names_the_place_at_fault(change, words, path):
    data = _strict_position()
    assert data["red_threes"][0] or data["red_threes"][1]
    if not data["red_threes"][0]:  # seat 0's side to hold the red three below
        data["red_threes"].reverse()
    assert GAME.state_from_json(data, strict=True).export() is not None
    change(data)
    with pytest.raises(StateError) as refused:
        GAME.state_from_json(data, strict=True)
    assert str(refused.value).startswith(words), str(refused.value)
    assert refused.value.path[:len(path)] == path  # the bots' sampler reads it
