import random

from cardcore.engine.bots import GreedyBot, InfoSet, RandomBot
from cardcore.services.plugins import load_registry


def position(game, hidden_order):
    data = {"players": 2, "dealer": 1, "to_play": 0,
            "hands": [["7H", "7S", "KH", "8C"], hidden_order[:3]],
            "stock": hidden_order[3:], "discard": ["7D"]}
    return game.state_from_json(data)


def test_bots_are_registered_through_the_hook():
    registry = load_registry()
    assert registry.bots["random"] is RandomBot and registry.bots["greedy"] is GreedyBot
    assert registry.origin["bot:greedy"][0] == "cardcore.bots"  # the plugin's name (relayout: keep)


def test_greedy_takes_the_best_heuristic(crazy_eights):
    state = position(crazy_eights, ["2C", "3C", "4C", "5C", "6C"])
    info = InfoSet.of(crazy_eights, state, 0)
    choice = GreedyBot().choose(info, random.Random(1))
    values = {}
    for a in state.legal_actions():
        after = state.clone()
        after.apply(a)
        values[a] = crazy_eights.heuristic(after, 0)
    assert values[choice] == max(values.values())
    # 7S and 7H shed as much; the first in the game's order wins; the eight is kept
    assert choice.to_json() == {"type": "play", "card": "7S"}


def test_bots_decide_from_the_view_alone(crazy_eights):
    """Two positions that differ only in hidden cards get the same choices."""
    a = position(crazy_eights, ["2C", "3C", "4C", "5C", "6C", "9D"])
    b = position(crazy_eights, ["9D", "6C", "QS", "5C", "3C", "2C"])
    assert a.view(0) == b.view(0) and a.export() != b.export()
    for bot in (GreedyBot(), RandomBot()):
        for seed in range(5):
            ca = bot.choose(InfoSet.of(crazy_eights, a, 0), random.Random(seed))
            cb = bot.choose(InfoSet.of(crazy_eights, b, 0), random.Random(seed))
            assert ca == cb


def test_an_info_set_offers_view_legal_actions_and_samples(crazy_eights):
    state = position(crazy_eights, ["2C", "3C", "4C", "5C", "6C"])
    info = InfoSet.of(crazy_eights, state, 0)
    assert info.view() == state.view(0)
    assert info.legal_actions() == state.legal_actions()
    sample = info.sample(random.Random(3))
    assert sample.view(0) == state.view(0)


def test_greedy_applies_the_samples_own_actions_and_scores_as_by_key():
    """Greedy applies the sample's own listing (the same actions in the same order), so a
    crowded casino table's thousands are not each looked up by key (9 s a decision for
    5,492 actions, benches/bots.py times); the values are those of the info set's
    actions applied by key."""
    from cardcore.engine.bots.greedy import scored
    from tests.core.test_bots_search import positions

    for game_id, players in (("casino", 2), ("royal_casino", 3), ("canasta", 4)):
        game = load_registry().game(game_id)
        for state in positions(game, players, 5, seed=6):
            info = InfoSet.of(game, state, state.to_play)
            sample = info.sample(random.Random(3))
            by_key = []
            for action in info.legal_actions():
                after = sample.clone()
                after.apply(action)
                by_key.append(float(game.heuristic(after, info.seat)))
            got = scored(info, random.Random(3))
            assert sorted(got, key=lambda p: info.legal_actions().index(p[0])) == \
                list(zip(info.legal_actions(), by_key, strict=True))
