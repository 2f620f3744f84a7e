// Small glue around htmx: connection banner, catch-up on wake, theme, screen wake lock.
(function () {
  "use strict";
  var banner = null, lostAt = 0, hideTimer = null;

  function show(text, ok) {
    banner = banner || document.getElementById("connection");
    if (!banner) return;
    banner.textContent = text;
    banner.classList.toggle("ok", !!ok);
    banner.hidden = false;
  }
  function hide() { if (banner) banner.hidden = true; }

  // The live stream: htmx's SSE extension reconnects by itself; we say what is going on.
  document.addEventListener("htmx:sseError", function () {
    if (!lostAt) lostAt = Date.now();
    show(document.documentElement.lang === "ru" ? "Нет связи, переподключаемся…" : "Connection lost, reconnecting…");
    document.body.dataset.connection = "lost";
  });
  document.addEventListener("htmx:sseOpen", function () {
    document.body.dataset.connection = "live";
    if (lostAt) {
      lostAt = 0;
      show(document.documentElement.lang === "ru" ? "Снова на связи" : "Back online", true);
      clearTimeout(hideTimer);
      hideTimer = setTimeout(hide, 1500);
      document.body.dispatchEvent(new CustomEvent("visible-again"));  // catch up on what was missed
    }
  });

  // A phone that wakes up catches up at once.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      document.body.dispatchEvent(new CustomEvent("visible-again"));
      requestWakeLock();
    }
  });

  // A successful change clears the last refusal.
  document.addEventListener("clear-notice", function () {
    var n = document.getElementById("notice");
    if (n) n.innerHTML = "";
  });

  // Theme: follows the phone unless switched; remembered on this phone.
  var saved = localStorage.getItem("theme");
  if (saved) document.documentElement.dataset.theme = saved;
  document.addEventListener("click", function (e) {
    if (e.target && e.target.id === "theme-toggle") {
      var dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
      var now = document.documentElement.dataset.theme || (dark ? "dark" : "light");
      var next = now === "dark" ? "light" : "dark";
      document.documentElement.dataset.theme = next;
      localStorage.setItem("theme", next);
    }
  });

  // Keep the screen awake during a game (Wake Lock where the browser allows it).
  var lock = null;
  function requestWakeLock() {
    if (!document.getElementById("game") || !("wakeLock" in navigator) || lock) return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () { lock = null; });
  }
  document.addEventListener("DOMContentLoaded", requestWakeLock);
})();
