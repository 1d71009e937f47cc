/* A person's rating chart, drawn above its legend from the curves the legend carries: each
   line of the legend (class s0..s3) holds a family's points "t,r t,r ..." (t in seconds
   since 1970, r the rating shown after that match), oldest first. An SVG line per family,
   each point marked (or the latest only, past 40 points) with its rating and day as its
   title, the latest labelled with its value; the lowest and highest ratings on the left, the
   first and last days under it. A family with one rated match is its point, labelled.
   Without script neither shows (the legend is hidden until the chart is drawn): the ratings
   table above says each family's rating. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  // A narrow drawing, so that its 14-unit labels stay 11 px or more on a 380 px phone (and
  // the chart no wider than 560 px on a wide screen).
  var WIDTH = 400, HEIGHT = 250, LEFT = 46, RIGHT = 46, TOP = 14, BOTTOM = 30, FONT = 14;
  var MARKED = 40;

  function day(t) {
    return new Date(Math.floor(t / 86400) * 86400000).toISOString().slice(0, 10);
  }

  function node(parent, name, attributes, text) {
    var made = document.createElementNS(NS, name);
    Object.keys(attributes).forEach(function (key) { made.setAttribute(key, attributes[key]); });
    if (text !== undefined) {
      made.textContent = text;
    }
    parent.appendChild(made);
    return made;
  }

  function draw(legend) {
    var lines = [];
    legend.querySelectorAll("li[data-points]").forEach(function (item) {
      var points = item.getAttribute("data-points").split(" ").map(function (p) {
        var pair = p.split(",");
        return [Number(pair[0]), Number(pair[1])];
      });
      if (points.length && !isNaN(points[0][0])) {
        lines.push({ kind: item.className, label: item.getAttribute("data-name"), points: points });
      }
    });
    if (!lines.length) { return null; }
    var t0 = Infinity, t1 = -Infinity, low = Infinity, high = -Infinity;
    lines.forEach(function (line) {
      line.points.forEach(function (p) {
        t0 = Math.min(t0, p[0]); t1 = Math.max(t1, p[0]);
        low = Math.min(low, p[1]); high = Math.max(high, p[1]);
      });
    });
    if (high - low < 20) { low -= 10; high += 10; }
    var span = t1 - t0, wide = WIDTH - LEFT - RIGHT, tall = HEIGHT - TOP - BOTTOM;
    var base = HEIGHT - BOTTOM;
    function x(t) { return span ? LEFT + (t - t0) / span * wide : (LEFT + WIDTH - RIGHT) / 2; }
    function y(r) { return TOP + (high - r) / (high - low) * tall; }
    var title = legend.getAttribute("data-chart");
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("class", "chart");
    svg.setAttribute("viewBox", "0 0 " + WIDTH + " " + HEIGHT);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", title);
    node(svg, "title", {}, title);
    node(svg, "line", { "class": "axis", x1: LEFT, y1: TOP, x2: LEFT, y2: base });
    node(svg, "line", { "class": "axis", x1: LEFT, y1: base, x2: WIDTH - RIGHT, y2: base });
    [low, high].forEach(function (value) {
      node(svg, "text", { x: LEFT - 4, y: (y(value) + 5).toFixed(1), "text-anchor": "end",
        "font-size": FONT }, String(Math.round(value)));
    });
    var days = span ? [[t0, "start"], [t1, "end"]] : [[t0, "middle"]];
    days.forEach(function (d) {
      node(svg, "text", { x: x(d[0]).toFixed(1), y: HEIGHT - 8, "text-anchor": d[1],
        "font-size": FONT }, day(d[0]));
    });
    lines.forEach(function (line) {
      var places = line.points.map(function (p) {
        return [x(p[0]).toFixed(1), y(p[1]).toFixed(1)];
      });
      if (places.length > 1) {
        var drawn = node(svg, "polyline", { "class": line.kind, "stroke-width": 2.5,
          points: places.map(function (p) { return p.join(","); }).join(" ") });
        node(drawn, "title", {}, line.label);
      }
      var last = places.length - 1;
      var first = places.length <= MARKED ? 0 : last;
      for (var n = first; n <= last; n++) {
        var p = line.points[n];
        var mark = node(svg, "circle", { "class": line.kind, cx: places[n][0],
          cy: places[n][1], r: n === last ? 5 : 3 });
        node(mark, "title", {}, line.label + ": " + p[1] + " (" + day(p[0]) + ")");
      }
      var latest = line.points[last];
      node(svg, "text", { x: (x(latest[0]) + 8).toFixed(1), y: (y(latest[1]) + 5).toFixed(1),
        "font-size": FONT, "font-weight": "bold" }, String(latest[1]));
    });
    legend.parentNode.insertBefore(svg, legend);
    legend.hidden = false;
    return svg;
  }

  window.ratingChart = draw;  // (the browser tests draw a chart of their own)
  document.querySelectorAll("ul.legend[data-chart]").forEach(draw);
})();
