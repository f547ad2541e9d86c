"""The search (medium) in canasta 4p: positions from play where it used to lose to greedy
(issue 26, docs/bots.md). Medium looks past the next seat's draw, so the heuristic must
value the pile the same before and after it is taken: it did not (the cards taken counted
at risk in hand), and medium handed big piles over."""

import json
import random
from pathlib import Path

import pytest

from cardcore.engine.bots import InfoSet
from cardcore.engine.bots.search import HardBot, MediumBot
from cardcore.engine.bots.stakes import MATCH_WORTH

from .helpers import GAME

POSITIONS = Path(__file__).parent / "positions"
BLACK_THREE = ("Discard 3♣", "Discard 3♠")


@pytest.mark.slow  # four searches: about 2 s
def test_medium_keeps_a_big_frozen_pile_from_the_next_opponent():
    # North (seat 2) discards onto a frozen pile of 25; East (seat 3) takes it with a
    # natural pair of the top card. Six of the eight 10s are in sight (the pile is browsed,
    # five 10s in it), two of the jacks: the 10♥ is the safe card, the J♠ and the 4♣ may
    # hand East 25 cards (East held J♥ J♣). Medium chose the J♠ or the 4♣ with half of
    # these seeds, its values of the four discards within 21 points of each other.
    state = GAME.state_from_json(json.loads((POSITIONS / "big_pile_frozen.json").read_text()))
    info = InfoSet.of(GAME, state, 2)
    for seed in range(4):
        found = MediumBot().analyse(info, random.Random(seed))  # choose plays found[0]
        assert found[0].action.to_json()["card"] in ("10H", "JK")  # nor can a wild card be taken
        value = {e.action.to_json()["card"]: e.value for e in found}
        assert min(value["10H"], value["JK"]) > max(value["JS"], value["4C"]) + 10


def test_near_the_target_the_search_goes_out_to_win_the_match():
    """Playing for the match (docs/bots.md): North (seat 2) can go out by melding its four
    black threes. Alone, the hand is worth more played on (medium discards a black three,
    of either suit: the two are the same to every rule). With North-South at 3,000 and
    East-West 50 points short of 5,000, going out ends the hand with North-South over the
    target and ahead, the match won, where playing on lets East-West end it first: medium
    goes out. Positions from greedy play (hand 24 of a 4p search)."""
    data = json.loads((POSITIONS / "out_with_black_threes.json").read_text())
    alone = InfoSet.of(GAME, GAME.state_from_json(data), 2)
    near = GAME.state_from_json({**data, "totals_before": [3000, 4950]})
    info = InfoSet.of(GAME, near, 2)
    for seed in range(3):
        assert MediumBot().choose(alone, random.Random(seed)).label in BLACK_THREE
        blind = MediumBot()
        blind.play_for_match = False
        assert blind.choose(info, random.Random(seed)).label in BLACK_THREE
        chosen = MediumBot().choose(info, random.Random(seed))
        assert chosen.out and chosen.label == "Go out: meld 3♠ 3♠ 3♣ 3♣"
    near.apply(chosen)
    assert near.is_over
    ns, ew = (side["total"] for side in near.score()["sides"])
    assert 3000 + ns >= 5000 and 3000 + ns > 4950 + ew  # the match is North-South's
    # what a hint says of it: the hand's points, the match apart (test_bots_stakes.py)
    best = MediumBot().analyse(info, random.Random(0))[0]
    assert best.action.out and best.match > 0.9 * MATCH_WORTH * 5000
    assert best.margin == best.value - best.match and abs(best.margin) < 5000
    assert all(e.match == 0 for e in MediumBot().analyse(alone, random.Random(0)))
    # hard's greedy playouts score many endings they do not play: only the leaf's counts
    for e in HardBot().analyse(info, random.Random(0)):
        assert abs(e.margin) < 5000 and abs(e.match) <= MATCH_WORTH * 5000, e
