"""``cardcore serve`` on the command line: bad arguments are one line and exit 2; an address
other machines can reach needs --allow-remote and warns without TLS; TLS serves wss://."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys

import pytest

from cardcore.apps.cli import main
from tests.net.helpers import Client, running


@pytest.mark.parametrize("args", [
    ["--host", "0.0.0.0"],
    ["--host", "192.0.2.7"],
    ["--port", "70000"],
    ["--port", "http"],
    ["--tls-cert", "cert.pem"],
    ["--tls-cert", "missing.pem", "--tls-key", "missing.key"],
    ["--standin", "wizard"],
    ["--grace", "-1"],
    ["--origin", "evil.example"],
    ["--max-per-ip", "-1"],
    ["--expire-after", "soon"],
    ["--bot-processes", "-1"],
    ["--max-tables-per-ip", "-1"],
    ["--max-handshakes", "many"],
    ["--open-timeout", "0"],
    ["--slot", "2", "--slots", "2"],
    ["--slots", "27"],
    ["--workers", "0"],
])
def test_bad_arguments_are_one_line_and_exit_2(args, capsys):
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardcore: error: ")
    assert "Traceback" not in err


def test_workers_without_haproxy_is_one_line_that_says_how_to_get_it(capsys, monkeypatch):
    from cardcore.apps import serve_workers

    monkeypatch.setattr(serve_workers, "find_haproxy", lambda: None)
    assert main(["serve", "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "apt-get install haproxy" in err


def test_a_port_in_use_is_one_line(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in err


def test_listening_for_other_machines_without_tls_warns(tmp_path):
    env = {**os.environ, "CARDCORE_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "cardcore", "serve", "--host", "0.0.0.0", "--port", "0",
                             "--allow-remote"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline().startswith("cardcore serve: listening on ws://0.0.0.0:")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 0
    assert "warning: listening on 0.0.0.0 without TLS" in err
    assert "stopped; every table is kept in the library" in out


@pytest.mark.asyncio
@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test certificate")
async def test_tls_serves_wss_and_links_say_so(tmp_path):
    from cardcore.apps.serve_cli import _tls
    from tests.net.helpers import server_config

    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=60)
    config = server_config()
    config.ssl = _tls(str(cert), str(key))
    async with running(tmp_path / "library.sqlite", config) as server:
        trust = ssl.create_default_context(cafile=str(cert))
        ws = await asyncio.wait_for(__import__("websockets").connect(
            f"wss://127.0.0.1:{server.port}/", ssl=trust), 10)
        client = Client(ws)
        made = await client.request({"type": "create_table", "game": "casino", "seats": ["human", "greedy"]})
        assert made["seats"][0]["link"].startswith(f"cardcores://127.0.0.1:{server.port}/{made['code']}#")
        await client.close()
        with pytest.raises(Exception):  # noqa: B017 - plain ws to a TLS port fails, whatever the error
            await asyncio.wait_for(Client.connect(server.port), 5)


def test_the_limits_reach_the_server_settings():
    from cardcore.apps.cli import build_parser
    from cardcore.apps.serve_cli import config_of
    from cardcore.services.plugins import load_registry

    args = build_parser().parse_args(["serve", "--max-per-ip", "0", "--expire-after", "90",
                                      "--bot-processes", "0"])
    config = config_of(load_registry(), args)
    assert (config.max_connections_per_ip, config.expire_after, config.bot_processes) == (0, 90.0, 0)
    default = config_of(load_registry(), build_parser().parse_args(["serve"]))
    assert (default.max_connections_per_ip, default.expire_after, default.bot_processes) \
        == (20, 48 * 3600.0, 2)
    quotas = ["--max-tables-per-ip", "3", "--max-handshakes-per-ip", "4", "--max-handshakes", "50",
              "--open-timeout", "2.5", "--max-watchers", "7"]
    config = config_of(load_registry(), build_parser().parse_args(["serve", *quotas]))
    assert (config.max_tables_per_ip, config.max_handshakes_per_ip, config.max_handshakes,
            config.open_timeout, config.table.max_watchers) == (3, 4, 50, 2.5, 7)
    assert (default.max_tables, default.max_tables_per_ip, default.max_handshakes_per_ip,
            default.max_handshakes, default.open_timeout, default.table.max_watchers) == \
        (1000, 20, 10, 200, 5.0, 50)  # as docs/hosting.md says
