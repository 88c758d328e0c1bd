"""Services, tools and machine limits some tests need: absent on a developer's machine they skip, saying why;
in CI (MOTABLE_REQUIRE_SERVICES=1, where .ci/run provides them) their absence is a failure."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def service_missing(message: str) -> NoReturn:
    if os.environ.get("MOTABLE_REQUIRE_SERVICES"):
        pytest.fail(message)
    pytest.skip(message)
