/* Live pages, by server-sent events (no reload: the reader keeps his place).
   A running table (#live-table): each event is the table as everyone at it sees it, drawn
   here with text only (no markup from the stream). A running tournament (#live-note): an
   event says its results changed; the page is then read again and its content swapped, until
   the reader pauses it with the button or the event ends. Without script the pages stay as
   they were served; without EventSource a tournament is read again every minute. */
(function () {
  "use strict";

  function el(id) { return document.getElementById(id); }

  function fill(list, items, make) {
    while (list.firstChild) { list.removeChild(list.firstChild); }
    items.forEach(function (item, i) { list.appendChild(make(item, i)); });
  }

  function item(text, cls) {
    var li = document.createElement("li");
    li.textContent = text;
    if (cls) { li.className = cls; }
    return li;
  }

  function table(box) {
    var source = new EventSource(box.getAttribute("data-events"));
    source.addEventListener("position", function (message) {
      var d = JSON.parse(message.data);
      el("live-turn").textContent = d.headline || "";
      if (d.line === undefined || !el("live-line")) {
        if (d.line !== undefined) { window.location.reload(); }  /* the match began */
        return;
      }
      el("live-hand").textContent = el("live-hand").textContent.replace(/\d+/, String(d.hand));
      fill(el("live-scores"), d.sides, function (side, i) {
        var tr = document.createElement("tr");
        var th = document.createElement("th");
        th.scope = "row";
        th.textContent = side;
        var td = document.createElement("td");
        td.textContent = String(d.scores[i]);
        tr.appendChild(th);
        tr.appendChild(td);
        return tr;
      });
      fill(el("live-seats"), d.seats, function (name, i) {
        return item(name + ": " + d.sizes[i], name === d.turn ? "to-play" : "");
      });
      var pile = el("live-pile");
      pile.textContent = d.pile ? pile.getAttribute("data-words").replace("{count}", d.pile) : "";
      fill(el("live-line"), d.line, function (t, i) {
        return item(t[0] + "|" + t[1], i === d.last ? "tile last" : "tile");
      });
      el("live-text").textContent = d.text || "";
      var moves = el("live-moves");
      fill(moves, d.log || [], function (said) { return item(said, ""); });
      moves.scrollTop = moves.scrollHeight;
      box.setAttribute("data-moves", String(d.moves));
    });
    source.addEventListener("end", function (message) {
      source.close();
      var d = JSON.parse(message.data);
      if (d.match) {
        var p = document.createElement("p");
        var a = document.createElement("a");
        a.href = d.match;
        a.textContent = box.getAttribute("data-see");
        p.appendChild(a);
        box.appendChild(p);
      }
    });
  }

  function tournament(note, button) {
    var every = 1000 * Number(note.getAttribute("data-seconds") || 60);
    var events = note.getAttribute("data-events");
    var timer = null;
    var source = null;
    var seen = null;

    function update(version) {
      var address = window.location.pathname + "?v=" + encodeURIComponent(version || Date.now());
      var lang = new URLSearchParams(window.location.search).get("lang");
      if (lang) { address += "&lang=" + encodeURIComponent(lang); }
      return fetch(address, { cache: "no-store", credentials: "omit" })
        .then(function (response) {
          if (!response.ok) { throw new Error(String(response.status)); }
          return response.text();
        })
        .then(function (text) {
          var fresh = new DOMParser().parseFromString(text, "text/html");
          var content = fresh.getElementById("live-content");
          if (content) { el("live-content").replaceWith(content); }
          if (!fresh.getElementById("live-note")) { stop(); note.remove(); }
        })
        .catch(function () { /* the next change tries again */ });
    }

    function poll() {
      timer = window.setTimeout(function () {
        update(null).then(function () { if (timer !== null) { poll(); } });
      }, every);
    }

    function start() {
      if (!events || typeof window.EventSource !== "function") { poll(); return; }
      source = new EventSource(events);
      source.addEventListener("changed", function (message) {
        var v = JSON.parse(message.data).v;
        if (seen !== null && v !== seen) { update(v); }
        seen = v;
      });
      source.addEventListener("end", function () { stop(); update(null); });
    }

    function stop() {
      if (source !== null) { source.close(); source = null; }
      if (timer !== null) { window.clearTimeout(timer); timer = null; }
    }

    button.addEventListener("click", function () {
      var on = button.getAttribute("data-state") !== "on";
      button.setAttribute("data-state", on ? "on" : "off");
      button.textContent = button.getAttribute(on ? "data-pause" : "data-resume");
      stop();
      if (on) { seen = null; start(); update(null); }
    });
    note.hidden = false;
    start();
  }

  var box = el("live-table");
  if (box && box.getAttribute("data-events") && typeof window.EventSource === "function") {
    table(box);
  }
  var note = el("live-note");
  var button = el("live-toggle");
  if (note && button && el("live-content")) { tournament(note, button); }
})();
