"""Live play: the per-room socket hub, the cross-process broker, presence and JSON Patch diffs."""
