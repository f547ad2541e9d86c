"""Bot variants (docs/bots.md, "Variants"): ``hard[exploration=0.5]`` in a tournament or a
simulation plays as the level with those settings changed; a bad spec is one line."""

import json
import random
import re

import pytest

from cardcore.apps.cli import main
from cardcore.engine.bots import InfoSet
from cardcore.engine.bots.easy import EasyBot
from cardcore.engine.bots.search import HardBot, MediumBot
from cardcore.engine.bots.variant import VariantError, resolve, split_specs
from cardcore.engine.match import SetupError
from cardcore.engine.match_setup import MatchSetup
from cardcore.engine.testing import check_game
from cardcore.services.plugins import load_registry
from cardcore.services.tournament import Tournament, run_tournament
from tests.core.test_bots_search import positions

REGISTRY = load_registry()


def test_a_variant_is_its_level_with_the_named_settings_changed():
    bot = resolve(REGISTRY.bots, "hard[exploration=0.35, rollout_depth=4,widening=none]")
    assert issubclass(bot, HardBot) and bot.id == "hard[exploration=0.35, rollout_depth=4,widening=none]"
    assert (bot.exploration, bot.rollout_depth, bot.widening) == (0.35, 4, None)
    assert (bot.iterations, bot.rollout_policy, bot.solve_work) == (HardBot.iterations, "greedy",
                                                                     HardBot.solve_work)
    assert HardBot.exploration == 0.7 and HardBot.rollout_depth == 2  # the level is untouched
    assert resolve(REGISTRY.bots, "easy[mistake_rate=0.1]").mistake_rate == 0.1
    assert resolve(REGISTRY.bots, "medium") is MediumBot


def test_a_variant_chooses_as_the_level_made_with_its_settings():
    game = REGISTRY.game("casino")
    variant = resolve(REGISTRY.bots, "medium[iterations=30,work_budget=9000]")
    for state in positions(game, 2, 4, seed=3):
        info = InfoSet.of(game, state, state.to_play)
        made = MediumBot(iterations=30, work_budget=9000)
        assert variant().analyse(info, random.Random(4)) == made.analyse(info, random.Random(4))


@pytest.mark.parametrize(("spec", "said"), [
    ("hard[foo=1]", "bot hard: 'foo' is not a setting it lets change (iterations, work_budget,"),
    ("hard[exploration=x]", "bot hard: exploration='x' is not a number from 0"),
    ("hard[iterations=-5]", "bot hard: iterations='-5' is not a number from 0"),
    ("hard[iterations=2.5]", "bot hard: iterations='2.5' is not a number from 0"),
    ("hard[rollout_policy=smart]", "bot hard: rollout_policy='smart' is not one of random, greedy"),
    ("hard[exploration=none]", "bot hard: exploration='none' is not a number from 0"),
    ("greedy[depth=2]", "bot greedy: 'depth' is not a setting it lets change (none)"),
    ("nobody[x=1]", "unknown bot 'nobody' (bots: easy, expert, greedy, hard, medium, random)"),
    ("hard[", "bad bot 'hard[': write an id, or id[setting=value,...]"),
    ("hard[x=1]" + "x" * 60, "bad bot 'hard[x=1]xxxxx"),
    ("hard[iterations=5\n]", "bad bot 'hard[iterations=5\\n]'"),  # no line of its own in a table
    ("hard[iterations=\u0663]", "bad bot 'hard[iterations=\u0663]'"),  # int() reads it as 3
    ("hard[iterations=5\t]", "bad bot 'hard[iterations=5\\t]'"),
    ("hard[exploration=[b]1[/b]]", "bad bot"),
])
def test_a_bad_spec_is_refused_in_one_line(spec, said):
    with pytest.raises(VariantError) as err:
        resolve(REGISTRY.bots, spec)
    assert str(err.value).startswith(said) and "\n" not in str(err.value)


