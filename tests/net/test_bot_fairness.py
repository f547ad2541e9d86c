"""Bot work shared fairly (``cardcore.services.net.bot_work``): owners take turns, a light
bot never waits behind a search, a search in a worker process chooses as it would in
place, a bot that fails costs one line; and at a real server, another table's greedy bot
answers at once while one client runs twenty hard Canasta tables."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import statistics
import threading
import time

import pytest

from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.bots.expert import ExpertBot, Found, Part, run_part
from cardcore.engine.bots.search import HardBot
from cardcore.engine.game import Action
from cardcore.engine.match import Match
from cardcore.services.net import bot_work
from cardcore.services.net.bot_work import BotFailed, BotWork
from cardcore.services.plugins import load_registry
from tests.bot_helpers import opening_info_set
from tests.net.helpers import WAIT, Client, running, server_config, until

REGISTRY = load_registry()


def info_set(game_id: str = "casino", seed: int = 3) -> InfoSet:
    return opening_info_set(REGISTRY, game_id, seed)


class Gated(Bot):
    """Says when it starts (its name, in ``order``), then waits for ``gate`` to play."""

    id = "gated"

    def __init__(self, name: str, order: list[str], gate: threading.Event):
        self.label, self.order, self.gate = name, order, gate

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        self.order.append(self.label)
        assert self.gate.wait(WAIT), "the test never opened the gate"
        return info.legal_actions()[0]


class Boom(Bot):
    id = "boom"

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        rng.random()
        return 1 // 0  # type: ignore[return-value]


class HeavyBoom(Boom):
    heavy = True


class Dies(Bot):
    """A heavy bot whose worker process dies (killed, out of memory)."""

    id = "dies"
    heavy = True

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        os._exit(3)


async def started(order: list[str], count: int) -> None:
    await until(lambda: len(order) >= count, f"{count} moves started")


@pytest.mark.asyncio
async def test_a_newcomer_is_served_before_an_owner_with_many_moves_waiting():
    work, order, gate = BotWork(threads=1, processes=0), [], threading.Event()
    info = info_set()
    try:
        hog = [asyncio.ensure_future(work.choose(("hog",), Gated(f"hog{i}", order, gate), info,
                                                 random.Random(i))) for i in range(4)]
        await started(order, 1)  # hog0 holds the one worker; hog1-3 wait
        other = asyncio.ensure_future(work.choose(("other",), Gated("other", order, gate), info,
                                                  random.Random(9)))
        gate.set()
        await asyncio.wait_for(asyncio.gather(*hog, other), WAIT)
        assert order == ["hog0", "other", "hog1", "hog2", "hog3"]
    finally:
        gate.set()
        work.close()


@pytest.mark.asyncio
async def test_two_owners_share_the_workers_whatever_one_has_queued():
    work, order = BotWork(threads=2, processes=0), []
    gates = {name: threading.Event() for name in [f"hog{i}" for i in range(5)] + ["other0", "other1"]}
    info = info_set()

    def move(owner: str, name: str) -> asyncio.Future[Action]:
        return asyncio.ensure_future(work.choose((owner,), Gated(name, order, gates[name]), info,
                                                 random.Random(1)))

    try:
        moves = [move("hog", f"hog{i}") for i in range(5)]
        await started(order, 2)  # hog0 and hog1 hold both workers
        moves += [move("other", "other0"), move("other", "other1")]
        for done, then in (("hog0", "other0"),   # the other owner has none running: its turn
                           ("hog1", "hog2"),     # one each running: the hog's turn
                           ("other0", "other1"),  # the other owner again, though hog3 waited longer
                           ("hog2", "hog3")):
            gates[done].set()
            await started(order, len(order) + 1)
            assert order[-1] == then, order
        for gate in gates.values():
            gate.set()
        await asyncio.wait_for(asyncio.gather(*moves), WAIT)
        assert order[-1] == "hog4"
    finally:
        for gate in gates.values():
            gate.set()
        work.close()


@pytest.mark.asyncio
async def test_addresses_share_the_workers_and_within_one_its_connections_do():
    work, order, gate = BotWork(threads=1, processes=0), [], threading.Event()
    info = info_set()
    owners = {"c": ("address A", "connection 1"), "d": ("address A", "connection 2"),
              "b": ("address B", "connection 3")}
    try:
        moves = [asyncio.ensure_future(work.choose(owners[who], Gated(f"{who}{i}", order, gate), info,
                                                   random.Random(i))) for who in "cdb" for i in range(3)]
        gate.set()
        await asyncio.wait_for(asyncio.gather(*moves), WAIT)
        # A and B take turns (B has one connection, A two): B gets half the moves, not a third
        assert order == ["c0", "b0", "d0", "b1", "c1", "b2", "d1", "c2", "d2"]
    finally:
        gate.set()
        work.close()


@pytest.mark.asyncio
async def test_a_light_bot_does_not_wait_behind_the_searches():
    work, order, gate = BotWork(threads=1, processes=0), [], threading.Event()
    info = info_set()
    try:
        searches = [asyncio.ensure_future(work.choose(("hog",), _heavy(Gated)(f"hard{i}", order, gate), info,
                                                      random.Random(i))) for i in range(3)]
        await started(order, 1)  # the search lane's one thread is held
        greedy = REGISTRY.bots["greedy"]()
        choice = await asyncio.wait_for(work.choose(("hog",), greedy, info, random.Random(1)), WAIT)
        assert choice.action in info.legal_actions() and choice.estimates[0][0] == choice.action
        assert order == ["hard0"]  # chosen while the searches still wait
    finally:
        gate.set()
        await asyncio.wait_for(asyncio.gather(*searches, return_exceptions=True), WAIT)
        work.close()


def _heavy(cls: type[Gated]) -> type[Gated]:
    return type("HeavyGated", (cls,), {"heavy": True})


@pytest.mark.asyncio
async def test_a_bot_that_raises_fails_in_one_line_naming_its_code_and_the_next_move_works():
    work = BotWork(threads=1, processes=0, plugin_of={"tests": "the tests' plugin"})
    info = info_set()
    try:
        with pytest.raises(BotFailed, match=r"^plugin the tests' plugin: Boom.choose raised "
                                            r"ZeroDivisionError: integer division or modulo by zero$"):
            await asyncio.wait_for(work.choose(("a",), Boom(), info, random.Random(1)), WAIT)
        greedy = REGISTRY.bots["greedy"]()
        assert (await asyncio.wait_for(work.choose(("a",), greedy, info, random.Random(1)), WAIT)).action \
            in info.legal_actions()
    finally:
        work.close()


@pytest.mark.asyncio
async def test_closing_cancels_the_waiting_moves_and_refuses_new_ones():
    work, order, gate = BotWork(threads=1, processes=0), [], threading.Event()
    info = info_set()
    running_move, waiting = (asyncio.ensure_future(work.choose(("a",), Gated(f"a{i}", order, gate), info,
                                                               random.Random(i))) for i in range(2))
    await started(order, 1)
    work.close()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(waiting, WAIT)
    late = asyncio.ensure_future(work.choose(("b",), Gated("b0", order, gate), info, random.Random(2)))
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(late, WAIT)
    gate.set()
    running_move.cancel()
    assert order == ["a0"]  # the waiting and the late moves never ran


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_search_in_a_worker_process_chooses_as_in_place_and_its_stream_comes_back():
    work = BotWork(threads=1, processes=1)
    try:
        for seed in (3, 4):
            info = info_set("canasta", seed)
            here, there = random.Random(seed), random.Random(seed)
            bot = HardBot(iterations=40)  # no time cap: the same choice wherever it runs
            expected = bot.choose(info, here)
            choice = await asyncio.wait_for(work.choose(("a",), bot, info, there), 60)
            got = choice.action  # with the search's estimates, back from the worker
            assert got == expected and got.key in {a.key for a in info.legal_actions()}
            assert choice.forced or choice.estimates[0][0] == got
            assert there.getstate() == here.getstate()  # the match's stream went on alike
        # a dead worker, a bot that does not pickle, one that raises: the move fails in one
        # line, and the next move is chosen (by a fresh worker after a dead one)
        info = info_set("canasta", 3)
        with pytest.raises(BotFailed, match="^the bot's worker failed: BrokenProcessPool: A process"):
            await asyncio.wait_for(work.choose(("a",), Dies(), info, random.Random(1)), 60)
        unpicklable = HardBot(iterations=10)
        unpicklable.hook = lambda: None  # type: ignore[attr-defined]
        with pytest.raises(BotFailed, match="^the bot's worker failed: .*pickle"):
            await asyncio.wait_for(work.choose(("a",), unpicklable, info, random.Random(1)), 60)
        with pytest.raises(BotFailed, match="^plugin tests: Boom.choose raised ZeroDivisionError"):
            await asyncio.wait_for(work.choose(("a",), HeavyBoom(), info, random.Random(1)), 60)
        bot = HardBot(iterations=10)
        assert (await asyncio.wait_for(work.choose(("a",), bot, info, random.Random(1)), 60)).action \
            == bot.choose(info, random.Random(1))
        # an expert's searches, each a move of the worker's: the choice made in place
        info = info_set("royal_casino", 3)
        here, there = random.Random(2), random.Random(2)
        expected = ExpertBot(searches=3, iterations=20, parallel=False).choose(info, here)
        expert = ExpertBot(searches=3, iterations=20)
        assert (await asyncio.wait_for(work.choose(("a",), expert, info, there), 60)).action == expected
        assert there.getstate() == here.getstate()
        game = REGISTRY.games["canasta"]  # after the draw, several actions: the estimates come back
        match = Match(game, game.Options(), seed=3, seats=["human"] * 2)
        match.start()
        match.apply(match.legal_actions()[0])
        assert match.state is not None and match.to_play is not None
        info = InfoSet.of(game, match.state, match.to_play)
        choice = await asyncio.wait_for(work.choose(("a",), bot, info, random.Random(1)), 60)
        assert choice.action == bot.choose(info, random.Random(1)) == choice.estimates[0][0]
        assert len(choice.estimates) == 3
    finally:
        work.close()


@pytest.mark.asyncio
async def test_an_experts_searches_take_turns_with_another_owners_moves(monkeypatch):
    """Each search of an expert's move is one move of its owner's share: a newcomer's move
    starts as soon as a worker is free, before the expert's second search."""
    work, order, gate = BotWork(threads=1, processes=0), [], threading.Event()
    info = info_set()

    def search(part: Part) -> Found:
        order.append(f"search{part.seed.rsplit(':', 1)[1]}")
        assert gate.wait(WAIT), "the test never opened the gate"
        return run_part(part)

    monkeypatch.setattr(bot_work, "run_part", search)
    try:
        expert = asyncio.ensure_future(work.choose(("hog",), ExpertBot(searches=3, iterations=10), info,
                                                   random.Random(1)))
        await started(order, 1)
        other = asyncio.ensure_future(work.choose(("other",), _heavy(Gated)("other", order, gate), info,
                                                  random.Random(9)))
        gate.set()
        choice, _ = await asyncio.wait_for(asyncio.gather(expert, other), WAIT)
        assert order == ["search0", "other", "search1", "search2"]
        in_place = ExpertBot(searches=3, iterations=10, parallel=False).choose(info, random.Random(1))
        assert choice.action == in_place
    finally:
        gate.set()
        work.close()


