"""A real SMTP server for browser tests that read the emails a server sends (aiosmtpd, in this process),
and a `motable serve` that sends its mail there."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

from tests.servers import ServeProcess, free_port


class Inbox:
    """Every email the SMTP server took, parsed, in the order they came."""

    def __init__(self) -> None:
        self.mail: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.mail.append(parsed)  # type: ignore[arg-type]
        return "250 OK"


@contextmanager
def smtp_inbox() -> Iterator[tuple[Inbox, int]]:
    """An SMTP server on a free port of 127.0.0.1: its inbox and its port."""
    box, port = Inbox(), free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


@contextmanager
def mailing_server(folder: Path, smtp_port: int, **env: str) -> Iterator[ServeProcess]:
    """A server on SQLite in `folder` that mails through `smtp_port`, its links on its own address;
    `env`: more settings. Bots move quickly and the request limit is lifted (a test makes many)."""
    port = free_port()
    live = ServeProcess(
        {
            "DATABASE_URL": f"sqlite:///{folder / 'motable.db'}",
            "MOTABLE_BOT_DELAY": "0.05",
            "MOTABLE_RATE_PER_SECOND": "0",
            "MOTABLE_SMTP_URL": f"smtp://127.0.0.1:{smtp_port}",
            "MOTABLE_MAIL_FROM": "Motable <alerts@example.org>",
            "MOTABLE_PUBLIC_URL": f"http://127.0.0.1:{port}",
            **env,
        },
        folder / "server.log",
        port=port,
    )
    live.start()
    try:
        yield live
    finally:
        live.stop()
