/* A running tournament's page: its standings, bracket and rounds are read again every minute
   (no reload: the reader keeps his place) until he pauses it with the button, or the event
   ends. Without script the page stays as it was served. */
(function () {
  "use strict";
  var note = document.getElementById("live-note");
  var button = document.getElementById("live-toggle");
  if (!note || !button || !document.getElementById("live-content")) { return; }
  var every = 1000 * Number(note.getAttribute("data-seconds") || 60);
  var timer = null;

  function later() {
    timer = window.setTimeout(update, every);
  }

  function update() {
    timer = null;
    fetch(window.location.href, { cache: "no-store", credentials: "omit" })
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      })
      .then(function (text) {
        var fresh = new DOMParser().parseFromString(text, "text/html");
        var content = fresh.getElementById("live-content");
        if (content) { document.getElementById("live-content").replaceWith(content); }
        if (!fresh.getElementById("live-note")) { note.remove(); button = null; }
      })
      .catch(function () { /* tried again at the next minute */ })
      .then(function () {
        if (button && button.getAttribute("data-state") === "on") { later(); }
      });
  }

  button.addEventListener("click", function () {
    var on = button.getAttribute("data-state") !== "on";
    button.setAttribute("data-state", on ? "on" : "off");
    button.textContent = button.getAttribute(on ? "data-pause" : "data-resume");
    if (timer !== null) { window.clearTimeout(timer); timer = null; }
    if (on) { later(); }
  });
  note.hidden = false;
  later();
})();