@pytest.mark.asyncio
async def test_a_table_whose_bot_raises_plays_its_first_legal_action_and_says_so(tmp_path, caplog):
    registry = load_registry()
    registry.bots["boom"] = Boom
    config = server_config(bot_delay=0.3)  # time to read the position the bot plays from
    async with running(tmp_path / "library.sqlite", config, registry) as server:
        player = await Client.connect(server.port)
        made = await player.request({"type": "create_table", "game": "casino", "seats": ["human", "boom"],
                                     "seed": 5})
        code, seat = made["code"], made["seats"][0]
        await player.sit(code, seat)
        update = await player.update(lambda m: m["to_play"] == 1 or bool(m["actions"]))
        while update["to_play"] != 1:  # play until it is the bot's turn
            turn = update["turn"]
            await player.send({"type": "act", "code": code, "action": update["actions"][0]["action"],
                               "turn": turn})
            update = await player.update(lambda m, t=turn: m["turn"] > t)
        first = server.tables[code].match.state.legal_actions()[0]
        with caplog.at_level(logging.ERROR, logger="cardcore.serve"):
            moved = await player.update(lambda m: m["turn"] > update["turn"])
        assert moved["log"][-1]["bot"]
        last = server.tables[code].service.last_bot
        assert last is not None and last.seat == 1 and last.action == first
        assert f"table {code}: plugin tests: Boom.choose raised ZeroDivisionError" in caplog.text
        await player.close()


