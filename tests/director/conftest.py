"""The director's tests use the real PostgreSQL server (tests/conftest.py), and Debian's chromium."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

__all__ = ["browser"]

CHROMIUM = "chromium"  # Debian's packages: chromium, and chromium-driver for its chromedriver
CHROMEDRIVER = "chromedriver"


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    """A real headless chromium, driven by its own chromedriver; CI fails (never skips) without one."""
    binary, driver = shutil.which(CHROMIUM), shutil.which(CHROMEDRIVER)
    if binary is None or driver is None:
        message = "Debian's chromium and chromium-driver are needed (./dev.sh test installs them)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1280,1000")
    chrome = webdriver.Chrome(service=Service(driver), options=options)
    try:
        yield chrome
    finally:
        chrome.quit()


def shots_folder() -> Path | None:
    """Where to also save the screenshots for the judges' guide (``KIOSK_DOCS_SHOTS``), if anywhere."""
    folder = os.environ.get("KIOSK_DOCS_SHOTS")
    return Path(folder) if folder else None
