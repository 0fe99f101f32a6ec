"""Every page the kit writes for a person, on a phone and for colour-blind readers (label
`browser`). With Chromium's mobile emulation of a 390 px wide screen, no page is wider than the
screen (the document's scrollWidth is its clientWidth; a wide table scrolls inside its own
box): the lab book, the class report, every student's page beside it and grade --html's pages.
No table squeezes a word of up to 20 letters over two lines ("chun|k", "102|4": a column is at
least as wide as its longest word, and the table scrolls instead).
On the lab book at that width the charts' and the gnuplot figures' text keeps at least 10 px (a
figure scrolls sideways in its own box) and every widget's readouts stay inside the widget. Colour: every series of the lab book's charts is drawn in a colour of
Okabe and Ito's palette (or a neutral grey or black), and no two series of a chart share both
their dash pattern and their marker shape, so none is told by colour alone; the class report's
bars use the same palette, and its pass-rate bars fit their cells with their two parts apart in
lightness (a contrast of 1.5 or more), so they read in grey too. On a student's page each
check's mark is in the palette and every verdict word is legible on white (4.5:1). Screenshots: labbook-phone.png, class-report-phone.png.

usage: test_phone.py OUT_DIR BOOK_DIR CLASS_DIR
"""
import glob
import os
import re
import sys

from page import Page, check, main

WIDTH = 390
OKABE_ITO = {"#000000", "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00",
             "#cc79a7"}
NEUTRAL = {"#444", "#444444", "#000", "none", "#999", "#fff", "#ffffff"}


def phone(p):
    p.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": WIDTH, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    p.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})


def widths(p):
    return p.js("return {scroll: document.documentElement.scrollWidth,"
                " client: document.documentElement.clientWidth,"
                " wide: [...document.querySelectorAll('body *')].filter(e => {"
                "   const r = e.getBoundingClientRect(); if (r.right <= innerWidth + 1) return false;"
                "   for (let a = e.parentElement; a; a = a.parentElement) {"
                "     const o = getComputedStyle(a).overflowX;"
                "     if (o === 'auto' || o === 'scroll' || o === 'hidden') return false; }"
                "   return true; }).slice(0, 5).map(e => e.tagName + (e.id ? '#' + e.id : '')"
                "   + (e.className && e.className.baseVal === undefined ? '.' + e.className : ''))}")


def check_width(p, name):
    w = widths(p)
    check(w["client"] == WIDTH, f"{name}: the emulated screen is {w['client']} px, not {WIDTH}")
    check(w["scroll"] <= w["client"],
          f"{name}: {w['scroll']} px wide on a {w['client']} px screen (too wide: {w['wide']})")
    return w["scroll"]


def broken_words(p):
    """Table cells narrower than a word of theirs (3 to 20 letters; a hyphen or a slash may
    end a line): the word was broken."""
    return p.js("""
        const ctx = document.createElement('canvas').getContext('2d'), out = [];
        for (const c of document.querySelectorAll('td, th')) {
          if (c.closest('pre') || !c.offsetParent) continue;
          const st = getComputedStyle(c);
          const room = c.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
          // Each text in the font it is drawn in (a <code> inside a cell has its own).
          const texts = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
          for (let t = texts.nextNode(); t; t = texts.nextNode()) {
            const f = getComputedStyle(t.parentElement);
            ctx.font = f.fontStyle + ' ' + f.fontWeight + ' ' + f.fontSize + ' ' + f.fontFamily;
            for (const w of t.textContent.split(/[\\s\\-\\/(),=+*]+/))
              if (w.length >= 3 && w.length <= 20 && ctx.measureText(w).width > room + 1)
                out.push(w + ' in ' + Math.round(room) + ' px');
          }
        }
        return out.slice(0, 5);""")


def small_text(p, selector):
    """Text in the SVG charts `selector` finds that is drawn smaller than 10 px (its font size
    times the chart's scale from its viewBox to the screen): the first five."""
    return p.js("""
        const out = [];
        for (const svg of document.querySelectorAll(arguments[0])) {
          const vb = svg.viewBox.baseVal, r = svg.getBoundingClientRect();
          const scale = r.width / vb.width;
          for (const t of svg.querySelectorAll('text')) {
            const px = parseFloat(getComputedStyle(t).fontSize) * scale;
            if (px < 10) out.push((svg.id || svg.parentElement.id) + ': ' + t.textContent + ' '
                                  + px.toFixed(1) + ' px');
          }
        }
        return out.slice(0, 5);""", selector)


