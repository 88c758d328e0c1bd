"""Benchmarks that print figures; run them with `python -m bench.<name>`."""