#: The bound of issue 22: another table's greedy reply while one client runs 20 hard tables.
MEDIAN_S, MAX_S = 0.1, 1.0


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_greedy_bot_answers_at_once_while_one_client_runs_twenty_hard_canasta_tables(tmp_path):
    async with running(tmp_path / "library.sqlite", server_config()) as server:
        hog = await Client.connect(server.port)
        codes = []
        for _ in range(20):
            made = await hog.request({"type": "create_table", "game": "canasta", "seats": ["hard"] * 4,
                                      "options": {"target": 100_000}})
            codes.append(made["code"])
            assert (await hog.request({"type": "watch", "code": made["code"]}))["type"] == "watching"

        def hard_moves() -> int:
            return sum(server.tables[c].match.decisions for c in codes)

        await until(lambda: hard_moves() >= 3, "the hard tables playing", 120)
        victim = await Client.connect(server.port, local_addr=("127.0.0.2", 0))  # another player
        before = hard_moves()
        replies = await greedy_replies(victim, count=40, least=4.0)
        hard_meanwhile = hard_moves() - before
        figures = (f"greedy replies (s): median {statistics.median(replies):.3f}, max {max(replies):.3f}, "
                   f"n {len(replies)}; hard moves meanwhile {hard_meanwhile}; load {os.getloadavg()}")
        assert statistics.median(replies) < MEDIAN_S and max(replies) < MAX_S, figures
        assert hard_meanwhile >= 2, figures  # the hard tables played on meanwhile
        await victim.close()
        await hog.close()