def test_the_command_line_refuses_a_bad_spec_with_exit_2(capsys):
    assert main(["tournament", "casino", "--bots", "hard[foo=1],greedy", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "'foo' is not a setting it lets change" in err and "Traceback" not in err
    assert main(["simulate", "casino", "--seats", "medium[iterations=x],greedy",
                 "--matches", "1"]) == 2
    assert "iterations='x' is not a number from 0" in capsys.readouterr().err


@pytest.mark.parametrize(("text", "specs"), [
    ("hard,medium", ["hard", "medium"]),
    ("hard[exploration=0.35,rollout_depth=4], medium", ["hard[exploration=0.35,rollout_depth=4]", "medium"]),
    ("easy[mistake_rate=1],medium[iterations=30,work_budget=9000],greedy",
     ["easy[mistake_rate=1]", "medium[iterations=30,work_budget=9000]", "greedy"]),
    ("hard[a=1,b", ["hard[a=1", "b"]),  # a bracket left open: each part refused as a spec
    ("greedy,,greedy", ["greedy", "", "greedy"]),
])
def test_a_command_lines_bots_split_at_commas_outside_brackets(text, specs):
    assert split_specs(text) == specs


def test_the_command_line_plays_a_variant_of_two_settings(capsys):
    """docs/bots.md, "Variants": a spec's own commas are not a list's."""
    spec = "medium[iterations=30,work_budget=9000]"
    assert main(["tournament", "casino", "--bots", f"{spec},greedy", "--deals", "1", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["results"]) == {spec, "greedy"}
    assert main(["simulate", "casino", "--seats", f"{spec},greedy", "--matches", "1"]) == 0


def test_variants_are_for_bots_only_programs_never_a_table():
    """A table's seats (a server's create_table) name registered bots: a variant there
    would let a client set a bot's budget."""
    MatchSetup.of(game="casino", seats=["medium[iterations=5]", "greedy"],
                  humans_allowed=False).check(REGISTRY)
    with pytest.raises(SetupError, match="unknown seat 'medium.iterations=5.'"):
        MatchSetup.of(game="casino", seats=["human", "medium[iterations=5]"]).check(REGISTRY)


def test_a_tournament_of_variants_keys_its_results_by_the_spec():
    t = Tournament("casino", ["easy[mistake_rate=1]", "easy[mistake_rate=0]"], deals=3, seed=2,
                   players=2)
    results = run_tournament(REGISTRY, t, progress=False)
    assert set(results.to_json()["results"]) == {"easy[mistake_rate=1]", "easy[mistake_rate=0]"}
    assert results.hands("easy[mistake_rate=0]") == 6
    assert results.mean("easy[mistake_rate=0]") == -results.mean("easy[mistake_rate=1]") != 0
    assert EasyBot.mistake_rate == 1 / 3


def test_a_game_plays_a_level_with_its_own_settings_but_what_was_given_stays():
    """docs/bots.md, "A game's own settings": Canasta tunes its search levels; Casino its
    medium's budget and plays hard as the core defines it; a constructor's argument or a
    variant's setting wins."""
    canasta, casino = REGISTRY.game("canasta"), REGISTRY.game("casino")
    tuned = MediumBot().for_game(canasta)
    for name, value in canasta.search_settings["medium"].items():
        assert getattr(tuned, name) == value
    assert (MediumBot.root, MediumBot.rollout_depth) == ("ucb", 0)  # the level is untouched
    fishing = MediumBot().for_game(casino)
    assert (fishing.iterations, fishing.work_budget) == (150, 37_500)
    assert (MediumBot.iterations, MediumBot.work_budget) == (1000, 250_000)
    bot = HardBot()
    assert bot.for_game(casino) is bot and tuned.for_game(canasta) is tuned
    assert MediumBot(work_budget=9000).for_game(canasta).work_budget == 9000
    variant = resolve(REGISTRY.bots, "medium[root=ucb,rollout_depth=3]")().for_game(canasta)
    assert (variant.root, variant.rollout_depth, variant.rollout_policy) == ("ucb", 3, "greedy")


def test_a_search_reads_the_games_settings():
    canasta = REGISTRY.game("canasta")
    state = positions(canasta, 4, 1, seed=5)[0]
    info = InfoSet.of(canasta, state, state.to_play)
    bot, made = MediumBot(work_budget=40_000), MediumBot(work_budget=40_000).for_game(canasta)
    assert bot.analyse(info, random.Random(2)) == made.analyse(info, random.Random(2))
    assert (bot.last_iterations, bot.last_work) == (made.last_iterations, made.last_work)
    untuned = MediumBot(work_budget=40_000)
    untuned._game = canasta  # marked as tuned already: the level's own settings
    untuned.analyse(info, random.Random(2))
    assert untuned.last_iterations != bot.last_iterations  # paired rounds, greedy rollouts


@pytest.mark.parametrize(("settings", "said"), [
    ({"hard": {"root": "sideways"}}, "search_settings['hard']: bot hard: root='sideways'"),
    ({"medium": {"colour": 1}}, "'colour' is not a setting it lets change"),
    ({"medium": {"iterations": 1.5}}, "iterations='1.5' is not a number"),
    ({"greedy": {"iterations": 5}}, "'greedy' is not a search level"),
])
def test_check_game_refuses_settings_no_variant_could_give(settings, said):
    base = type(REGISTRY.game("casino"))
    game = type("Tuned", (base,), {"search_settings": settings})()
    with pytest.raises(AssertionError, match=re.escape(said)):
        check_game(game, seeds=[0])
