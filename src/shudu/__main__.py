"""``python -m shudu``: the same as the ``shudu`` command."""

import sys

from .cli import main

sys.exit(main())
