"""The class report and the students' pages in Chromium (label `browser`). The class is the one
tests/kit/class_report.sh grades (its CTest fixture): nine submissions of flops, the planted
mistake (Left and Right swapped) made by three of them. Shown in the browser: the counts, the
planted mistake first with its three students, the untouched stub in no mistake's list, the
pass rates folded by exercise (a click opens them), the histograms' labels apart as rendered,
the hostile folder name and roster cell as text with no element made from them; every link to a student's page opens that page; grade --html's
page opens its failing checks. No page logs a console error or asks for anything but files.
Screenshots: class-report.png, student-bob.png, grade-html-bob.png in the output folder.
usage: test_class_report.py OUT CLASS_DIR"""
import os
import sys
import urllib.parse

from page import Page, check, main

HOSTILE = "<img src=x onerror=alert(1)>"


def test():
    out, class_dir = sys.argv[1], sys.argv[2]
    grades = os.path.join(class_dir, "grades")
    with Page(os.path.join(grades, "class-report.html"), out) as p:
        check(p.js("return document.getElementById('counted').textContent") == "9",
              "the page does not count 9 submissions")
        rows = p.js("return [...document.querySelectorAll('tr.mistake')].map(r => "
                    "[Number(r.dataset.students), r.querySelector('td.text').textContent])")
        check(len(rows) >= 2, f"mistake rows: {rows}")
        check(rows[0][0] == 3 and "two orders are swapped" in rows[0][1],
              f"the planted mistake is not the most frequent: {rows[0]}")
        check(all(n < 3 for n, _ in rows[1:]), f"another mistake as frequent as the planted one: {rows}")
        # What the page shows of the three who made it: links to bob, cy and dee.
        who = p.js("return [...document.querySelectorAll('tr.mistake')][0].querySelector('td.students')"
                   ".textContent")
        check(who == "bob, cy, dee", f"the planted mistake's students: {who}")
        # Each list's count, as shown.
        for section, want in (("build-errors", "1"), ("missing", "1"), ("ambiguous", "1"), ("late", "1")):
            got = p.js(f"return document.querySelector('#{section} .count').textContent")
            check(got == want, f"{section} shows {got}, not {want}")
        # The stub (the hostile folder's untouched flops.cpp) is work not done: no likely
        # mistake lists its student.
        who_all = p.js("return [...document.querySelectorAll('tr.mistake td.students')]"
                       ".map(td => td.textContent)")
        check(all(HOSTILE not in w for w in who_all), f"the stub counted as a mistake: {who_all}")
        # The pass rates, folded: one block per exercise, closed, its summary the exercise's
        # total; a click opens it on its checks' rows.
        blocks = p.js("return [...document.querySelectorAll('#checks details.exercise-checks')]"
                      ".map(d => [d.dataset.exercise, d.open, d.querySelector('summary').textContent,"
                      " d.querySelectorAll('tr.check').length])")
        check(len(blocks) == 1 and blocks[0][0] == "flops" and not blocks[0][1] and blocks[0][3] >= 2,
              f"the pass-rate blocks: {blocks}")
        check(blocks[0][2].startswith("flops: ") and " passed (" in blocks[0][2],
              f"the block's summary: {blocks[0][2]}")
        # (a closed <details> hides its content with content-visibility: its boxes remain)
        shown = "return document.querySelector('#checks tr.check').checkVisibility()"
        check(not p.js(shown), "a check's row shows while folded")
        p.click("#checks details.exercise-checks summary")
        check(p.js(shown), "a click does not open the exercise's checks")
        # Every histogram's labels, as rendered: none touches the next, none leaves the picture.
        clashes = p.js("""
            const out = [];
            for (const svg of document.querySelectorAll('figure.histogram svg')) {
              const pic = svg.getBoundingClientRect();
              const boxes = [...svg.querySelectorAll('text.edge')].map(t => t.getBoundingClientRect());
              if (boxes.length < 2) out.push(svg.parentNode.id + ': ' + boxes.length + ' labels');
              boxes.forEach((b, i) => {
                if (b.left < pic.left - 0.5 || b.right > pic.right + 0.5) out.push(svg.parentNode.id + ' outside');
                if (i && b.left < boxes[i - 1].right + 1) out.push(svg.parentNode.id + ' label ' + i);
              });
            }
            return out;""")
        check(clashes == [], f"histogram labels collide: {clashes}")
        # The total's histogram holds every submission once.
        bins = p.js("return [...document.querySelectorAll('#hist-total g.bin')].map(g => Number(g.dataset.count))")
        check(sum(bins) == 9, f"the total's histogram holds {sum(bins)} submissions, not 9: {bins}")
        # Names a student chose are text: shown as written, no element made of them.
        body = p.js("return document.body.innerText")
        check(HOSTILE in body, "the hostile folder's name is not shown")
        check("<script>alert(1)</script>" in body, "the roster's script tag is not shown as text")
        check(p.js("return document.querySelectorAll('script, img, iframe, object, embed').length") == 0,
              "the page holds a script, image or frame")
        p.screenshot("class-report")

        # Every link to a student's page opens an existing page of that student.
        links = p.js("return [...new Set([...document.querySelectorAll('a.report')].map(a => a.href))]")
        check(len(links) == 9, f"{len(links)} distinct report links, not 9")
        for href in links:
            check(href.startswith("file://"), f"a link outside the files: {href}")
            path = urllib.parse.unquote(urllib.parse.urlparse(href).path)
            name = os.path.basename(path)[:-len(".html")]
            p.goto(path)
            heading = p.js("return document.querySelector('h1') ? document.querySelector('h1').textContent : ''")
            # The submission's own name, never a path of the grader's folders.
            check(heading == "Report: " + name,
                  f"{href} opened '{heading}', not {name}'s report")
            if name == "bob":
                p.screenshot("student-bob")

        # A click on a link, as a person would: the class report, then bob's page.
        p.goto(os.path.join(grades, "class-report.html"))
        p.click("tr.mistake a.report")
        check(p.js("return document.querySelector('h1').textContent") == "Report: bob",
              "clicking the planted mistake's first student does not open bob's page")
        open_checks = p.js("return [...document.querySelectorAll('details.check')].filter(d => d.open)"
                           ".map(d => d.dataset.status)")
        check(open_checks and "passed" not in open_checks, f"bob's open checks: {open_checks}")

        # grade --html's page: folded as the terminal folds it; a passed check is never open,
        # and the failures the terminal shows are.
        p.goto(os.path.join(class_dir, "bob.html"))
        states = p.js("return [...document.querySelectorAll('details.check')].map(d => [d.dataset.status, d.open])")
        check(states and not any(opened and status == "passed" for status, opened in states)
              and any(opened for _, opened in states), f"grade --html: open states {states}")
        p.screenshot("grade-html-bob")


if __name__ == "__main__":
    main(test)
