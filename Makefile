# nvfp4: the two commands of the README.
#   make demo   installs what is missing, builds, and shows nvfp4 IR parsed,
#               verified, executed on the CPU and lowered to PTX.
#   make check  installs what is missing, builds, and runs every test.
#   make check-nomlir  builds nvfp4-run and the unit tests without MLIR (as
#               on a GPU host without LLVM) and runs the unit tests.

BUILD ?= build
NOMLIR_BUILD ?= build-nomlir
LLVM_PREFIX ?= /usr/lib/llvm-22
JOBS ?= $(shell nproc)
PACKAGES := cmake ninja-build clang python3 libgtest-dev \
            nlohmann-json3-dev libcli11-dev \
            llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools \
            python3-pytest python3-torch
LIT := $(LLVM_PREFIX)/bin/lit
OPT := $(BUILD)/bin/nvfp4-opt
RUNNER := $(LLVM_PREFIX)/bin/mlir-runner
RUNNER_LIBS := $(LLVM_PREFIX)/lib/libmlir_runner_utils.so,$(LLVM_PREFIX)/lib/libmlir_c_runner_utils.so

.PHONY: all deps configure build demo check check-nomlir docs clean

all: build

deps:
	@scripts/install-deps.sh $(LLVM_PREFIX) $(PACKAGES)

$(BUILD)/build.ninja: | deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LIT)

configure: $(BUILD)/build.ninja

build: configure
	ninja -C $(BUILD) -j $(JOBS) nvfp4-opt nvfp4-run nvfp4-cpu-check nvfp4-sim-check \
	  nvfp4-tcgen05-check nvfp4-unittests nvfp4-docs

demo: build
	@scripts/demo.sh $(OPT) $(RUNNER) $(RUNNER_LIBS)

check: build
	@scripts/check.sh $(LIT) $(BUILD)

check-nomlir: | deps
	cmake -G Ninja -S . -B $(NOMLIR_BUILD) -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DNVFP4_ENABLE_MLIR=OFF
	ninja -C $(NOMLIR_BUILD) -j $(JOBS) nvfp4-run nvfp4-unittests
	$(NOMLIR_BUILD)/unittests/nvfp4-unittests --gtest_brief=1

docs: configure
	ninja -C $(BUILD) nvfp4-docs

clean:
	rm -rf $(BUILD) $(NOMLIR_BUILD)
