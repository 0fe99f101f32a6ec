"""The lab book's feature-map widget in Chromium: pressing each map button and moving each
slider over its whole grid draws the 32 weights (and the relevant key's weight and the
entropy) that labbook-values computes for that setting from the reference library; the
sharpness lab's own plot data (plots/sharpness.dat) agrees with the widget at the lab's
settings. Screenshot: feature-maps.png. One Chromium start; about 10 s.

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
    """The weights the page drew (the bars, key 1 first), and its readouts."""
    return p.js("""
        const bars = [...document.querySelectorAll('#fm-bars rect.bar')];
        const value = id => Number(document.getElementById(id).dataset.value);
        return {weights: bars.map(b => Number(b.dataset.value)),
                heights: bars.map(b => Number(b.getAttribute('height'))),
                relevant: value('fm-relevant'), entropy: value('fm-entropy'),
                sharpness: document.getElementById('fm-sharpness-value').textContent,
                d_phi: document.getElementById('fm-dphi-value').textContent,
                dphi_disabled: document.getElementById('fm-dphi').disabled};""")


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


def test():
    out, book, values_program, _lab = sys.argv[1:5]
    values = Values(values_program)
    grid = values.ask("grid")
    sharp, dphi = grid["sharpness"], grid["d_phi"]
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

        # Each map button, at the page's first setting.
        previous = None
        for m in maps:
            p.click(f'#feature-maps button[data-map="{m}"]')
            check(p.find(f'#feature-maps button[data-map="{m}"]').get_attribute("aria-pressed")
                  == "true", f"button {m} not shown as pressed")
            got = drawn(p)
            c, d = setting()
            compare(got, values.ask(f"fm {m} {c!r} {d}"), f"map {m}, c = {c}, d_phi = {d}")
            check(got["dphi_disabled"] == (m != "random_features"),
                  f"map {m}: the d_phi slider is {'off' if got['dphi_disabled'] else 'on'}")
            label = p.find(f'#feature-maps button[data-map="{m}"]').text
            state = p.find("#fm-state").text  # what print and screen readers get
            check(state.startswith(f"Shown: {label}") and f"sharpness {c:g}" in state,
                  f"map {m}: the widget says '{state}'")
            check(previous is None or got["weights"] != previous, f"map {m} drew the same weights")
            previous = got["weights"]

        # The sharpness slider over its grid, for every map; d_phi over its grid.
        for m in maps:
            p.click(f'#feature-maps button[data-map="{m}"]')
            for i, c in enumerate(sharp):
                p.set_range("#fm-sharpness", i)
                got = drawn(p)
                check(close_to(got["sharpness"], c, 1e-6), f"shown sharpness {got['sharpness']} vs {c}")
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

        # The sharpness lab's own figure data agrees with the widget at the lab's settings.
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
                got = drawn(p)
                check(close_to(got["relevant"], weight, TOL),
                      f"{title} at c = {c}: widget {got['relevant']}, the lab {weight}")
        # The same colours as the sharpness lab's plot (random features: its d_phi = 64 line).
        check_colours(p, os.path.join(book, "plots", "sharpness.svg"),
                      '#feature-maps button[data-map="%s"]', "#fm-bars rect.bar",
                      {"softmax": 0, "elu": 1, "relu": 2, "taylor": 3, "random_features": 5})
        p.click('#feature-maps button[data-map="elu"]')
        p.set_range("#fm-sharpness", sharp.index(4.0))
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
