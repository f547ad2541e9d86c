"""The network protocol: versioned JSON messages over a WebSocket (docs/protocol.md).

One JSON object per text frame. Every message has ``"v": PROTOCOL_VERSION`` and a
``"type"``. A client message may carry an ``id`` (int) that the direct reply echoes.
The models here are the whole vocabulary; ``decode`` turns a frame into one of them
or raises :class:`ProtocolError` (an error code and one line), ``encode`` turns a
model (or a plain dict of the same shape) into a frame.

The server is the only authority: it checks every field again (a legal action, a
seat's secret, whose turn), these models check only shapes and sizes.
"""

from __future__ import annotations

import json
import typing
from typing import Annotated, Any, Literal

import orjson
import pydantic
from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from cardcore.engine import complaints
from cardcore.engine.name_fields import Name
from cardcore.engine.names import MAX_NAME_CHARS, MAX_SIDE_NAME_CHARS, plain_text

PROTOCOL_VERSION = 1
#: The largest frame a client may send (bytes); bigger frames close the connection (1009).
MAX_MESSAGE_BYTES = 16 * 1024
#: The largest frame the server sends (an update of a crowded canasta table is ~40 KB):
#: what a client should accept (``websockets.connect(max_size=...)``).
MAX_SERVER_MESSAGE_BYTES = 1024 * 1024
#: A chat line.
MAX_CHAT_CHARS = 200
#: A table code: three letters, a dash, three digits ("KQX-482").
CODE_PATTERN = r"^[A-Z]{3}-[0-9]{3}$"
#: WebSocket close codes the server uses.
CLOSE_POLICY = 1008      # flooding, repeated bad secrets
CLOSE_TOO_BIG = 1009     # a frame over MAX_MESSAGE_BYTES

ErrorCode = Literal[
    "bad_json",        # not JSON, or not an object
    "too_big",         # over MAX_MESSAGE_BYTES
    "bad_version",     # "v" is not PROTOCOL_VERSION
    "unknown_type",    # no such message type
    "bad_field",       # a field missing, of the wrong type or size, or one too many
    "bad_game",        # no such game, bad options or seats
    "illegal_action",  # not a legal action at this position (nothing changed)
    "not_your_turn",   # the seat is not the one to play
    "stale",           # ``turn`` is not the table's turn counter (the table moved on)
    "waiting",         # the table waits for every human seat to be joined once
    "no_table",        # no table with that code (or not joined / watched here)
    "bad_secret",      # the invite or token is not one of that table's seats (or the owner's)
    "seat_taken",      # the seat is claimed (an invite used), played from another connection,
                       # or this connection holds another seat of the table (not hot_seat)
    "spectator",       # a spectator tried to play or chat as a seat
    "rate_limited",    # too many messages (repeated: the connection is closed, 1008), or too
                       # many wrong codes and secrets from this address lately
    "too_many",        # too many tables on this server or for this connection
    "server_error",    # the game's code failed; the table is as it was
    "not_over",        # a rematch asked for before the match is over
    "no_league",       # no league with that name on this server
    "wrong_connection",  # a table's message on a lobby connection (of a server among several)
                         # or another table's connection; the lobby's on a table's
]
ERROR_CODES: tuple[str, ...] = typing.get_args(ErrorCode)

class ProtocolError(Exception):
    """A frame that is not a valid message: ``code`` (one of ERROR_CODES) and one line."""

    def __init__(self, code: str, message: str):
        super().__init__(" ".join(message.split()))
        self.code = code
        self.message = str(self)


