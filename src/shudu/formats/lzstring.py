"""lz-string's base64 codec (the compression of f-puzzles and SudokuPad links), from its description."""

from __future__ import annotations

from ..errors import ParseError
from .limits import MAX_TEXT_LENGTH

_LZ_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
_LZ_INDEX = {c: i for i, c in enumerate(_LZ_ALPHABET)}


def lz_decompress_base64(data: str) -> str:
    """lz-string's ``decompressFromBase64`` (the JavaScript library f-puzzles and SudokuPad use).

    A text that would expand past :data:`~shudu.formats.limits.MAX_TEXT_LENGTH` characters is
    refused as it grows (a few hundred kilobytes of lz-string can expand quadratically).
    """
    if len(data) > MAX_TEXT_LENGTH:
        raise ParseError(
            f"the compressed puzzle is {len(data)} characters long; at most {MAX_TEXT_LENGTH} are read"
        )
    values = []
    for i, char in enumerate(data):
        if char not in _LZ_INDEX:
            raise ParseError(f"character {char!r} at position {i + 1} is not base64", column=i + 1, char=char)
        values.append(_LZ_INDEX[char])
    if not values:
        raise ParseError("the compressed puzzle is empty")
    pos = [0, 32, values[0], 1]  # [unused, position bit, current value, next index]

    def read(bits: int) -> int:
        out, power = 0, 1
        for _ in range(bits):
            bit = pos[2] & pos[1]
            pos[1] >>= 1
            if pos[1] == 0:
                pos[1] = 32
                pos[2] = values[pos[3]] if pos[3] < len(values) else 0
                pos[3] += 1
            if bit:
                out |= power
            power <<= 1
        return out

    bad = ParseError("the compressed puzzle is not lz-string data (a truncated or altered link?)")
    words: dict[int, str] = {0: "", 1: "", 2: ""}
    first = read(2)
    if first == 2:
        return ""
    if first not in (0, 1):
        raise bad
    w = chr(read(8 if first == 0 else 16))
    words[3] = w
    out = [w]
    length = 1
    size, enlarge, bits = 4, 4, 3
    while True:
        if pos[3] > len(values) + 1:
            raise bad
        code = read(bits)
        if code in (0, 1):
            words[size] = chr(read(8 if code == 0 else 16))
            code = size
            size += 1
            enlarge -= 1
        elif code == 2:
            return "".join(out)
        if enlarge == 0:
            enlarge = 1 << bits
            bits += 1
        if code in words and code > 2:
            entry = words[code]
        elif code == size:
            entry = w + w[0]
        else:
            raise bad
        out.append(entry)
        length += len(entry)
        if length > MAX_TEXT_LENGTH:
            raise ParseError(f"the compressed puzzle expands to over {MAX_TEXT_LENGTH} characters")
        words[size] = w + entry[0]
        size += 1
        enlarge -= 1
        w = entry
        if enlarge == 0:
            enlarge = 1 << bits
            bits += 1


def lz_compress_base64(text: str) -> str:
    """lz-string's ``compressToBase64``."""
    out: list[str] = []
    state = [0, 0]  # value, position

    def write(value: int, bits: int) -> None:
        for _ in range(bits):
            state[0] = (state[0] << 1) | (value & 1)
            if state[1] == 5:
                out.append(_LZ_ALPHABET[state[0]])
                state[0] = state[1] = 0
            else:
                state[1] += 1
            value >>= 1

    words: dict[str, int] = {}
    to_create: set[str] = set()
    w = ""
    size, enlarge, bits = 3, 2, 2

    def emit(w: str) -> None:
        nonlocal enlarge, bits
        if w in to_create:
            code = ord(w[0])
            if code < 256:
                write(0, bits)
                write(code, 8)
            else:
                write(1, bits)
                write(code, 16)
            enlarge -= 1
            if enlarge == 0:
                enlarge = 1 << bits
                bits += 1
            to_create.discard(w)
        else:
            write(words[w], bits)
        enlarge -= 1
        if enlarge == 0:
            enlarge = 1 << bits
            bits += 1

    for c in text:
        if c not in words:
            words[c] = size
            size += 1
            to_create.add(c)
        if w + c in words:
            w += c
            continue
        emit(w)
        words[w + c] = size
        size += 1
        w = c
    if w:
        emit(w)
    write(2, bits)
    while True:
        state[0] <<= 1
        if state[1] == 5:
            out.append(_LZ_ALPHABET[state[0]])
            break
        state[1] += 1
    result = "".join(out)
    return result + "=" * (-len(result) % 4)
