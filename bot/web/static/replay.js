/* The match page's replay: draws each position of the match (public data only) as SVG and
   steps through them with the buttons, the arrow keys, Home/End, play/pause and the hand menu.
   The address always names the position shown (?hand=3&move=17). */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var root = document.getElementById("replay");
  if (!root) { return; }
  var board = document.getElementById("board");
  var said = document.getElementById("board-text");
  var select = document.getElementById("hand-select");
  var permalink = document.getElementById("permalink");
  var buttons = {};
  ["first", "prev", "play", "next", "last"].forEach(function (id) {
    buttons[id] = document.getElementById(id);
  });
  var data = null;
  var index = 0;
  var timer = null;
  var firsts = {};
  var hands = [];
  // Pips of a half as (column, row) on a 3 x 3 grid, for 0 to 9.
  var SIX = [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]];
  var PIPS = [
    [], [[1, 1]], [[0, 0], [2, 2]], [[0, 0], [1, 1], [2, 2]],
    [[0, 0], [2, 0], [0, 2], [2, 2]], [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], SIX,
    SIX.concat([[1, 1]]), SIX.concat([[1, 0], [1, 2]]), SIX.concat([[1, 0], [1, 1], [1, 2]])
  ];
  var HALF = 36;
  var WIDTH = 1000;

  function make(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(node); }
    return node;
  }

  function half(group, x, y, n) {
    (PIPS[n] || []).forEach(function (p) {
      make("circle", {
        cx: x + HALF * (0.22 + 0.28 * p[0]), cy: y + HALF * (0.22 + 0.28 * p[1]),
        r: HALF * 0.09, fill: "#111"
      }, group);
    });
  }

  function tile(x, y, pair, upright, last) {
    var w = upright ? HALF : 2 * HALF;
    var h = upright ? 2 * HALF : HALF;
    var g = make("g", {}, board);
    make("rect", {
      x: x, y: y, width: w, height: h, rx: 4, fill: "#fbf8ef",
      stroke: last ? "#f0a000" : "#333", "stroke-width": last ? 4 : 1.5
    }, g);
    if (upright) {
      make("line", { x1: x + 3, y1: y + HALF, x2: x + w - 3, y2: y + HALF, stroke: "#555" }, g);
      half(g, x, y, pair[0]);
      half(g, x, y + HALF, pair[1]);
    } else {
      make("line", { x1: x + HALF, y1: y + 3, x2: x + HALF, y2: y + h - 3, stroke: "#555" }, g);
      half(g, x, y, pair[0]);
      half(g, x + HALF, y, pair[1]);
    }
  }

  function row(pairs, y, last, label) {
    var x = 16;
    if (label) {
      make("text", { x: x, y: y + HALF + 6, fill: "#fff", "font-size": 16 }, board).textContent = label;
      x += 60;
    }
    var top = y;
    pairs.forEach(function (pair, i) {
      var upright = pair[0] === pair[1];
      var w = upright ? HALF : 2 * HALF;
      if (x + w > WIDTH - 16) { x = label ? 76 : 16; top += 2 * HALF + 12; }
      tile(x, top + (upright ? 0 : HALF / 2), pair, upright, i === last);
      x += w + 4;
    });
    return top + 2 * HALF + 16;
  }

  function draw(p) {
    while (board.firstChild) { board.removeChild(board.firstChild); }
    var y = 28;
    var seats = data.seats.map(function (name, s) { return name + ": " + p.sizes[s]; });
    make("text", { x: 16, y: y, fill: "#fff", "font-size": 18 }, board).textContent = seats.join("  ·  ");
    y += 14;
    var scores = data.sides.map(function (name, s) { return name + " " + p.scores[s]; });
    make("text", { x: 16, y: y + 18, fill: "#fff", "font-size": 16 }, board).textContent = scores.join("  —  ");
    y += 40;
    y = row(p.line, y, p.last, "");
    if (p.arms[0].length || p.arms[1].length) {
      y = row(p.arms[0], y, -1, data.words.up);
      y = row(p.arms[1], y, -1, data.words.down);
    }
    board.setAttribute("viewBox", "0 0 " + WIDTH + " " + Math.max(y, 200));
  }

  function address(p) {
    var query = "?hand=" + p.hand + "&move=" + p.move;
    if (root.dataset.lang) { query += "&lang=" + encodeURIComponent(root.dataset.lang); }
    return root.dataset.path + query;
  }

  function show(i) {
    var ps = data.positions;
    index = Math.max(0, Math.min(i, ps.length - 1));
    var p = ps[index];
    draw(p);
    board.setAttribute("aria-label", p.text);
    said.textContent = p.text;
    select.value = String(p.hand);
    permalink.setAttribute("href", address(p));
    buttons.prev.disabled = index === 0;
    buttons.first.disabled = p.move === 0;
    buttons.next.disabled = index === ps.length - 1;
    buttons.last.disabled = p.move === p.moves;
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", address(p));
    }
    if (index === ps.length - 1) { stop(); }
  }

  function nearest(hand, move) {
    var ps = data.positions;
    if (hand === null && move === null) { return ps.length - 1; }
    if (hand === null) { hand = hands[0]; }
    hand = Math.min(Math.max(hand, hands[0]), hands[hands.length - 1]);
    if (!(hand in firsts)) { hand = hands.filter(function (h) { return h > hand; })[0]; }
    var first = firsts[hand];
    return first + Math.min(Math.max(move || 0, 0), ps[first].moves);
  }

  function stop() {
    if (timer !== null) { window.clearInterval(timer); timer = null; }
    buttons.play.textContent = "▶";
    buttons.play.setAttribute("aria-label", data.words.play);
  }

  function toggle() {
    if (timer !== null) { stop(); return; }
    if (index === data.positions.length - 1) { show(0); }
    buttons.play.textContent = "||";
    buttons.play.setAttribute("aria-label", data.words.pause);
    timer = window.setInterval(function () { show(index + 1); }, 900);
  }

  function startOfHand() { return firsts[data.positions[index].hand]; }

  function number(text) {
    if (text === undefined || text === "") { return null; }
    var n = parseInt(text, 10);
    return isNaN(n) ? null : n;
  }

  function ready(loaded) {
    data = loaded;
    data.positions.forEach(function (p, i) {
      if (!(p.hand in firsts)) { firsts[p.hand] = i; hands.push(p.hand); }
    });
    hands.forEach(function (h) {
      var option = document.createElement("option");
      option.value = String(h);
      option.textContent = String(h);
      select.appendChild(option);
    });
    buttons.first.addEventListener("click", function () { stop(); show(startOfHand()); });
    buttons.prev.addEventListener("click", function () { stop(); show(index - 1); });
    buttons.next.addEventListener("click", function () { stop(); show(index + 1); });
    buttons.last.addEventListener("click", function () {
      stop();
      show(startOfHand() + data.positions[index].moves);
    });
    buttons.play.addEventListener("click", toggle);
    select.addEventListener("change", function () { stop(); show(firsts[number(select.value)]); });
    document.addEventListener("keydown", function (event) {
      var tag = (event.target && event.target.tagName) || "";
      if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") { return; }
      if (event.altKey || event.ctrlKey || event.metaKey) { return; }
      var moves = {
        ArrowRight: function () { return index + 1; },
        ArrowLeft: function () { return index - 1; },
        Home: startOfHand,
        End: function () { return startOfHand() + data.positions[index].moves; }
      };
      if (!moves[event.key]) { return; }
      event.preventDefault();
      stop();
      show(moves[event.key]());
    });
    show(nearest(number(root.dataset.hand), number(root.dataset.move)));
  }

  fetch(root.dataset.src, { credentials: "omit" })
    .then(function (response) {
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.json();
    })
    .then(ready)
    .catch(function () { said.textContent = root.dataset.error || ""; });
}());