TableCode = Annotated[str, Field(pattern=CODE_PATTERN)]
#: An invite, a seat's token or a table's owner key (``secrets.token_urlsafe``).
Secret = Annotated[str, Field(min_length=1, max_length=64)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    v: Literal[1] = 1  # PROTOCOL_VERSION


#: A request's ``id`` is at most this: every JSON reader (a browser's too) reads it exactly.
MAX_REQUEST_ID = 2**53


class _Request(_Message):
    #: Echoed in the direct reply (and in an error about this message).
    id: int | None = Field(None, ge=0, le=MAX_REQUEST_ID)


# --- client -> server ---------------------------------------------------------------


#: A language as a client names it (``id``, ``en-GB``, ``id_ID``): the server renders its
#: table's texts in it, or in English when it does not speak it (docs/languages.md).
LanguageTag = Annotated[str, Field(min_length=2, max_length=35,
                                   pattern=r"^[A-Za-z]{2,8}([_-][A-Za-z0-9]{1,8})*$")]


class Hello(_Request):
    type: Literal["hello"] = "hello"
    name: Name | None = None
    #: The language the client shows (None: English). Sent only when it is another, so an
    #: English client's hello is as before.
    language: LanguageTag | None = None

    @model_serializer(mode="wrap")
    def _without_english(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("language") is None:
            data.pop("language", None)
        return data


class ListTables(_Request):
    type: Literal["list_tables"] = "list_tables"


class CreateTable(_Request):
    """A new table: ``seats`` is ``"human"`` or a bot id per seat; ``names`` (one per seat)
    and ``side_names`` (one per side) optional; ``draw_for_partners``: the players draw
    cards for partners before the first deal (a game with partnerships)."""

    type: Literal["create_table"] = "create_table"
    game: str = Field(max_length=64)
    options: dict[str, Any] = {}
    seats: list[Annotated[str, Field(max_length=64)]] = Field(min_length=2, max_length=8)
    names: list[Name] | None = Field(None, max_length=8)
    side_names: list[Name] | None = Field(None, max_length=8)
    draw_for_partners: bool = False
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    #: Listed by ``list_tables`` for everyone. Private (the default): listed only for the
    #: connection that made it and those at it; joined or watched with its code.
    public: bool = False
    #: One connection may claim several human seats (players sharing a screen).
    hot_seat: bool = False
    #: A stand-in bot plays each human seat nobody has claimed yet (else the table waits).
    standin_open: bool = False
    #: The server's league the match is for: added to it once finished (docs/leagues.md).
    league: Name | None = None


class Join(_Request):
    """Claim a seat with its ``invite`` (once), or come back to it with its ``token``."""

    type: Literal["join"] = "join"
    code: TableCode
    invite: Secret | None = None
    token: Secret | None = None
    name: Name | None = None

    @pydantic.model_validator(mode="after")
    def _one_credential(self) -> Join:
        if (self.invite is None) == (self.token is None):
            raise ValueError("a join carries an invite or a token (one of them)")
        return self


class Reissue(_Request):
    """The table's owner replaces a seat's invite: the seat is unclaimed, its token void."""

    type: Literal["reissue"] = "reissue"
    code: TableCode
    seat: int = Field(ge=0, le=7)
    owner: Secret


class Watch(_Request):
    """Watch a table as a spectator: every hand face down."""

    type: Literal["watch"] = "watch"
    code: TableCode


class Act(_Request):
    """Play ``action`` (its JSON, as in records) at the position whose counter is ``turn``."""

    type: Literal["act"] = "act"
    code: TableCode
    action: dict[str, Any]
    turn: int = Field(ge=0)


class Chat(_Request):
    type: Literal["chat"] = "chat"
    code: TableCode
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT_CHARS),
                    pydantic.AfterValidator(plain_text)]


class Leave(_Request):
    type: Literal["leave"] = "leave"
    code: TableCode


class Rematch(_Request):
    """The match is over and this seat's player would play another: once every human seat
    has asked, the table deals a new match (same seats, names and options; the deal moves on)."""

    type: Literal["rematch"] = "rematch"
    code: TableCode


class WhyRequest(_Request):
    """Why a bot played its move at turn ``move`` (the ``turn`` of its log line; omitted:
    the table's last bot move), answered with ``why`` to the asker alone."""

    type: Literal["why"] = "why"
    code: TableCode
    move: int | None = Field(None, ge=0, le=MAX_REQUEST_ID)


class LeagueRequest(_Request):
    """The standings of one of the server's leagues (answered with ``standings``)."""

    type: Literal["league"] = "league"
    name: Name


class ListLeagues(_Request):
    """The server's leagues (answered with ``leagues``: names, games and seasons)."""

    type: Literal["leagues"] = "leagues"


ClientMessage = Annotated[Hello | ListTables | CreateTable | Join | Reissue | Watch | Act | Chat | Leave
                          | Rematch | WhyRequest | LeagueRequest | ListLeagues,
                          Field(discriminator="type")]


# --- server -> client ---------------------------------------------------------------


