"""The table service (cardcore/services/table_service.py) and the one setup (cardcore/engine/match_setup.py):
a move's transaction, the log line, a rematch at a table here, setups checked in one place
whoever asks (the command line, a server's create_table)."""

from __future__ import annotations

import pytest

from cardcore.apps.cli import main
from cardcore.apps.tui.session import Session
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.game import IllegalAction, SimpleAction
from cardcore.engine.match_setup import MatchSetup, SetupError
from cardcore.engine.records import parse_record_lines
from cardcore.engine.replay import Rebuild
from cardcore.services.plugins import load_registry
from cardcore.services.table_service import MoveFailed, Refused, TableService, log_text


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def setup_of(registry, game="crazy_eights", seats=("human", "greedy"), **fields):
    return MatchSetup(game=game, seats=list(seats), **fields).check(registry)


def finish(session: Session) -> None:
    while not session.over:
        if session.is_bot(session.to_play):
            session.bot_step()
        else:
            session.apply(session.legal_actions()[0])


def test_a_move_that_raises_leaves_match_log_and_library_as_they_were(registry):
    match = setup_of(registry, seed=4).new_match()
    service = TableService.new(registry, match)
    seat = service.to_play
    before, log_before = match.snapshot(), list(service.log)
    with pytest.raises(IllegalAction):
        service.play(seat, SimpleAction({"type": "nonsense"}, "nonsense"))
    assert match.snapshot() == before and service.log == log_before

    legal = match.legal_actions()[0]
    with pytest.raises(RuntimeError), match.transaction() as held:  # anything raising inside
        match.apply(legal)
        assert held  # the move's events were held back...
        raise RuntimeError("the game's code failed")
    assert match.snapshot() == before  # ...and dropped with the move

    def broken(*_args):
        raise ZeroDivisionError("a plugin's bug")

    state = match.live_state()
    state.apply = broken  # type: ignore[method-assign]
    with pytest.raises(MoveFailed, match="ZeroDivisionError"):
        service.play(seat, legal)
    assert match.snapshot() == before and service.log == log_before


def test_a_move_from_the_network_is_checked_in_the_service(registry):
    service = TableService.new(registry, setup_of(registry, seats=("human", "human"), seed=4).new_match(),
                               undo_allowed=False)
    seat = service.to_play
    other = 1 - seat
    action = service.match.legal_actions()[0].to_json()
    for call, code in [((other, action, 0), "not_your_turn"), ((seat, action, 5), "stale"),
                       ((seat, {"type": "fly"}, 0), "illegal_action")]:
        with pytest.raises(Refused) as refused:
            service.act(*call)
        assert refused.value.code == code
    assert service.match.decisions == 0
    events = service.act(seat, action, 0)
    assert events[0].event == "action"
    assert service.log[-1].text == log_text(service.name(seat), events[0].label)


def test_a_stand_in_plays_an_absent_seat_and_its_turns_are_marked(registry):
    service = TableService.new(registry, setup_of(registry, seats=("human", "human"), seed=4).new_match())
    seat = service.to_play
    assert service.bot_to_play() is None
    service.set_away(seat, True)
    assert service.bot_to_play() == seat
    bot, info, rng = service.bot_turn(seat)
    assert isinstance(info, InfoSet) and info.seat == seat
    service.play(seat, bot.choose(info, rng), bot=True)
    assert service.standin_turns == [0] and service.log[-1].bot


