"""The expert level: independent searches summed at the root, the same choice for a seed
wherever its searches run (here in turn, or on the process's pool)."""

import random

import pytest

from cardcore.engine.bots import InfoSet
from cardcore.engine.bots.builtin import by_strength
from cardcore.engine.bots.expert import ExpertBot, Found, run_part
from cardcore.engine.bots.search import Estimate, HardBot
from cardcore.services import search_pool
from cardcore.services.plugins import load_registry
from tests.bot_helpers import opening_info_set

REGISTRY = load_registry()


def info_set(seed: int = 3) -> InfoSet:
    """Royal casino's first decision (its info sets pickle, for the pool)."""
    return opening_info_set(REGISTRY, "royal_casino", seed)


def small(**kw) -> ExpertBot:
    """A small budget: the tests are about how the searches combine, not how well they play."""
    return ExpertBot(iterations=30, work_budget=12_000, **kw)


def test_expert_is_registered_strongest_and_says_it_uses_every_core():
    assert REGISTRY.bots["expert"] is ExpertBot and ExpertBot.heavy
    assert "every core" in ExpertBot.description and "few seconds" in ExpertBot.description
    assert by_strength(REGISTRY.bots) == ["random", "easy", "greedy", "medium", "hard", "expert"]
    assert by_strength(["zeta", "expert", "alpha", "random"]) == ["random", "expert", "alpha", "zeta"]


def test_same_seed_same_choice_and_the_stream_moves_on_by_one_draw():
    info = info_set()
    a, b = random.Random(5), random.Random(5)
    first = small(parallel=False).choose(info, a)
    assert small(parallel=False).choose(info, b) == first
    assert a.getstate() == b.getstate()
    expected = random.Random(5)
    expected.getrandbits(64)
    assert a.getstate() == expected.getstate()


def test_the_roots_are_summed_in_the_searches_order():
    """Visits and total values add up by action key; the most visited is first."""
    info = info_set()
    bot = small(searches=3, parallel=False)
    parts = bot.split(info, random.Random(1), width=1)
    assert len({p.seed for p in parts}) == 3
    found = [run_part(p) for p in parts]
    summed = {e.action.key: e for e in bot.combine(found)}
    for key, e in summed.items():
        mine = [x for f in found for x in f.estimates if x.action.key == key]
        assert e.visits == sum(x.visits for x in mine)
        if e.visits:
            assert e.value == pytest.approx(sum(x.value * x.visits for x in mine) / e.visits)
    best = bot.combine(found)[0]
    assert best.visits == max(e.visits for e in summed.values())
    assert bot.last_iterations == sum(f.iterations for f in found) > 3


def test_a_tie_in_visits_goes_to_the_higher_value_then_the_first_met():
    actions = info_set().legal_actions()
    one = Found([Estimate(actions[0], 1.0, 5, 0.0), Estimate(actions[1], 2.0, 5, 0.0)], 10, 100)
    two = Found([Estimate(actions[2], 2.0, 5, 0.0)], 5, 50)
    order = [e.action for e in small().combine([one, two])]
    assert order == [actions[1], actions[2], actions[0]]


def test_the_time_cap_is_shared_by_the_searches_that_run_in_turn():
    info = info_set()
    bot = ExpertBot(max_seconds=4.0)  # four searches
    assert [p.bot.max_seconds for p in bot.split(info, random.Random(1), width=2)] == [2.0] * 4
    assert bot.split(info, random.Random(1), width=1)[0].bot.max_seconds == 1.0
    assert bot.split(info, random.Random(1), width=8)[0].bot.max_seconds == 4.0
    assert bot.max_seconds == 4.0  # the level itself keeps its cap
    assert ExpertBot().split(info, random.Random(1), width=2)[0].bot.max_seconds is None


def test_one_legal_action_is_played_without_a_search():
    bot = small(parallel=False)
    info = info_set()
    only = info.legal_actions()[:1]
    single = InfoSet(info.game, info.seat, info.view(), only, info._unseen, info.side_of)
    rng = random.Random(1)
    assert bot.choose(single, rng) == only[0] and rng.getstate() == random.Random(1).getstate()


def test_a_budget_of_the_hard_kind():
    assert ExpertBot.work_budget > HardBot.work_budget and ExpertBot.searches > 1
    with pytest.raises(ValueError, match="one search at least"):
        ExpertBot(searches=0)


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
def test_on_the_pool_it_chooses_as_in_turn_here():
    search_pool.install()
    info = info_set(seed=4)
    pool = search_pool.ProcessPool()
    if pool.width(info) < 2:
        pytest.skip("one core: the pool is not used")
    for seed in (1, 2):
        a, b = random.Random(seed), random.Random(seed)
        there = small(searches=3).analyse(info, a)
        here = small(searches=3, parallel=False).analyse(info, b)
        assert [(e.action.key, e.visits, e.value) for e in there] == \
            [(e.action.key, e.visits, e.value) for e in here]
        assert a.getstate() == b.getstate()
