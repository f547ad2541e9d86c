"""A server's table played in this process, without sockets: every seat human, claimed,
and held by a peer that keeps the frames it is sent. For measuring and testing what a
move costs the server (benches/serve_play.py, tests/net/test_cycles.py)."""

from __future__ import annotations

from cardcore.engine.match import Match
from cardcore.engine.match_setup import HUMAN
from cardcore.services.net.persist import Writer
from cardcore.services.net.seats import new_seats
from cardcore.services.net.tables import Table, TableConfig, WriterKeeper
from cardcore.services.plugins import Registry
from cardcore.services.store import MatchStore
from cardcore.services.table_service import TableService


class Peer:
    """A connection that keeps what it is sent."""

    open = True
    address = "127.0.0.1"
    language = "en"

    def __init__(self) -> None:
        self.name: str | None = None
        self.tables: set[str] = set()
        self.frames: list[bytes] = []

    def send(self, frame: bytes, after: int = 0) -> None:
        self.frames.append(frame)


def seated_table(registry: Registry, store: MatchStore, writer: Writer, game_id: str, players: int,
                 seed: int) -> tuple[Table, list[Peer]]:
    """A table of ``players`` human seats, each held by its own peer, its match (in the
    library) at its first deal."""
    game = registry.games[game_id]
    match = Match(game, seed=seed, seats=[HUMAN] * players, pm=registry.pm)
    play = store.create(game.id, match.options.model_dump(mode="json"), seed, [HUMAN] * players)
    service = TableService.new(registry, match, keeper=WriterKeeper(writer, play.id), undo_allowed=False)
    seats, _ = new_seats([HUMAN] * players)
    for held in seats:
        held.claim()
    table = Table(f"ABC-{seed % 1000:03d}", service, seats, play.id, registry=registry,
                  config=TableConfig(bot_delay=0), writer=writer, bot_work=None,  # type: ignore[arg-type]
                  lock=play)
    peers = [Peer() for _ in range(players)]
    for seat, peer in enumerate(peers):
        table.seats[seat].peer = peer
        table.watchers[peer] = seat
    return table, peers
