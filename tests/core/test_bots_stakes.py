"""Playing for the match (docs/bots.md): a finished hand is worth its margin, and near the
target the match it decides (``cardcore/engine/bots/stakes.py``)."""

import random

from cardcore.engine.bots import InfoSet
from cardcore.engine.bots.solve import solve
from cardcore.engine.bots.stakes import MATCH_WORTH, Stakes, hand_values, margins
from cardcore.services.plugins import load_registry
from tests.core.test_bots_solve import KING

REGISTRY = load_registry()


def row(*totals):
    return {"sides": [{"seats": [s], "items": {}, "total": t} for s, t in enumerate(totals)]}


def stakes(game_id, before, **options):
    game = REGISTRY.game(game_id)
    players = len(before) if game_id != "canasta" else 2 * len(before)
    seating = game.seating(players, game.Options(**options))
    state = game.new_hand(seating, game.Options(**options), random.Random(1), before)
    return Stakes.of(game, state)


def test_far_from_the_target_a_hand_is_its_margin():
    assert margins([7, 4]) == [3.0, -3.0] and margins([6, 3, 0]) == [4.5, 0.0, -4.5]
    assert stakes("casino", [5, 9]).values(row(7, 4)) == [3.0, -3.0]
    assert hand_values(row(7, 4), None) == [3.0, -3.0]


def test_a_hand_that_decides_the_match_is_worth_it_to_every_side():
    worth = MATCH_WORTH * 21
    # 20 and 12 before: 1 point to 10 takes North to 21, but 12 + 10 = 22 is higher
    assert stakes("casino", [20, 12]).values(row(1, 10)) == [-9 - worth, 9 + worth]
    assert stakes("casino", [20, 12]).values(row(2, 9)) == [-7 + worth, 7 - worth]
    # equal highest totals at the target play on: nobody has won
    assert stakes("casino", [20, 20]).values(row(1, 1)) == [0.0, 0.0]
    # three sides: the winner gains the match, the others lose half of it each
    assert stakes("casino", [20, 0, 0]).values(row(3, 0, 0)) == [3 + worth, -1.5 - worth / 2,
                                                                  -1.5 - worth / 2]


def test_canasta_s_target_is_its_own():
    worth = MATCH_WORTH * 5000
    # 4950 + 60 = 5010 is over 5,000 and ahead of 3000 + 900: North-South's match
    assert stakes("canasta", [4950, 3000]).values(row(60, 900)) == [-840 + worth, 840 - worth]
    assert stakes("canasta", [4900, 3000]).values(row(60, 900)) == [-840.0, 840.0]  # 4960


def test_a_game_that_keeps_no_totals_plays_the_hand_alone(crazy_eights):
    game = crazy_eights
    options = game.Options()
    state = game.new_hand(game.seating(2, options), options, random.Random(1), [3, 4])
    assert state.match_totals() is None and Stakes.of(game, state) is None


def test_the_solver_counts_the_match_near_the_target():
    """KING (test_bots_solve.py), seat 1 to play: trailing the king (or the 8) is worth 0
    to its side, pairing the 10s (or trailing the 10) -5. At 16 against seat 1's 20 the
    first wins the match and the second loses it; at 18 all the first ties at the top
    (equal totals play on)."""
    game = REGISTRY.game("casino")
    w = MATCH_WORTH * 21
    expected = {(0, 0): [-5, 0, -5, 0], (16, 20): [-5 - w, w, -5 - w, w],
                (20, 16): [-5 - w, -w, -5 - w, -w], (18, 18): [-5 - w, 0, -5 - w, 0]}
    for before, values in expected.items():
        state = game.state_from_json({**KING, "totals_before": list(before)})
        info = InfoSet.of(game, state, 1)
        got = solve(game, info.exact(), info.side_of, 1, cap=10**7, bound=False,
                    stakes=Stakes.of(game, info.exact()))
        assert [a.label for a, _ in got.values] == ["Capture 10♣ with 10♥", "Trail K♣",
                                                     "Trail 10♥", "Trail 8♣"]
        assert [v for _, v in got.values] == values, before


def test_a_hint_says_the_hands_points_and_keeps_the_match_apart():
    """What a hint or a "why" says is the hand's margin in points (``Estimate.margin``);
    the match is the estimate's ``match`` part, never added to the points shown."""
    from cardcore.engine.bots.search import HardBot

    game = REGISTRY.game("casino")
    w = MATCH_WORTH * 21
    state = game.state_from_json({**KING, "totals_before": [16, 20]})
    found = HardBot().analyse(InfoSet.of(game, state, 1), random.Random(1))  # solved exactly
    said = {e.action.label: (e.margin, e.match) for e in found}
    assert said == {"Trail K♣": (0.0, w), "Trail 8♣": (0.0, w),
                    "Capture 10♣ with 10♥": (-5.0, -w), "Trail 10♥": (-5.0, -w)}
