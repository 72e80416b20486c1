"""``python -m shudu``: the same as the ``shudu`` command."""

import sys

from ._entry import run

sys.exit(run())
