"""What ``import shudu`` costs: the modules of shudu it loads and the time it takes.

Run from the repository root::

    python benchmarks/import_cost.py                 # 20 fresh interpreters, the median
    python benchmarks/import_cost.py --repeat 50
    python benchmarks/import_cost.py --against /other/checkout/src   # two trees, interleaved

Each measurement is a fresh interpreter that imports shudu and reports how many modules of
shudu are in ``sys.modules`` and how long the import took (the CPU time of the interpreter
around the import, ``time.process_time``, which a busy machine disturbs less than the clock;
compare the medians of interleaved runs).
The interpreter's own start-up is left out. ``--against`` times another source tree the same
way, alternating with this one, and prints the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys, time
start = time.process_time()
import shudu
seconds = time.process_time() - start
names = sorted(m for m in sys.modules if m == "shudu" or m.startswith("shudu."))
print(json.dumps({"seconds": seconds, "modules": names}))
"""


def measure(src: Path) -> tuple[float, list[str]]:
    """One fresh interpreter importing shudu from ``src``: seconds, and the modules loaded."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True)
    answer = json.loads(done.stdout)
    return answer["seconds"], answer["modules"]


def main(argv: list[str] | None = None) -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--repeat", type=int, default=20, help="fresh interpreters per tree (default 20)")
    parser.add_argument("--against", type=Path, help="another source tree (its src folder) to compare with")
    args = parser.parse_args(argv)
    trees = {"this": ROOT / "src"}
    if args.against is not None:
        trees["other"] = args.against
    times: dict[str, list[float]] = {name: [] for name in trees}
    modules: dict[str, list[str]] = {}
    for _ in range(args.repeat):
        for name, src in trees.items():
            seconds, modules[name] = measure(src)
            times[name].append(seconds)
    print("| tree | shudu modules | import CPU ms (median) | min ms |")
    print("|---|---|---|---|")
    for name in trees:
        median, low = statistics.median(times[name]) * 1e3, min(times[name]) * 1e3
        print(f"| {name} | {len(modules[name])} | {median:.1f} | {low:.1f} |")
    if "other" in trees:
        ratio = statistics.median(times["this"]) / statistics.median(times["other"])
        print(f"\nthis / other (median import time): {ratio:.2f}")


if __name__ == "__main__":
    main()
