"""Token ranges as credo's wire wants them: UTF-8 byte offsets (SERVICE.md §1).

Python strings and Hugging Face tokenizers (``return_offsets_mapping=True``)
count code points; credo counts UTF-8 bytes. ``byte_offsets`` and
``char_offsets`` convert between the two. ``token_ranges`` gives the byte
range of each *sampled* token id (what an engine returns), from the
tokenizer itself: exactly, from each token's bytes, for byte-level BPE
tokenizers (GPT-2, Llama 3, Qwen), else by decoding the response token by
token (any tokenizer, or any ``decode`` function).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

Range = tuple[int, int]


def byte_offsets(text: str, char_offsets: Sequence[Sequence[int]]) -> list[Range]:
    """Code-point offsets (Python, HF tokenizers) -> UTF-8 byte offsets (credo's wire)."""
    at = [0] * (len(text) + 1)  # at[c]: byte offset of code point c
    for c, ch in enumerate(text):
        at[c + 1] = at[c] + len(ch.encode("utf-8", "surrogatepass"))
    return [(at[s], at[e]) for s, e in char_offsets]


def char_offsets(text: str, byte_ranges: Sequence[Sequence[int]]) -> list[Range]:
    """UTF-8 byte ranges (verdict spans) -> code-point offsets.

    A byte offset inside a multi-byte character rounds down to that
    character's start.
    """
    char_at: list[int] = []
    c = 0
    for c, ch in enumerate(text):
        char_at.extend([c] * len(ch.encode("utf-8", "surrogatepass")))
    char_at.append(len(text))
    return [(char_at[s], char_at[e]) for s, e in byte_ranges]


def encode_with_ranges(tokenizer: Any, text: str) -> tuple[list[int], list[Range]]:
    """Tokenize text with a Hugging Face fast tokenizer: (ids, byte ranges).

    For text the trainer tokenizes itself (no special tokens added). For ids
    an engine sampled, use token_ranges: re-tokenizing decoded text need not
    give the sampled ids back.
    """
    enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
    return list(enc["input_ids"]), byte_offsets(text, enc["offset_mapping"])


def _bytes_to_unicode() -> dict[str, int]:
    """GPT-2's byte-level alphabet: the printable character standing for each byte."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


_BYTE_OF = _bytes_to_unicode()


def _is_byte_level(tokenizer: Any) -> bool:
    backend = getattr(tokenizer, "backend_tokenizer", None)
    decoder = getattr(backend, "decoder", None)
    return decoder is not None and "ByteLevel" in type(decoder).__name__ + repr(decoder)[:200]


def _byte_level_ranges(tokenizer: Any, ids: Sequence[int], skip_special_tokens: bool) -> tuple[str, list[Range]] | None:
    """Each token's own bytes, for a byte-level BPE tokenizer; None when that does not apply."""
    special = set(getattr(tokenizer, "all_special_ids", []) or [])
    added = {int(k) for k in (getattr(tokenizer, "added_tokens_decoder", None) or {})}
    pieces = tokenizer.convert_ids_to_tokens(list(ids))
    out, ranges, at = bytearray(), [], 0
    for tid, piece in zip(ids, pieces):
        if piece is None:
            return None
        if int(tid) in special and skip_special_tokens:
            b = b""
        elif int(tid) in added:
            b = piece.encode("utf-8")
        else:
            try:
                b = bytes(_BYTE_OF[ch] for ch in piece)
            except KeyError:
                return None
        out += b
        ranges.append((at, at + len(b)))
        at += len(b)
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError:  # a response cut inside a character: decode it as the tokenizer does
        return None
    return text, ranges


def ranges_by_decoding(decode: Callable[[Sequence[int]], str], ids: Sequence[int]) -> tuple[str, list[Range]]:
    """Byte ranges from any decode function, by decoding each prefix of the response.

    Token t's range runs from the end of decode(ids[:t]) to the end of
    decode(ids[:t+1]), in UTF-8 bytes of the final text. Where a prefix's
    text is not a prefix of the next one (a tokenizer that merges spaces or
    holds back an unfinished character), the token's range starts where the
    two texts first differ. Costs one decode per token (O(T²) work): for
    tokenizers without a byte-level fast path.
    """
    text = decode(list(ids))
    full = text.encode("utf-8", "surrogatepass")
    ranges: list[Range] = []
    prev = 0
    for t in range(len(ids)):
        cur = decode(list(ids[: t + 1])).encode("utf-8", "surrogatepass")
        end = _common_prefix(cur, full)
        start = min(prev, end)
        ranges.append((start, end))
        prev = end
    return text, ranges


def _common_prefix(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def token_ranges(tokenizer: Any, ids: Sequence[int], skip_special_tokens: bool = True) -> tuple[str, list[Range]]:
    """(response text, one UTF-8 byte range per token) for sampled token ids.

    The text is tokenizer.decode(ids, skip_special_tokens=...), what a
    trainer's verifier reads; special tokens skipped get empty ranges. A
    byte-level BPE tokenizer gives each token its exact bytes (a token
    holding part of a multi-byte character gets a range inside it); any
    other tokenizer goes through ranges_by_decoding.
    """
    ids = [int(i) for i in ids]

    def decode(x: Sequence[int]) -> str:
        return tokenizer.decode(list(x), skip_special_tokens=skip_special_tokens)

    if _is_byte_level(tokenizer):
        got = _byte_level_ranges(tokenizer, ids, skip_special_tokens)
        if got is not None and got[0] == decode(ids):
            return got
    return ranges_by_decoding(decode, ids)
