"""The people at a table, in the database: presence (`presence`), move clocks (`clocks`), bots
standing in for absent players, leaving and removal (`standins`), moving a seat to another device
with its holder's consent (`handover`), and the table chat (`chat`); what they share is in `common`.
Each function runs inside the caller's transaction and raises AppError, having written nothing, when
it refuses. Callers use the names below (`people.X`); a test that patches a name patches the module
that reads it (`people.chat.CHAT_KEPT`), not this one."""

from app.services.lookup import SEAT_EPOCHS, bump_epoch
from app.services.people.chat import (
    TABLE_LINES,
    chat_log,
    say,
    set_chat_spectators,
    table_line,
)
from app.services.people.clocks import deadline, set_clock
from app.services.people.common import Times, aware, playing_room, seat_row, seats_of
from app.services.people.handover import (
    LONE_APPROVER_AFTER,
    answer_request,
    ask_for_seat,
    carry_out,
    consent,
    due_handovers,
    follow_to_rematches,
    holder_back,
    holder_requests,
    open_requests,
    request_status,
    seat_check,
    waiting_seats,
)
from app.services.people.handover import OPEN as OPEN_REQUEST_STATUSES
from app.services.people.presence import away_since, gone_for, presence_unknown, seen
from app.services.people.standins import leave, remove, stand_in, take_back

__all__ = [
    "LONE_APPROVER_AFTER",
    "OPEN_REQUEST_STATUSES",
    "SEAT_EPOCHS",
    "TABLE_LINES",
    "Times",
    "answer_request",
    "ask_for_seat",
    "aware",
    "away_since",
    "bump_epoch",
    "carry_out",
    "chat_log",
    "consent",
    "deadline",
    "due_handovers",
    "follow_to_rematches",
    "gone_for",
    "holder_back",
    "holder_requests",
    "leave",
    "open_requests",
    "playing_room",
    "presence_unknown",
    "remove",
    "request_status",
    "say",
    "seat_check",
    "seat_row",
    "seats_of",
    "seen",
    "set_chat_spectators",
    "set_clock",
    "stand_in",
    "table_line",
    "take_back",
    "waiting_seats",
]
