"""The colours of SudokuPad's drawings that mean a rule, which the reader and the writer share."""

from __future__ import annotations

#: The colours (lower case, ``#rrggbb``) of the lines that mean a rule, as SudokuPad's converter
#: from f-puzzles and shudu's writer draw them. A grey line is a thermometer (with a bulb), a
#: between line (thin, with circles at its ends) or a palindrome.
GREY = "#cfcfcf"
LINE_COLOURS = {
    "#f067f0": "renban",
    "#67f067": "whisper",
    "#2ecbff": "region-sum-line",
    "#ffa500": "zipper",
    "#ffcf50": "entropic",
    "#a0a0ff": "modular",
    "#ff6060": "parity-line",
    "#8c8c8c": "slow-thermo",
}
RULE_COLOURS = {kind: colour for colour, kind in LINE_COLOURS.items()}
DIAGONAL = "#34bbe6"
ARROW = "#a1a1a1"

#: The words of a clue beside the grid that name its rule, by the rule they name.
OUTSIDE_WORDS = {
    "sandwich": ("sandwich",),
    "x-sum": ("x-sum", "x sum", "xsum"),
    "skyscraper": ("skyscraper",),
}
