"""Alerts that call a player back to a table they are away from: what is sent (`core.Alert`), through
which channel (Web Push, email), and what may hold one back (quiet hours, a paused game, a rate)."""
