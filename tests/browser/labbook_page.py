"""The lab book as a whole (./kit lab --html DIR): it opens from disk with no console error and
no request outside the file; it holds every lab the lab program lists, in that order (the
section's), each with its tables, its seed-beside-measured table and its plots (every picture
loaded); the widgets follow their labs; in print the controls are hidden and the page prints.
A full-page screenshot is kept as labbook.png. One Chromium start; about 5 s.

usage: labbook_page.py OUT_DIR BOOK_DIR LABBOOK_VALUES LINATTN_LAB
"""
import base64
import os
import subprocess
import sys

from page import Page, check, main


def listed_labs(lab_program):
    """The labs in the order the lab program lists them (its registry: the section's order)."""
    out = subprocess.run([lab_program], capture_output=True, text=True, check=True).stdout
    names = []
    for line in out.splitlines():
        if line.startswith("  ") and line.strip() and not line.startswith("   "):
            names.append(line.split()[0])
    check(len(names) >= 10, f"could not read the lab list: {out}")
    return names


def test():
    out, book, _values, lab_program = sys.argv[1:5]
    labs = listed_labs(lab_program)
    plots = sorted(f for f in os.listdir(os.path.join(book, "plots")) if f.endswith(".svg"))
    with Page(os.path.join(book, "index.html"), out) as p:
        sections = p.js("return [...document.querySelectorAll('main > section')]"
                        ".map(s => s.id)")
        lab_sections = [s[len("lab-"):] for s in sections if s.startswith("lab-")]
        check(lab_sections == labs, f"labs on the page {lab_sections}, listed {labs}")
        # The widgets follow the labs of the figures they are.
        check(sections.index("feature-maps") == sections.index("lab-sharpness") + 1,
              f"the feature-map widget is not after the sharpness lab: {sections}")
        check(sections.index("memory") == sections.index("lab-memory-fill") + 1,
              f"the memory widget is not after the memory-fill lab: {sections}")
        for name in labs:
            counts = p.js("const s = document.getElementById('lab-' + arguments[0]);"
                          "return {tables: s.querySelectorAll('table').length,"
                          " seed: s.querySelectorAll('table.seed tbody tr').length,"
                          " failed: s.querySelectorAll('.failed').length,"
                          " what: s.querySelectorAll('p.what').length};", name)
            check(counts["tables"] >= 1 and counts["what"] == 1 and counts["failed"] == 0,
                  f"lab {name}: {counts}")
        # Every lab that states a figure of the seed shows it beside the measured one.
        seed_rows = p.js("return document.querySelectorAll('table.seed tbody tr').length")
        check(seed_rows >= 20, f"only {seed_rows} seed-beside-measured rows")
        # Every plot written is shown, and every picture on the page has loaded.
        shown = p.js("return [...document.querySelectorAll('figure img')]"
                     ".map(i => ({src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0,"
                     " alt: i.alt}))")
        check(sorted(os.path.basename(i["src"]) for i in shown) == plots,
              f"pictures {[i['src'] for i in shown]}, plots written {plots}")
        check(all(i["ok"] and i["alt"] for i in shown), f"a picture did not load: {shown}")
        # Every control has a name a screen reader reads.
        unnamed = p.js("return [...document.querySelectorAll('input, button')].filter(e =>"
                       " !(e.labels && e.labels.length) && !e.textContent.trim()"
                       " && !e.getAttribute('aria-label')).map(e => e.outerHTML)")
        check(unnamed == [], f"controls without a label: {unnamed}")
        p.screenshot("labbook")
        # In print: the controls are hidden, and the page prints (a PDF comes out).
        p.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        hidden = p.js("return getComputedStyle(document.querySelector('.controls')).display")
        check(hidden == "none", f"the controls show in print ({hidden})")
        pdf = p.driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": False})
        data = base64.b64decode(pdf["data"])
        check(data.startswith(b"%PDF") and len(data) > 50000, "the page does not print")
        with open(os.path.join(out, "labbook.pdf"), "wb") as f:
            f.write(data)
        p.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


if __name__ == "__main__":
    main(test)
