/* The match page's replay: draws each position of the match (public data only) as SVG and
   steps through them with the buttons, the move list, the arrow keys, Home/End (while the
   board has focus), play/pause and the hand menu. The address always names the position
   shown (?hand=3&move=17), and so do the language links. Without script none of this shows. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var root = document.getElementById("replay");
  if (!root) { return; }
  var board = document.getElementById("board");
  var said = document.getElementById("board-text");
  var act = document.getElementById("board-act");
  var status = document.getElementById("board-status");
  var list = document.getElementById("moves");
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
  var listed = null;  // the hand whose moves the list shows
  // The bot's own tile faces (render/sprites.py): pip centres as fractions of a half, the
  // radius as a fraction of its side, and a colour per number.
  function grid(cells) {
    return cells.map(function (c) { return [0.24 + 0.26 * c[0], 0.24 + 0.26 * c[1]]; });
  }
  var HEX = [[-1, 0], [1, 0], [-0.5, -0.866], [0.5, -0.866], [-0.5, 0.866], [0.5, 0.866]]
    .map(function (p) { return [0.5 + 0.29 * p[0], 0.5 + 0.29 * p[1]]; });
  var RING = [0, 1, 2, 3, 4, 5, 6, 7].map(function (k) {
    var a = Math.PI * (k + 0.5) / 4;
    return [0.5 + 0.32 * Math.cos(a), 0.5 + 0.32 * Math.sin(a)];
  });
  var NINE = [];
  [0, 1, 2].forEach(function (r) { [0, 1, 2].forEach(function (c) { NINE.push([c, r]); }); });
  var PIPS = [
    [[], 0.115], [grid([[1, 1]]), 0.115], [grid([[0, 0], [2, 2]]), 0.115],
    [grid([[0, 0], [1, 1], [2, 2]]), 0.115], [grid([[0, 0], [2, 0], [0, 2], [2, 2]]), 0.115],
    [grid([[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]]), 0.115],
    [[[0.24, 0.2], [0.24, 0.5], [0.24, 0.8], [0.76, 0.2], [0.76, 0.5], [0.76, 0.8]], 0.115],
    [HEX.concat([[0.5, 0.5]]), 0.1], [RING, 0.1], [grid(NINE), 0.1]
  ];
  var COLOURS = ["#1c1c1c", "#800000", "#00613d", "#0000f6", "#6e284e", "#6e7211",
    "#1c1c1c", "#1c70a0", "#bf3c64", "#00428e"];
  var PAD = 8;
  var GAP = 4;

  function make(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(node); }
    return node;
  }

  // The side of a tile's half: the bot's phone target (20 px or more) on a narrow screen,
  // up to 36 px on a wide one.
  function halfSide(width) { return Math.max(22, Math.min(36, Math.floor(width / 15))); }

  function pips(group, x, y, n, side, across) {
    var face = PIPS[n] || PIPS[0];
    var r = Math.max(2.2, side * face[1]);
    face[0].forEach(function (p) {
      var fx = across ? p[1] : p[0];
      var fy = across ? p[0] : p[1];
      make("circle", { cx: x + side * fx, cy: y + side * fy, r: r, fill: COLOURS[n] }, group);
    });
  }

  function tile(x, y, pair, upright, last, side, spinner) {
    var w = upright ? side : 2 * side;
    var h = upright ? 2 * side : side;
    var g = make("g", {}, board);
    if (spinner) {  // All Fives' spinner, where the up and down arms start: a white ring
      make("rect", {
        "class": "spinner", x: x - 3, y: y - 3, width: w + 6, height: h + 6, rx: 6,
        fill: "none", stroke: "#fff", "stroke-width": 2, "stroke-dasharray": "4 3"
      }, g);
    }
    make("rect", {
      x: x, y: y, width: w, height: h, rx: 4, fill: "#faf6ea",
      stroke: last ? "#ffcc00" : "#5c4a2c", "stroke-width": last ? 4 : 1.5
    }, g);
    if (upright) {
      make("line", { x1: x + 3, y1: y + side, x2: x + w - 3, y2: y + side, stroke: "#5c4a2c" }, g);
      pips(g, x, y, pair[0], side, false);
      pips(g, x, y + side, pair[1], side, false);
    } else {
      make("line", { x1: x + side, y1: y + 3, x2: x + side, y2: y + h - 3, stroke: "#5c4a2c" }, g);
      pips(g, x, y, pair[0], side, true);
      pips(g, x + side, y, pair[1], side, true);
    }
  }

  // Lays ``pairs`` in rows that wind like the bot's picture: left to right, then right to
  // left below, and so on (each tile turned so that touching halves still match).
  function wind(pairs, top, last, width, side, spinner) {
    var right = 1;
    var x = PAD;
    var y = top;
    pairs.forEach(function (pair, i) {
      var upright = pair[0] === pair[1];
      var w = upright ? side : 2 * side;
      if ((right === 1 && x + w > width - PAD) || (right === -1 && x - w < PAD)) {
        right = -right;
        x = right === 1 ? PAD : width - PAD;
        y += 2 * side + 3 * GAP;
      }
      var left = right === 1 ? x : x - w;
      var shown = right === 1 ? pair : [pair[1], pair[0]];
      tile(left, y + (upright ? 0 : side / 2), shown, upright, i === last, side, i === spinner);
      x += right * (w + GAP);
    });
    return y + 2 * side + 4 * GAP;
  }

  function draw(p) {
    while (board.firstChild) { board.removeChild(board.firstChild); }
    var width = Math.max(200, Math.round(board.parentNode.clientWidth || 320));
    var side = halfSide(width);
    var y = PAD;
    if (p.line.length) { y = wind(p.line, y + 3, p.last, width, side, p.spinner); }
    [[p.arms[0], data.words.up], [p.arms[1], data.words.down]].forEach(function (arm) {
      if (!arm[0].length) { return; }
      make("text", { x: PAD, y: y + 14, fill: "#fff", "font-size": 15 }, board)
        .textContent = arm[1];
      y = wind(arm[0], y + 22, -1, width, side, -1);
    });
    var height = Math.max(y, 2 * side + 2 * PAD);
    board.setAttribute("viewBox", "0 0 " + width + " " + height);
    board.setAttribute("width", String(width));
    board.setAttribute("height", String(height));
  }

  function address(p, lang) {
    var query = "?hand=" + p.hand + "&move=" + p.move;
    if (lang) { query += "&lang=" + encodeURIComponent(lang); }
    return root.dataset.path + query;
  }

  function showStatus(p) {
    act.textContent = p.act;
    while (status.firstChild) { status.removeChild(status.firstChild); }
    var turn = p.turn === null || p.turn === undefined ? -1 : p.status.length - 2;
    p.status.forEach(function (sentence, i) {
      var node = document.createElement(i === turn ? "strong" : "span");
      node.textContent = sentence;
      status.appendChild(node);
      status.appendChild(document.createTextNode(" "));
    });
  }

  function listMoves(p) {
    if (listed !== p.hand) {
      listed = p.hand;
      while (list.firstChild) { list.removeChild(list.firstChild); }
      var first = firsts[p.hand];
      for (var i = first; i <= first + p.moves; i += 1) {
        var q = data.positions[i];
        var item = document.createElement("li");
        var a = document.createElement("a");
        a.href = address(q, root.dataset.lang);
        a.dataset.index = String(i);
        a.textContent = q.act;
        item.value = q.move;
        item.appendChild(a);
        list.appendChild(item);
      }
    }
    var links = list.querySelectorAll("a");
    for (var k = 0; k < links.length; k += 1) {
      var here = Number(links[k].dataset.index) === index;
      if (here) {
        links[k].setAttribute("aria-current", "step");
        var item = links[k].parentNode;
        var below = item.offsetTop + item.offsetHeight - list.clientHeight;
        if (item.offsetTop < list.scrollTop) { list.scrollTop = item.offsetTop; }
        else if (list.scrollTop < below) { list.scrollTop = below; }
      } else {
        links[k].removeAttribute("aria-current");
      }
    }
  }

  // A button that cannot be used now keeps its focus (aria-disabled, not disabled).
  function able(button, yes) {
    if (yes) { button.removeAttribute("aria-disabled"); }
    else { button.setAttribute("aria-disabled", "true"); }
  }

  function usable(button) { return button.getAttribute("aria-disabled") !== "true"; }

  function languages(p) {
    var found = document.querySelectorAll(".langs a[hreflang]");
    for (var i = 0; i < found.length; i += 1) {
      var query = address(p, found[i].getAttribute("hreflang"));
      found[i].setAttribute("href", query.slice(query.indexOf("?")));
    }
  }

  function show(i) {
    var ps = data.positions;
    index = Math.max(0, Math.min(i, ps.length - 1));
    var p = ps[index];
    draw(p);
    board.setAttribute("aria-label", p.text);
    said.textContent = p.text;
    showStatus(p);
    listMoves(p);
    select.value = String(p.hand);
    permalink.setAttribute("href", address(p, root.dataset.lang));
    able(buttons.prev, index > 0);
    able(buttons.first, p.move > 0);
    able(buttons.next, index < ps.length - 1);
    able(buttons.last, p.move < p.moves);
    languages(p);
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", address(p, root.dataset.lang));
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

  function step(button, target) {
    button.addEventListener("click", function () {
      if (!usable(button)) { return; }
      stop();
      show(target());
    });
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
    step(buttons.first, startOfHand);
    step(buttons.prev, function () { return index - 1; });
    step(buttons.next, function () { return index + 1; });
    step(buttons.last, function () { return startOfHand() + data.positions[index].moves; });
    buttons.play.addEventListener("click", toggle);
    select.addEventListener("change", function () { stop(); show(firsts[number(select.value)]); });
    list.addEventListener("click", function (event) {
      var a = event.target.closest ? event.target.closest("a[data-index]") : null;
      if (!a || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) { return; }
      event.preventDefault();
      stop();
      show(Number(a.dataset.index));
    });
    document.addEventListener("keydown", function (event) {
      var tag = (event.target && event.target.tagName) || "";
      if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") { return; }
      if (event.target.closest && event.target.closest(".wide")) { return; }  // a table's scroll
      if (event.altKey || event.ctrlKey || event.metaKey) { return; }
      var moves = {
        ArrowRight: function () { return index + 1; },
        ArrowLeft: function () { return index - 1; }
      };
      if (document.activeElement === board) {  // the page's own Home/End elsewhere
        moves.Home = startOfHand;
        moves.End = function () { return startOfHand() + data.positions[index].moves; };
      }
      if (!moves[event.key]) { return; }
      event.preventDefault();
      stop();
      show(moves[event.key]());
    });
    document.querySelectorAll("#replay [hidden]").forEach(function (node) {
      node.hidden = false;
    });
    var width = board.parentNode.clientWidth;
    function fit() {  // the drawing follows its box's width (a turned phone, a scroll bar)
      var now = board.parentNode.clientWidth;
      if (now !== width) { width = now; draw(data.positions[index]); }
    }
    if (window.ResizeObserver) { new window.ResizeObserver(fit).observe(board.parentNode); }
    else { window.addEventListener("resize", fit); }
    show(nearest(number(root.dataset.hand), number(root.dataset.move)));
  }

  fetch(root.dataset.src, { credentials: "omit" })
    .then(function (response) {
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.json();
    })
    .then(ready)
    .catch(function () { act.textContent = root.dataset.error || ""; });
}());
