"""Undo never lets a player peek (cardcore/services/table_service.py's ``reveal_of``): a move
of another seat that showed the human a card it had not seen is a barrier undo stops at, in
every game; a move that showed nothing new is not; the human's own moves since stay undoable."""

from __future__ import annotations

from collections import Counter

import pytest

from cardcore.engine.cards import canasta_deck
from cardcore.engine.game import Zone
from cardcore.engine.match_setup import MatchSetup
from cardcore.services.plugins import load_registry
from cardcore.services.table_service import TableService, reveal_of, zone_cards


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def table(registry, game: str, seats=("human", "greedy"), seed: int = 42) -> TableService:
    match = MatchSetup(game=game, seats=list(seats), seed=seed).check(registry).new_match()
    return TableService.new(registry, match)


def at(service: TableService, position: dict) -> TableService:
    """``service`` with its hand replaced by ``position`` (``state_from_json``), kept as the
    position undo goes back to."""
    service.match.state = service.game.state_from_json(position)
    service.commit_position([])
    return service


def faces(service: TableService, seat: int = 0) -> Counter[str]:
    return Counter(c for z in service.match.state.zones(seat) for c in zone_cards(z) if c)


def action(service: TableService, **json) -> object:
    return next(a for a in service.match.legal_actions()
                if all(a.to_json().get(k) == v for k, v in json.items()))


# --- casino and royal casino: every card a bot plays comes from its hidden hand ----------------


@pytest.mark.parametrize("game", ["casino", "royal_casino"])
def test_a_bots_card_from_its_hand_stops_undo_and_the_humans_move_before_stays(registry, game):
    service = table(registry, game)
    while service.bot_to_play() is not None:
        service.bot_step()
    start = service.match.snapshot()
    service.play(0, service.match.legal_actions()[-1])
    assert service.why_no_undo() is None  # the human's own move, before any reply
    seen = faces(service)
    reply = service.bot_step()
    shown = faces(service) - seen
    assert shown, "the bot's reply showed a card from its hand"
    why = service.why_no_undo()
    assert why is not None and why.startswith("Nothing to undo: undo stops at ")
    assert f"({reply.label}): a card you had not seen" in why
    after = service.match.snapshot()
    with pytest.raises(RuntimeError):
        service.undo()
    assert service.match.snapshot() == after != start  # the bot's card stays where it is


def test_the_testers_casino_seed_42_the_bots_build_is_not_taken_back(registry):
    service = table(registry, "casino")
    assert service.bot_step().label == "Trail J♥"
    trail = service.match.legal_actions()[4]
    assert trail.label == "Trail 6♥"
    service.play(0, trail)
    assert service.bot_step().label == "Build 10: 4♥ on 6♥"
    after = service.match.snapshot()
    assert "(Build 10: 4♥ on 6♥): a card you had not seen" in (service.why_no_undo() or "")
    with pytest.raises(RuntimeError):
        service.undo()
    assert service.match.snapshot() == after and faces(service)["4H"] == 1


# --- canasta: a card from the hand shows; the pile taken onto a meld shows nothing ------------


def canasta_before_the_bots_turn(registry) -> TableService:
    """Seat 0 (human) about to discard K♣; seat 1 (greedy) melds kings, so it can take the
    pile onto them with no card from its hand; every card of the pile is face up."""
    position = {
        "players": 2, "dealer": 1, "to_play": 0, "phase": "play",
        "hands": [["KC", "5H", "6H", "9C"], ["4H", "5S", "7D", "8C", "QH"]],
        "discard": ["9D", "6S"], "melds": [[], [{"rank": "K", "cards": ["KS", "KH", "KD"]}]],
        "initial_meld_done": [False, True], "has_melded": [False, True],
    }
    top = ["4C", "5C", "6C", "8C", "9S", "10S"]  # drawn from the end: 10♠ first
    placed = [*top, *position["discard"], *(c for h in position["hands"] for c in h),
              *(c for m in position["melds"][1] for c in m["cards"])]
    # a whole deck (undo restores strictly): what the stock cannot hold lies face up under
    # the pile's two cards, plain cards only (a wild card or a three would freeze it)
    rest = sorted((Counter(canasta_deck()) - Counter(placed)).elements(),
                  key=lambda c: c != "JK" and c[:-1] not in ("2", "3"))
    room = 77 - len(top)
    under = rest[room:]
    return at(table(registry, "canasta"), {**position, "stock": [*rest[:room], *top],
                                           "discard": [*under, *position["discard"]]})