async def greedy_replies(client: Client, count: int, least: float) -> list[float]:
    """Play a two-seat Canasta table against the greedy bot (a random legal action when
    asked): how long each greedy decision took to come, from the update asking for it to
    the one with it, over ``count`` decisions and at least ``least`` seconds (1,000 at most)."""
    # a deal where greedy's own choice is quick (its first 1,200 decisions at most 23 ms of
    # CPU; some Canasta positions take it 0.25-0.45 s, listing first melds): what is
    # measured is the wait for a worker, not the game's engine
    made = await client.request({"type": "create_table", "game": "canasta", "seats": ["human", "greedy"],
                                 "options": {"target": 100_000}, "seed": 3})
    code, seat = made["code"], made["seats"][0]
    await client.sit(code, seat)
    rng, replies, asked = random.Random(1), [], None
    start = time.perf_counter()
    while (len(replies) < count or time.perf_counter() - start < least) and len(replies) < 1000:
        try:
            update = await client.update(lambda m: m["code"] == code, timeout=2 * MAX_S)
        except TimeoutError:
            replies.append(2 * MAX_S if asked is None else time.perf_counter() - asked[1])
            break  # the bot did not answer in time: the assertion says by how much
        now = time.perf_counter()
        assert not update["over"]
        if asked is not None and update["turn"] > asked[0]:
            replies.append(now - asked[1])
            asked = None
        if not update["hand_over"] and update["to_play"] == 1:
            asked = (update["turn"], now)
        if update["actions"]:
            await client.send({"type": "act", "code": code, "action": rng.choice(update["actions"])["action"],
                               "turn": update["turn"]})
    return replies


@pytest.mark.parametrize("game_id", ["casino", "royal_casino", "canasta"])
def test_a_games_info_set_reaches_a_worker_process(game_id):
    """A heavy bot's move goes to a worker process pickled, its info set (and game) with it."""
    import pickle

    info = info_set(game_id)
    again = pickle.loads(pickle.dumps(info))
    assert again.legal_actions() == info.legal_actions()
