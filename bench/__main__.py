"""Runs every benchmark in turn (`make bench`)."""

import importlib
import sys

BENCHMARKS = [
    "bench.engine",
    "bench.live",
    "bench.send_path",
    "bench.views",
    "bench.limits",
    "bench.arena",
    "bench.pages",
]

for name in BENCHMARKS:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise
        continue
    print(f"== {name}", flush=True)
    module.main(sys.argv[1:])
