"""Keeps seat tokens out of the server's logs: a WebSocket address carries `?token=...`, an email `?t=...`."""

from __future__ import annotations

import logging
import re

# `t=` is an email link's confirm/unsubscribe token (app/alerts/mail.py).
_TOKEN = re.compile(r"((?<![A-Za-z0-9_])(?:token|t)=)[^&\s\"']+")
# uvicorn names WebSocket addresses on its error logger and HTTP ones on its access logger.
LOGGERS = ("uvicorn.access", "uvicorn.error")


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = _TOKEN.sub(r"\1[redacted]", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN.sub(r"\1[redacted]", arg) if isinstance(arg, str) else arg for arg in record.args
            )
        return True


def redact_tokens() -> None:
    """Install the filter once per logger; uvicorn has configured its loggers by the time the app is built."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
