"""Why a bot played its move: the reasons the table keeps, and that they show no hidden card."""

from __future__ import annotations

import random
import re

import pytest

from cardcore.apps.tui.session import Session, SessionSetup
from cardcore.engine.bots.base import InfoSet, unseen_cards
from cardcore.engine.bots.why import Choice, decide
from cardcore.engine.cards import glyph
from cardcore.services.bot_why import WHY_KEPT, explain, reason_of
from cardcore.services.plugins import load_registry
from cardcore.services.table_service import Refused


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def session_of(registry, game_id="casino", bot="greedy", seed=5):
    game = registry.games[game_id]
    return Session.new(registry, SessionSetup(game, game.Options(), ["human", bot], seed), save=False)


def bots_play(session):
    while session.to_play is not None and session.is_bot(session.to_play):
        session.bot_step()


def named(card: str, text: str) -> bool:
    """``card`` (notation) shows in ``text`` as a card ("3♦", not inside "13♦")."""
    return re.search(rf"(?<![\w♠♥♦♣]){re.escape(glyph(card))}(?![\w♠♥♦♣])", text) is not None


@pytest.mark.parametrize("bot", ["greedy", "easy", "random"])
def test_decide_plays_as_choose_does(registry, bot):
    """The same action and the same draws from the stream as ``choose``: a seeded match
    replays alike."""
    session = session_of(registry, bot=bot)
    if not session.is_bot(session.to_play):
        session.apply(session.legal_actions()[0])
    seat = session.to_play
    info = InfoSet.of(session.game, session.state, seat)
    made = registry.bots[bot]()
    a, b = random.Random(9), random.Random(9)
    choice = decide(made, info, a)
    assert choice.action == made.choose(info, b) and a.getstate() == b.getstate()
    assert bool(choice.estimates) == (bot == "greedy")
    if choice.estimates:
        assert choice.estimates[0][0] == choice.action
        values = [v for _, v in choice.estimates]
        assert values == sorted(values, reverse=True) and len(values) <= 3


def test_greedy_move_explained_in_a_players_words(registry):
    session = session_of(registry)
    bots_play(session)
    session.apply(session.legal_actions()[0])
    bots_play(session)
    last = next(e for e in reversed(session.log) if e.bot)
    reason = session.service.reasons[last.turn]
    why = session.service.why(None, 0)
    move = last.text.split(": ", 1)[1]
    assert why.turn == last.turn and why.seat == 1
    assert why.text.startswith(f"{session.name(1)} chose {move}: it expected about ")
    assert re.search(r"about [+-]?\d+\.\d points? for its side", why.text)
    assert why.estimates[0] == {"label": move, "value": round(reason.value, 1), "chosen": True}
    if reason.others:
        assert "; it also considered " in why.text and len(why.estimates) == 1 + len(reason.others)
    for word in ("visits", "samples", "iterations", "D3"):
        assert word not in why.text
    assert session.service.why(last.turn, 0) == why  # asked by its turn: the same
    assert last.to_json()["turn"] == last.turn


def test_a_bot_without_estimates_says_what_it_is(registry):
    session = session_of(registry, bot="easy")
    bots_play(session)
    session.apply(session.legal_actions()[0])
    bots_play(session)
    text = session.service.why(None, 0).text
    assert "is the Easy bot, which misses the best move about one time in three: it gives no " \
           "reasons." in text or "it had no other move" in text


def test_nothing_to_explain_is_refused(registry):
    session = session_of(registry, game_id="crazy_eights", seed=3)
    session.service.reasons.clear()
    with pytest.raises(Refused) as refused:
        session.service.why(None, 0)
    assert refused.value.code == "bad_field"
    with pytest.raises(Refused):
        session.service.why(10**6, 0)


