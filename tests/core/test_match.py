import pytest

from cardcore import hookimpl
from cardcore.engine.bots import GreedyBot, RandomBot
from cardcore.engine.bots.play import play_bots
from cardcore.engine.match import Match
from cardcore.services.plugins import make_plugin_manager


def bots(n, cls=RandomBot):
    return {s: cls() for s in range(n)}


def played(game, seed=3, players=3, target=150, **kwargs):
    events = []
    match = Match(game, game.Options(target=target), seed=seed, players=players,
                  seats=["random"] * players, on_event=events.append, **kwargs)
    match.start()
    play_bots(match, bots(players))
    return match, events


def test_a_match_plays_hands_until_a_side_reaches_the_target(crazy_eights):
    match, events = played(crazy_eights)
    assert match.over and match.winner is not None
    totals = match.sheet.totals
    assert totals[match.winner] >= 150 and totals[match.winner] == max(totals)
    assert [e.event for e in events].count("hand_end") == len(match.sheet.hands) == match.hand_no
    assert events[0].event == "match_start" and events[-1].to_json() == {
        "event": "match_end", "winner": match.winner, "totals": totals}


def test_each_event_carries_only_its_own_keys(crazy_eights):
    _, events = played(crazy_eights)
    keys = {
        "match_start": {"event", "match", "game", "seed", "seats", "names", "side_names", "options",
                        "version"},
        "deal": {"event", "hand", "dealer", "state"},
        "action": {"event", "hand", "seat", "action", "label", "state"},
        "hand_end": {"event", "hand", "score", "totals"},
        "match_end": {"event", "winner", "totals"},
    }
    for e in events:
        assert set(e.to_json()) == keys[e.event]


def test_the_dealer_rotates_left_each_hand(crazy_eights):
    _, events = played(crazy_eights, players=3)
    dealers = [e.dealer for e in events if e.event == "deal"]
    assert len(dealers) >= 2
    assert all(b == (a + 1) % 3 for a, b in zip(dealers, dealers[1:], strict=False))


def test_running_totals_are_passed_to_new_hand(crazy_eights, monkeypatch):
    seen = []
    original = type(crazy_eights).new_hand

    def spy(self, seating, options, rng, totals):
        seen.append(list(totals))
        return original(self, seating, options, rng, totals)

    monkeypatch.setattr(type(crazy_eights), "new_hand", spy)
    match, events = played(crazy_eights)
    ends = [e.totals for e in events if e.event == "hand_end"]
    assert seen == [[0, 0, 0]] + ends[:-1]


def test_the_same_seed_gives_the_same_match_and_bots_never_change_the_deal(crazy_eights):
    a, ea = played(crazy_eights, seed=9)
    b, eb = played(crazy_eights, seed=9)
    assert ea == eb
    greedy = Match(crazy_eights, crazy_eights.Options(target=150), seed=9, players=3)
    deals = []
    greedy.on_event = lambda e: deals.append(e) if e.event == "deal" else None
    greedy.start()
    play_bots(greedy, bots(3, GreedyBot))
    random_deals = [e for e in ea if e.event == "deal"]
    common = min(len(deals), len(random_deals))
    assert common >= 2 and deals[:common] == random_deals[:common]


def test_hooks_fire_for_each_hand_and_the_match(crazy_eights):
    calls = []

    class Listener:
        @hookimpl
        def cardcore_hand_finished(self, match, row):
            calls.append(("hand", match.hand_no, row["sides"][0]["total"]))

        @hookimpl
        def cardcore_match_finished(self, match):
            calls.append(("match", match.winner))

    pm = make_plugin_manager()
    pm.register(Listener())
    match, _ = played(crazy_eights, pm=pm)
    assert [c[0] for c in calls] == ["hand"] * len(match.sheet.hands) + ["match"]
    assert calls[-1] == ("match", match.winner)


def test_max_hands_caps_the_match(crazy_eights):
    match, events = played(crazy_eights, target=2000, max_hands=2)
    assert match.over and match.winner is None and len(match.sheet.hands) == 2
    assert events[-1].event == "match_end"


def test_the_player_count_must_be_allowed(crazy_eights):
    with pytest.raises(ValueError, match="2, 3, 4 players, not 5"):
        Match(crazy_eights, seed=1, players=5)


def test_a_snapshot_resumes_exactly(crazy_eights):
    a = Match(crazy_eights, crazy_eights.Options(target=60), seed=4, players=2)
    a.start()
    players = bots(2, GreedyBot)
    from cardcore.engine.bots import InfoSet

    for _ in range(25):  # stop mid-hand, after bots consumed their random streams
        seat = a.to_play
        a.apply(players[seat].choose(InfoSet.of(crazy_eights, a.state, seat), a.bot_rng(seat)))
    b = Match.from_snapshot(crazy_eights, a.snapshot())
    assert b.snapshot() == a.snapshot()
    play_bots(a, players)
    play_bots(b, bots(2, GreedyBot))
    assert a.snapshot() == b.snapshot()
