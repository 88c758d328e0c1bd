"""app/jsonsafe.py: what a client's JSON may not hold, whether or not the decoded value is walked."""

from __future__ import annotations

import pytest

from app import jsonsafe


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "A\\u0000nn"}',
        '{"a\\u0000": 1}',
        '[["x", {"deep": "\\u0000"}]]',
    ],
)
def test_a_nul_escape_anywhere_is_refused(text: str) -> None:
    with pytest.raises(ValueError) as refused:
        jsonsafe.loads(text.encode(), 32)
    assert "NUL" in str(refused.value.args[0])


def test_depth_is_refused_past_the_limit_and_taken_at_it() -> None:
    assert jsonsafe.loads(b"[[[1]]]", 3) == [[[1]]]
    with pytest.raises(ValueError) as refused:
        jsonsafe.loads(b"[[[[1]]]]", 3)
    assert "nested" in str(refused.value.args[0])
    # Brackets in strings count towards walking, never towards the depth.
    assert jsonsafe.loads(b'{"a": "[[[[{{{{"}', 3) == {"a": "[[[[{{{{"}
    # A backslash before "u0000" in the text is not a NUL once decoded.
    assert jsonsafe.loads(b'{"a": "\\\\u0000"}', 3) == {"a": "\\u0000"}


def test_a_move_message_decodes_as_it_was_sent() -> None:
    raw = b'{"type": "action", "id": "a1", "action": {"type": "play", "card": 38}, "version": 57}'
    assert jsonsafe.loads(raw, 32) == {
        "type": "action",
        "id": "a1",
        "action": {"type": "play", "card": 38},
        "version": 57,
    }
    assert not jsonsafe.text_may_fail(raw.decode(), 32)
