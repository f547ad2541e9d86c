"""The legal actions a server lists are encoded once per (action class, ``shown_key``,
language) (``views.legal_for``): the bytes are those of each action's JSON made afresh, in
the language in use, whatever the state it is listed in."""

from __future__ import annotations

import random

import pytest

from cardcore.language import speaking
from cardcore.services.net import views
from cardcore.services.net.protocol import frame
from cardcore.services.net.wire import action_json
from cardcore.services.plugins import load_registry

GAMES = load_registry().games


def mid_hand_states(game_id: str, seed: int, players: int = 4):
    """The states of a seeded random hand, one after each move."""
    game = GAMES[game_id]
    options = game.Options()
    sides = 2 if game.partnerships and players == 4 else players
    state = game.new_hand(game.seating(players, options, dealer=seed % players), options,
                          random.Random(seed), [0] * sides)
    rng = random.Random(seed)
    while not state.is_over:
        yield state.clone()
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def listed(state) -> bytes:
    seat = state.to_play
    return frame(views.legal_for(state, seat, state.zones(seat))[0])


@pytest.mark.parametrize("language", ["en", "id"])
@pytest.mark.parametrize("game_id", ["casino", "royal_casino", "canasta"])
def test_listed_actions_are_the_bytes_of_their_json_cached_or_not(game_id, language, monkeypatch):
    monkeypatch.setattr(views, "_ENCODED", {})
    with speaking(language):
        for seed in range(3):
            for state in mid_hand_states(game_id, seed):
                fresh = frame([action_json(a) for a in state.legal_actions()])
                assert listed(state) == fresh
                assert listed(state) == fresh  # from the cache


def test_each_language_and_each_thing_shown_gets_its_own_bytes(monkeypatch):
    monkeypatch.setattr(views, "_ENCODED", {})
    game = GAMES["casino"]
    # capturing 2H and 6S with the 8D: the same key (the same JSON) loose or as a build,
    # but its own targets
    loose, built = (game.state_from_json({"hands": [["8D", "10S"], ["8H", "KD"]], "table": table,
                                          "to_play": 0})
                    for table in ({"loose": ["2H", "6S", "KC"], "builds": []},
                                  {"loose": ["KC"], "builds": [{"value": 8, "owner": 1,
                                                                 "groups": [["2H", "6S"]]}]}))
    with speaking("en"):
        english = listed(loose)
        assert listed(built) == frame([action_json(a) for a in built.legal_actions()]) != english
    assert b'"targets":["table"]' in english and b'"targets":["build-0"]' in listed(built)
    with speaking("id"):
        indonesian = listed(loose)
        assert indonesian == frame([action_json(a) for a in loose.legal_actions()]) != english


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(views, "_ENCODED", {})
    monkeypatch.setattr(views, "ENCODED_MAX", 5)
    for state in mid_hand_states("casino", 0):
        listed(state)
        assert len(views._ENCODED) <= 5