class _Reply(_Message):
    model_config = ConfigDict(extra="forbid", strict=False)
    id: int | None = None


class GameInfo(BaseModel):
    id: str
    name: str
    player_counts: list[int]
    #: The bot ids that play this game.
    bots: list[str]
    #: The game's options with their defaults (``Game.Options().model_dump(mode="json")``).
    options: dict[str, Any] = {}


class Welcome(_Reply):
    type: Literal["welcome"] = "welcome"
    server: str
    protocol: int = PROTOCOL_VERSION
    games: list[GameInfo]


class SeatInfo(BaseModel):
    seat: int
    name: str
    #: "human" or the bot id that plays the seat.
    kind: str
    connected: bool = False
    #: A human seat whose player is away, played by a bot meanwhile.
    bot_playing: bool = False
    #: A human seat nobody has claimed (its invite is unused).
    open: bool = False


class TableInfo(BaseModel):
    code: str
    game: str
    players: int
    seats: list[SeatInfo]
    status: Literal["waiting", "playing", "over"]
    hand_no: int
    public: bool = False
    #: The table deals from a seed its creator chose (a server started with --allow-seed).
    chosen_seed: bool = False
    #: One connection may hold several human seats.
    hot_seat: bool = False
    #: A stand-in bot plays the human seats nobody has claimed.
    standin_open: bool = False
    #: The server's league the table's matches count for (docs/leagues.md), if any.
    league: str | None = None


class Tables(_Reply):
    type: Literal["tables"] = "tables"
    tables: list[TableInfo]


class SeatLink(BaseModel):
    seat: int
    #: Claims the seat once: hand it to the seat's player.
    invite: str
    #: ``cardcore://HOST:PORT/CODE#INVITE``
    link: str
    #: ``http://HOST:PORT/?table=CODE&secret=INVITE`` (the browser front end)
    web_link: str = ""


class TableCreated(_Reply):
    type: Literal["table_created"] = "table_created"
    code: str
    seats: list[SeatLink]
    #: The owner's key: ``reissue`` a seat's invite with it.
    owner: str


class Invite(_Reply):
    """A seat's new invite (the reply to ``reissue``), as ``table_created`` gives them."""

    type: Literal["invite"] = "invite"
    code: str
    seat: int
    invite: str
    link: str
    web_link: str = ""


class Joined(_Reply):
    type: Literal["joined"] = "joined"
    code: str
    seat: int
    name: str
    #: The seat's own key: ``join`` with it to come back (kept by the client).
    token: str


class Watching(_Reply):
    type: Literal["watching"] = "watching"
    code: str


class Left(_Reply):
    type: Literal["left"] = "left"
    code: str
    #: Why, when the server sent it unasked (the owner re-issued this seat's invite).
    reason: str | None = None


class GroupJSON(BaseModel):
    id: str
    cards: list[str | None]
    badges: list[str] = []
    seat: int | None = None
    parts: list[int] = []


class ZoneJSON(BaseModel):
    id: str
    kind: str
    title: str
    seat: int | None = None
    side: int | None = None
    cards: list[str | None] = []
    groups: list[GroupJSON] = []
    badges: list[str] = []


class ActionJSON(BaseModel):
    """A legal action as the seat to play receives it (``cardcore.services.net.wire.action_json``)."""

    action: dict[str, Any]
    label: str
    #: The mover's hand cards it plays (``Action.hand_cards``).
    cards: list[str] = []
    #: ``[card or null, zone or group id]`` pairs (``Action.table_cards``).
    table_cards: list[tuple[str | None, str]] = []
    #: Zone and group ids it touches (``Action.targets``).
    targets: list[str] = []
    step: str | None = None


class LogLine(BaseModel):
    hand: int
    seat: int | None
    #: As the table's move log shows it: "West: Capture 3♥ with 3♠".
    text: str
    bot: bool = False
    #: A bot's move: the table's turn counter when it was played (a ``why`` asks by it).
    turn: int | None = None


class Sheet(BaseModel):
    side_names: list[str]
    #: The hands' score rows (``GameState.score()``), in order.
    rows: list[dict[str, Any]]
    totals: list[int]
    target: int
    variant: str = ""


