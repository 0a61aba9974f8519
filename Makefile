# mlxc — top-level entry points. `make demo` and `make test` work on a fresh
# Debian 12 machine: they install what is missing, configure and build.

BUILD      ?= build
JOBS       ?= $(shell nproc)
LLVM_ROOT  := /usr/lib/llvm-22
APT_PKGS   := llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22 \
              ninja-build cmake ccache zlib1g-dev libgtest-dev libclang-rt-22-dev
CCACHE     := $(shell command -v ccache 2>/dev/null)

CMAKE_FLAGS := -G Ninja \
  -DMLIR_DIR=$(LLVM_ROOT)/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=$(LLVM_ROOT)/bin/lit \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_LINK_MLIR_DYLIB=ON \
  -DLLVM_USE_LINKER=lld \
  $(if $(CCACHE),-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

.PHONY: all deps configure build test demo docs format clean

all: build

# Installs the toolchain when it is missing (Debian's packages, as root).
deps:
	@if [ ! -f $(LLVM_ROOT)/lib/cmake/mlir/MLIRConfig.cmake ] || ! command -v ninja >/dev/null \
	    || [ ! -f /usr/include/zlib.h ] || [ ! -f /usr/include/gtest/gtest.h ] \
	    || [ ! -f $(LLVM_ROOT)/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a ]; then \
	  echo "== installing $(APT_PKGS)"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq $(APT_PKGS) >/dev/null; \
	fi
	@python3 -c "import numpy, mlx.core, mlx_lm, tokenizers, transformers, aiohttp, openai" 2>/dev/null \
	    || python3 -m pip install -q numpy "mlx[cpu]" mlx-lm tokenizers transformers aiohttp openai

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: configure
	ninja -C $(BUILD) -j $(JOBS) mlxc-tools

# Every test (lit + unit tests, then the runtime's unit tests and the CPU E2E
# suite again against an ASan + UBSan build of the runtime); ends with
# "N passed, N failed".
ASAN_BUILD ?= build-asan
$(ASAN_BUILD)/build.ninja: | deps
	cmake -S . -B $(ASAN_BUILD) $(CMAKE_FLAGS) -DMLXC_SANITIZE=ON

test: build $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD) -j $(JOBS) mlxrt mlxrt_main MlxrtTests MlxrtFakeCudaTests
	test/Fuzz/build.sh $(BUILD)/fuzz
	python3 test/run_tests.py $(BUILD) $(ASAN_BUILD)

# Compiles the bundled MLP (CPU + CUDA variants when the CUDA toolkit's
# libdevice is present), runs it (GPU when present, else CPU) and checks the
# result against a float64 reference.
DEMO_DIR   ?= $(BUILD)/demo
DEMO_TARGET := $(if $(wildcard /usr/local/cuda/nvvm/libdevice/libdevice.10.bc),cuda,cpu)
demo: build
	@mkdir -p $(DEMO_DIR)
	$(BUILD)/bin/mlxc examples/mlp.mlir --target=$(DEMO_TARGET) -o $(DEMO_DIR)/mlp
	python3 examples/mlp_inputs.py $(DEMO_DIR)
	cd $(DEMO_DIR) && ./mlp --input x.npy --input w1.npy --input b1.npy \
	  --input w2.npy --input b2.npy --output y.npy
	python3 -c "import numpy as np, sys; y = np.load('$(DEMO_DIR)/y.npy'); \
	  e = np.load('$(DEMO_DIR)/expected.npy'); print('y[0] =', y[0]); \
	  err = float(abs(y - e).max()); \
	  print('max abs error vs float64 reference:', err); \
	  sys.exit(0 if y.shape == e.shape and err < 1e-4 else 'demo: wrong result')"

# Regenerates the op reference in docs/ from TableGen.
docs: build
	cp $(BUILD)/dialects/Mlx/MlxOps.md docs/Dialects/MlxOps.md
	cp $(BUILD)/dialects/Kernel/KernelOps.md docs/Dialects/KernelOps.md
	cp $(BUILD)/dialects/Kernel/KernelAttrs.md docs/Dialects/KernelAttrs.md
	cp $(BUILD)/passes/MlxPasses.md $(BUILD)/codegen/CodegenPasses.md docs/Passes/

format:
	git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
