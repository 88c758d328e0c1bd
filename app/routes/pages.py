"""Server-rendered pages (lobby, room, rules)."""

from fastapi import APIRouter

router = APIRouter()
