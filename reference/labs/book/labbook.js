// The lab book's two widgets. Every number drawn comes from the JSON the kit embedded in the
// page (#labbook-data), computed by the reference library over each widget's grid of settings:
// this script only picks the grid cell the controls name and draws it (values to pixels, the
// lowest and highest of a cell's draws, and numbers printed). Each drawn value is also kept in
// a data-value attribute, which the browser tests read back.
//
// Charts are drawn at the width they get on the screen (their viewBox follows it, redrawn when
// the window changes), so that their text keeps its size on a phone. Every series has its own
// colour (Okabe and Ito's palette, from the data) and its own dash pattern or marker shape.
(function () {
  'use strict';
  var source = document.getElementById('labbook-data');
  if (!source) return;
  var data = JSON.parse(source.textContent);
  var SVG_NS = 'http://www.w3.org/2000/svg';

  function add(parent, name, attrs, text) {
    var e = document.createElementNS(SVG_NS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  }

  // Empties a chart, keeping its <title> (its accessible name).
  function clear(svg) {
    Array.prototype.slice.call(svg.childNodes).forEach(function (c) {
      if (c.nodeName !== 'title') svg.removeChild(c);
    });
  }

  // Three significant digits at most, no trailing zeros: 1.41, 0.354, 16, 0.031.
  function brief(x) { return String(Number(Number(x).toPrecision(3))); }
  function shown(x, digits) { return x === null ? 'n/a' : Number(x).toFixed(digits); }
  function percent(x) { return x === null ? 'n/a' : Math.round(100 * x) + '%'; }

  function show(id, value, text) {
    var e = document.getElementById(id);
    e.textContent = text;
    e.setAttribute('data-value', value === null ? '' : String(value));
  }

  function press(buttons, attr, value) {
    buttons.forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute(attr) === value));
    });
  }

  function lowest(v) { return Math.min.apply(null, v); }
  function highest(v) { return Math.max.apply(null, v); }
  function median(v) {
    var s = v.slice().sort(function (a, b) { return a - b; }), m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  }

  // A chart's size: the width it is shown at (300 to 720 px), the given height.
  function fit(svg, height) {
    var w = Math.round(Math.max(300, Math.min(720, svg.clientWidth || 720)));
    svg.setAttribute('viewBox', '0 0 ' + w + ' ' + height);
    return { width: w, height: height };
  }

  // A chart frame: x over [x0, x1], y over [y0, y1], with y gridlines at `ticks`; returns the
  // value-to-pixel maps.
  function frame(svg, box, x0, x1, y0, y1, ticks, xlabel, ylabel) {
    var w = box.width, h = box.height, left = 50, right = 10, top = 12, bottom = 44;
    var sx = function (x) { return left + (x - x0) / (x1 - x0) * (w - left - right); };
    var sy = function (y) { return top + (y1 - y) / (y1 - y0) * (h - top - bottom); };
    ticks.forEach(function (t) {
      add(svg, 'line', { class: 'gridline', x1: left, x2: w - right, y1: sy(t), y2: sy(t),
                         'data-tick': t });
      add(svg, 'text', { x: left - 6, y: sy(t) + 4, 'text-anchor': 'end' }, String(t));
    });
    add(svg, 'line', { class: 'axis', x1: left, x2: left, y1: top, y2: h - bottom });
    add(svg, 'line', { class: 'axis', x1: left, x2: w - right, y1: sy(Math.max(y0, 0)),
                       y2: sy(Math.max(y0, 0)) });
    add(svg, 'text', { x: (left + w - right) / 2, y: h - 8, 'text-anchor': 'middle' }, xlabel);
    add(svg, 'text', { x: 12, y: (top + h - bottom) / 2, 'text-anchor': 'middle',
                       transform: 'rotate(-90 12 ' + (top + h - bottom) / 2 + ')' }, ylabel);
    return { x: sx, y: sy, left: left, right: w - right, top: top, bottom: h - bottom };
  }

  // Marker shapes, so that a series is told apart without its colour.
  function marker(parent, shape, x, y, r, attrs) {
    var a = {};
    Object.keys(attrs).forEach(function (k) { a[k] = attrs[k]; });
    if (shape === 'square') {
      a.x = x - r; a.y = y - r; a.width = 2 * r; a.height = 2 * r;
      return add(parent, 'rect', a);
    }
    if (shape === 'triangle' || shape === 'diamond') {
      a.points = shape === 'triangle'
          ? [x, y - r * 1.2, x + r * 1.1, y + r * 0.8, x - r * 1.1, y + r * 0.8].join(' ')
          : [x, y - r * 1.3, x + r, y, x, y + r * 1.3, x - r, y].join(' ');
      return add(parent, 'polygon', a);
    }
    a.cx = x; a.cy = y; a.r = r;
    return add(parent, 'circle', a);
  }

  // A legend entry in HTML (below a chart, never over its curves): a small picture of the
  // series' mark and its label.
  function legend(list, entries) {
    list.textContent = '';
    entries.forEach(function (e) {
      var li = document.createElement('li');
      var pic = document.createElementNS(SVG_NS, 'svg');
      pic.setAttribute('width', '30');
      pic.setAttribute('height', '14');
      pic.setAttribute('aria-hidden', 'true');
      e.draw(pic);
      li.appendChild(pic);
      li.appendChild(document.createTextNode(' ' + e.label));
      li.setAttribute('data-series', e.id);
      list.appendChild(li);
    });
  }

  function line(pic, colour, dash, width) {
    add(pic, 'line', { x1: 1, x2: 29, y1: 7, y2: 7, stroke: colour, 'stroke-width': width || 2,
                       'stroke-dasharray': dash || 'none' });
  }

  // ---- feature maps against softmax -------------------------------------------------------
  function featureMaps(fm) {
    var root = document.getElementById('feature-maps');
    if (!root) return;
    var buttons = Array.prototype.slice.call(root.querySelectorAll('button[data-map]'));
    var sharp = document.getElementById('fm-sharpness');
    var dphi = document.getElementById('fm-dphi');
    var redraw = document.getElementById('fm-redraw');
    var svg = document.getElementById('fm-bars');
    var chart = document.getElementById('fm-misplaced');
    var map = 'softmax', draw = 0;
    // Each map's look on the misplaced-weight chart: a dash pattern and a marker shape.
    var look = { elu: { dash: '7 4', shape: 'square' }, relu: { dash: '2 3', shape: 'triangle' },
                 taylor: { dash: '10 3 2 3', shape: 'diamond' },
                 random_features: { dash: 'none', shape: 'circle' } };

    function info(id) { return fm.maps.filter(function (m) { return m.id === id; })[0]; }

    // The grid cell the controls name: [sharpness] for a fixed map, [d_phi][sharpness][draw]
    // for random features (`all`: every draw of the cell).
    function cell(table, id, s, all) {
      var p = Number(dphi.value);
      if (s === undefined) s = Number(sharp.value);
      if (table === fm.kernel_error) return all ? table[p][s] : table[p][s][draw];
      if (id !== 'random_features') return table[id][s];
      return all ? table[id][p][s] : table[id][p][s][draw];
    }

    function drawBars(w, soft, c, d, colour) {
      clear(svg);
      var n = w.length;
      var f = frame(svg, fit(svg, 280), 0.5, n + 0.5, 0, 1, [0, 0.25, 0.5, 0.75, 1],
                    'key (key 1 is the relevant one)', 'weight');
      var slot = (f.right - f.left) / n;
      var g = add(svg, 'g', { 'data-map': map, 'data-sharpness': c, 'data-draw': map ===
                              'random_features' ? draw : '',
                              'data-d-phi': map === 'random_features' ? d : '' });
      var every = map === 'random_features' ? cell(fm.weights, map, undefined, true) : null;
      for (var i = 0; i < n; ++i) {
        var top = f.y(Math.max(w[i], 0)), base = f.y(0);
        add(g, 'rect', { class: 'bar', x: f.x(i + 1) - 0.35 * slot, width: 0.7 * slot, y: top,
                         height: base - top, fill: colour, 'data-key': i + 1,
                         'data-value': w[i] }).appendChild(
          document.createElementNS(SVG_NS, 'title')).textContent =
            'key ' + (i + 1) + ': ' + shown(w[i], 3);
        if (every) {
          // The spread over the draws: a whisker from the lowest to the highest weight.
          var col = every.map(function (dw) { return dw[i]; });
          var lo = lowest(col), hi = highest(col), x = f.x(i + 1);
          var wg = add(g, 'g', { class: 'whisker', 'data-key': i + 1, 'data-low': lo,
                                 'data-high': hi });
          add(wg, 'line', { x1: x, x2: x, y1: f.y(lo), y2: f.y(hi), stroke: '#444',
                            'stroke-width': 1.2 });
          [lo, hi].forEach(function (v) {
            add(wg, 'line', { x1: x - 0.2 * slot, x2: x + 0.2 * slot, y1: f.y(v), y2: f.y(v),
                              stroke: '#444', 'stroke-width': 1.2 });
          });
        }
        add(g, 'line', { class: 'softmax-mark', x1: f.x(i + 1) - 0.45 * slot,
                         x2: f.x(i + 1) + 0.45 * slot, y1: f.y(soft[i]), y2: f.y(soft[i]),
                         stroke: info('softmax').colour, 'stroke-width': 2.5, 'data-key': i + 1,
                         'data-value': soft[i] });
        if (i === 0 || (i + 1) % 4 === 0)
          add(svg, 'text', { x: f.x(i + 1), y: f.bottom + 16, 'text-anchor': 'middle' },
              String(i + 1));
      }
    }

    // The weight misplaced against sharpness: each fixed map a curve, random features (at the
    // chosen d_phi) the chosen draw as a curve inside the band of all draws.
    function drawMisplaced(s) {
      clear(chart);
      var cs = fm.sharpness, lg = function (c) { return Math.log(c) / Math.LN2; };
      var f = frame(chart, fit(chart, 260), lg(cs[0]) - 0.15, lg(cs[cs.length - 1]) + 0.15, 0, 1,
                    [0, 0.25, 0.5, 0.75, 1], 'sharpness (query scale, log axis)',
                    'weight misplaced');
      cs.forEach(function (c) {
        if (Math.abs(lg(c) - Math.round(lg(c))) < 1e-9)
          add(chart, 'text', { x: f.x(lg(c)), y: f.bottom + 16, 'text-anchor': 'middle' }, brief(c));
      });
      var rf = info('random_features'), p = Number(dphi.value);
      var draws = fm.misplaced.random_features[p];
      var lo = draws.map(lowest), hi = draws.map(highest);
      var pts = cs.map(function (c, i) { return f.x(lg(c)) + ',' + f.y(hi[i]); })
          .concat(cs.map(function (c, i) { return f.x(lg(c)) + ',' + f.y(lo[i]); }).reverse());
      add(chart, 'polygon', { class: 'band', 'data-map': 'random_features', points: pts.join(' '),
                              fill: rf.colour, 'fill-opacity': 0.22, stroke: 'none',
                              'data-low': lo.join(','), 'data-high': hi.join(',') });
      ['elu', 'relu', 'taylor', 'random_features'].forEach(function (id) {
        var m = info(id);
        var values = id === 'random_features'
            ? draws.map(function (dv) { return dv[draw]; }) : fm.misplaced[id];
        var g = add(chart, 'g', { class: 'series', 'data-map': id });
        add(g, 'polyline', { points: cs.map(function (c, i) {
          return f.x(lg(c)) + ',' + f.y(values[i]);
        }).join(' '), fill: 'none', stroke: m.colour, 'stroke-width': id === map ? 3 : 1.6,
                             'stroke-dasharray': look[id].dash, 'data-values': values.join(',') });
        cs.forEach(function (c, i) {
          if (i % 2 === 0 || i === s)
            marker(g, look[id].shape, f.x(lg(c)), f.y(values[i]), i === s ? 4.5 : 3,
                   { fill: m.colour, stroke: '#000', 'stroke-width': 0.6 });
        });
      });
      add(chart, 'line', { class: 'now', x1: f.x(lg(cs[s])), x2: f.x(lg(cs[s])), y1: f.top,
                           y2: f.bottom, stroke: '#000', 'stroke-dasharray': '1 3' });
    }

    function misplacedTable(s) {
      fm.maps.forEach(function (m) {
        if (m.id === 'softmax') return;
        var td = root.querySelector('#fm-misplaced-table tr[data-map="' + m.id + '"] td');
        if (m.id !== 'random_features') {
          var v = fm.misplaced[m.id][s];
          td.textContent = percent(v);
          td.setAttribute('data-value', String(v));
          return;
        }
        var all = cell(fm.misplaced, m.id, s, true);
        td.textContent = percent(all[draw]) + ' in this draw; ' + percent(lowest(all)) + ' to ' +
            percent(highest(all)) + ' over the ' + all.length + ' draws (median ' +
            percent(median(all)) + ')';
        td.setAttribute('data-value', String(all[draw]));
        td.setAttribute('data-low', String(lowest(all)));
        td.setAttribute('data-high', String(highest(all)));
        td.setAttribute('data-median', String(median(all)));
      });
    }

    function drawAll() {
      var m = info(map), s = Number(sharp.value);
      var rf = map === 'random_features';
      var w = cell(fm.weights, map), soft = cell(fm.weights, 'softmax');
      var c = fm.sharpness[s], d = fm.d_phi[Number(dphi.value)];
      press(buttons, 'data-map', map);
      dphi.disabled = !rf;
      redraw.disabled = !rf;
      document.getElementById('fm-sharpness-value').textContent = brief(c);
      sharp.setAttribute('aria-valuetext', 'sharpness ' + brief(c));
      document.getElementById('fm-dphi-value').textContent = String(d);
      dphi.setAttribute('aria-valuetext', 'd_phi ' + d);
      document.getElementById('fm-draw-value').textContent = (draw + 1) + ' of ' + fm.draws;
      document.getElementById('fm-state').textContent = 'Shown: ' + m.label +
          (rf ? ' with d_phi = ' + d + ' (draw ' + (draw + 1) + ' of ' + fm.draws + ')' : '') +
          ', sharpness ' + brief(c) + '.';
      drawBars(w, soft, c, d, m.colour);
      drawMisplaced(s);
      misplacedTable(s);
      show('fm-relevant', w[fm.relevant], shown(w[fm.relevant], 3));
      show('fm-relevant-softmax', soft[fm.relevant], shown(soft[fm.relevant], 3));
      var x = cell(fm.misplaced, map);
      show('fm-misplaced-value', x, percent(x));
      // Random features' kernel error, this draw and the median of all draws (at this d_phi).
      var errs = cell(fm.kernel_error, 'random_features', s, true);
      show('fm-kernel-error', errs[draw], percent(errs[draw]) + ' in this draw (median of the ' +
           errs.length + ' draws ' + percent(median(errs)) + ')');
      document.getElementById('fm-kernel-error').setAttribute('data-median', String(median(errs)));
      var h = cell(fm.entropy, map);
      show('fm-entropy', h, shown(h, 2) + ' nats');
    }

    legend(document.getElementById('fm-bars-legend'), [
      { id: 'bar', label: 'the chosen map\'s weight (random features: this draw)',
        draw: function (pic) { add(pic, 'rect', { x: 9, y: 1, width: 12, height: 12,
                                                  fill: info('random_features').colour }); } },
      { id: 'whisker', label: 'random features: lowest to highest over the ' + fm.draws + ' draws',
        draw: function (pic) {
          add(pic, 'line', { x1: 15, x2: 15, y1: 1, y2: 13, stroke: '#444', 'stroke-width': 1.2 });
          add(pic, 'line', { x1: 11, x2: 19, y1: 1, y2: 1, stroke: '#444', 'stroke-width': 1.2 });
          add(pic, 'line', { x1: 11, x2: 19, y1: 13, y2: 13, stroke: '#444', 'stroke-width': 1.2 });
        } },
      { id: 'softmax', label: 'softmax\'s weight (a tick)',
        draw: function (pic) { line(pic, info('softmax').colour, 'none', 2.5); } }]);
    legend(document.getElementById('fm-misplaced-legend'),
           ['elu', 'relu', 'taylor', 'random_features'].map(function (id) {
             var m = info(id);
             return { id: id, label: m.label + (id === 'random_features'
                 ? ' (this draw; shaded: every draw)' : ''), draw: function (pic) {
               line(pic, m.colour, look[id].dash, 2);
               marker(pic, look[id].shape, 15, 7, 3.5, { fill: m.colour, stroke: '#000',
                                                         'stroke-width': 0.6 });
             } };
           }));

    buttons.forEach(function (b) {
      b.addEventListener('click', function () { map = b.getAttribute('data-map'); drawAll(); });
    });
    sharp.addEventListener('input', drawAll);
    dphi.addEventListener('input', drawAll);
    redraw.addEventListener('click', function () { draw = (draw + 1) % fm.draws; drawAll(); });
    window.addEventListener('resize', drawAll);
    drawAll();
  }

  // ---- an outer-product memory filling up -------------------------------------------------
  function memory(mem) {
    var root = document.getElementById('memory');
    if (!root) return;
    var buttons = Array.prototype.slice.call(root.querySelectorAll('button[data-keys]'));
    var slider = document.getElementById('mem-n');
    var write = document.getElementById('mem-write');
    var bars = document.getElementById('mem-bars');
    var curve = document.getElementById('mem-curve');
    var kind = 'random';
    // The n asked for, kept across kinds of keys (orthonormal keys show at most d of it).
    var wanted = Number(slider.value);
    var shapes = { orthonormal: 'circle', random: 'square', correlated: 'triangle' };
    var formulas = [
      { id: 'random', values: mem.random_formula, colour: mem.random_formula_colour,
        dash: '7 4', label: 'random keys, formula 1/sqrt(1 + (n-1)/d)' },
      { id: 'correlated', values: mem.correlated_formula, colour: mem.correlated_formula_colour,
        dash: '2 3', label: 'correlated keys, formula 1/sqrt(1 + (n-1)(a^4 + b^4/(d-1)))' }];

    function info(id) { return mem.kinds.filter(function (k) { return k.id === id; })[0]; }

    function polyline(parent, f, values, attrs) {
      var pts = [];
      values.forEach(function (v, i) { if (v !== null) pts.push(f.x(i + 1) + ',' + f.y(v)); });
      attrs.points = pts.join(' ');
      attrs.fill = 'none';
      attrs['data-values'] = values.join(',');
      return add(parent, 'polyline', attrs);
    }

    function nTicks(parent, f) {
      [1, 16, 32, 48, 64, 80, 96].forEach(function (t) {
        if (t <= mem.n_max)
          add(parent, 'text', { x: f.x(t), y: f.bottom + 16, 'text-anchor': 'middle' }, String(t));
      });
    }

    function draw() {
      var k = info(kind);
      slider.max = String(k.n_max);
      var n = Math.max(1, Math.min(wanted, k.n_max));
      slider.value = String(n);
      press(buttons, 'data-keys', kind);
      write.disabled = n >= k.n_max;
      document.getElementById('mem-n-value').textContent = String(n);
      slider.setAttribute('aria-valuetext', n + ' pairs');
      document.getElementById('mem-state').textContent = 'Shown: ' + k.label + ' keys, n = ' +
          n + (n === 1 ? ' pair' : ' pairs') + ' written.';

      var cos = mem.cosines[kind][n - 1];
      clear(bars);
      var fb = frame(bars, fit(bars, 240), 0.5, mem.n_max + 0.5, -0.25, 1,
                     [-0.25, 0, 0.25, 0.5, 0.75, 1], 'stored pair j', 'retrieval cosine');
      var slot = (fb.right - fb.left) / mem.n_max;
      var g = add(bars, 'g', { 'data-keys': kind, 'data-n': n });
      cos.forEach(function (v, j) {
        var y = fb.y(Math.max(Math.min(v, 1), -0.25)), base = fb.y(0);
        add(g, 'rect', { class: 'bar', x: fb.x(j + 1) - 0.4 * slot, width: 0.8 * slot,
                         y: Math.min(y, base), height: Math.abs(base - y), fill: k.colour,
                         'data-pair': j + 1, 'data-value': v });
      });
      nTicks(bars, fb);

      clear(curve);
      var fc = frame(curve, fit(curve, 280), 0.5, mem.n_max + 0.5, 0, 1,
                     [0, 0.25, 0.5, 0.75, 1], 'pairs written n', 'mean retrieval cosine');
      // The band of each kind: the lowest to the highest mean cosine over the trials.
      mem.kinds.forEach(function (kk) {
        var b = mem.band[kk.id], pts = [];
        b.high.forEach(function (v, i) { pts.push(fc.x(i + 1) + ',' + fc.y(v)); });
        b.low.slice().reverse().forEach(function (v, i) {
          pts.push(fc.x(b.low.length - i) + ',' + fc.y(v));
        });
        add(curve, 'polygon', { class: 'band', 'data-kind': kk.id, points: pts.join(' '),
                                fill: kk.colour, 'fill-opacity': kk.id === kind ? 0.3 : 0.12,
                                stroke: 'none', 'data-low': b.low.join(','),
                                'data-high': b.high.join(',') });
      });
      add(curve, 'line', { class: 'n-equals-d', x1: fc.x(mem.d), x2: fc.x(mem.d), y1: fc.top,
                           y2: fc.bottom, stroke: '#000', 'stroke-dasharray': '2 4' });
      add(curve, 'text', { x: fc.x(mem.d) + 4, y: fc.top + 12 }, 'n = d = ' + mem.d);
      formulas.forEach(function (fo) {
        polyline(curve, fc, fo.values, { class: 'formula', 'data-kind': fo.id, stroke: fo.colour,
                 'stroke-dasharray': fo.dash, 'stroke-width': 2 });
      });
      mem.kinds.forEach(function (kk) {
        var values = mem.mean_cosine[kk.id];
        polyline(curve, fc, values, { class: 'mean', 'data-kind': kk.id, stroke: kk.colour,
                 'stroke-width': kk.id === kind ? 3 : 1.5 });
        values.forEach(function (v, i) {
          if ((i + 1) % 16 === 8)
            marker(curve, shapes[kk.id], fc.x(i + 1), fc.y(v), 3.5,
                   { class: 'shape', fill: kk.colour, stroke: '#000', 'stroke-width': 0.6 });
        });
      });
      nTicks(curve, fc);
      var mean = mem.mean_cosine[kind][n - 1];
      add(curve, 'circle', { id: 'mem-marker', cx: fc.x(n), cy: fc.y(mean), r: 5, fill: k.colour,
                             stroke: '#000', 'data-n': n, 'data-value': mean });

      show('mem-n-out', n, String(n));
      show('mem-mean', mean, shown(mean, 3));
      var band = mem.band[kind];
      show('mem-band', null, shown(band.low[n - 1], 3) + ' to ' + shown(band.high[n - 1], 3));
      document.getElementById('mem-band').setAttribute('data-low', String(band.low[n - 1]));
      document.getElementById('mem-band').setAttribute('data-high', String(band.high[n - 1]));
      var x = mem.crosstalk[kind][n - 1];
      show('mem-crosstalk', x, shown(x, 3));
      show('mem-expected', mem.expected_crosstalk[n - 1], shown(mem.expected_crosstalk[n - 1], 3));
      var note = '';
      if (kind === 'orthonormal' && n >= mem.d)
        note = 'Every orthonormal key of ' + mem.d + ' dimensions is used: exact retrieval ' +
               'ends at n = d, and no further key can be orthogonal to all stored ones.';
      else if (kind !== 'orthonormal' && n > mem.d)
        note = 'Past n = d = ' + mem.d + ' no set of keys can be orthogonal: crosstalk is certain.';
      document.getElementById('mem-note').textContent = note;
    }

    legend(document.getElementById('mem-curve-legend'), mem.kinds.map(function (kk) {
      return { id: kk.id, label: kk.label + ' keys (shaded: lowest to highest of ' + mem.trials +
               ' trials)', draw: function (pic) {
        add(pic, 'rect', { x: 1, y: 2, width: 28, height: 10, fill: kk.colour,
                           'fill-opacity': 0.25 });
        line(pic, kk.colour, 'none', 2);
        marker(pic, shapes[kk.id], 15, 7, 3.5, { fill: kk.colour, stroke: '#000',
                                                 'stroke-width': 0.6 });
      } };
    }).concat(formulas.map(function (fo) {
      return { id: 'formula-' + fo.id, label: fo.label,
               draw: function (pic) { line(pic, fo.colour, fo.dash, 2); } };
    })));

    buttons.forEach(function (b) {
      b.addEventListener('click', function () { kind = b.getAttribute('data-keys'); draw(); });
    });
    slider.addEventListener('input', function () { wanted = Number(slider.value); draw(); });
    write.addEventListener('click', function () {
      wanted = Math.min(Number(slider.value) + 1, info(kind).n_max);
      draw();
    });
    window.addEventListener('resize', draw);
    draw();
  }

  featureMaps(data.feature_maps);
  memory(data.memory);
}());
