"""Score rows with counts and notes (``Scores``), and the kit's two match rules: to a points
target (the default) and first to N hands won (``FirstToHands``), with the card points
shown under each hand's result."""

from __future__ import annotations

import io
from typing import Any

import pydantic
import pytest
from rich.console import Console

from cardcore import GameOptions, IllegalAction, SimpleAction
from cardcore.apps.tui.widgets.sheet import score_table
from cardcore.engine.cards import forty_card_deck
from cardcore.engine.deal import deal, one_at_a_time, shuffled
from cardcore.engine.game import Action, ScoreRow
from cardcore.engine.kit import (
    HIDDEN,
    OWNER,
    POINTS_TARGET,
    CardGame,
    CardGameState,
    Cards,
    FirstToHands,
    Scores,
    most,
)
from cardcore.engine.match import Match
from cardcore.engine.scoresheet import ScoreSheet, shown_extras
from cardcore.engine.seating import Seating
from cardcore.engine.testing import check_game

TWO = Seating(2)
PAIRS = Seating(4, partnerships=True)


# --- Scores: counts, notes, a hand won ------------------------------------------------------


def test_counts_and_notes_go_in_the_row_per_side_pooled_by_partners():
    row = (Scores(PAIRS).most("cards", [12, 3, 10, 2], 3, per_seat=True, counted=True)
           .each("sweeps", [1, 2], counted=True)
           .count("aces", [["AS"], ["AH", "AD"], [], []], per_seat=True)
           .count("card_points", [30, 5, 10, 0], per_seat=True)
           .note(1, "capped at 20").row())
    assert row == {"sides": [
        {"seats": [0, 2], "items": {"cards": 3, "sweeps": 1}, "total": 4,
         "counts": {"cards": 22, "sweeps": 1, "aces": ["AS"], "card_points": 40}},
        {"seats": [1, 3], "items": {"cards": 0, "sweeps": 2}, "total": 2,
         "counts": {"cards": 5, "sweeps": 2, "aces": ["AH", "AD"], "card_points": 5},
         "note": "capped at 20"}]}


def test_a_tie_for_most_still_shows_what_was_counted():
    row = Scores(TWO).most("cards", [20, 20], 3, counted=True).row()
    assert [(s["items"], s["counts"]) for s in row["sides"]] == [({"cards": 0}, {"cards": 20})] * 2


def test_a_hand_won_scores_1_to_its_side_and_nobody_on_a_draw():
    row = Scores(TWO).won(1).count("card_points", [48, 72]).row(end="stock")
    assert row == {"sides": [{"seats": [0], "items": {"won": 0}, "total": 0, "counts": {"card_points": 48}},
                             {"seats": [1], "items": {"won": 1}, "total": 1, "counts": {"card_points": 72}}],
                   "end": "stock"}
    drawn = Scores(TWO).won(None).row()
    assert [s["total"] for s in drawn["sides"]] == [0, 0]
    assert Scores(TWO).won(0).labels == {"won": "hand won"}


def test_a_row_without_counts_is_todays_and_rows_edit_as_dicts():
    scores = Scores(TWO).add("cards_left", [0, 14])
    row = scores.row()
    assert row == {"sides": [{"seats": [0], "items": {"cards_left": 0}, "total": 0},
                             {"seats": [1], "items": {"cards_left": 14}, "total": 14}]}
    row["sides"][0]["counts"] = {"cards": 3}  # today's way still works on the dict
    counted = Scores(TWO).count("aces", [["AS"], []])
    first = counted.row()
    first["sides"][0]["counts"]["aces"].append("AH")
    first["sides"][1]["counts"]["sweeps"] = 2
    assert counted.row()["sides"][0]["counts"] == {"aces": ["AS"]}  # nothing shared
    assert counted.row()["sides"][1]["counts"] == {"aces": []}


@pytest.mark.parametrize(("build", "message"), [
    (lambda s: s.won(2), "no side 2 of 2"),
    (lambda s: s.count("points", [1, 2, 3]), "3 values for 2 sides"),
    (lambda s: s.count("aces", ["AS", "AH"], per_seat=True), "4 seats"),
])
def test_bad_counts_are_refused_in_one_line(build, message):
    with pytest.raises(ValueError, match=message):
        build(Scores(TWO) if "seats" not in message else Scores(PAIRS))
    with pytest.raises(ValueError, match="ints or lists"):
        Scores(PAIRS).count("who", ["a", "b", "c", "d"], per_seat=True)


# --- the match rules ---------------------------------------------------------------------


def sheet_of(*totals: tuple[int, ...], target: int) -> ScoreSheet:
    rows: list[ScoreRow] = [{"sides": [{"seats": [s], "items": {"won": t}, "total": t}
                                       for s, t in enumerate(row)]} for row in totals]
    return ScoreSheet(["North", "East", "South"][:len(totals[0])], target, rows)


def test_the_points_target_and_first_to_n_hands_won():
    hands = FirstToHands()
    assert POINTS_TARGET.winner(sheet_of((20, 19), target=21), 21) is None
    assert POINTS_TARGET.winner(sheet_of((20, 19), (1, 4), target=21), 21) == 1
    assert POINTS_TARGET.winner(sheet_of((21, 21), target=21), 21) is None  # equal highest play on
    assert hands.winner(sheet_of((1, 0, 0), (0, 1, 0), (0, 0, 0), target=2), 2) is None
    assert hands.winner(sheet_of((1, 0, 0), (0, 1, 0), (0, 1, 0), target=2), 2) == 1
    assert (POINTS_TARGET.says(21), hands.says(3), hands.says(1)) == (
        "to 21 points", "first to 3 hands won", "first to 1 hand won")
    assert (POINTS_TARGET.goal(21), hands.goal(3)) == ("target 21", "first to 3 hands won")


