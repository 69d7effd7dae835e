# Two commands for a fresh Debian 12 / Raspberry Pi OS machine: `make run` and `make test`.
# Each first sets up whatever is missing: system packages (apt, only when missing), the
# virtual environment .venv, and the project with its dev extras.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

# python3-venv gives Debian's python3 its venv/ensurepip; libzbar0 is what pyzbar loads;
# Kivy draws offscreen through Mesa EGL and reads touch through libmtdev; poppler-utils
# (pdftoppm) lets the tests read the printed sticker PDF back.
APT_PACKAGES := python3 python3-venv python3-dev libzbar0 libmtdev1 libegl1 libgl1-mesa-dri \
                libgl1 libgles2 poppler-utils
# The tests alone: an X server with no window manager, where the app's window is checked to
# take the screen as on a kiosk.
TEST_APT_PACKAGES := xvfb
# Raspberry Pi OS: picamera2 only comes from apt, and the venv must see system packages.
ifneq ($(wildcard /etc/rpi-issue),)
APT_PACKAGES += python3-picamera2
VENV_FLAGS := --system-site-packages
endif
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The soak run of `make bench` (seconds; hours with e.g. `make bench SOAK_SECONDS=7200`).
SOAK_SECONDS ?= 300
export SOAK_SECONDS

# One BLAS thread (see vision/__init__.py).
export OPENBLAS_NUM_THREADS := 1

# Kivy: no argument parsing of ours, settings kept inside the project.
export KIVY_NO_ARGS := 1
export KIVY_HOME := $(CURDIR)/.kivy

.PHONY: run test bench setup system-packages test-packages clean install-pi pi-check demo-deck

# The kiosk on Raspberry Pi OS (Trixie, or Bookworm): a dedicated user, the app in /opt with
# its own venv (seeing apt's numpy and picamera2), locked versions, the unit installed, enabled
# and started. The plan is decided on the machine: see systemd/kiosk_install.py.

run: setup
	$(BIN)/companion run

# The tests run in two processes, a test to each at a time; the board reading tests that read
# with a print taught once for them stay together in one (group "taught boards").
TEST_WORKERS ?= 2

test: setup test-packages
	$(BIN)/ruff check .
	$(BIN)/mypy companion
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

bench: setup
	$(BIN)/python tests/bench/run.py

# The demo table's deck, and the full-bleed deck the tests read, taught from their rendered
# photos, with the code that taught them recorded (after a change to the card reader or to how
# the photos are drawn: a test names what changed).
demo-deck: setup
	$(BIN)/python -m synthetic.teaching

setup: $(STAMP)

# Installs (apt, once) those of the packages named in $(1) that are missing.
define apt_ensure
	@command -v dpkg-query >/dev/null || { echo "not a Debian system: install $(1) yourself"; exit 0; }; \
	missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages:$$missing"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	fi
endef

system-packages:
	$(call apt_ensure,$(APT_PACKAGES))

test-packages:
	$(call apt_ensure,$(TEST_APT_PACKAGES))

$(STAMP): pyproject.toml | system-packages
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@# the GUI build of OpenCV (an older checkout's) and the headless one share cv2/: one only
	if $(BIN)/python -m pip show opencv-python >/dev/null 2>&1; then \
	  $(BIN)/python -m pip uninstall --quiet -y opencv-python opencv-python-headless; fi
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install-pi:
	@test -x /usr/bin/python3 || { $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3; }
	$(SUDO) /usr/bin/python3 systemd/kiosk_install.py

# The kiosk install proven on an arm64 Debian Trixie userland (qemu-user) and on Bookworm, with
# the declared lower bounds; about 30 minutes the first time. Needs root. See systemd/pi-check.sh.
PI_CHECK_RELEASES ?= trixie bookworm
pi-check:
	$(SUDO) env PI_CHECK_RELEASES="$(PI_CHECK_RELEASES)" bash systemd/pi-check.sh

clean:
	rm -rf $(VENV) .kivy .pytest_cache
