#!/usr/bin/env bash
# `make pi-check` (as root; not part of `make test`): the kiosk install on real Debian userlands.
#
#  1. arm64 Debian Trixie under qemu-user emulation (what Raspberry Pi OS Trixie is built on):
#     `make install-pi` exactly as on a Pi (apt packages, the user, the app in /opt with its
#     venv seeing apt's numpy, the unit enabled), the kiosk's imports against apt's numpy, a
#     chosen set of core and vision tests, a headless start of the installed app (to READY=1),
#     and systemd-analyze verify and security on the installed unit.
#  2. amd64 Debian Bookworm (native, so quick): the same install with Bookworm's plan (apt's
#     numpy 1.24, OpenCV 4), its imports and the tests; then the declared lower bounds
#     (systemd/lower-bounds.txt) installed in a venv there and the same tests run against them.
#
# Userlands are built once by debootstrap and cached in $PI_CHECK_CACHE; each run installs into
# a fresh copy, so the install is proven from scratch every time (apt's and pip's downloads are
# cached too). Prints how long each step took and what passed; exits 1 if anything failed.
# PI_CHECK_RELEASES="trixie" or "bookworm" runs one part only.
#
# The card and planet-board reading tests are not in the Bookworm set: their ground truth is
# drawn with OpenCV's fonts, which OpenCV 4 (Bookworm's numpy 1.24 keeps the kiosk there) draws
# differently from OpenCV 5, so those decks are other decks there, not the ones taught.
set -uo pipefail