def test_reasons_are_bounded_and_undo_forgets_the_moves_taken_back(registry):
    game = registry.games["crazy_eights"]
    session = Session.new(registry, SessionSetup(game, game.Options(), ["greedy", "random"], 4),
                          save=False)
    while session.to_play is not None and len(session.log) < WHY_KEPT + 10:
        session.bot_step()
    reasons = session.service.reasons
    assert len(reasons) == WHY_KEPT and max(reasons) == session.match.decisions - 1
    for seed in range(3, 60):  # a human move undo can take back (it showed no card)
        session = session_of(registry, game_id="crazy_eights", seed=seed)
        bots_play(session)
        turn = session.match.decisions
        session.apply(session.legal_actions()[0])
        if session.can_undo():
            break
    else:
        raise AssertionError("no undoable move")
    kept = dict(session.service.reasons)
    # the bot's reply, as if it had shown no card (undo takes it back with the human's move)
    session.service.reasons[turn + 1] = next(iter(kept.values()))
    session.undo()
    assert session.service.reasons == kept
    assert max(session.service.reasons, default=-1) < turn


def hidden_hand_never_named(registry, game_id: str, seed: int, moves: int) -> tuple[int, int]:
    """Play ``moves`` human moves against greedy; after each bot move, no card hidden from
    the human (or a spectator) shows in what they read. Returns how many candidates were
    named to the human and how many were not, each of those naming a card hidden from them
    (what the check would catch if they were named)."""
    session = session_of(registry, game_id=game_id, seed=seed)
    service = session.service
    shown = masked = 0
    for _ in range(moves):
        bots_play(session)
        if session.to_play is None:
            break
        turn = next(reversed(service.reasons), None)
        if turn is not None:
            reason = service.reasons[turn]
            state = session.state
            for asker in (0, None):
                hidden = unseen_cards(state, asker)
                why = service.why(turn, asker)
                said = why.text + " ".join(e["label"] for e in why.estimates)
                leaked = [c for c in hidden if named(c, said)]
                assert not leaked, (asker, leaked, why.text)
            before = service.last_bot.before if service.last_bot is not None else None
            for other in reason.others:
                if 0 in other.named_for:
                    shown += 1
                elif before is not None:  # it names a card the human had not seen then
                    masked += 1
                    assert [c for c in unseen_cards(before, 0) if named(c, other.label)], other
        session.apply(session.legal_actions()[0])
    return shown, masked


def test_a_hidden_card_of_the_bots_hand_never_shows_in_its_explanation(registry):
    shown, masked = hidden_hand_never_named(registry, "casino", 11, 12)
    # not vacuous: candidates naming the bot's hidden cards were there, and masked
    assert masked > 0 and shown >= 0


def test_a_candidate_naming_a_visible_card_only_is_named():
    class Fake:
        def __init__(self, data, label):
            self.data, self.label, self.key = data, label, (label,)
            self.hand_cards, self.table_cards, self.step = (), (), None

        def to_json(self):
            return self.data

        def __eq__(self, other):
            return self.key == other.key

    class State:
        def export(self):
            return {}

    played, seen, unseen = Fake({"c": "3D"}, "Trail 3♦"), Fake({"c": "4S"}, "Trail 4♠"), \
        Fake({"c": "KH"}, "Trail K♥")
    choice = Choice(played, ((played, 1.0), (seen, 0.5), (unseen, -0.25)))  # type: ignore[arg-type]

    class Bot:
        name, id, description = "Greedy", "greedy", ""

    import cardcore.services.bot_why as bot_why

    hidden = {0: {"KH": 1}, 1: {"4S": 1}, None: {"KH": 1, "4S": 1}}
    real = bot_why.unseen_cards
    bot_why.unseen_cards = lambda state, seat, export: hidden[seat]  # type: ignore[assignment]
    try:
        reason = reason_of(choice, Bot(), 1, 7, 1, State(), [0, 1, None])  # type: ignore[arg-type]
    finally:
        bot_why.unseen_cards = real
    assert explain(reason, "North", 0).text == ("North chose Trail 3♦: it expected about +1.0 "
                                                "point for its side; it also considered Trail 4♠ "
                                                "(about +0.5) and another trail (about -0.2).")
    assert "another trail (about +0.5) and another trail" in explain(reason, "North", None).text
