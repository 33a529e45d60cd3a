"""credo_client: a Python client of ``credo serve`` (docs/SERVICE.md) and
adapters that bring credo's verifiers and token-level credit to verl,
prime-rl, slime, SkyRL, TRL and OpenRLHF.

The client needs only the standard library; numpy makes packing faster and
torch gives (B, T) tensors (credo_client.batch). Each adapter imports its
engine only when used.
"""

from .batch import Layout, from_padded, layout, to_padded
from .client import Advantages, Client, CredoError, response
from .offsets import byte_offsets, char_offsets, encode_with_ranges, ranges_by_decoding, token_ranges
from .packing import pack, pack_offsets, unpack

__version__ = "0.1.0"

__all__ = [
    "Advantages",
    "Client",
    "CredoError",
    "Layout",
    "byte_offsets",
    "char_offsets",
    "encode_with_ranges",
    "from_padded",
    "layout",
    "pack",
    "pack_offsets",
    "ranges_by_decoding",
    "response",
    "to_padded",
    "token_ranges",
    "unpack",
]