SOURCE=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${PI_CHECK_CACHE:-/var/cache/space-mission-companion/pi-check}
MIRROR=${PI_CHECK_MIRROR:-http://deb.debian.org/debian}
RELEASES=${PI_CHECK_RELEASES:-trixie bookworm}  # e.g. PI_CHECK_RELEASES=bookworm for that part
APP=/opt/space-mission-companion
# About ten minutes under emulation: the rules, the journal, scoring, the tracker, calibration,
# the sticker payload and the sticker reader on rendered photos (real zxing-cpp and zbar).
EMULATED_TESTS="tests/test_rules.py tests/test_scoring.py tests/test_journal.py"
EMULATED_TESTS+=" tests/test_tracker.py tests/test_sticker_payload.py tests/test_cards.py"
EMULATED_TESTS+=" tests/test_calibration.py tests/test_sources.py tests/test_sticker_reading.py"
NATIVE_TESTS="$EMULATED_TESTS tests/test_power_cut.py tests/test_vision_cli.py tests/test_cli.py"
NATIVE_TESTS+=" tests/test_backup.py"
TEST_ENV="KIVY_NO_ARGS=1 KIVY_HOME=/tmp/kivy SDL_VIDEODRIVER=offscreen HOME=/root"

RESULTS=()
FAILED=0
WORK=""

step() {  # step NAME COMMAND...: run, time, record
  local name=$1; shift
  local start=$SECONDS
  echo "== $name"
  if "$@"; then
    RESULTS+=("$(printf '%-58s %6ss  ok' "$name" $((SECONDS - start)))")
    return 0
  fi
  RESULTS+=("$(printf '%-58s %6ss  FAILED' "$name" $((SECONDS - start)))")
  FAILED=1
  return 1
}

in_root() {  # run a shell command inside the userland being checked
  chroot "$WORK" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 PIP_CERT=/etc/ssl/certs/ca-certificates.crt /bin/bash -c "$1"
}

host_tools() {
  local missing=""
  for package in qemu-user-static binfmt-support debootstrap; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
      || missing="$missing $package"
  done
  if [ -n "$missing" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends $missing || return 1
  fi
  [ -e /proc/sys/fs/binfmt_misc/register ] \
    || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || return 1
  update-binfmts --enable qemu-aarch64 2>/dev/null || true
  grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64
}

userland() {  # userland RELEASE ARCH: the cached debootstrap, built when missing
  local dir=$CACHE/$1-$2
  [ -e "$dir/.complete" ] && return 0
  rm -rf "$dir.partial" && mkdir -p "$CACHE" || return 1
  debootstrap --arch="$2" --variant=minbase "$1" "$dir.partial" "$MIRROR" >"$CACHE/$1-$2.log" \
    || { tail -20 "$CACHE/$1-$2.log"; return 1; }
  touch "$dir.partial/.complete" && mv "$dir.partial" "$dir"
}

unmount_work() {
  [ -n "$WORK" ] || return 0
  for point in root/.cache/pip var/cache/apt/archives dev/pts dev sys proc; do
    mountpoint -q "$WORK/$point" && umount -l "$WORK/$point"
  done
  return 0
}
trap unmount_work EXIT

fresh_copy() {  # fresh_copy RELEASE ARCH: a copy of the cached userland with the project in it
  unmount_work
  WORK=$CACHE/work-$1-$2
  rm -rf "$WORK" && cp -a --reflink=auto "$CACHE/$1-$2" "$WORK" || return 1
  mkdir -p "$CACHE/apt-$1-$2" "$CACHE/pip-$2" "$WORK/root/.cache/pip"
  mount -t proc proc "$WORK/proc" && mount --rbind /sys "$WORK/sys" \
    && mount --rbind /dev "$WORK/dev" \
    && mount --bind "$CACHE/apt-$1-$2" "$WORK/var/cache/apt/archives" \
    && mount --bind "$CACHE/pip-$2" "$WORK/root/.cache/pip" || return 1
  cp /etc/resolv.conf "$WORK/etc/resolv.conf"
  # the host's own certificate authorities (a proxy's, say): trusted in there as out here
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$WORK/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$WORK/usr/local/share/ca-certificates/"
  fi
  mkdir -p "$WORK/root/space-mission-companion"
  tar -C "$SOURCE" --exclude=.venv --exclude=.git --exclude=test-artifacts --exclude=.kivy \
    --exclude='*.egg-info' --exclude=__pycache__ --exclude=.pytest_cache --exclude=.mypy_cache \
    --exclude=.ruff_cache --exclude=.hypothesis -cf - . \
    | tar -C "$WORK/root/space-mission-companion" -xf -
}

install_pi() {  # what a Pi owner types, after the tools every Pi OS image has
  in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends make ca-certificates >/dev/null" \
    && in_root "cd /root/space-mission-companion && make install-pi"
}

kiosk_imports() {
  in_root "$APP/.venv/bin/python $APP/systemd/kiosk_imports.py"
}

kiosk_tests() {  # kiosk_tests RELEASE VENV TESTS: the chosen tests in that venv
  in_root "$2/bin/python -m pip install --quiet --disable-pip-version-check \
      --constraint $APP/systemd/kiosk-$1.txt pytest hypothesis \
    && cd $APP && env $TEST_ENV $2/bin/python -m pytest -q -p no:cacheprovider $3 2>&1 | tail -15; \
    exit \${PIPESTATUS[0]}"
}

app_start() {  # the installed command, as the kiosk's user, until it tells systemd READY=1
  in_root "runuser -u companion -- env $TEST_ENV HOME=/tmp COMPANION_HOME=/tmp/companion-home \
    /usr/bin/python3 $APP/systemd/kiosk_start.py $APP/.venv/bin/companion"
}

unit_checks() {
  in_root "systemd-analyze verify /etc/systemd/system/space-mission-companion.service \
    && udevadm verify /etc/udev/rules.d/99-space-mission-companion-usb.rules \
    && systemd-analyze security --offline=true \
       /etc/systemd/system/space-mission-companion.service | tail -1"
}

lower_bounds() {  # the declared floors, on Bookworm's Python 3.11 and apt's numpy 1.24
  in_root "python3 -m venv --system-site-packages /root/floors \
    && /root/floors/bin/python -m pip install --quiet --disable-pip-version-check \
       --constraint $APP/systemd/lower-bounds.txt /root/space-mission-companion \
    && /root/floors/bin/python -m pip list 2>/dev/null \
       | grep -iE '^(numpy|opencv-python-headless|kivy|pyzbar|segno|zxing-cpp|pillow) '"
}

[ "$(id -u)" = 0 ] || { echo "pi-check needs root (debootstrap, chroot, mounts)"; exit 1; }
start_all=$SECONDS
step "host: qemu-user, binfmt, debootstrap" host_tools || exit 1

if [[ " $RELEASES " == *" trixie "* ]] \
   && step "trixie arm64: userland (cached after the first run)" userland trixie arm64 \
   && step "trixie arm64: fresh copy with the project" fresh_copy trixie arm64 \
   && step "trixie arm64: make install-pi" install_pi; then
  step "trixie arm64: kiosk imports with apt's numpy" kiosk_imports
  step "trixie arm64: chosen core and vision tests" kiosk_tests trixie $APP/.venv "$EMULATED_TESTS"
  step "trixie arm64: headless app start to READY=1" app_start
  step "trixie arm64: systemd-analyze verify, security" unit_checks
fi

if [[ " $RELEASES " == *" bookworm "* ]] \
   && step "bookworm amd64: userland (cached after the first run)" userland bookworm amd64 \
   && step "bookworm amd64: fresh copy with the project" fresh_copy bookworm amd64 \
   && step "bookworm amd64: make install-pi" install_pi; then
  step "bookworm amd64: kiosk imports with apt's numpy" kiosk_imports
  step "bookworm amd64: chosen tests" kiosk_tests bookworm $APP/.venv "$NATIVE_TESTS"
  step "bookworm amd64: headless app start to READY=1" app_start
  if step "bookworm amd64: declared lower bounds installed" lower_bounds; then
    step "bookworm amd64: chosen tests on the lower bounds" \
      kiosk_tests bookworm /root/floors "$NATIVE_TESTS"
  fi
fi
unmount_work

echo
echo "pi-check, $((SECONDS - start_all)) s in all:"
printf '%s\n' "${RESULTS[@]}" | tee "$CACHE/report.txt"
exit $FAILED
