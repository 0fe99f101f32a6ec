"""The lab book's memory widget in Chromium: for each kind of keys and several n, the drawn
retrieval cosines of the stored pairs, their mean and the mean crosstalk are the ones
labbook-values computes from the reference library (a memory written at once, not pair by pair);
"write one more pair" adds one pair (n + 1) and changes the cosines; (n - 1)/d is shown beside
the crosstalk; the orthonormal curve stays at 1 up to n = d, and writing stops there.
Screenshot: memory.png. One Chromium start; about 5 s.

usage: labbook_memory.py OUT_DIR BOOK_DIR LABBOOK_VALUES LINATTN_LAB
"""
import os
import sys

from labbook_feature_maps import Values, check_colours
from page import Page, check, close_to, main

TOL = 1e-7  # the page keeps 9 significant digits


def drawn(p):
    return p.js("""
        const value = id => Number(document.getElementById(id).dataset.value);
        return {cosines: [...document.querySelectorAll('#mem-bars rect.bar')]
                           .map(b => Number(b.dataset.value)),
                n: value('mem-n-out'), mean: value('mem-mean'),
                crosstalk: value('mem-crosstalk'), expected: value('mem-expected'),
                write_disabled: document.getElementById('mem-write').disabled,
                slider_max: Number(document.getElementById('mem-n').max),
                note: document.getElementById('mem-note').textContent,
                marker: value('mem-marker')};""")


def compare(got, want, n, d, what):
    check(got["n"] == n, f"{what}: n shown {got['n']}, expected {n}")
    check(len(got["cosines"]) == n, f"{what}: {len(got['cosines'])} pairs drawn")
    worst = max(abs(a - b) for a, b in zip(got["cosines"], want["cosines"]))
    check(worst <= TOL, f"{what}: drawn cosines differ from the reference's by {worst}")
    check(close_to(got["mean"], want["mean"], TOL), f"{what}: mean {got['mean']} vs {want['mean']}")
    check(close_to(got["marker"], want["mean"], TOL), f"{what}: the curve's marker is elsewhere")
    check(close_to(got["crosstalk"], want["crosstalk"], TOL),
          f"{what}: crosstalk {got['crosstalk']} vs {want['crosstalk']}")
    check(close_to(got["expected"], (n - 1) / d, 1e-9),
          f"{what}: (n - 1)/d shown as {got['expected']}")


def test():
    out, book, values_program, _lab = sys.argv[1:5]
    values = Values(values_program)
    grid = values.ask("grid")
    d = grid["d"]
    with Page(os.path.join(book, "index.html"), out) as p:
        p.driver.execute_script("document.getElementById('memory').scrollIntoView()")
        kinds = [b.get_attribute("data-keys") for b in p.find_all("#memory button[data-keys]")]
        check(kinds == ["orthonormal", "random", "correlated"], f"buttons {kinds}")
        for kind in ("random", "correlated"):
            p.click(f'#memory button[data-keys="{kind}"]')
            for n in (1, 10, d, 60, grid["n_max"]):
                p.set_range("#mem-n", n)
                compare(drawn(p), values.ask(f"mem {kind} {n}"), n, d, f"{kind} keys, n = {n}")
            # One more pair: n + 1, and every stored pair's cosine moves.
            p.set_range("#mem-n", 10)
            before = drawn(p)
            p.click("#mem-write")
            after = drawn(p)
            compare(after, values.ask(f"mem {kind} 11"), 11, d, f"{kind} keys after one write")
            state = p.find("#mem-state").text
            check(f"n = 11 pairs" in state, f"{kind} keys: the widget says '{state}'")
            check(all(a != b for a, b in zip(after["cosines"], before["cosines"])),
                  f"{kind} keys: writing one more pair left some cosine unchanged")

        # Orthonormal keys: exact retrieval up to n = d, and no pair past it.
        p.click('#memory button[data-keys="orthonormal"]')
        for n in (1, 5, d):
            p.set_range("#mem-n", n)
            compare(drawn(p), values.ask(f"mem orthonormal {n}"), n, d, f"orthonormal, n = {n}")
        got = drawn(p)
        check(got["slider_max"] == d and got["write_disabled"],
              f"orthonormal keys: the slider goes to {got['slider_max']}, write "
              f"{'off' if got['write_disabled'] else 'on'} at n = d")
        check("n = d" in got["note"], f"no word at n = d: '{got['note']}'")
        check(all(abs(c - 1) <= 1e-9 for c in got["cosines"]), "an orthonormal pair is not exact")
        curve = p.js("""
            const line = document.querySelector('#mem-curve polyline[data-kind="orthonormal"]');
            const one = document.querySelector('#mem-curve line.gridline[data-tick="1"]');
            return {values: line.dataset.values.split(',').map(Number),
                    ys: line.getAttribute('points').split(' ').map(pt => Number(pt.split(',')[1])),
                    y_one: Number(one.getAttribute('y1'))};""")
        check(len(curve["values"]) == d, f"the orthonormal curve has {len(curve['values'])} points")
        check(all(abs(v - 1) <= 1e-9 for v in curve["values"]), "the orthonormal curve leaves 1")
        check(all(abs(y - curve["y_one"]) <= 1e-6 for y in curve["ys"]),
              "the orthonormal curve is not drawn on the line at 1")
        p.click("#mem-write")
        check(drawn(p)["n"] == d, "a pair was written past n = d with orthonormal keys")

        # The same colours as the memory-fill lab's plot.
        check_colours(p, os.path.join(book, "plots", "memory-fill.svg"),
                      '#memory button[data-keys="%s"]', "#mem-bars rect.bar",
                      {"orthonormal": 0, "random": 1, "correlated": 3})
        p.click('#memory button[data-keys="random"]')
        p.set_range("#mem-n", 48)
        p.driver.execute_script("document.getElementById('memory').scrollIntoView()")
        p.driver.save_screenshot(os.path.join(out, "memory.png"))
    values.close()


if __name__ == "__main__":
    main(test)
