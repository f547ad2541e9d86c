"""Which browser pages may open a WebSocket: the ``Origin`` check of ``cardcore serve`` and
``cardcore web`` (docs/protocol.md, Transport; docs/hosting.md).

An origin is let in when it is one of the names the host configured (``--origin``, the
public URL), never because of the request's ``Host`` header: a page of ``evil.example``
whose name an attacker points at 127.0.0.1 (DNS rebinding) sends ``Host: evil.example``
and ``Origin: http://evil.example``, and is refused. Loopback names (``localhost``,
127.0.0.0/8, ``::1``) are let in only when the listener itself is on loopback. A request
without ``Origin`` is not from a browser page (browsers always send it on a WebSocket
handshake) and is let in: any other program can send whatever ``Origin`` it likes, so
refusing it would protect nothing.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

#: A URL's scheme, as the scheme of the pages that use it (a ``wss://`` server's pages are https).
_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]


def is_loopback(host: str) -> bool:
    """``localhost`` or a loopback address (a name that only this machine reaches)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def origin_of(url: str) -> Origin | None:
    """(scheme, host, port) of an http(s) or ws(s) URL (or an ``Origin`` header), host in
    lower case and the default port filled in; None if it is not one."""
    try:
        parts = urlsplit(url.strip())
        scheme = _SCHEMES.get(parts.scheme.lower())
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:  # a port out of range, a bracket left open
        return None
    if scheme is None or not host or parts.username is not None or parts.password is not None:
        return None
    return scheme, host, port or _PORTS[scheme]


class Origins:
    """The browser origins a listener lets in: ``listed`` (URLs; their origins), and, when
    ``loopback`` (the listener is on a loopback address), any loopback name: on any port, or
    only on ``loopback_port`` when given."""

    def __init__(self, listed: Iterable[str], *, loopback: bool, loopback_port: int | None = None):
        self.listed = {found for url in listed if (found := origin_of(url)) is not None}
        self.loopback = loopback
        self.loopback_port = loopback_port

    def allows(self, header: str | None) -> bool:
        """Whether a request with this ``Origin`` header may connect (None: no header)."""
        if header is None:
            return True
        origin = origin_of(header)
        if origin is None:
            return False
        parts = urlsplit(header.strip())  # it parsed above
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            return False
        if origin in self.listed:
            return True
        _, host, port = origin
        return self.loopback and is_loopback(host) and self.loopback_port in (None, port)
