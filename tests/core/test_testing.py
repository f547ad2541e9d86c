"""The conformance kit passes a good game and catches each kind of broken one."""

import pytest

from cardcore.engine.testing import card_multiset, check_game
from cardcore_crazy_eights.game import CrazyEights, CrazyEightsState


def broken(name, **methods):
    """The example with ``methods`` replaced on its state."""
    return type(name, (CrazyEights,), {"State": type(name + "State", (CrazyEightsState,), methods)})()


@pytest.mark.slow
def test_check_game_passes_the_example(crazy_eights):
    report = check_game(crazy_eights, seeds=range(6))
    assert report.hands >= 18 and report.matches == 9 and report.decisions > 500


def test_it_catches_a_view_that_leaks_a_hand():
    def view(self, seat):
        data = CrazyEightsState.view(self, seat)
        data["hands"][(seat + 1) % self.players] = self.hands[(seat + 1) % self.players][:]
        return data

    with pytest.raises(AssertionError, match="leaks seat"):
        check_game(broken("Leaky", view=view), seeds=range(2))


def test_it_catches_a_view_that_leaks_the_stock_order():
    def view(self, seat):
        data = CrazyEightsState.view(self, seat)
        data["next_card_is_red"] = bool(self.stock) and self.stock[0][-1] in "HD"
        return data

    with pytest.raises(AssertionError, match="not the export's keys"):
        check_game(broken("StockLeak", view=view), seeds=range(3))


def test_it_catches_lost_cards():
    def apply(self, action):
        CrazyEightsState.apply(self, action)
        if action.to_json()["type"] == "draw" and self.stock:
            self.stock.pop()  # a card vanishes

    with pytest.raises(AssertionError, match="cards created or lost"):
        check_game(broken("Lossy", apply=apply), seeds=range(5))


def test_it_catches_an_illegal_action_that_changes_the_state():
    def apply(self, action):
        self.passes += 1  # changed before the legality check
        CrazyEightsState.apply(self, action)

    with pytest.raises(AssertionError, match="refused the action but a refused action changed"):
        check_game(broken("Sloppy", apply=apply), seeds=range(2))


def test_it_catches_a_shallow_clone():
    def clone(self):
        twin = CrazyEightsState.clone(self)
        twin.hands = self.hands
        return twin

    with pytest.raises(AssertionError, match="clone"):
        check_game(broken("Shallow", clone=clone), seeds=range(2))


def test_it_catches_legal_actions_that_read_the_stock():
    def legal_actions(self):
        actions = CrazyEightsState.legal_actions(self)
        if len(actions) > 1 and self.stock and self.stock[0][-1] in "HD":
            return actions[:-1]  # one action fewer when the next card is red: a peek
        return actions

    with pytest.raises(AssertionError, match="changed the legal actions of the seat to play"):
        check_game(broken("Peeking", legal_actions=legal_actions), seeds=range(3))


def test_it_catches_a_bad_total():
    def score(self):
        row = CrazyEightsState.score(self)
        row["sides"][0]["total"] += 1
        return row

    with pytest.raises(AssertionError, match="not the sum"):
        check_game(broken("BadTotal", score=score), seeds=range(2))


def test_card_multiset_ignores_options_and_non_cards():
    data = {"hands": [["AS", "10D"], [None]], "table": {"x": ["JK", "7"]}, "phase": "draw",
            "options": {"suit": "AS"}}
    assert card_multiset(data) == {"AS": 1, "10D": 1, "JK": 1}


def test_option_variants_move_each_field_off_its_default():
    from typing import Literal

    import pydantic

    from cardcore import GameOptions
    from cardcore.engine.testing import option_variants

    class Opts(GameOptions):
        target: int = pydantic.Field(50, ge=1)
        jokers: bool = False
        mode: Literal["a", "b"] = "a"
        size: int = pydantic.Field(3, ge=0, le=3)
        limit: int | None = None

    assert [o.model_dump(exclude_defaults=True) for o in option_variants(Opts)] == [
        {"target": 51}, {"jokers": True}, {"mode": "b"}, {"size": 2}, {"limit": 1}]