def test_canasta_the_pile_taken_onto_a_meld_shows_nothing_new_undo_takes_it_back(registry):
    service = canasta_before_the_bots_turn(registry)
    start = service.match.snapshot()
    service.play(0, action(service, type="discard", card="KC"))
    seen = faces(service)
    service.play(1, action(service, type="take_pile", onto="K"), bot=True)
    assert not faces(service) - seen  # the pile went into the bot's hand, face down
    assert service.why_no_undo() is None
    service.undo()  # the bot's take and the human's discard, back to the start
    assert service.match.snapshot()["state"] == start["state"]


def test_canasta_a_bots_discard_from_its_hand_stops_undo(registry):
    service = canasta_before_the_bots_turn(registry)
    service.play(0, action(service, type="discard", card="KC"))
    service.play(1, action(service, type="take_pile", onto="K"), bot=True)
    service.play(1, action(service, type="discard", card="QH"), bot=True)
    why = service.why_no_undo() or ""
    assert "(Discard Q♥): a card you had not seen" in why
    with pytest.raises(RuntimeError):
        service.undo()
    assert service.match.state.export()["discard"] == ["QH"]


def test_canasta_a_bots_draw_from_the_stock_stops_undo(registry):
    service = canasta_before_the_bots_turn(registry)
    service.play(0, action(service, type="discard", card="KC"))
    service.play(1, action(service, type="draw"), bot=True)
    assert "(Draw from the stock): a card taken from the stock" in (service.why_no_undo() or "")


def test_the_humans_own_moves_after_a_barrier_are_undoable_back_to_it(registry):
    service = canasta_before_the_bots_turn(registry)
    service.play(0, action(service, type="discard", card="KC"))
    service.play(1, action(service, type="draw"), bot=True)
    while service.to_play == 1:
        service.bot_step()
    service.play(0, action(service, type="draw"))  # the human's own draw: a barrier too
    at_barrier = service.match.snapshot()
    discard = next(a for a in service.match.legal_actions() if a.to_json()["type"] == "discard")
    service.play(0, discard)
    assert service.why_no_undo() is None
    service.undo()
    assert service.match.snapshot()["state"] == at_barrier["state"]
    assert "Nothing to undo: undo stops at a card taken from the stock" in (service.why_no_undo() or "")


# --- hot-seat: each human's own view -----------------------------------------------------------


def test_hot_seat_a_card_shown_to_the_other_human_only_is_a_barrier(registry):
    service = table(registry, "casino", seats=("human", "human"))
    if service.to_play == 1:
        service.play(1, service.match.legal_actions()[-1])
    service.undo_barrier = None  # what seat 0's move below leaves
    before = service.match.live_state().clone()
    service.play(0, service.match.legal_actions()[-1])
    assert reveal_of(before, service.match.state, 0) is None  # seat 0 knew its own card
    assert reveal_of(before, service.match.state, 1) == "a card you had not seen"
    assert service.undo_barrier and "a card you had not seen" in service.undo_barrier
    assert "between human players" in (service.why_no_undo() or "")


# --- the rule itself, on zones alone -----------------------------------------------------------


class Seen:
    """A position as a seat sees it: zones only (the rule reads nothing else)."""

    def __init__(self, *zones: Zone):
        self._zones = list(zones)

    def view(self, seat: int) -> dict:
        return {}

    def zones(self, seat: int) -> list[Zone]:
        return self._zones


def test_a_double_decks_card_played_onto_its_face_down_twin_still_shows(registry):
    def pile(*cards):
        return Zone("pile", "pile", "Pile", cards=list(cards))

    def bot_hand(n):
        return Zone("hand-1", "hand", "Hand", seat=1, cards=[None] * n)

    before = Seen(bot_hand(5), pile(None, "4H"))
    onto_twin = Seen(bot_hand(4), pile(None, None, "4H"))  # the old 4♥ went face down
    assert reveal_of(before, onto_twin, 0) == "a card you had not seen"  # type: ignore[arg-type]
    face_down = Seen(bot_hand(4), pile(None, "4H"), Zone("crib", "pile", "Crib", cards=[None]))
    assert reveal_of(before, face_down, 0) is None  # type: ignore[arg-type]
