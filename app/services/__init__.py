"""The database use cases (rooms, matches, seats, moves, bot turns, people): each in the caller's
transaction or in one of its own, no I/O beyond the database; `app.playing` publishes what they commit."""
