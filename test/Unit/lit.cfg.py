# -*- Python -*-
# The GoogleTest unit tests, run through lit so `make check` has one summary.
import os

import lit.formats

config.name = "NVFP4-Unit"
config.suffixes = []
config.test_source_root = config.nvfp4_unittests_dir
config.test_exec_root = config.nvfp4_unittests_dir
config.test_format = lit.formats.GoogleTest(".", "unittests")
