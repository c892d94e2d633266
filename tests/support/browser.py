"""Headless Chromium driven by Selenium for the viewer's tests: Debian's ``chromium`` and
``chromium-driver`` (``make`` installs them when missing), the driver's path given explicitly and
selenium-manager kept offline, so nothing is downloaded."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000")


def start_browser(profile_dir: Path):
    """A fresh headless Chromium with its own profile directory."""
    os.environ["SE_OFFLINE"] = "true"  # selenium-manager must never fetch a driver or a browser
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    if not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)):
        pytest.fail(f"{CHROMIUM} and {CHROMEDRIVER} are needed (apt-get install -y chromium chromium-driver; "
                    "the Makefile's set-up does it when run as root)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile_dir}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, for CSP violations and errors
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    return driver
