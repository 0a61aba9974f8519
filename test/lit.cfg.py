# -*- Python -*- lit configuration of the mlxc regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "mlxc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mlxc_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs",
                   "gpu", "tools", "Unit", "Runtime"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))

# mlxc's object cache: the tests' own, not the user's.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root,
                                                    "xdg-cache")
# Tests that need another user's files (chown) run as root only.
if hasattr(os, "geteuid") and os.geteuid() == 0:
    config.available_features.add("root")
config.substitutions.append(("%mlxc_src_root", config.mlxc_src_root))
config.substitutions.append(("%mlxc_obj_root", config.mlxc_obj_root))
config.substitutions.append(("%python", config.python_executable))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.mlxc_tools_dir, config.llvm_tools_dir]
tools = ["mlx-opt", "mlxc"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The CUDA toolkit's ptxas (cubin tests): $PATH, else /usr/local/cuda.
import shutil

config.substitutions.append(
    ("%ptxas", shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"))

# The toolkit's libdevice, which --target=cuda needs.
if os.path.exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"):
    config.available_features.add("libdevice")

# The host stand-in of libcuda and libcublasLt (test/Runtime/FakeCuda.c),
# with its stream's work deferred until a synchronization reaches it, as on
# a busy GPU.
config.environment["FAKE_CUDA_DEFERRED"] = "1"
config.substitutions.append(
    ("%fakecuda", os.path.join(config.mlxc_obj_root, "unittests", "Runtime",
                               "libmlxrt_fake_cuda.so")))
