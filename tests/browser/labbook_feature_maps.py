"""The lab book's feature-map widget in Chromium: pressing each map button and moving each
slider over its whole grid draws the 32 weights, softmax's ticks, the relevant key's weight, the
weight misplaced and the entropy that labbook-values computes for that setting from the
reference library; random features show one draw of Omega at a time, Redraw steps through the
draws, the whiskers span each key's lowest to highest weight over them, and the band of the
weight-misplaced chart its lowest to highest over them at each sharpness; the sharpness lab's
own plot data (plots/sharpness.dat, the mean over its draws) agrees with the widget's draws at
the lab's settings. The section's claim holds on the page: for random features at every d_phi
the kernel values fall apart as sharpness grows (the median error over the draws never shrinks
over the upper half of the sharpness grid and ends near 100%), and the weight misplaced grows
with sharpness over the lower half. Sharpness is printed with three significant digits.
Screenshot: feature-maps.png. One Chromium start; about 20 s.

usage: labbook_feature_maps.py OUT_DIR BOOK_DIR LABBOOK_VALUES LINATTN_LAB
"""
import json
import os
import subprocess
import sys

from page import Page, check, close_to, main

TOL = 1e-7  # the page keeps 9 significant digits


class Values:
    """labbook-values, one process for the whole test."""

    def __init__(self, program):
        self.proc = subprocess.Popen([program], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)

    def ask(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        check(answer, f"labbook-values gave no answer to '{line}'")
        return json.loads(answer)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def drawn(p):
    """The weights the page drew (the bars, key 1 first), softmax's ticks, and its readouts."""
    return p.js("""
        const bars = [...document.querySelectorAll('#fm-bars rect.bar')];
        const ticks = [...document.querySelectorAll('#fm-bars line.softmax-mark')];
        const zero = document.querySelector('#fm-bars line.gridline[data-tick="0"]');
        const one = document.querySelector('#fm-bars line.gridline[data-tick="1"]');
        const value = id => Number(document.getElementById(id).dataset.value);
        const whiskers = [...document.querySelectorAll('#fm-bars g.whisker')];
        return {weights: bars.map(b => Number(b.dataset.value)),
                heights: bars.map(b => Number(b.getAttribute('height'))),
                ticks: ticks.map(t => Number(t.dataset.value)),
                tick_ys: ticks.map(t => Number(t.getAttribute('y1'))),
                y0: Number(zero.getAttribute('y1')), y1: Number(one.getAttribute('y1')),
                low: whiskers.map(w => Number(w.dataset.low)),
                high: whiskers.map(w => Number(w.dataset.high)),
                relevant: value('fm-relevant'), entropy: value('fm-entropy'),
                misplaced: value('fm-misplaced-value'),
                misplaced_text: document.getElementById('fm-misplaced-value').textContent,
                sharpness: document.getElementById('fm-sharpness-value').textContent,
                d_phi: document.getElementById('fm-dphi-value').textContent,
                draw: document.getElementById('fm-draw-value').textContent,
                dphi_disabled: document.getElementById('fm-dphi').disabled,
                redraw_disabled: document.getElementById('fm-redraw').disabled};""")


def compare(got, want, what):
    w = want["weights"]
    check(len(got["weights"]) == len(w) == 32, f"{what}: {len(got['weights'])} bars drawn")
    worst = max(abs(a - b) for a, b in zip(got["weights"], w))
    check(worst <= TOL, f"{what}: drawn weights differ from the reference's by {worst}")
    # The bars' heights are the weights on one scale (the picture shows what the data says).
    scale = [h / v for h, v in zip(got["heights"], w) if v > 1e-3]
    check(max(scale) - min(scale) <= 1e-6 * max(scale), f"{what}: bar heights out of scale")
    check(close_to(got["relevant"], w[0], TOL), f"{what}: relevant key {got['relevant']} vs {w[0]}")
    check(close_to(got["entropy"], want["entropy"], TOL),
          f"{what}: entropy {got['entropy']} vs {want['entropy']}")
    # Softmax's ticks: its weights at this sharpness, each drawn at its height.
    soft = want["softmax"]
    check(len(got["ticks"]) == 32, f"{what}: {len(got['ticks'])} softmax ticks")
    worst = max(abs(a - b) for a, b in zip(got["ticks"], soft))
    check(worst <= TOL, f"{what}: softmax's ticks differ from its weights by {worst}")
    span = got["y0"] - got["y1"]
    worst = max(abs(got["y0"] - v * span - y) for v, y in zip(soft, got["tick_ys"]))
    check(worst <= 1e-6 * span, f"{what}: softmax's ticks drawn {worst} px off their values")
    check(close_to(got["misplaced"], want["misplaced"], TOL),
          f"{what}: weight misplaced {got['misplaced']} vs {want['misplaced']}")
    check(got["misplaced_text"] == f"{round(100 * want['misplaced'])}%",
          f"{what}: weight misplaced printed as '{got['misplaced_text']}'")


def printed(c):
    """A sharpness as the page prints it: three significant digits."""
    return f"{c:.3g}"


def test():
    out, book, values_program, _lab = sys.argv[1:5]
    values = Values(values_program)
    grid = values.ask("grid")
    sharp, dphi, draws = grid["sharpness"], grid["d_phi"], grid["draws"]
    with Page(os.path.join(book, "index.html"), out) as p:
        p.driver.execute_script("document.getElementById('feature-maps').scrollIntoView()")
        maps = [b.get_attribute("data-map") for b in p.find_all("#feature-maps button[data-map]")]
        check(maps == ["softmax", "elu", "relu", "taylor", "random_features"], f"buttons {maps}")
        check(int(p.find("#fm-sharpness").get_attribute("max")) == len(sharp) - 1 and
              int(p.find("#fm-dphi").get_attribute("max")) == len(dphi) - 1,
              "the sliders do not span the grid")

        def setting():
            return sharp[int(p.find("#fm-sharpness").get_attribute("value"))], \
                dphi[int(p.find("#fm-dphi").get_attribute("value"))]

        # The grid as printed under the widget: short numbers, whole ones whole.
        note = p.find("#feature-maps p.grid").text
        check("1.41," in note and "1.414" not in note and "1024}" in note and "e+" not in note,
              f"the grid is printed as '{note}'")

        # Each map button, at the page's first setting.
        previous = None
        for m in maps:
            p.click(f'#feature-maps button[data-map="{m}"]')
            check(p.find(f'#feature-maps button[data-map="{m}"]').get_attribute("aria-pressed")
                  == "true", f"button {m} not shown as pressed")
            got = drawn(p)
            c, d = setting()
            compare(got, values.ask(f"fm {m} {c!r} {d}"), f"map {m}, c = {c}, d_phi = {d}")
            rf = m == "random_features"
            check(got["dphi_disabled"] == (not rf) and got["redraw_disabled"] == (not rf),
                  f"map {m}: the d_phi slider is {'off' if got['dphi_disabled'] else 'on'}, "
                  f"Redraw {'off' if got['redraw_disabled'] else 'on'}")
            check((len(got["low"]) == 32) == rf, f"map {m}: {len(got['low'])} whiskers")
            label = p.find(f'#feature-maps button[data-map="{m}"]').text
            state = p.find("#fm-state").text  # what print and screen readers get
            check(state.startswith(f"Shown: {label}") and f"sharpness {printed(c)}" in state,
                  f"map {m}: the widget says '{state}'")
            check(previous is None or got["weights"] != previous, f"map {m} drew the same weights")
            previous = got["weights"]
        # Every map has its weight misplaced in the table, the selected one or not.
        rows = p.js("return [...document.querySelectorAll('#fm-misplaced-table tr[data-map]')]"
                    ".map(r => [r.dataset.map, Number(r.querySelector('td').dataset.value)])")
        c, d = setting()
        check([r[0] for r in rows] == maps[1:], f"misplaced-weight rows {rows}")
        for m, v in rows:
            want = values.ask(f"fm {m} {c!r} {d}")["misplaced"]
            check(close_to(v, want, TOL), f"the table's weight misplaced of {m}: {v} vs {want}")

        # The sharpness slider over its grid, for every map; d_phi over its grid.
        for m in maps:
            p.click(f'#feature-maps button[data-map="{m}"]')
            for i, c in enumerate(sharp):
                p.set_range("#fm-sharpness", i)
                got = drawn(p)
                check(got["sharpness"] == printed(c) and len(got["sharpness"]) <= 5,
                      f"shown sharpness '{got['sharpness']}' for {c}")
                compare(got, values.ask(f"fm {m} {c!r} {setting()[1]}"), f"map {m}, c = {c}")
        p.click('#feature-maps button[data-map="random_features"]')
        p.set_range("#fm-sharpness", sharp.index(2.0))
        previous = None
        for i, d in enumerate(dphi):
            p.set_range("#fm-dphi", i)
            got = drawn(p)
            check(got["d_phi"] == str(d), f"shown d_phi {got['d_phi']} vs {d}")
            compare(got, values.ask(f"fm random_features 2.0 {d}"), f"random features d_phi = {d}")
            check(previous is None or got["weights"] != previous, f"d_phi = {d}: nothing changed")
            previous = got["weights"]

        # Redraw: one draw of Omega after another, back to the first after the last; the
        # whiskers span every draw's weights.
        readouts = {}
        for d in (64, 1024):
            p.set_range("#fm-dphi", dphi.index(d))
            for c in (1.0, 16.0):
                p.set_range("#fm-sharpness", sharp.index(c))
                every = []
                for k in range(draws):
                    got = drawn(p)
                    check(got["draw"] == f"{k + 1} of {draws}", f"draw shown as '{got['draw']}'")
                    want = values.ask(f"fm random_features {c!r} {d} {k}")
                    compare(got, want, f"random features d_phi = {d}, c = {c}, draw {k + 1}")
                    every.append(want)
                    p.click("#fm-redraw")
                check(drawn(p)["draw"] == f"1 of {draws}", "Redraw does not come back to draw 1")
                for key in range(32):
                    column = [e["weights"][key] for e in every]
                    check(close_to(got["low"][key], min(column), TOL) and
                          close_to(got["high"][key], max(column), TOL),
                          f"d_phi = {d}, c = {c}, key {key + 1}: whisker "
                          f"{got['low'][key]}..{got['high'][key]}, draws "
                          f"{min(column)}..{max(column)}")
                relevant = [e["weights"][0] for e in every]
                off = [e["misplaced"] for e in every]
                readouts[(d, c)] = (min(relevant), max(relevant), min(off), max(off))
            # The misplaced-weight chart's band at this d_phi: at each sharpness, the least
            # to the most weight misplaced over the draws.
            band = p.js("const b = document.querySelector("
                        "'#fm-misplaced polygon.band[data-map=\"random_features\"]');"
                        " return [b.dataset.low.split(',').map(Number),"
                        " b.dataset.high.split(',').map(Number)];")
            check(len(band[0]) == len(band[1]) == len(sharp), f"d_phi = {d}: band of {band}")
            for i, c in enumerate(sharp):
                off = [values.ask(f"fm random_features {c!r} {d} {k}")["misplaced"]
                       for k in range(draws)]
                check(close_to(band[0][i], min(off), TOL) and close_to(band[1][i], max(off), TOL),
                      f"d_phi = {d}, c = {c}: the band spans {band[0][i]}..{band[1][i]} of weight "
                      f"misplaced, the draws {min(off)}..{max(off)}")
        with open(os.path.join(out, "readouts.txt"), "w") as f:
            for (d, c), (lo, hi, olo, ohi) in readouts.items():
                f.write(f"d_phi = {d}, c = {c:g}: weight on key 1 from {lo:.2f} to {hi:.2f}, "
                        f"weight misplaced from {olo:.2f} to {ohi:.2f} over the {draws} draws\n")

        # The section's claim, as the page shows it, at every d_phi.
        half = len(sharp) // 2
        for i, d in enumerate(dphi):
            p.set_range("#fm-dphi", i)
            error, misplaced = [], []
            for s in range(len(sharp)):
                p.set_range("#fm-sharpness", s)
                error.append(float(p.find("#fm-kernel-error").get_attribute("data-median")))
                misplaced.append(float(p.find(
                    '#fm-misplaced-table tr[data-map="random_features"] td')
                    .get_attribute("data-median")))
            upper = error[half:]
            check(all(b >= a - 1e-9 for a, b in zip(upper, upper[1:])) and upper[-1] > 0.99,
                  f"d_phi = {d}: the kernel error does not grow with sharpness over the upper "
                  f"half of the grid: {[round(x, 3) for x in upper]}")
            lower = misplaced[:half]
            check(all(b >= a - 1e-9 for a, b in zip(lower, lower[1:])) and lower[-1] > lower[0],
                  f"d_phi = {d}: the weight misplaced does not grow with sharpness over the lower "
                  f"half of the grid: {[round(x, 3) for x in lower]}")

        # The sharpness lab's own figure data (the mean over its draws) agrees with the widget's
        # draws at the lab's settings.
        series = read_dat(os.path.join(book, "plots", "sharpness.dat"))
        lab_maps = {"softmax": ("softmax", None), "elu+1": ("elu", None), "ReLU": ("relu", None),
                    "Taylor": ("taylor", None)}
        for d in (16, 64, 512):
            lab_maps[f"random features d_phi={d}"] = ("random_features", d)
        check(sorted(series) == sorted(lab_maps), f"sharpness.dat holds {sorted(series)}")
        for title, (m, d) in lab_maps.items():
            p.click(f'#feature-maps button[data-map="{m}"]')
            if d:
                p.set_range("#fm-dphi", dphi.index(d))
            for c, weight in series[title]:
                p.set_range("#fm-sharpness", sharp.index(c))
                seen = []
                for _ in range(draws if d else 1):
                    seen.append(drawn(p)["relevant"])
                    if d:
                        p.click("#fm-redraw")
                mean = sum(seen) / len(seen)
                check(close_to(mean, weight, 1e-6),
                      f"{title} at c = {c}: widget {mean}, the lab {weight}")
        # The same colours as the sharpness lab's plot (random features: its d_phi = 64 line).
        check_colours(p, os.path.join(book, "plots", "sharpness.svg"),
                      '#feature-maps button[data-map="%s"]', "#fm-bars rect.bar",
                      {"softmax": 0, "elu": 1, "relu": 2, "taylor": 3, "random_features": 5})
        p.click('#feature-maps button[data-map="random_features"]')
        p.set_range("#fm-dphi", dphi.index(1024))
        p.set_range("#fm-sharpness", sharp.index(16.0))
        p.driver.execute_script("document.getElementById('feature-maps').scrollIntoView()")
        p.driver.save_screenshot(os.path.join(out, "feature-maps.png"))
    values.close()


def series_colours(svg_path):
    """The line colours of a gnuplot SVG, series by series ('#rrggbb')."""
    import re
    with open(svg_path) as f:
        found = re.findall(r"stroke='rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\)'", f.read())
    colours = []
    for rgb in found:
        c = "#%02x%02x%02x" % tuple(int(x) for x in rgb)
        if c not in colours:
            colours.append(c)
    return colours


def check_colours(p, svg_path, buttons, bars, series_of):
    """Each widget button's bars (or curve) are drawn in its series' colour in the lab's plot."""
    colours = series_colours(svg_path)
    for key, series in series_of.items():
        p.click(buttons % key)
        fill = p.find(bars).get_attribute("fill")
        check(fill == colours[series], f"{key}: drawn in {fill}, the lab's plot uses "
                                       f"{colours[series]} ({os.path.basename(svg_path)})")


def read_dat(path):
    """write_plot's data file: blocks of 'x y' lines, each after '# title'."""
    series, title = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("# "):
                title = line[2:]
                series[title] = []
            elif line and title:
                x, y = line.split()
                series[title].append((float(x), float(y)))
    return series


if __name__ == "__main__":
    main(test)
