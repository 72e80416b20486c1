"""The ``shudu`` command's entry point (and ``python -m shudu``'s): a Ctrl-C is answered from its
first line, while the command line's own modules still load, with the same line and exit status
as a Ctrl-C during a command (docs/errors.md).

It imports nothing of shudu at module level: the command line is loaded inside :func:`run`, once
the early answer to SIGINT is in place, and that answer is handed back to Python's own before the
command runs, so that the command's clean-up (:mod:`shudu.cli._system`) sees KeyboardInterrupt as
before.
"""

from __future__ import annotations

import os
import signal
from types import FrameType

#: The exit status of an interrupted command (``shudu.notation.Exit.INTERRUPTED``; not imported,
#: so that this module loads nothing else).
INTERRUPTED = 130


def _interrupted_early(signum: int, frame: FrameType | None) -> None:
    # nothing has started yet (only imports ran), so there is nothing to clean up
    os.write(2, b"shudu: interrupted\n")
    os._exit(INTERRUPTED)


def run() -> int:
    """Load the command line and run it on ``sys.argv``; return its exit status."""
    early = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if early:
        signal.signal(signal.SIGINT, _interrupted_early)
    from .cli import main

    if early:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    return main()