class Update(_Reply):
    """The table as one connection may see it. ``seat`` None: a spectator."""

    type: Literal["update"] = "update"
    code: str
    seat: int | None
    #: The table's turn counter: the number of actions played in the match so far.
    #: An ``act`` must carry the counter of the update it answers.
    turn: int
    game: str
    hand_no: int
    dealer: int | None = None
    to_play: int | None
    names: list[str]
    side_names: list[str]
    seats: list[SeatInfo]
    zones: list[ZoneJSON]
    #: ``GameState.view(seat)`` (``view(None)`` for a spectator): hidden cards null.
    view: dict[str, Any]
    #: The legal actions, only to the seat to play ([] otherwise).
    actions: list[ActionJSON] = []
    #: Hand cards with no action, and why (``GameState.why_not``), only to the seat to play.
    why_not: dict[str, str] = {}
    #: The public log lines since this connection's previous update.
    log: list[LogLine] = []
    sheet: Sheet
    #: The hand shown is over (its score is the sheet's last row); the next update deals.
    hand_over: bool = False
    over: bool = False
    winner: int | None = None
    #: The match deals from a seed its creator chose (a server started with --allow-seed):
    #: whoever chose it can know every hand. Otherwise from 128 secret bits nobody chose.
    chosen_seed: bool = False
    #: The server's league the match counts for (sent only at a league's table).
    league: str | None = None


class ErrorMessage(_Reply):
    type: Literal["error"] = "error"
    code: str
    message: str


class SeatStatus(_Reply):
    type: Literal["seat_status"] = "seat_status"
    code: str
    seat: int
    connected: bool
    bot_playing: bool = False
    #: The seat's name now (added in 1: a player who joins names the seat).
    name: str | None = None
    #: A human seat nobody has claimed (its invite unused, or re-issued).
    open: bool = False


class ChatLine(_Reply):
    type: Literal["chat"] = "chat"
    code: str
    seat: int | None
    name: str
    text: str


class RematchStatus(_Reply):
    """Who asked for a rematch, whom it waits for; ``started``: the new match is dealt (its
    update follows)."""

    type: Literal["rematch"] = "rematch"
    code: str
    agreed: list[int]
    waiting: list[int]
    started: bool = False


class WhyEstimate(BaseModel):
    #: The move, or "another discard" / "another move" when it names a card hidden from you.
    label: str
    #: The bot's estimate: its side's expected hand margin, in points.
    value: float
    #: The move it played (the first).
    chosen: bool = False


class WhyAnswer(_Reply):
    """The answer to ``why``: the bot move at turn ``move`` by ``seat``, in words (``text``)
    and as estimates (at most three; none from a bot that gives no reasons)."""

    type: Literal["why"] = "why"
    code: str
    move: int
    seat: int
    text: str
    estimates: list[WhyEstimate] = Field([], max_length=3)


#: A league's partnerships at most (``cardcore.services.league.MAX_PARTNERSHIPS``), and the
#: players its standings list at most (its partnerships' and stand-ins').
MAX_LEAGUE_TEAMS = 32
MAX_LEAGUE_PLAYERS = 256


class TeamStanding(BaseModel):
    """One partnership's line of a league's table, in the table's order."""

    name: str = Field(max_length=MAX_SIDE_NAME_CHARS)
    players: list[str] = Field(max_length=2)
    played: int
    won: int
    lost: int
    drawn: int = 0
    #: The forfeits this partnership gave.
    forfeits: int = 0
    points_for: int
    points_against: int
    #: openskill's PlackettLuce rating: mu and sigma ("rating 27.1 ± 7.2").
    mu: float
    sigma: float


class PlayerStanding(BaseModel):
    name: str = Field(max_length=MAX_NAME_CHARS)
    #: The player's partnership (None: someone who stood in).
    partnership: str | None = Field(None, max_length=MAX_SIDE_NAME_CHARS)
    played: int
    won: int
    mu: float
    sigma: float


class Standings(_Reply):
    """The answer to ``league``: the league's table, as ``cardcore league show`` computes it."""

    type: Literal["standings"] = "standings"
    league: str = Field(max_length=MAX_NAME_CHARS)
    game: str
    #: The league's options (every field of the game's options): a table for it plays them.
    options: dict[str, Any] = {}
    season: str = Field(max_length=MAX_NAME_CHARS)
    #: Matches and forfeits counted.
    entries: int
    teams: list[TeamStanding] = Field(max_length=MAX_LEAGUE_TEAMS)
    players: list[PlayerStanding] = Field(max_length=MAX_LEAGUE_PLAYERS)


