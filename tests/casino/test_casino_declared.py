"""The fishing state declared with the kit (cardcore_casino.parts): its exports and views are
byte for byte what the hand-written ones were, and loading names the place at fault."""

import hashlib
import json
import random

import pytest

from cardcore.engine.cards import CardError
from cardcore.engine.game import StateError

from .helpers import GAMES


def fresh(game_id, players):
    game = GAMES[game_id]
    options = game.Options()
    return game.new_hand(game.seating(players, options, dealer=0), options, random.Random(1),
                         [0] * (2 if players == 4 else players))

#: sha256 of the JSON of export(), view(None) and every view(seat) at every step of seeded
#: random hands (below), as cardcore 0.1's hand-written export and view wrote them.
EXPORTS_0_1 = {
    "casino": "67150baa4496f1a31a1fecbfd578667a15e9b3f12a379baa2ec67b85af03f3cf",
    "royal_casino": "cb974947f77b6b5b1ba9fce43448205a93b991963a879b3ba407b019ba51742e",
}


def test_exports_and_views_are_those_of_0_1(game_id):
    game = GAMES[game_id]
    h = hashlib.sha256()
    for players in game.player_counts:
        for seed in range(2):
            options = game.Options()
            sides = 2 if players == 4 else players
            state = game.new_hand(game.seating(players, options, dealer=seed % players), options,
                                  random.Random(seed), [seed] * sides)
            rng = random.Random(seed)
            while True:
                for data in [state.export(), state.view(None), *map(state.view, range(players))]:
                    h.update(json.dumps(data).encode())
                if state.is_over:
                    break
                actions = state.legal_actions()
                state.apply(actions[rng.randrange(len(actions))])
    assert h.hexdigest() == EXPORTS_0_1[game_id]


def test_a_view_is_made_again_after_a_move_and_not_shared_with_the_export(game_id):
    state = fresh(game_id, 2)
    before = state.view(0)
    state.apply(state.legal_actions()[0])
    after = state.view(0)
    assert after != before and after["to_play"] != before["to_play"]
    export = state.export()
    export["hands"][0].clear()
    assert state.export()["hands"][0] and state.view(0)["hands"][0]


def _position():
    """A new hand's export: every key, the whole deck."""
    return fresh("casino", 2).export()


@pytest.mark.parametrize("change,words,path", [
    (lambda d: d["hands"][1].__setitem__(0, "ZZ"), "hands[1]: not a card", ("hands", 1)),
    (lambda d: d["hands"][1].__setitem__(0, 7), "hands[1][0]: a card in notation", ("hands", 1, 0)),
    (lambda d: d["stock"].append(d["hands"][0][0]), "cards: ", ("cards",)),
    (lambda d: d["stock"].pop(), "cards: strict loading wants the whole deck", ("cards",)),
    (lambda d: d.pop("sweeps"), "sweeps: missing", ("sweeps",)),
    (lambda d: d["sweeps"].__setitem__(1, -1), "sweeps[1]: -1 is out of range", ("sweeps", 1)),
    (lambda d: d["table"].pop("builds"), "table.builds: missing", ("table", "builds")),
    (lambda d: d["table"].__setitem__("loose", "AS"), "table.loose: a list of cards",
     ("table", "loose")),
    (lambda d: d.__setitem__("last_capture", 5), "last_capture: 5 is not a seat", ("last_capture",)),
    (lambda d: d.__setitem__("game", "canasta"), "game: a state of 'canasta'", ("game",)),
    (lambda d: d["options"].__setitem__("target", 0), "options: target", ("options", "target")),
])
def test_strict_loading_names_the_place_at_fault(change, words, path):
    data = _position()
    assert GAMES["casino"].state_from_json(data, strict=True).export() == data
    change(data)
    with pytest.raises(StateError) as refused:
        GAMES["casino"].state_from_json(data, strict=True)
    assert str(refused.value).startswith(words)
    assert refused.value.path == path  # the bots' sampler reads it


def _build_position(build, hands=(["8S", "3D"], ["5H", "2C"])):
    return {"hands": [list(h) for h in hands], "to_play": 0, "table": {"loose": [], "builds": [build]}}


@pytest.mark.parametrize("build,words,path", [
    ({"value": "8", "owner": 0, "groups": [["2H", "6S"]]}, "table.builds[0].value: an integer",
     ("table", "builds", 0, "value")),
    ({"value": 9, "owner": 0, "groups": [["2H", "6S"]]}, "table.builds[0].groups[0]: adds up to 8",
     ("table", "builds", 0, "groups", 0)),
    ({"value": 8, "owner": 2, "groups": [["2H", "6S"]]}, "table.builds[0].owner: 2 is not a seat",
     ("table", "builds", 0, "owner")),
    ({"value": 8, "owner": 0, "groups": [["2H", 6]]}, "table.builds[0].groups[0][1]",
     ("table", "builds", 0, "groups", 0, 1)),
    ({"value": 8, "owner": 1, "groups": [["2H", "6S"]]}, "hands[1]: seat 1 owns a build of 8",
     ("hands", 1)),
    ({"value": 10, "owner": 0, "groups": [["QH"], ["KH"]]}, "table.builds[0].groups[0]: court",
     ("table", "builds", 0, "groups", 0)),
])
def test_a_build_that_breaks_the_rules_is_refused_where_it_lies(build, words, path):
    with pytest.raises(StateError) as refused:
        GAMES["casino"].state_from_json(_build_position(build))
    assert str(refused.value).startswith(words) and refused.value.path == path


def test_a_card_twice_is_a_card_error_too():
    with pytest.raises(CardError) as refused:
        GAMES["casino"].state_from_json({"hands": [["AS", "5H"], ["5H"]]})
    assert isinstance(refused.value, StateError) and refused.value.path == ("cards",)


def test_determinize_keeps_a_builds_owner_holding_its_value_and_the_stock_size():
    state = GAMES["casino"].state_from_json(
        {"hands": [["8S", "3D"], ["8H", "2C"]], "to_play": 0,
         "table": {"loose": [], "builds": [{"value": 8, "owner": 1, "groups": [["2H", "6S"]]}]},
         "stock": ["4C", "5C", "6C", "7C", "9C", "10C", "JC", "QC"]})
    kept = 0
    for i in range(20):
        sample = state.determinize(0, random.Random(i)).export()
        assert any(c.startswith("8") for c in sample["hands"][1])
        assert len(sample["stock"]) == 8 and sample["hands"][0] == ["8S", "3D"]
        kept += sample["hands"][1] == ["8H", "2C"]
    assert kept < 20
