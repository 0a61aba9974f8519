# -*- Python -*- lit configuration of the GoogleTest unit tests.
import os

import lit.formats

config.name = "mlxc-unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = os.path.join(config.mlxc_obj_root, "unittests")
config.test_exec_root = config.test_source_root
