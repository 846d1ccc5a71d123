#!/usr/bin/env python3
"""Command-line entry of the nvfp4 IR writer, whose one home is
python/nvfp4/ir.py (the lit tests, the benchmark scripts and
tools/nvfp4-sim-check/variants.py call or import it from here)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
from nvfp4.ir import *  # noqa: E402,F401,F403
from nvfp4.ir import main  # noqa: E402

if __name__ == "__main__":
    main()
