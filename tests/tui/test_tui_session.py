"""The session layer on its own: the library, undo, resume, hot-seat privacy, replays."""

from __future__ import annotations

import json
import random

import pytest

from cardcore.apps.tui.session import Replay, Session, SessionSetup
from cardcore.engine import records
from cardcore.engine.bots import InfoSet
from cardcore.engine.bots.search import HardBot, MediumBot
from cardcore.services import files


def new_session(registry, seats=("human", "greedy"), game_id="crazy_eights", seed=3, **kw):
    game = registry.games[game_id]
    session = Session.new(registry, SessionSetup(game, game.Options(**kw), list(seats), seed))
    bots_play(session)
    return session


def bots_play(session):
    while session.to_play is not None and session.is_bot(session.to_play):
        session.bot_step()


def play_human(session):
    session.apply(session.legal_actions()[0])
    bots_play(session)


def test_new_match_goes_into_the_library_action_by_action(registry, cardcore_home):
    from cardcore.services.store import open_library

    s = new_session(registry)
    play_human(s)
    events = s.record_events()
    assert [e.event for e in events[:2]] == ["match_start", "deal"]
    assert any(e.event == "action" for e in events)
    lib = open_library()
    assert lib.load(s.match_id)["state"] == s.match.state.export()  # committed after each action
    assert lib.get(s.match_id).locked  # held by this session
    s.close()
    assert not lib.get(s.match_id).locked  # released when the table is left
    assert (cardcore_home / "library.sqlite").exists()
    assert not (cardcore_home / "records").exists() and not files.autosave_path().exists()
    lib.close()


def undoable(registry, **kw):
    """A session (and the position before the human's move) where the human's move drew
    nothing from the stock and no bot has replied yet (a bot's card would stop undo)."""
    for seed in range(3, 60):
        s = new_session(registry, seed=seed, **kw)
        before = s.match.state.export()
        log_before = len(s.log)
        s.apply(s.legal_actions()[0])
        if s.can_undo():
            return s, before, log_before
        s.close()
    raise AssertionError("no undoable move")


def test_undo_takes_back_own_move_and_records_it(registry):
    s, before, log_before = undoable(registry)
    assert s.match.state.export() != before
    assert s.can_undo()
    s.undo()
    assert s.match.state.export() == before
    assert len(s.log) == log_before
    assert s.to_play == 0
    s.close()
    undo = [e for e in s.record_events() if e.event == "undo"]
    assert len(undo) == 1 and undo[0].state == before and undo[0].seat == s.humans[0]
    # the library is back at the undone position
    assert Session.resume(registry, s.match_id).match.state.export() == before


def test_no_undo_between_humans(registry):
    s = new_session(registry, seats=("human", "human"))
    s.apply(s.legal_actions()[0])
    assert not s.can_undo()
    with pytest.raises(RuntimeError):
        s.undo()


def test_resume_continues_the_same_state(registry):
    s = new_session(registry)
    play_human(s)
    play_human(s)
    snapshot = s.match.snapshot()
    s.close()
    r = Session.resume(registry)  # the most recently played
    assert r.match_id == s.match_id
    assert r.match.snapshot() == snapshot
    assert [e.text for e in r.hand_log()] == [e.text for e in s.hand_log()]
    # the resumed match plays on exactly as the original would have
    play_human(r)
    s2 = Session(registry, s.match)
    play_human(s2)
    assert r.match.state.export() == s2.match.state.export()
    r.close()