#: The leagues a ``leagues`` answer lists at most (the newest, when a library has more).
MAX_LISTED_LEAGUES = 100


class LeagueInfo(BaseModel):
    name: str = Field(max_length=MAX_NAME_CHARS)
    game: str = Field(max_length=64)
    season: str = Field(max_length=MAX_NAME_CHARS)


class Leagues(_Reply):
    """The answer to ``leagues``: the server's leagues, in the order they were made."""

    type: Literal["leagues"] = "leagues"
    leagues: list[LeagueInfo] = Field(max_length=MAX_LISTED_LEAGUES)


ServerMessage = Annotated[Welcome | Tables | TableCreated | Invite | Joined | Watching | Left | Update
                          | ErrorMessage | SeatStatus | ChatLine | RematchStatus | WhyAnswer | Standings
                          | Leagues,
                          Field(discriminator="type")]

_CLIENT: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(ClientMessage)
_SERVER: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(ServerMessage)


# --- encode / decode ------------------------------------------------------------------


#: orjson: dict keys that are not strings written as strings, as ``json`` does.
_ORJSON = orjson.OPT_NON_STR_KEYS


def encode(message: BaseModel | dict[str, Any]) -> str:
    """One frame: compact JSON, ``v`` and ``type`` included (a dict is sent as it is)."""
    if isinstance(message, BaseModel):
        return message.model_dump_json()
    return orjson.dumps(message, option=_ORJSON).decode()


def frame(message: dict[str, Any] | list[Any]) -> bytes:
    """``encode`` as UTF-8 bytes, what the server sends (as a text frame): a dict, where
    ``orjson.Fragment`` values are JSON already encoded (parts shared by several frames)."""
    return orjson.dumps(message, option=_ORJSON)


def fragment(data: dict[str, Any] | list[Any]) -> orjson.Fragment:
    """``data``'s JSON to keep and splice into frames (``frame`` takes it as encoded), held
    as a copy of its own: a small orjson output keeps the 4 KB buffer it was written in."""
    return orjson.Fragment(memoryview(frame(data)).tobytes())


def decode(raw: str | bytes, *, sent_by: Literal["client", "server"] = "client") -> Any:
    """The message in ``raw`` (a client's by default, or the server's): ProtocolError with
    its code and one line when it is too big, not JSON, of another version or shape."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    limit = MAX_MESSAGE_BYTES if sent_by == "client" else MAX_SERVER_MESSAGE_BYTES
    if size > limit:
        raise ProtocolError("too_big", f"message of {size} bytes; at most {limit}")
    adapter = _CLIENT if sent_by == "client" else _SERVER
    try:
        return adapter.validate_json(raw)
    except pydantic.ValidationError as exc:
        raise _error_of(exc) from None


def _error_of(exc: pydantic.ValidationError) -> ProtocolError:
    err = exc.errors(include_url=False)[0]
    kind, loc = err["type"], err["loc"]
    where = ".".join(str(p) for p in loc[1:]) or "message"
    if kind == "json_invalid":
        return ProtocolError("bad_json", f"not JSON ({err['msg']})")
    if kind == "union_tag_invalid":
        return ProtocolError("unknown_type", f"unknown message type {_short(err.get('input'))}")
    if kind == "union_tag_not_found":
        return ProtocolError("bad_field", "the message has no \"type\"")
    if not loc:
        return ProtocolError("bad_json", "a message is a JSON object")
    if loc[1:] == ("v",):
        return ProtocolError("bad_version", f"protocol version {_short(err.get('input'))}; "
                             f"this server speaks {PROTOCOL_VERSION}")
    return ProtocolError("bad_field", f"{loc[0]}.{where}: {complaints.message(err)}")


def _short(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("type", value.get("v"))
    text = json.dumps(value, ensure_ascii=True, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def error(code: str, message: str, request_id: int | None = None) -> dict[str, Any]:
    """An ``error`` frame's content (one line)."""
    return {"v": PROTOCOL_VERSION, "type": "error", "code": code,
            "message": " ".join(message.split()), "id": request_id}
