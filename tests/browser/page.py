"""One static page in headless Chromium, for the browser tests (CTest label `browser`).

    from page import Page, check
    with Page("/path/to/page.html", out_dir) as p:
        p.js("return document.title")
        p.click("#some-button")
        p.screenshot("page")         # out_dir/page.png, kept for a person to look at
        check(p.console_errors() == [], "console errors: ...")
    # leaving the block fails if the page logged a console error or asked for anything that
    # is not file:// (pass strict=False to inspect those yourself)

What it guarantees: a page opened here can reach nothing but files. Chromium is started with
every host name resolving to nothing, every http(s)/ws(s) URL blocked through the DevTools
protocol before the page loads, and every request the page makes recorded (DevTools
performance log) so that a test can say which one went out. Console messages of level SEVERE
(uncaught exceptions, failed loads, blocked requests) are collected from the browser log.

Chromium, chromedriver and Selenium are Debian's (chromium, chromium-driver,
python3-selenium; ./kit test installs them). Run with /usr/bin/python3, Debian's Python, which
sees python3-selenium whatever python3 is first on PATH. One Chromium start costs about 1 s.
"""

import json
import os
import shutil
import sys
import tempfile

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:  # said plainly, with the fix, instead of a traceback
    sys.stderr.write("browser tests need Selenium's Python client: apt-get install python3-selenium "
                     "(./kit test installs it), and Debian's /usr/bin/python3 to run them\n")
    raise

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
DRIVER_NAMES = ("chromedriver",)
# Schemes a page may load from: its own file, inline data, and the empty document.
LOCAL_SCHEMES = ("file:", "data:", "about:", "blob:")
BROWSER_OWN_SCHEMES = ("chrome:", "chrome-untrusted:", "devtools:")


class CheckFailed(AssertionError):
    pass


def check(condition, message):
    """Fails the test with `message` unless `condition` holds."""
    if not condition:
        raise CheckFailed(message)


def close_to(got, want, tol):
    return abs(float(got) - float(want)) <= tol


def _find(names, what, package):
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    raise CheckFailed(f"{what} not found ({' or '.join(names)}): apt-get install {package} "
                      "(./kit test installs it)")


class Page:
    def __init__(self, path, out_dir, width=1280, height=900, strict=True):
        self.path = os.path.abspath(path)
        check(os.path.isfile(self.path), f"no page at {self.path}")
        self.url = "file://" + self.path
        self.out_dir = out_dir
        self.strict = strict
        os.makedirs(out_dir, exist_ok=True)
        self._profile = tempfile.mkdtemp(prefix="linattn-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = _find(CHROMIUM_NAMES, "Chromium", "chromium")
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--disable-default-apps", "--mute-audio",
                    # every host name resolves to nothing: no request leaves the machine
                    "--host-resolver-rules=MAP * ~NOTFOUND",
                    f"--user-data-dir={self._profile}", f"--window-size={width},{height}"):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        service = Service(executable_path=_find(DRIVER_NAMES, "chromedriver", "chromium-driver"),
                          log_output=os.devnull) if _service_takes_log_output() else \
            Service(executable_path=_find(DRIVER_NAMES, "chromedriver", "chromium-driver"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self._console = []
        self._requests = []
        try:
            # What Chromium's own start page logged and loaded is not the page's: dropped.
            self.driver.get_log("browser")
            self.driver.get_log("performance")
            # Blocked before the page loads: anything with a network scheme fails at once.
            self.driver.execute_cdp_cmd("Network.enable", {})
            self.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": [
                "http://*", "https://*", "ws://*", "wss://*", "ftp://*"]})
            self.driver.get(self.url)
        except Exception:
            self.close()
            raise

    def goto(self, path):
        """Opens another file in the same browser (one Chromium start for several pages);
        what the last page logged and requested is kept."""
        self.path = os.path.abspath(path)
        check(os.path.isfile(self.path), f"no page at {self.path}")
        self.url = "file://" + self.path
        self.driver.get(self.url)

    # ---- what the page did -------------------------------------------------------------
    def _drain_logs(self):
        for entry in self.driver.get_log("browser"):
            if entry.get("level") == "SEVERE":
                self._console.append(entry.get("message", ""))
        for entry in self.driver.get_log("performance"):
            try:
                msg = json.loads(entry["message"])["message"]
            except (KeyError, ValueError):
                continue
            if msg.get("method") == "Network.requestWillBeSent":
                params = msg["params"]
                # Chromium's own start page (chrome://new-tab-page...) loads beside ours.
                if params.get("documentURL", "").startswith(BROWSER_OWN_SCHEMES):
                    continue
                self._requests.append(params["request"]["url"])

    def console_errors(self):
        """Every SEVERE console message since the page was opened."""
        self._drain_logs()
        return list(self._console)

    def requests(self):
        """Every URL the page asked for (DevTools log), and every resource it timed."""
        self._drain_logs()
        timed = self.js("return performance.getEntries().map(e => e.name)") or []
        return list(self._requests) + [u for u in timed if "://" in u or ":" in u[:6]]

    def outside_requests(self):
        """The requests that were not for a file (or inline data)."""
        return sorted({u for u in self.requests() if not u.startswith(LOCAL_SCHEMES)})

    # ---- acting on it and reading it ------------------------------------------------------
    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def click(self, css):
        self.find(css).click()

    def set_range(self, css, value):
        """Moves a range slider to `value` as a user would (value set, input and change
        events fired), since Selenium cannot drag to an exact step."""
        self.js("const e = document.querySelector(arguments[0]); e.value = arguments[1];"
                "e.dispatchEvent(new Event('input', {bubbles: true}));"
                "e.dispatchEvent(new Event('change', {bubbles: true}));", css, str(value))

    def screenshot(self, name):
        """The whole page (not only the window) as out_dir/name.png; returns the path."""
        path = os.path.join(self.out_dir, name + ".png")
        height = self.js("return Math.ceil(document.documentElement.scrollHeight)")
        width = self.js("return Math.ceil(document.documentElement.scrollWidth)")
        size = self.driver.get_window_size()
        # The window's size counts the browser's own frame; the page gets what is left of it.
        frame_w = self.js("return Math.max(0, window.outerWidth - window.innerWidth)")
        frame_h = self.js("return Math.max(0, window.outerHeight - window.innerHeight)")
        self.driver.set_window_size(max(size["width"], width + frame_w),
                                    min(max(height + frame_h, 200), 20000))
        self.driver.save_screenshot(path)
        self.driver.set_window_size(size["width"], size["height"])
        return path

    # ---- lifetime -------------------------------------------------------------------------
    def close(self):
        driver, self.driver = getattr(self, "driver", None), None
        if driver is not None:
            try:
                driver.quit()
            except Exception:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        try:
            if kind is None and self.strict:
                errors = self.console_errors()
                check(errors == [], f"{self.path}: console errors: {errors}")
                outside = self.outside_requests()
                check(outside == [], f"{self.path}: requests outside the file: {outside}")
        finally:
            self.close()
        return False


def _service_takes_log_output():
    import inspect
    return "log_output" in inspect.signature(Service.__init__).parameters


def main(test):
    """Runs test() as a script: prints PASS or the failure, exits 0 or 1."""
    try:
        test()
    except CheckFailed as e:
        print(f"FAIL: {e}")
        sys.exit(1)
    print("PASS")
    sys.exit(0)