def check_report_colours(p, path):
    """A student's page: each check's mark (its left border) in the palette, and every verdict
    or status word in a colour legible on the page (a contrast of at least 4.5:1)."""
    got = p.js("""
        const hex = c => '#' + c.match(/\\d+/g).slice(0, 3)
          .map(v => Number(v).toString(16).padStart(2, '0')).join('');
        const lum = h => [1, 3, 5].map(i => parseInt(h.slice(i, i + 2), 16) / 255)
          .map(v => v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4))
          .reduce((s, v, i) => s + [0.2126, 0.7152, 0.0722][i] * v, 0);
        const marks = [...document.querySelectorAll('details.check')]
          .map(d => hex(getComputedStyle(d).borderLeftColor));
        const words = [...document.querySelectorAll('.verdict, .passed, .failed')].map(e => {
          const c = hex(getComputedStyle(e).color);
          return [c, (1.05) / (lum(c) + 0.05)]; });
        return {marks: [...new Set(marks)], words};""")
    check(got["marks"], f"{path}: no check drawn")
    stray = [c for c in got["marks"] if c not in OKABE_ITO]
    check(stray == [], f"{path}: checks marked in colours outside Okabe and Ito's palette: {stray}")
    faint = sorted({c for c, ratio in got["words"] if ratio < 4.5})
    check(faint == [], f"{path}: verdicts in colours too faint on white (under 4.5:1): {faint}")


