#!/bin/sh
# Make sure the system's Chromium is present for the browser tests.
# It comes from the distribution's package; no browser is ever downloaded by a test tool.
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing the distribution's chromium package for the browser tests..."
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "Installing the distribution's chromium package for the browser tests..."
    sudo apt-get update -q >/dev/null && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
else
    echo "WARNING: chromium is missing and cannot be installed here; the browser tests will be skipped." >&2
fi
exit 0