def test_a_rematch_here_keeps_seats_names_sides_and_options_and_moves_the_deal_on(registry):
    setup = setup_of(registry, game="casino", seats=("human", "greedy", "human", "random"),
                     names=["Ann", "Bob", "Cy", "Di"], side_names=["Us", "Them"], seed=8,
                     options={"target": 11})
    first = Session.new(registry, setup)
    finish(first)
    last_dealer = first.dealer
    assert first.can_rematch
    second = first.rematch()
    assert first.play is None  # the first match was left (its lock released)
    match = second.match
    assert match.seats == ["human", "greedy", "human", "random"]
    assert second.names == ["Ann", "Bob", "Cy", "Di"] and second.side_names == ["Us", "Them"]
    assert match.options == first.match.options and match.seed != first.match.seed
    assert second.dealer == (last_dealer + 1) % 4 and match.hand_no == 1 and not match.over
    assert second.match_id is not None and second.match_id != first.match_id
    start = second.record_events()[0]
    assert start.first_dealer == second.dealer and start.seed == match.seed
    rebuilt = Rebuild(setup.game, parse_record_lines(second.record(), "the rematch")).run()
    assert rebuilt.snapshot() == match.snapshot()  # its record replays, the dealer moved on
    assert second.store.get(first.match_id).finished
    second.close()


def test_a_rematch_after_a_draw_for_partners_keeps_the_pairs_as_drawn(registry):
    setup = setup_of(registry, game="canasta", seats=("greedy",) * 4, names=["A", "B", "C", "D"],
                     draw_for_partners=True, seed=2, options={"target": 100}, humans_allowed=False)
    first = Session.new(registry, setup, save=False)
    finish(first)
    drawn = first.names
    second = first.rematch()
    assert second.names == drawn and second.side_names == first.side_names
    assert second.match.draw is None  # no second draw: the partners stay


def test_a_rematch_comes_only_after_the_end(registry):
    service = TableService.new(registry, setup_of(registry, seed=1).new_match())
    with pytest.raises(Refused, match="once the match is over"):
        service.rematch()


BAD_SETUPS = [
    ({"game": "poker", "seats": ["human", "greedy"]}, "no game 'poker'"),
    ({"game": "casino", "seats": ["human"] * 5}, "players, not 5"),
    ({"game": "casino", "seats": ["human", "wizard"]}, "unknown seat 'wizard'"),
    ({"game": "casino", "seats": ["human", "human"], "options": {"target": -3}}, "bad option for casino"),
    ({"game": "casino", "seats": ["human", "human"], "options": {"nope": 1}}, "bad option for casino"),
    ({"game": "casino", "seats": ["human", "human"], "names": ["a"]}, "1 names for 2 seats"),
    ({"game": "casino", "seats": ["human"] * 4, "side_names": ["a"]}, "1 side names for 2 sides"),
    ({"game": "casino", "seats": ["human", "human"], "first_dealer": 2}, "no seat 3 to deal"),
]


@pytest.mark.parametrize(("fields", "message"), BAD_SETUPS)
def test_a_bad_setup_is_one_line_whoever_asks(registry, fields, message):
    with pytest.raises(SetupError) as refused:
        MatchSetup.of(**fields).check(registry)
    assert message in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("name", ["", "x" * 25, "Ann\x1b[31m", "Bob\u202e"])
def test_names_are_short_plain_text(name):
    with pytest.raises(SetupError, match="names"):
        MatchSetup.of(game="casino", seats=["human", "human"], names=[name, "Bob"])


def test_the_command_line_says_what_the_setup_says(registry, capsys):
    # one check: `cardcore simulate` and a server's create_table refuse a bot seat alike
    assert main(["simulate", "casino", "--matches", "1", "--seats", "greedy,wizard"]) == 2
    err = capsys.readouterr().err.strip()
    with pytest.raises(SetupError) as refused:
        MatchSetup.of(game="casino", seats=["greedy", "wizard"], humans_allowed=False).check(registry)
    assert err == f"cardcore: error: {refused.value}"


def test_a_seed_not_given_is_drawn_once_and_is_the_matchs(registry):
    setup = setup_of(registry)
    assert isinstance(setup.seed, str) and len(setup.seed) == 32  # 128 bits nobody chose
    match = setup.new_match()
    assert match.seed == setup.seed == setup.request().seed
    rng_games = {MatchSetup(game="casino", seats=["human", "human"]).check(registry).seed for _ in range(5)}
    assert len(rng_games) > 1