def test():
    out, book, class_dir = sys.argv[1:4]
    grades = os.path.join(class_dir, "grades")
    pages = [os.path.join(book, "index.html"), os.path.join(grades, "class-report.html")]
    pages += sorted(glob.glob(os.path.join(grades, "reports", "*.html")))
    pages += sorted(glob.glob(os.path.join(class_dir, "*.html")))
    check(len(pages) >= 6, f"only {len(pages)} pages found: {pages}")
    measured = []
    with Page(pages[0], out) as p:
        phone(p)
        for path in pages:
            p.goto(path)
            measured.append(f"{os.path.relpath(path, os.path.dirname(book))}: "
                            f"{check_width(p, path)} px")
            broken = broken_words(p)
            check(broken == [], f"{path}: table words broken over lines on a phone: {broken}")
            if path not in pages[:2]:
                check_report_colours(p, path)
            if path == pages[1]:
                p.screenshot("class-report-phone")
                # Its bars in the palette (a series, passing, failing).
                fills = p.js("return [...new Set([...document.querySelectorAll("
                             "'figure.histogram rect, #checks svg rect')].map(r =>"
                             " r.getAttribute('fill').toLowerCase()))]")
                check(fills and all(f in OKABE_ITO for f in fills),
                      f"the class report's bars use colours outside the palette: {fills}")
                # The pass-rate bars, every exercise opened: inside their cells, and their two
                # parts apart in grey (achromatopsia): a contrast ratio of at least 1.5 between
                # the passed part and the rest as drawn over the page (fill-opacity counted).
                bars = p.js("""
                    document.querySelectorAll('details.exercise-checks').forEach(d => d.open = true);
                    const lum = (hex, alpha) => {
                      const c = [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16) / 255)
                        .map(v => alpha * v + (1 - alpha))
                        .map(v => v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
                      return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; };
                    const out = {bars: 0, clipped: [], contrast: []};
                    for (const svg of document.querySelectorAll('#checks svg.rate')) {
                      out.bars++;
                      const r = svg.getBoundingClientRect(), cell = svg.closest('td').getBoundingClientRect();
                      if (r.right > cell.right + 0.5 || r.width < 30) out.clipped.push(Math.round(r.width));
                      const [a, b] = [...svg.querySelectorAll('rect')].map(e => lum(
                        e.getAttribute('fill').toLowerCase(), parseFloat(e.getAttribute('fill-opacity') || '1')));
                      out.contrast.push((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
                    }
                    return out;""")
                check(bars["bars"] > 0, "no pass-rate bar in the class report")
                check(bars["clipped"] == [], f"pass-rate bars clipped by their cells: {bars['clipped'][:5]}")
                check(min(bars["contrast"]) >= 1.5,
                      f"a pass-rate bar's two parts are one shade in grey: contrast {min(bars['contrast']):.2f}")
                check_width(p, path + " with every exercise's checks opened")
                small = small_text(p, "figure.histogram svg")
                check(small == [], f"histogram text smaller than 10 px on a phone: {small}")

        # The lab book at phone width: its widgets, in every state a button gives.
        p.goto(pages[0])
        for sel in ['#feature-maps button[data-map="random_features"]',
                    '#memory button[data-keys="correlated"]']:
            p.click(sel)
        check_width(p, "the lab book after pressing the widgets' buttons")
        small = small_text(p, "svg.chart")
        check(small == [], f"chart text smaller than 10 px on a phone: {small}")
        # The labs' gnuplot figures (images): their text as drawn, from each SVG's own font size
        # and width, is 10 px or more too.
        figures = p.js("return [...document.querySelectorAll('figure img')].map(i =>"
                       " [i.getAttribute('src'), i.getBoundingClientRect().width])")
        check(figures, "no figure in the lab book")
        tiny = []
        for src, width in figures:
            svg = open(os.path.join(book, src), encoding="utf-8").read()
            view = float(re.search(r'viewBox="0 0 ([0-9.]+) ', svg).group(1))
            font = min(float(x) for x in re.findall(r'font-size="([0-9.]+)"', svg))
            if font * width / view < 10:
                tiny.append(f"{src}: {font * width / view:.1f} px")
        check(tiny == [], f"figure text smaller than 10 px on a phone: {tiny[:5]}")
        outside = p.js("""
            const out = [];
            for (const w of document.querySelectorAll('.widget')) {
              const box = w.getBoundingClientRect();
              for (const e of w.querySelectorAll('dt, dd, .state, output, button, svg.chart, ul.legend li')) {
                const r = e.getBoundingClientRect();
                if (r.left < box.left - 0.5 || r.right > box.right + 0.5)
                  out.push(w.id + ' ' + e.tagName + (e.id ? '#' + e.id : '') + ' ' +
                           Math.round(r.left) + '..' + Math.round(r.right));
              }
            }
            return out.slice(0, 5);""")
        check(outside == [], f"readouts outside their widget on a phone: {outside}")
        p.js("document.getElementById('feature-maps').scrollIntoView()")
        p.driver.save_screenshot(os.path.join(out, "labbook-phone.png"))

        # Colour: the palette, and marks that tell the series apart without it.
        colours = p.js("""
            const used = new Set();
            for (const e of document.querySelectorAll(
                '#feature-maps svg.chart rect.bar, #memory svg.chart rect.bar, svg.chart polyline,'
                + ' svg.chart polygon, svg.chart circle, line.softmax-mark'))
              for (const a of ['fill', 'stroke'])
                if (e.getAttribute(a)) used.add(e.getAttribute(a).toLowerCase());
            return [...used];""")
        stray = [c for c in colours if c not in OKABE_ITO | NEUTRAL]
        check(stray == [], f"chart colours outside Okabe and Ito's palette: {stray}")
        swatches = p.js("return [...document.querySelectorAll('button[data-map], button[data-keys]')]"
                        ".map(b => b.style.getPropertyValue('--swatch').trim().toLowerCase())")
        check(all(s in OKABE_ITO for s in swatches), f"button swatches {swatches}")
        looks = p.js("""
            const shape = g => { const m = g.querySelector('circle, rect, polygon');
              return m ? m.tagName + (m.getAttribute('points') || '').split(' ').length : 'none'; };
            const fm = [...document.querySelectorAll('#fm-misplaced g.series')].map(g =>
              [g.dataset.map, g.querySelector('polyline').getAttribute('stroke-dasharray'), shape(g)]);
            const mem = [...document.querySelectorAll('#mem-curve polyline')].map(l =>
              [l.className.baseVal + ' ' + l.dataset.kind, l.getAttribute('stroke-dasharray') || 'none']);
            return {fm: fm, mem: mem};""")
        fm_looks = [tuple(x[1:]) for x in looks["fm"]]
        check(len(fm_looks) == 4 and len(set(fm_looks)) == 4,
              f"the misplaced-weight chart's series are not told apart by dash and marker: {looks['fm']}")
        dashes = {kind: dash for kind, dash in looks["mem"]}
        check(dashes.get("formula random") != dashes.get("formula correlated") and
              all(dashes.get(f"mean {k}") != dashes.get(f"formula {k}") for k in ("random", "correlated")),
              f"the memory chart's curves are not told apart by their dashes: {looks['mem']}")
        shapes = p.js("return [...new Set([...document.querySelectorAll('#mem-curve .shape')]"
                      ".map(e => e.getAttribute('fill') + ' ' + e.tagName + (e.getAttribute('points') || '').split(' ').length))]")
        check(len({s.split(' ', 1)[1] for s in shapes}) == 3,
              f"the three kinds of keys do not have three marker shapes: {shapes}")
    with open(os.path.join(out, "widths.txt"), "w") as f:
        f.write("\n".join(measured) + "\n")


if __name__ == "__main__":
    main(test)
