"""Shared fixtures for the TUI tests: the registry, an app factory (CARDCORE_HOME: tests/conftest.py)."""

from __future__ import annotations

import asyncio
import inspect

import pytest

from cardcore.apps.tui.app import CardcoreApp
from cardcore.services.plugins import load_registry

SIZE = (100, 30)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Run ``async def`` tests in a fresh event loop (no async plugin needed)."""
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        names = pyfuncitem._fixtureinfo.argnames
        asyncio.run(pyfuncitem.obj(**{n: pyfuncitem.funcargs[n] for n in names}))
        return True
    return None


@pytest.fixture(scope="session")
def registry():
    return load_registry()


@pytest.fixture
def make_app(registry):
    def make(**kwargs) -> CardcoreApp:
        kwargs.setdefault("bot_delay", 0)
        kwargs.setdefault("animations", False)
        kwargs.setdefault("seed", 7)
        return CardcoreApp(kwargs.pop("registry", registry), **kwargs)

    return make


@pytest.fixture
def need_game(registry):
    """The game with this id, or skip (engines written in parallel land later)."""

    def need(game_id: str):
        if game_id not in registry.games:
            pytest.skip(f"{game_id} is not installed yet")
        return registry.games[game_id]

    return need


@pytest.fixture(params=["en", pytest.param("id", marks=pytest.mark.slow)])
def spoken(request):
    """The test twice: in English and in Indonesian (issue 27's 80x24 twins: `make test` runs
    the Indonesian one, the quick loop does not), the language chosen as ``--lang`` chooses
    it (``language.set_language``), English again after."""
    from cardcore import language

    language.set_language(request.param)
    yield request.param
    language.set_language(language.ENGLISH)
