# kiln — the two commands: `make demo` and `make test`. Everything else is a convenience.
BUILD ?= build
ASAN_BUILD ?= build-asan
# The three.js comparison (reference_cooked_corpus) covers every corpus model in the plain build;
# the sanitizer and shared-library stages run it on these (skins, morphs, texture transforms and
# every deliberate break), which keeps CI's time in bounds.
REFERENCE_SUBSET ?= BoxTextured,CesiumMan,AnimatedMorphCube,TextureTransformTest,SheenCloth
TSAN_BUILD ?= build-tsan
SHARED_BUILD ?= build-shared
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
KILN := $(BUILD)/tools/kiln/kiln
FUZZ_SECONDS ?= 60

.PHONY: all setup build test check-layers check-format test-fast test-asan test-tsan test-shared demo bench fuzz format golden-update pictures pictures-vgeo install clean

all: build

setup:
	@sh scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD) -DKILN_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j$(JOBS)

# The include order and the formatting, every test through CTest, then again under
# AddressSanitizer + UndefinedBehaviorSanitizer, then the threaded ones under ThreadSanitizer.
test: check-layers check-format test-fast test-asan test-tsan

# Every include points down the layer order (docs/architecture.md).
check-layers:
	@sh scripts/check_layers.sh

test-fast: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

test-asan: setup
	@cmake -S . -B $(ASAN_BUILD) -DKILN_WERROR=ON -DCMAKE_BUILD_TYPE=Debug \
	       -DKILN_SANITIZE=address,undefined -DKILN_BUILD_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j$(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	    KILN_REFERENCE_MODELS=$(REFERENCE_SUBSET) ctest --output-on-failure -j$(JOBS)

test-tsan: setup
	@cmake -S . -B $(TSAN_BUILD) -DKILN_WERROR=ON -DCMAKE_BUILD_TYPE=Debug \
	       -DKILN_SANITIZE=thread -DKILN_BUILD_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(TSAN_BUILD) -j$(JOBS)
	cd $(TSAN_BUILD) && ctest --output-on-failure -j$(JOBS) -L threaded

# The shared libraries (-DBUILD_SHARED_LIBS=ON: libkiln.so and libkiln_rt.so export only KILN_API
# symbols; the command and the examples link them, tests reach the layers through an archive of
# the same objects) and the suite against them, the installed package included (tests/install).
# Tests labelled heavy run layer code over whole corpus folders; their objects are the plain
# build's, so this run leaves them out. CI runs it after `make test`; no benchmarks are built.
test-shared: setup
	@cmake -S . -B $(SHARED_BUILD) -DKILN_WERROR=ON -DBUILD_SHARED_LIBS=ON -DKILN_BUILD_BENCH=OFF \
	       $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(SHARED_BUILD) -j$(JOBS)
	cd $(SHARED_BUILD) && KILN_REFERENCE_MODELS=$(REFERENCE_SUBSET) ctest --output-on-failure -j$(JOBS) \
	    -LE heavy

# Generates the example textures and models (only those missing), imports them all, shows the
# cooked scene of models/arm.gltf by its name (kiln inspect NAME#label finds the asset's current
# cache entry), and ends with the report: every asset up_to_date.
demo: build
	@$(BUILD)/examples/kiln_gen_examples examples/assets
	@cd examples && ../$(KILN) import --all
	@cd examples && ../$(KILN) inspect 'models/arm.gltf#scene'
	@cd examples && ../$(KILN) report

bench: build
	@sh bench/run.sh $(BUILD)

# Bounded libFuzzer run of every target (FUZZ_SECONDS each), as CI does.
fuzz: setup
	@sh scripts/fuzz.sh $(FUZZ_SECONDS)

format:
	@clang-format -i $$(git ls-files '*.c' '*.h' '*.cpp')

# Every C and C++ file is as clang-format makes it (.clang-format).
check-format: setup
	@sh scripts/check_format.sh

golden-update: build
	@KILN_GOLDEN_UPDATE=1 ctest --test-dir $(BUILD) -L golden >/dev/null || true
	@git diff --stat tests/golden

# The pictures of corpus models in README.md and docs/rendering.md (scripts/pictures.sh).
pictures: build
	@sh scripts/pictures.sh $(BUILD)/tools/kiln/kiln

# The pictures of docs/virtual_geometry.md "Pictures" (scripts/pictures_vgeo.sh).
pictures-vgeo: build
	@sh scripts/pictures_vgeo.sh $(BUILD)/tools/kiln/kiln

install: build
	@cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(SHARED_BUILD) build-fuzz
