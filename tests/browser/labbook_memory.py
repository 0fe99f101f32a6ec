"""The lab book's memory widget in Chromium: for each kind of keys and several n, the drawn
retrieval cosines of the stored pairs, their mean, the band over the trials and the mean
crosstalk are the ones labbook-values computes from the reference library (a memory written at
once, not pair by pair); "write one more pair" adds one pair (n + 1) and changes the cosines;
(n - 1)/d is shown beside the crosstalk; the orthonormal curve stays at 1 up to n = d, and
writing stops there; n is kept when the kind of keys changes. The curves: each kind's mean
curve passes through the marker at every n (a curve shifted along n fails), its band holds the
lowest and highest trial, and the two formula curves are 1/sqrt(1 + (n-1)/d) and
1/sqrt(1 + (n-1)(a^4 + b^4/(d-1))), each drawn at its values. The legend sits outside the chart.
Screenshot: memory.png. One Chromium start; about 10 s.

usage: labbook_memory.py OUT_DIR BOOK_DIR LABBOOK_VALUES LINATTN_LAB
"""
import math
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
                marker: value('mem-marker'),
                low: Number(document.getElementById('mem-band').dataset.low),
                high: Number(document.getElementById('mem-band').dataset.high)};""")


def curves(p):
    """The curve chart: each polyline's values and points, the bands, the marker, the axis."""
    return p.js("""
        const pts = e => e.getAttribute('points').trim().split(' ')
                          .map(pt => pt.split(',').map(Number));
        const lines = sel => Object.fromEntries([...document.querySelectorAll(sel)].map(e =>
            [e.dataset.kind, {values: e.dataset.values.split(',').map(Number), points: pts(e)}]));
        const zero = document.querySelector('#mem-curve line.gridline[data-tick="0"]');
        const one = document.querySelector('#mem-curve line.gridline[data-tick="1"]');
        const m = document.getElementById('mem-marker');
        return {mean: lines('#mem-curve polyline.mean'), formula: lines('#mem-curve polyline.formula'),
                bands: Object.fromEntries([...document.querySelectorAll('#mem-curve polygon.band')]
                  .map(e => [e.dataset.kind, {low: e.dataset.low.split(',').map(Number),
                                              high: e.dataset.high.split(',').map(Number),
                                              points: pts(e)}])),
                marker: [Number(m.getAttribute('cx')), Number(m.getAttribute('cy'))],
                y0: Number(zero.getAttribute('y1')), y1: Number(one.getAttribute('y1')),
                legend: [...document.querySelectorAll('#mem-curve-legend li')].map(li => li.dataset.series)};""")


def check_curve(chart, kind, n, want, what):
    """The kind's mean curve holds want["mean"] at n, and passes through the marker there."""
    line = chart["mean"][kind]
    check(close_to(line["values"][n - 1], want["mean"], TOL),
          f"{what}: the curve's value at n = {n} is {line['values'][n - 1]}, not {want['mean']}")
    x, y = line["points"][n - 1]
    check(abs(x - chart["marker"][0]) <= 1e-6 and abs(y - chart["marker"][1]) <= 1e-6,
          f"{what}: the curve's point for n = {n} is at {(x, y)}, the marker at {chart['marker']}")
    band = chart["bands"][kind]
    check(close_to(band["low"][n - 1], want["low"], TOL) and
          close_to(band["high"][n - 1], want["high"], TOL),
          f"{what}: band {band['low'][n - 1]}..{band['high'][n - 1]}, the trials "
          f"{want['low']}..{want['high']}")


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
    check(close_to(got["low"], want["low"], TOL) and close_to(got["high"], want["high"], TOL),
          f"{what}: over the trials {got['low']}..{got['high']}, want {want['low']}..{want['high']}")


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
            for n in (1, 3, 10, d, 60, grid["n_max"]):
                p.set_range("#mem-n", n)
                want = values.ask(f"mem {kind} {n}")
                compare(drawn(p), want, n, d, f"{kind} keys, n = {n}")
                check_curve(curves(p), kind, n, want, f"{kind} keys, n = {n}")
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

        # The formulas, each drawn at its own values on the chart's scale.
        chart = curves(p)
        a2 = grid["shared_weight"] ** 2
        formulas = {"random": lambda n: 1 / math.sqrt(1 + (n - 1) / d),
                    "correlated": lambda n: 1 / math.sqrt(1 + (n - 1) * (a2 * a2 + (1 - a2) ** 2 / (d - 1)))}
        check(sorted(chart["formula"]) == sorted(formulas), f"formula curves {sorted(chart['formula'])}")
        span = chart["y0"] - chart["y1"]
        for kind, f in formulas.items():
            line = chart["formula"][kind]
            check(len(line["values"]) == grid["n_max"], f"the {kind} formula has {len(line['values'])} points")
            worst = max(abs(v - f(n)) for n, v in enumerate(line["values"], 1))
            check(worst <= 1e-8, f"the {kind} formula curve is off the formula by {worst}")
            worst = max(abs(chart["y0"] - f(n) * span - y) for n, (x, y) in enumerate(line["points"], 1))
            check(worst <= 1e-6 * span, f"the {kind} formula curve is drawn {worst} px off its values")
            xs = [x for x, _ in line["points"]]
            check(xs == [x for x, _ in chart["mean"]["random"]["points"]],
                  f"the {kind} formula is not drawn over the same n as the curves")
        # The legend lists every curve, below the chart: no text of it over the curves.
        check(chart["legend"] == ["orthonormal", "random", "correlated", "formula-random",
                                  "formula-correlated"], f"legend {chart['legend']}")
        box = p.js("""const c = document.getElementById('mem-curve').getBoundingClientRect();
                      const l = document.getElementById('mem-curve-legend').getBoundingClientRect();
                      return [c.bottom, l.top];""")
        check(box[1] >= box[0] - 0.5, f"the legend overlaps the chart: {box}")

        # n is kept across kinds of keys: orthonormal keys show at most d of it.
        p.click('#memory button[data-keys="random"]')
        p.set_range("#mem-n", 60)
        p.click('#memory button[data-keys="orthonormal"]')
        check(drawn(p)["n"] == d, f"orthonormal keys after n = 60 show n = {drawn(p)['n']}")
        p.click('#memory button[data-keys="correlated"]')
        check(drawn(p)["n"] == 60, f"n = 60 became {drawn(p)['n']} on changing the keys")
        p.set_range("#mem-n", 5)
        p.click('#memory button[data-keys="random"]')
        check(drawn(p)["n"] == 5, f"n = 5 became {drawn(p)['n']} on changing the keys")

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
        # (the formulas are dashed in their keys' colours: three colours in all, in this order)
        check_colours(p, os.path.join(book, "plots", "memory-fill.svg"),
                      '#memory button[data-keys="%s"]', "#mem-bars rect.bar",
                      {"orthonormal": 0, "random": 1, "correlated": 2})
        p.click('#memory button[data-keys="random"]')
        p.set_range("#mem-n", 48)
        p.driver.execute_script("document.getElementById('memory').scrollIntoView()")
        p.driver.save_screenshot(os.path.join(out, "memory.png"))
    values.close()


if __name__ == "__main__":
    main(test)
