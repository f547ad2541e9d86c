"""D47: the discard pile kept squared (only its top card and its size seen) or browsed
(``browse_pile``), for every seat, spectators, the zones and the bots' information sets."""

import random
from collections import Counter

import pytest

from cardcore.apps.cli import main
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.testing import check_game
from cardcore.services.net.views import spectator_zones
from cardcore_canasta.rules import FREEZES, TEXT_ID, CanastaOptions

from .helpers import GAME

#: A draw-phase position for seat 0: a frozen pile of six (a deuce under a natural top).
FROZEN = {"dealer": 3, "to_play": 0, "phase": "draw",
          "hands": [["7H", "7S", "9C"], ["6S", "8S"], ["9S", "QD"], ["KS"]],
          "stock": ["4C", "5C", "6C", "8C", "JD", "3H"],
          "discard": ["KC", "9H", "2C", "5D", "AH", "7D"],
          "melds": [[{"rank": "K", "cards": ["KH", "KD", "KS"]}], []]}
#: The same without the deuce: the pile is not frozen.
UNFROZEN = {**FROZEN, "discard": ["KC", "9H", "5D", "AH", "7D"],
            "stock": ["4C", "5C", "6C", "8C", "JD", "2C", "3H"]}


def _state(data, browse):
    return GAME.state_from_json({**data, "options": {"browse_pile": browse}})


def _pile_zone(zones):
    return next(z for z in zones if z.id == "discard")


def test_d47_a_squared_pile_shows_only_its_top_card_and_size():
    st = _state(FROZEN, False)
    for seat in (0, 1, 2, 3, None):
        view = st.view(seat)
        assert view["discard"] == [None] * 5 + ["7D"] and view["frozen"] is True, seat
        zone = _pile_zone(spectator_zones(st) if seat is None else st.zones(seat))
        # why it is frozen, in the rules' words: the crosswise card does not say which froze it
        assert zone.cards == [None, "7D"], seat
        assert zone.badges == ["frozen: a wild card or a three in it", "6 cards"], seat
    assert st.export()["discard"] == FROZEN["discard"]  # the state itself keeps the pile


def test_d47_by_default_the_whole_pile_is_shown_to_everyone():
    assert CanastaOptions().browse_pile is True
    st = GAME.state_from_json(FROZEN)
    for seat in (0, 1, 2, 3, None):
        assert st.view(seat)["discard"] == FROZEN["discard"], seat
        zone = _pile_zone(spectator_zones(st) if seat is None else st.zones(seat))
        assert zone.cards == FROZEN["discard"], seat
        assert zone.badges == ["frozen: 2♣ in it", "6 cards"], seat  # the card seen that froze it


def test_d47_a_pile_of_one_card_is_its_top_card():
    st = _state({**UNFROZEN, "discard": ["7D"], "stock": UNFROZEN["stock"] + ["KC", "9H", "5D", "AH"]},
                False)
    assert st.view(1)["discard"] == ["7D"] and _pile_zone(st.zones(1)).cards == ["7D"]


def test_d47_the_option_is_listed_by_rules_canasta(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["rules", "canasta"]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    assert "browse_pile (default true; true or false): anyone may look through the whole discard" in flat
    assert ("Anyone may look through the whole pile, so the cards a player takes with it are "
            "known to all: they show in that hand while it holds them." in flat)
    assert main(["rules", "canasta", "--option", "browse_pile=false"]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    assert "The pile is kept squared: only its top card and how many cards it holds are seen" in flat


@pytest.mark.parametrize("data", [FROZEN, UNFROZEN], ids=["frozen", "unfrozen"])
def test_d47_the_bots_info_set_follows_the_squared_pile(data):
    """The info set holds the pile as the view does; its samples deal the hidden pile cards
    again, the pile staying frozen or not; a pile dealt differently under the same top card
    gives the same info set (so a bot plays the same)."""
    st = _state(data, False)
    info = InfoSet.of(GAME, st, 0)
    assert info.view()["discard"] == st.view(0)["discard"]
    freezes = FREEZES[True]
    seen_under = set()
    for i in range(12):
        sample = info.sample(random.Random(i))
        assert sample.view(0) == st.view(0)
        under = sample.export()["discard"][:-1]
        seen_under.add(tuple(under))
        frozen_cards = [c for c in under if freezes[TEXT_ID[c]]]
        assert bool(frozen_cards) == (data is FROZEN), under
    assert len(seen_under) > 1  # dealt again, not the truth each time
    # the pile's hidden cards swapped with the stock's: another position, the same info set
    other = dict(data, discard=[data["stock"][0], *data["discard"][1:]],
                 stock=[data["discard"][0], *data["stock"][1:]])
    twin = InfoSet.of(GAME, _state(other, False), 0)
    assert twin.view() == info.view() and twin.canonical().export() == info.canonical().export()


def test_d47_determinize_keeps_red_threes_out_of_hands_and_counts():
    st = _state(FROZEN, False)
    cards = Counter(c for z in ("hands", "stock", "discard") for part in
                    ([st.export()[z]] if z != "hands" else st.export()[z]) for c in part)
    for i in range(30):
        sample = st.determinize(1, random.Random(i)).export()
        assert all("3H" not in h and "3D" not in h for h in sample["hands"])
        got = Counter(c for z in ("hands", "stock", "discard") for part in
                      ([sample[z]] if z != "hands" else sample[z]) for c in part)
        assert got == cards and sample["frozen"] and sample["discard"][-1] == "7D"
        assert [len(h) for h in sample["hands"]] == [3, 2, 2, 1] and sample["hands"][1] == ["6S", "8S"]


@pytest.mark.slow
@pytest.mark.parametrize("browse", [False, True])
def test_d47_hidden_information_checks_for_both_settings(browse):
    """The engine's conformance checks (views, zones, spectators, determinize) with the pile
    squared and browsed, every player count."""
    report = check_game(GAME, seeds=range(2), max_hands=1, deep_every=2, variants=False,
                        options=CanastaOptions(browse_pile=browse))
    assert report.hands >= 6


def test_d47_the_table_draws_the_squared_pile_face_down_under_its_top_card():
    from cardcore.apps.tui.marks import TableInfo
    from cardcore.apps.tui.widgets.cards import FACE_DOWN
    from cardcore.apps.tui.widgets.zones import render_zone

    info = TableInfo(names=["South", "West", "North", "East"], side_names=["NS", "EW"])
    squared = render_zone(_pile_zone(_state(FROZEN, False).zones(0)), info).plain
    browsed = render_zone(_pile_zone(_state(FROZEN, True).zones(0)), info).plain
    assert squared.splitlines()[1].split() == [FACE_DOWN, "7♦"] and "[6 cards]" in squared
    assert browsed.splitlines()[1].split() == ["K♣", "9♥", "2♣", "5♦", "A♥", "7♦"]
