"""Token ranges in UTF-8 bytes (SERVICE.md §1) from code points and tokenizers."""

import pytest

from credo_client import byte_offsets, char_offsets, encode_with_ranges, ranges_by_decoding, token_ranges

TEXT = "aé€😀 b"  # 1-, 2-, 3- and 4-byte characters


def test_byte_and_char_offsets_invert():
    chars = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 6), (0, 6), (6, 6)]
    got = byte_offsets(TEXT, chars)
    assert got == [(0, 1), (1, 3), (3, 6), (6, 10), (10, 12), (0, 12), (12, 12)]
    assert char_offsets(TEXT, got) == chars
    # a byte inside a character rounds down to the character's start
    assert char_offsets(TEXT, [(2, 4), (7, 9)]) == [(1, 2), (3, 3)]


def test_ranges_by_decoding_with_a_toy_decoder():
    # a decoder over single bytes, like a byte-fallback tokenizer: token t is byte t
    data = "é!".encode()

    def decode(ids):
        return bytes(ids).decode("utf-8", "replace")

    text, rng = ranges_by_decoding(decode, list(data))
    assert text == "é!"
    # the first byte of é decodes to U+FFFD alone: its range is empty, the second byte takes the character
    assert rng == [(0, 0), (0, 2), (2, 3)]


def _check(text, ranges, ids):
    b = text.encode()
    assert len(ranges) == len(ids)
    for s, e in ranges:
        assert 0 <= s <= e <= len(b)
    # the ranges tile the text in order
    assert ranges[0][0] == 0 if ranges else True
    assert all(ranges[i][1] == ranges[i + 1][0] for i in range(len(ranges) - 1))
    assert (ranges[-1][1] if ranges else 0) == len(b)


@pytest.mark.parametrize("text", ["Hello, world!", "naïve café — 5€ 😀😀", "<tool_call>{\"a\": 1}</tool_call>\n", ""])
def test_qwen3_token_ranges(qwen3_tokenizer, text):
    tok = qwen3_tokenizer
    ids = tok(text, add_special_tokens=False)["input_ids"]
    got_text, rng = token_ranges(tok, ids)
    assert got_text == tok.decode(ids) == text
    _check(got_text, rng, ids)
    # the byte-level fast path agrees with decoding token by token wherever a token ends on a character
    slow_text, slow = ranges_by_decoding(lambda x: tok.decode(list(x)), ids)
    assert slow_text == got_text
    for (s, e), (s2, e2) in zip(rng, slow):
        piece = got_text.encode()[s:e]
        try:
            piece.decode()
        except UnicodeDecodeError:
            continue  # a token inside a multi-byte character: the slow path waits for the character's end
        if s == s2:
            assert e == e2


def test_qwen3_emoji_splits_into_byte_ranges(qwen3_tokenizer):
    tok = qwen3_tokenizer
    text = "🦜🦜🦜"
    ids = tok(text, add_special_tokens=False)["input_ids"]
    got, rng = token_ranges(tok, ids)
    assert got == text
    _check(got, rng, ids)
    # at least one token holds part of a 4-byte character: a range that does not start on a character
    starts = {0, 4, 8}
    assert any(s not in starts for s, _ in rng) or len(ids) == 3


def test_special_tokens_get_empty_ranges(qwen3_tokenizer):
    tok = qwen3_tokenizer
    ids = tok("Yes.", add_special_tokens=False)["input_ids"] + [tok.convert_tokens_to_ids("<|im_end|>")]
    text, rng = token_ranges(tok, ids)
    assert text == "Yes."
    assert rng[-1] == (4, 4)
    text2, rng2 = token_ranges(tok, ids, skip_special_tokens=False)
    assert text2 == "Yes.<|im_end|>" and rng2[-1] == (4, len(text2))


def test_encode_with_ranges_matches_offsets(qwen3_tokenizer):
    text = "Prix: 5€, très bien"
    ids, rng = encode_with_ranges(qwen3_tokenizer, text)
    assert ids == qwen3_tokenizer(text, add_special_tokens=False)["input_ids"]
    b = text.encode()
    assert rng[-1][1] == len(b)
    assert all(0 <= s <= e <= len(b) for s, e in rng)
