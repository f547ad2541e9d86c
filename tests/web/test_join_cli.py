"""`cardcore join` and `cardcore web` refuse bad input in one line, exit status 2: bad
arguments, a server that cannot be reached, a table or secret the server does not know."""

from __future__ import annotations

import pytest

from cardcore.apps.cli import main
from cardcore.services.net import protocol as p

from .processes import ask, free_port, serve


def one_line_error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardcore: error: "), err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(("argv", "says"), [
    (["join"], "a table code or a link"),
    (["join", "KQX4821"], "not a table code"),
    (["join", "cardcore://host/KQX-482x#s"], "a seat link is"),
    (["join", "KQX-482", "--server", "http://127.0.0.1:1"], "ws://HOST:PORT"),
    (["join", "KQX-482", "--name", ""], "--name"),
    (["join", "KQX-482", "--name", "x" * 40], "--name"),
    (["join", "KQX-482", "--name", "a\u202eb"], "--name"),
    (["web"], "--server"),
    (["web", "--server", "nope"], "ws://HOST:PORT"),
    (["web", "--server", "ws://127.0.0.1:1", "--host", "0.0.0.0"], "--allow-remote"),
    (["web", "--server", "ws://127.0.0.1:1", "--port", "70000"], "port"),
    (["web", "--server", "ws://127.0.0.1:1", "--host", "0.0.0.0", "--allow-remote"], "--public-url"),
    (["web", "--server", "ws://127.0.0.1:1", "--origin", "evil.example"], "--origin wants"),
    (["web", "--server", "ws://127.0.0.1:1", "--public-url", "https://[::1"], "--public-url wants"),
    (["web", "--server", "ws://127.0.0.1:1", "--max-apps", "-1"], "--max-apps"),
    (["web", "--server", "ws://127.0.0.1:1", "--max-apps-per-client", "x"], "--max-apps-per-client"),
])
def test_bad_arguments(capsys, argv, says):
    assert says in one_line_error(capsys, argv)


def test_a_server_that_is_not_there(capsys):
    port = free_port()
    err = one_line_error(capsys, ["join", "KQX-482", "--secret", "s", "--server", f"ws://127.0.0.1:{port}"])
    assert f"cannot reach the server at ws://127.0.0.1:{port}" in err
    err = one_line_error(capsys, ["join", "--server", f"ws://127.0.0.1:{port}"])
    assert "cannot reach the server" in err


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
def test_a_table_or_secret_the_server_does_not_know(capsys):
    with serve() as server:
        created = ask(server, p.CreateTable(game="casino", seats=["human", "greedy"]))
        err = one_line_error(capsys, ["join", "ZZZ-999", "--secret", "x", "--server", server])
        assert "Table ZZZ-999 did not seat you (no such table)" in err
        err = one_line_error(capsys, ["join", "ZZZ-999", "--server", server])
        assert "table ZZZ-999: no table" in err
        port = server.rsplit(":", 1)[1]
        err = one_line_error(capsys, ["join", f"cardcore://127.0.0.1:{port}/{created.code}#wrong"])
        assert f"Table {created.code} did not seat you (not a seat's invite)" in err
        assert "not an invite" in err
        # the invite's words as arguments of their own, mistyped: the same one line
        err = one_line_error(capsys, ["join", created.code, "maple", "river", "stone", "tigre",
                                      "--server", server])
        assert f"Table {created.code} did not seat you (not a seat's invite)" in err
