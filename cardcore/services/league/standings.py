"""A league's standings, computed from its entries alone, every time (``standings``).

Per partnership: matches played, won, lost, forfeits (given), points for and against (the
matches' totals), and a rating; per player: matches and a rating. The ratings are
openskill's PlackettLuce model, replayed over the matches in the order they were played:
the players as two teams of two for the players' ratings, each partnership as one for
the partnerships'. A forfeit counts as played and won or lost, with no points, and moves
no rating (nothing was played).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

from cardcore.language import _, number
from cardcore.services.league import Entry, League, player_key


def rating_model() -> PlackettLuce:
    """The model every league's ratings use (openskill's defaults: mu 25, sigma 25/3)."""
    return PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: what the table sorts by (a rating that is sure of itself ranks higher)."""
        return self.mu - 3 * self.sigma

    def words(self) -> str:
        """"rating 27.1 ± 7.2" (mu and sigma, one decimal)."""
        return _("rating {mu} ± {sigma}").format(mu=number(self.mu, 1, grouping=False),
                                                 sigma=number(self.sigma, 1, grouping=False))


@dataclass
class TeamRow:
    number: int
    name: str
    players: tuple[str, str]
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    forfeits: int = 0        # the forfeits this partnership gave
    points_for: int = 0
    points_against: int = 0
    rating: Rating = field(default_factory=lambda: Rating(25.0, 25.0 / 3))

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against


@dataclass
class PlayerRow:
    name: str
    partnership: str | None  # the league's partnership of the player (None: a stand-in)
    played: int = 0
    won: int = 0
    rating: Rating = field(default_factory=lambda: Rating(25.0, 25.0 / 3))


@dataclass(frozen=True)
class Standings:
    league: League
    teams: list[TeamRow]      # the table: most wins first, then points difference, points for
    players: list[PlayerRow]  # the highest rating (ordinal) first
    entries: list[Entry]


def standings(league: League, entries: Sequence[Entry]) -> Standings:
    """The league's table from ``entries``, in the order they were played (``played``, then
    ``id``)."""
    ordered = sorted(entries, key=lambda e: (e.played, e.id))
    model = rating_model()
    teams = {p.number: TeamRow(p.number, p.name, p.players) for p in league.partnerships}
    team_ratings = {n: model.rating(name=str(n)) for n in teams}
    players: dict[str, PlayerRow] = {}
    player_ratings: dict[str, PlackettLuceRating] = {}
    for p in league.partnerships:
        for name in p.players:
            players[player_key(name)] = PlayerRow(name, p.name)
    for entry in ordered:
        _count(teams, entry)
        if entry.forfeit:
            continue
        ranks = _ranks(entry)
        pair = [[team_ratings[entry.teams[0]]], [team_ratings[entry.teams[1]]]]
        (team_ratings[entry.teams[0]],), (team_ratings[entry.teams[1]],) = model.rate(pair, ranks=ranks)
        sides = [[_player(players, player_ratings, model, name) for name in side] for side in entry.players]
        if all(sides):
            rated = model.rate([[player_ratings[k] for k in side] for side in sides], ranks=ranks)
            for side, new, won in zip(sides, rated, (entry.winner == 0, entry.winner == 1), strict=True):
                for key, rating in zip(side, new, strict=True):
                    player_ratings[key] = rating
                    players[key].played += 1
                    players[key].won += int(won)
    for n, team in teams.items():
        team.rating = Rating(team_ratings[n].mu, team_ratings[n].sigma)
    for key, person in players.items():
        if key in player_ratings:
            person.rating = Rating(player_ratings[key].mu, player_ratings[key].sigma)
    table = sorted(teams.values(), key=lambda t: (-t.won, -t.difference, -t.points_for, t.number))
    people = sorted(players.values(), key=lambda p: (-p.rating.ordinal, player_key(p.name)))
    return Standings(league, table, people, ordered)


def _ranks(entry: Entry) -> list[float]:
    """openskill's ranks (lower wins): the winner first, or a tie."""
    if entry.winner is None:
        return [1, 1]
    return [1, 2] if entry.winner == 0 else [2, 1]


def _count(teams: dict[int, TeamRow], entry: Entry) -> None:
    for i, team in enumerate(entry.teams):
        row = teams[team]
        row.played += 1
        row.points_for += entry.points[i]
        row.points_against += entry.points[1 - i]
        if entry.winner is None:
            row.drawn += 1
        elif entry.winner == i:
            row.won += 1
        else:
            row.lost += 1
            row.forfeits += int(entry.forfeit)


def _player(players: dict[str, PlayerRow], ratings: dict[str, PlackettLuceRating],
            model: PlackettLuce, name: str) -> str:
    """The player's key, their row and rating made on their first match."""
    key = player_key(name)
    if key not in players:
        players[key] = PlayerRow(name, None)
    if key not in ratings:
        ratings[key] = model.rating(name=key)
    return key
