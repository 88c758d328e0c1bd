"""The database use cases (rooms, matches, seat tokens): each in one transaction, no I/O beyond the
database. `store.Services` is their entry point; `app.playing` publishes what they commit."""
