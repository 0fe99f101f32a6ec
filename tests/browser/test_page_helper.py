"""The browser helper itself (page.py): a clean page passes; a page that asks the network for
a style sheet and an image, and throws, is caught on both counts. One Chromium start."""
import os
import sys

from page import Page, check, main

HERE = os.path.dirname(os.path.abspath(__file__))


def test():
    out = sys.argv[1] if len(sys.argv) > 1 else "browser-out"
    with Page(os.path.join(HERE, "fixtures", "clean.html"), out, strict=False) as p:
        check(p.js("return document.getElementById('answer').dataset.ready") == "yes",
              "the clean page's script did not run")
        check(p.console_errors() == [], f"clean page: console errors {p.console_errors()}")
        check(p.outside_requests() == [], f"clean page: requests {p.outside_requests()}")
        p.goto(os.path.join(HERE, "fixtures", "leaky.html"))
        outside = p.outside_requests()
        check("https://cdn.example.invalid/style.css" in outside,
              f"the style sheet from a CDN was not recorded: {outside}")
        check("http://example.invalid/pixel.png" in outside,
              f"the image from the network was not recorded: {outside}")
        errors = " ".join(p.console_errors())
        check("undefinedFunctionOfThisPage" in errors, f"the uncaught error was not seen: {errors}")
        shot = p.screenshot("leaky")
        check(os.path.getsize(shot) > 0, "empty screenshot")


if __name__ == "__main__":
    main(test)