def test_resume_refuses_bad_files(registry, cardcore_home, tmp_path):
    from cardcore.services.store import NoSuchMatch

    with pytest.raises(NoSuchMatch, match="no unfinished match"):
        Session.resume(registry)
    with pytest.raises(records.RecordError, match="no saved match"):
        Session.resume(registry, tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(records.RecordError):
        Session.resume(registry, bad)


def test_hot_seat_hides_hands_unless_revealed(registry):
    s = new_session(registry, seats=("human", "human"))
    seat = s.to_play
    assert s.needs_handover(None)
    viewer, zones = s.table(None)
    assert viewer is None
    assert all(c is None for z in zones if z.kind == "hand" for c in z.cards)
    viewer, zones = s.table(seat)
    assert viewer == seat
    mine = next(z for z in zones if z.kind == "hand" and z.seat == seat)
    assert mine.cards and all(c is not None for c in mine.cards)
    assert not s.needs_handover(seat)


def test_one_human_sees_own_hand_while_bots_play(registry):
    s = new_session(registry, seats=("human", "greedy", "greedy"))
    viewer, zones = s.table(None)
    assert viewer == 0
    hands = {z.seat: z.cards for z in zones if z.kind == "hand"}
    assert all(c is not None for c in hands[0])
    assert all(c is None for c in hands[1])


def test_a_bot_seat_refuses_a_human_move(registry):
    s = new_session(registry, seats=("greedy", "human"))
    s.apply(s.legal_actions()[0])  # seat 1 (human) to play after the bots
    if s.to_play is not None and s.is_bot(s.to_play):
        with pytest.raises(RuntimeError, match="bot"):
            s.apply(s.legal_actions()[0])


def test_bots_only_table_is_open(registry):
    s = new_session(registry, seats=("greedy", "random"))
    viewer, zones = s.table(None)
    assert viewer is None
    assert all(c is not None for z in zones if z.kind == "hand" for c in z.cards)


def test_hint_is_the_search_s_best_few_and_leaves_bot_streams_alone(registry):
    s = new_session(registry)
    rngs = json.dumps(s.match.snapshot()["bot_rngs"])
    best = s.hints(top=3)
    legal = s.legal_actions()
    assert 1 <= len(best) <= 3 and all(e.action in legal for e in best)
    assert len({e.action for e in best}) == len(best)
    assert [e.visits for e in best] == sorted((e.visits for e in best), reverse=True)
    assert all(isinstance(e.value, float) for e in best)
    assert s.hint() == best[0].action  # the same seed: the same search
    assert json.dumps(s.match.snapshot()["bot_rngs"]) == rngs


def test_search_bots_at_the_table_have_their_level_s_time_cap(registry):
    """A guard on a slow machine (a search it cuts short is logged); greedy has none."""
    game = registry.games["casino"]
    s = Session.new(registry, SessionSetup(game, game.Options(), ["medium", "hard", "greedy"], 3))
    assert s.bot(0).max_seconds == 1.0 and s.bot(1).max_seconds == 2.0
    assert not hasattr(s.bot(2), "max_seconds")


def test_replay_steps_through_a_record(registry):
    s, _, _ = undoable(registry, target=20)
    s.undo()
    play_human(s)
    with pytest.raises(records.RecordError, match="a match still in play with a human seat"):
        Replay.from_text(registry, s.record(), "match")
    while not s.over:
        play_human(s)
    s.close()
    replay = Replay.from_text(registry, s.record(), "match")
    assert replay.frames[0].text == "Hand 1 dealt"
    assert any(f.text == "Undo" for f in replay.frames)
    last = replay.frames[-1]
    assert last.state == s.match.finished_hand.export()
    assert all(c is not None for z in replay.zones(len(replay.frames) - 1) if z.kind == "hand"
               for c in z.cards)


def test_zone_titles_and_group_owners_carry_player_names():
    from cardcore.apps.tui.widgets.zones import TableInfo, render_zone
    from cardcore.engine.game import Group, Zone

    info = TableInfo(names=["Ann", "Bob"], side_names=["Ann", "Bob"])
    zone = Zone("table", "row", "Table", cards=[], groups=[Group("build-0", ["2H", "6S"], ["8"], seat=1)])
    text = render_zone(zone, info).plain
    assert "⟨2♥ 6♠⟩ 8 · Bob" in text
    captured = Zone("captured-0", "pile", "Captured", seat=0, side=0)
    assert render_zone(captured, info).plain.splitlines() == ["  Captured — Ann  (empty)"]


def test_picking_a_card_matches_actions_by_the_games_card_key(registry):
    from collections import Counter

    from cardcore.apps.tui.screens.table import matches

    canasta = registry.games["canasta"]
    state = canasta.state_from_json({
        "phase": "play", "to_play": 0, "hands": [["7S", "7H", "7D", "7C", "9C"], [], [], []],
        "melds": [[{"rank": "K", "cards": ["KS", "KH", "KD"]}], []],
        "initial_meld_done": [True, False]})
    melds = [a for a in state.legal_actions() if a.to_json()["type"] == "meld"]
    assert melds and all("7C" not in a.hand_cards for a in melds)  # the engine names 7S 7H 7D
    picked = Counter(["7C"])
    assert not any(matches(a, picked) for a in melds)  # exact cards: nothing
    assert all(matches(a, picked, canasta.card_key) for a in melds)  # any 7 is a 7
    assert not matches(melds[0], Counter(["9C"]), canasta.card_key)
    assert canasta.card_key("3H") == canasta.card_key("3D") != canasta.card_key("3S")
    casino = registry.games["casino"]
    assert casino.card_key("7C") != casino.card_key("7S")  # suits matter in casino


def test_replay_the_position_that_ends_the_match_has_its_score(registry):
    s = new_session(registry, seats=("greedy", "greedy"), seed=3, target=1)
    s.close()
    assert s.over
    replay = Replay.from_text(registry, s.record(), "match")
    assert replay.winner is not None
    assert replay.frames[-1].hand_over and not replay.frames[-2].hand_over
    assert "hand over" not in replay.frames[-1].text  # the move's own words, said once
    last = replay.sheets[-1]
    assert last.hands == s.match.sheet.hands and len(last.side_names) == 2
    assert not replay.sheets[-2].hands  # the position before it: nothing scored yet


def test_the_hint_is_the_hard_search_as_the_game_plays_it(registry):
    """docs/bots.md, "Hints": advice is hard's search (in Casino, medium searches less:
    "Spacing the fishing games' levels"), seeded by the match and the turn."""
    s = new_session(registry, game_id="casino", seed=4)
    while s.to_play is not None and s.is_bot(s.to_play):
        s.bot_step()
    seat = s.to_play
    assert seat == 0
    info = InfoSet.of(s.game, s.state, seat)

    def search(bot):
        rng = random.Random(f"hint:{s.match.seed}:{s.match.hand_no}:{s.match.decisions}")
        return [(e.action.key, round(e.value, 9), e.visits) for e in bot.analyse(info, rng, top=3)]

    found = [(e.action.key, round(e.value, 9), e.visits) for e in s.hints(top=3)]
    assert found == search(HardBot()) != search(MediumBot())
