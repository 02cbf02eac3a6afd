"""Shared test set-up: a private cache directory so tests never read a user's cache."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    import os

    os.environ["TREASURE_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    yield