def test_first_to_hands_shows_the_counts_it_names_and_nothing_else():
    rule = FirstToHands(shown=("card_points",))
    row = Scores(TWO).won(0).count("card_points", [61, 59]).count("tricks", [6, 4]).row()
    [(extra, values)] = shown_extras(row, rule.extras())
    assert (extra.key, extra.stats, values) == ("card_points", False, [61, 59])
    old: ScoreRow = {"sides": [{"seats": [0], "items": {"won": 1}, "total": 1},
                               {"seats": [1], "items": {"won": 0}, "total": 0}]}
    assert shown_extras(old, rule.extras()) == []  # a row without counts says nothing


# --- a short match first to N hands (a Briscola-like duel: the most card points wins) ----


POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}


class DuelOptions(GameOptions):
    target: int = pydantic.Field(3, ge=1, description="hands won that win the match")


class DuelState(CardGameState):
    game_id = "duel"
    deck = tuple(forty_card_deck())
    parts = {"hands": Cards(per="seat", shown=OWNER), "stock": Cards(shown=HIDDEN),
             "taken": Cards(per="seat")}
    hands: list[list[str]]
    stock: list[str]
    taken: list[list[str]]

    def legal_actions(self) -> list[Action]:
        if self.to_play is None:
            return []
        return [SimpleAction({"type": "play", "card": c}, f"Play {c}", (c,))
                for c in self.hands[self.to_play]]

    def apply(self, action: Action) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"not a legal move now: {action.to_json()}")
        seat = self.to_play
        assert seat is not None
        card = action.to_json()["card"]
        self.hands[seat].remove(card)
        self.taken[seat].append(card)
        nxt = self.seating.next(seat)
        self.to_play = nxt if self.hands[nxt] else None

    def score(self) -> ScoreRow:
        points = [sum(POINTS.get(c[:-1], 0) for c in cards) for cards in self.taken]
        return Scores(self.seating).won(most(points)).count("card_points", points).row()


class Duel(CardGame):
    id = "duel"
    name = "Duel"
    description = "The most card points wins the hand; first to three hands."
    player_counts = (2, 3)
    Options = DuelOptions
    State = DuelState
    match_rule = FirstToHands(shown=("card_points",))

    def rules(self, options: Any) -> str:
        return f"Play your cards; the most card points wins the hand; {self.match_rule.says(options.target)}."

    def new_hand(self, seating: Seating, options: Any, rng: Any, totals: list[int]) -> CardGameState:
        stock = shuffled(forty_card_deck(), rng)
        hands, _ = deal(stock, one_at_a_time(seating.deal_order(), 3), seating.players)
        return self.State(seating, options, seating.leader, hands=hands, stock=stock)


def played_duel(seed: int) -> Match:
    match = Match(Duel(), seed=seed, players=2, max_hands=40)
    match.start()
    while not match.over:
        match.apply(match.legal_actions()[0])
    return match


def test_a_match_first_to_3_hands_ends_when_a_side_has_won_3():
    match = played_duel(6)
    rows, running = match.sheet.hands, match.sheet.running()
    # hand 2 is drawn (nobody scores), at 2-2 it plays on, the third hand won ends it
    assert running == [[0, 1], [0, 1], [1, 1], [1, 2], [2, 2], [3, 2]]
    assert match.winner == 0 and match.over
    for row in rows:
        points = [side["counts"]["card_points"] for side in row["sides"]]
        won = [side["items"] for side in row["sides"]]
        assert won == [{"won": int(side == most(points))} for side in range(2)]
        assert [side["total"] for side in row["sides"]] == [w["won"] for w in won]
    assert match.game.rules(match.options).endswith("first to 3 hands won.")


def test_the_sheet_shows_the_card_points_under_each_hands_result():
    match = played_duel(6)
    game = match.game
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(
        score_table(match.sheet, match.winner, game.score_extras(match.options)))
    lines = [[c.strip() for c in line.split("│")[1:-1]] for line in out.getvalue().splitlines()
             if line.count("│") == 5]
    points = [[str(s["counts"]["card_points"]) for s in row["sides"]] for row in match.sheet.hands]
    assert [cells[2:] for cells in lines if cells[1] == "card points"] == points
    assert [cells[0] for cells in lines if cells[1] == "hand"] == [str(h + 1) for h in range(len(points))]


def test_the_sheet_says_how_the_match_is_won():
    match = played_duel(6)
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(
        score_table(match.sheet, match.winner, goal=match.game.goal(match.options)))
    assert "Score sheet — first to 3 hands won" in out.getvalue()


def test_the_duel_on_first_to_hands_passes_check_game():
    report = check_game(Duel(), seeds=range(1))  # its matches end by the rule (under a second)
    assert report.hands > 0 and report.matches > 0


class TwoWinners(DuelState):
    """A mistake: every side that took card points "won" the hand."""

    def score(self) -> ScoreRow:
        points = [sum(POINTS.get(c[:-1], 0) for c in cards) for cards in self.taken]
        won = [int(p > 0) for p in points]
        return Scores(self.seating).add("won", won).count("card_points", points).row()


class TwoWinnersDuel(Duel):
    State = TwoWinners


def test_check_game_refuses_a_hand_won_by_two_sides():
    with pytest.raises(AssertionError, match="FirstToHands: totals .* 1 to the side that won"):
        check_game(TwoWinnersDuel(), seeds=range(1))
