"""Fixtures of the fishing-game tests (helpers live in helpers.py)."""

import pytest


@pytest.fixture(params=["casino", "royal_casino"])
def game_id(request) -> str:
    return request.param
