"""The shipped deployment files: compose validates, health checks use readiness, the proxy is trusted."""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

import pytest
import yaml

from tests.servers import ROOT
from tests.services import service_missing


@pytest.fixture
def compose() -> dict[str, Any]:
    """The compose file as `docker-compose config` validates and resolves it."""
    if shutil.which("docker-compose") is None:
        service_missing("docker-compose is not installed (apt-get install docker-compose)")
    done = subprocess.run(
        ["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    resolved: dict[str, Any] = yaml.safe_load(done.stdout)
    return resolved


def test_compose_health_checks_use_readiness(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert isinstance(services, dict)
    for name in ("app1", "app2"):
        check = " ".join(services[name]["healthcheck"]["test"])
        assert "/readyz" in check, f"{name} is checked for readiness"
        env = services[name]["environment"]
        assert env["MOTABLE_TRUSTED_PROXIES"], f"{name} trusts the proxy's X-Forwarded-For"
        assert env["MOTABLE_PUBLIC_URL"].startswith("http")
    depends = services["proxy"]["depends_on"]
    assert depends["app1"]["condition"] == "service_healthy"


def test_dockerfile_health_check_uses_readiness() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "/readyz" in dockerfile
