// The lab book's two widgets. Every number drawn comes from the JSON the kit embedded in the
// page (#labbook-data), computed by the reference library over each widget's grid of settings:
// this script only picks the grid cell the controls name and draws it (values to pixels, and
// numbers printed). Each drawn value is also kept in a data-value attribute, which the browser
// tests read back.
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

  function shown(x, digits) { return x === null ? 'n/a' : Number(x).toFixed(digits); }

  function show(id, value, digits) {
    var e = document.getElementById(id);
    e.textContent = shown(value, digits);
    e.setAttribute('data-value', value === null ? '' : String(value));
  }

  function press(buttons, attr, value) {
    buttons.forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute(attr) === value));
    });
  }

  // A chart frame: x over [x0, x1], y over [y0, y1], with y gridlines at `ticks`; returns the
  // value-to-pixel maps.
  function frame(svg, box, x0, x1, y0, y1, ticks, xlabel, ylabel) {
    var w = box.width, h = box.height, left = 56, right = 12, top = 12, bottom = 44;
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
    add(svg, 'text', { x: 14, y: (top + h - bottom) / 2, 'text-anchor': 'middle',
                       transform: 'rotate(-90 14 ' + (top + h - bottom) / 2 + ')' }, ylabel);
    return { x: sx, y: sy, left: left, right: w - right, top: top, bottom: h - bottom };
  }

  function viewBox(svg) {
    var v = svg.getAttribute('viewBox').split(' ').map(Number);
    return { width: v[2], height: v[3] };
  }

  // ---- feature maps against softmax -------------------------------------------------------
  function featureMaps(fm) {
    var root = document.getElementById('feature-maps');
    if (!root) return;
    var buttons = Array.prototype.slice.call(root.querySelectorAll('button[data-map]'));
    var sharp = document.getElementById('fm-sharpness');
    var dphi = document.getElementById('fm-dphi');
    var svg = document.getElementById('fm-bars');
    var map = 'softmax';

    // The grid cell the controls name: [sharpness] for a fixed map, [d_phi][sharpness] for
    // random features.
    function cell(table, id) {
      var s = Number(sharp.value), p = Number(dphi.value);
      return id === 'random_features' ? table[id][p][s] : table[id][s];
    }

    function draw() {
      var info = fm.maps.filter(function (m) { return m.id === map; })[0];
      var w = cell(fm.weights, map), soft = cell(fm.weights, 'softmax');
      var c = fm.sharpness[Number(sharp.value)], d = fm.d_phi[Number(dphi.value)];
      press(buttons, 'data-map', map);
      dphi.disabled = map !== 'random_features';
      document.getElementById('fm-sharpness-value').textContent = String(c);
      sharp.setAttribute('aria-valuetext', 'sharpness ' + c);
      document.getElementById('fm-dphi-value').textContent = String(d);
      dphi.setAttribute('aria-valuetext', 'd_phi ' + d);
      document.getElementById('fm-state').textContent = 'Shown: ' + info.label +
          (map === 'random_features' ? ' with d_phi = ' + d : '') + ', sharpness ' + c + '.';
      clear(svg);
      var n = w.length;
      var f = frame(svg, viewBox(svg), 0.5, n + 0.5, 0, 1, [0, 0.25, 0.5, 0.75, 1],
                    'key (key 1 is the relevant one)', 'weight');
      var slot = (f.right - f.left) / n;
      var g = add(svg, 'g', { 'data-map': map, 'data-sharpness': c,
                              'data-d-phi': map === 'random_features' ? d : '' });
      for (var i = 0; i < n; ++i) {
        var top = f.y(Math.max(w[i], 0)), base = f.y(0);
        add(g, 'rect', { class: 'bar', x: f.x(i + 1) - 0.35 * slot, width: 0.7 * slot, y: top,
                         height: base - top, fill: info.colour, 'data-key': i + 1,
                         'data-value': w[i] }).appendChild(
          document.createElementNS(SVG_NS, 'title')).textContent =
            'key ' + (i + 1) + ': ' + shown(w[i], 4);
        add(g, 'line', { class: 'softmax-mark', x1: f.x(i + 1) - 0.45 * slot,
                         x2: f.x(i + 1) + 0.45 * slot, y1: f.y(soft[i]), y2: f.y(soft[i]),
                         stroke: fm.maps[0].colour, 'stroke-width': 2, 'data-key': i + 1,
                         'data-value': soft[i] });
        if (i === 0 || (i + 1) % 4 === 0)
          add(svg, 'text', { x: f.x(i + 1), y: f.bottom + 16, 'text-anchor': 'middle' },
              String(i + 1));
      }
      show('fm-relevant', w[fm.relevant], 4);
      show('fm-relevant-softmax', soft[fm.relevant], 4);
      show('fm-entropy', cell(fm.entropy, map), 3);
    }

    buttons.forEach(function (b) {
      b.addEventListener('click', function () { map = b.getAttribute('data-map'); draw(); });
    });
    sharp.addEventListener('input', draw);
    dphi.addEventListener('input', draw);
    draw();
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

    function info(id) { return mem.kinds.filter(function (k) { return k.id === id; })[0]; }

    function polyline(parent, f, values, attrs) {
      var pts = [];
      values.forEach(function (v, i) { if (v !== null) pts.push(f.x(i + 1) + ',' + f.y(v)); });
      attrs.points = pts.join(' ');
      attrs.fill = 'none';
      attrs['data-values'] = values.join(',');
      return add(parent, 'polyline', attrs);
    }

    function draw() {
      var k = info(kind);
      slider.max = String(k.n_max);
      var n = Math.min(Number(slider.value), k.n_max);
      slider.value = String(n);
      press(buttons, 'data-keys', kind);
      write.disabled = n >= k.n_max;
      document.getElementById('mem-n-value').textContent = String(n);
      slider.setAttribute('aria-valuetext', n + ' pairs');
      document.getElementById('mem-state').textContent = 'Shown: ' + k.label + ' keys, n = ' +
          n + (n === 1 ? ' pair' : ' pairs') + ' written.';

      var cos = mem.cosines[kind][n - 1];
      clear(bars);
      var fb = frame(bars, viewBox(bars), 0.5, mem.n_max + 0.5, -0.25, 1,
                     [-0.25, 0, 0.25, 0.5, 0.75, 1], 'stored pair j', 'retrieval cosine');
      var slot = (fb.right - fb.left) / mem.n_max;
      var g = add(bars, 'g', { 'data-keys': kind, 'data-n': n });
      cos.forEach(function (v, j) {
        var y = fb.y(Math.max(Math.min(v, 1), -0.25)), base = fb.y(0);
        add(g, 'rect', { class: 'bar', x: fb.x(j + 1) - 0.4 * slot, width: 0.8 * slot,
                         y: Math.min(y, base), height: Math.abs(base - y), fill: k.colour,
                         'data-pair': j + 1, 'data-value': v });
      });
      [1, 16, 32, 48, 64, 80, 96].forEach(function (t) {
        if (t <= mem.n_max)
          add(bars, 'text', { x: fb.x(t), y: fb.bottom + 16, 'text-anchor': 'middle' }, String(t));
      });

      clear(curve);
      var fc = frame(curve, viewBox(curve), 0.5, mem.n_max + 0.5, 0, 1,
                     [0, 0.25, 0.5, 0.75, 1], 'pairs written n', 'mean retrieval cosine');
      add(curve, 'line', { class: 'n-equals-d', x1: fc.x(mem.d), x2: fc.x(mem.d), y1: fc.top,
                           y2: fc.bottom, stroke: '#000', 'stroke-dasharray': '2 4' });
      add(curve, 'text', { x: fc.x(mem.d) + 4, y: fc.top + 12 }, 'n = d = ' + mem.d +
          ': no more orthonormal keys');
      polyline(curve, fc, mem.random_formula, { class: 'formula', stroke: mem.random_formula_colour,
               'stroke-dasharray': '6 4', 'stroke-width': 1.5 });
      mem.kinds.forEach(function (kk) {
        polyline(curve, fc, mem.mean_cosine[kk.id], { class: 'mean', 'data-kind': kk.id,
                 stroke: kk.colour, 'stroke-width': kk.id === kind ? 3 : 1.5 });
      });
      [1, 16, 32, 48, 64, 80, 96].forEach(function (t) {
        add(curve, 'text', { x: fc.x(t), y: fc.bottom + 16, 'text-anchor': 'middle' }, String(t));
      });
      var mean = mem.mean_cosine[kind][n - 1];
      add(curve, 'circle', { id: 'mem-marker', cx: fc.x(n), cy: fc.y(mean), r: 5, fill: k.colour,
                             stroke: '#000', 'data-n': n, 'data-value': mean });
      var legend = add(curve, 'g', {});
      mem.kinds.concat([{ label: 'random keys: 1/sqrt(1 + (n-1)/d)', dashed: true,
                          colour: mem.random_formula_colour }]).forEach(function (kk, i) {
        add(legend, 'line', { x1: fc.right - 250, x2: fc.right - 225, y1: fc.bottom - 70 + 15 * i,
                              y2: fc.bottom - 70 + 15 * i, stroke: kk.colour, 'stroke-width': 3,
                              'stroke-dasharray': kk.dashed ? '6 4' : 'none' });
        add(legend, 'text', { x: fc.right - 220, y: fc.bottom - 66 + 15 * i }, kk.label);
      });

      show('mem-n-out', n, 0);
      show('mem-mean', mean, 4);
      show('mem-crosstalk', mem.crosstalk[kind][n - 1], 4);
      show('mem-expected', mem.expected_crosstalk[n - 1], 4);
      var note = '';
      if (kind === 'orthonormal' && n >= mem.d)
        note = 'Every orthonormal key of ' + mem.d + ' dimensions is used: exact retrieval ' +
               'ends at n = d, and no further key can be orthogonal to all stored ones.';
      else if (kind !== 'orthonormal' && n > mem.d)
        note = 'Past n = d = ' + mem.d + ' no set of keys can be orthogonal: crosstalk is certain.';
      document.getElementById('mem-note').textContent = note;
    }

    buttons.forEach(function (b) {
      b.addEventListener('click', function () { kind = b.getAttribute('data-keys'); draw(); });
    });
    slider.addEventListener('input', draw);
    write.addEventListener('click', function () {
      slider.value = String(Number(slider.value) + 1);
      draw();
    });
    draw();
  }

  featureMaps(data.feature_maps);
  memory(data.memory);
}());
