// Small glue around htmx: connection banner, catch-up on wake, theme, keeping the screen awake.
(function () {
  "use strict";
  // The words this script shows come with the page, in the page's language (base.html).
  var T = {};
  try { T = JSON.parse(document.getElementById("script-words").textContent); } catch (e) { T = {}; }
  var banner = null, lostAt = 0, hideTimer = null, restartStream = null;

  // Words with an icon before them: the icon is a copy of one the page carries (#icons in
  // base.html, drawings that ship with the app: no emoji font needed).
  function pictured(el, icon, text) {
    var icons = document.getElementById("icons");
    var model = icons && icons.content && icons.content.querySelector(".icon-" + icon);
    el.textContent = "";
    if (model) el.appendChild(model.cloneNode(true));
    el.appendChild(document.createTextNode((model ? " " : "") + text));
  }

  function show(text, ok) {
    banner = banner || document.getElementById("connection");
    if (!banner) return;
    clearTimeout(hideTimer);
    pictured(banner, ok ? "check" : "triangle-alert", text);  // not by color alone
    banner.classList.toggle("ok", !!ok);
    banner.hidden = false;
  }
  function hide() { if (banner) banner.hidden = true; }

  // Connection state: the banner while cut off, the dot in the top bar (#link-state),
  // body[data-connection]. The host page and table screen use htmx's SSE extension.
  document.addEventListener("htmx:sseError", function () { lost(); });
  document.addEventListener("htmx:sseOpen", function () { live(); });
  function setLink(state) {
    var dot = document.getElementById("link-state");
    document.body.dataset.connection = state;
    if (!dot) return;
    dot.dataset.state = state;  // a filled or a hollow ring (app.css): not by color alone
    dot.title = T[state === "live" ? "linked" : "cut"];
    dot.setAttribute("aria-label", dot.title);
  }
  function lost() {
    if (!lostAt) lostAt = Date.now();
    show(T.lost);  // until the connection is back
    setLink("lost");
  }
  function live() {
    setLink("live");
    if (lostAt) {
      lostAt = 0;
      show(T.back, true);
      hideTimer = setTimeout(hide, 1500);
      document.body.dispatchEvent(new CustomEvent("visible-again"));  // catch up at once
    }
  }
  function shownVersion() {
    var el = document.querySelector("#live .live[data-version]");
    return el ? el.dataset.version : "";
  }

  // The game page's live stream (#game[data-live-stream]) is read with fetch, not EventSource,
  // so that the page hears the server's heartbeat comments: silent for two heartbeats (a wifi
  // gone without a word), failed, or the phone offline, it is cut off until a new one opens.
  // A "changed" event rings "live-changed" on the body.
  function liveStream(game) {
    var url = game.getAttribute("data-live-stream") + "?since=";
    var beat = (Number(game.getAttribute("data-heartbeat")) || 15) * 1000;
    var ctrl = null, heard = 0, retry = 1500, failures = 0, timer = null;
    function message(block) {
      var wait = /^retry: ?(\d+)$/m.exec(block), data = /^data: ?(.*)$/m.exec(block);
      if (wait) retry = Number(wait[1]);
      if (!data || !/^event: ?changed$/m.test(block)) return;
      try { data = JSON.parse(data[1]); } catch (e) { return; }
      document.body.dispatchEvent(new CustomEvent("live-changed", {detail: data}));
    }
    function again(wait) {
      clearTimeout(timer);
      timer = setTimeout(connect, wait);
    }
    function stop() {
      if (ctrl) ctrl.abort();
      ctrl = null;
    }
    function connect() {
      stop();
      clearTimeout(timer);
      var mine = ctrl = new AbortController(), buffer = "";
      heard = Date.now();
      fetch(url + shownVersion(), {headers: {Accept: "text/event-stream"}, cache: "no-store", signal: mine.signal})
        .then(function (response) {
          if (!response.ok || !response.body) throw new Error(response.status);
          failures = 0;
          live();
          var reader = response.body.getReader(), decoder = new TextDecoder();
          function pump() {
            return reader.read().then(function (chunk) {
              if (chunk.done || ctrl !== mine) return;
              heard = Date.now();  // an event or a heartbeat: the line is alive
              var blocks = (buffer + decoder.decode(chunk.value, {stream: true})).split(/\r?\n\r?\n/);
              buffer = blocks.pop();
              blocks.forEach(message);
              return pump();
            });
          }
          return pump();
        })
        .then(function () {  // the server ends a stream now and then
          if (ctrl === mine) again(retry);
        }, function () {
          if (ctrl !== mine) return;  // aborted for a new one
          ctrl = null;
          lost();
          again(Math.min(1500 * ++failures, 5000));
        });
    }
    setInterval(function () {  // the watchdog
      if (ctrl && Date.now() - heard > 2 * beat + 5000) {
        lost();
        connect();
      }
    }, 1000);
    window.addEventListener("offline", function () {
      stop();
      lost();
      again(30000);  // or at "online"
    });
    window.addEventListener("online", connect);
    restartStream = connect;
    connect();
  }
  document.addEventListener("DOMContentLoaded", function () {
    var game = document.querySelector("[data-live-stream]");
    if (game && window.AbortController && window.TextDecoder) liveStream(game);
  });

  // Taps made while cut off are never dropped: one made while the page knows it is cut off,
  // or one that could not reach the server, waits on screen (#pending) as a form of its own
  // (#pending-row: Send, Drop). When the phone is back it is sent by itself if the game is
  // still where it was when tapped, else it asks first; a refusal shows as any refusal does.
  function keep(config) {
    var list = document.getElementById("pending"), model = document.getElementById("pending-row");
    var form = config.elt, data = config.formData;
    if (!list || !model || !form || config.verb !== "post" || form.closest("#pending")) return false;
    var row = model.content.firstElementChild.cloneNode(true);
    row.action = config.path;
    row.setAttribute("hx-post", config.path);
    row.dataset.version = shownVersion();
    if (data) data.forEach(function (value, name) {
      if (typeof value !== "string") return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      row.appendChild(input);
    });
    var b = (config.triggeringEvent && config.triggeringEvent.submitter) || form.querySelector("button");
    row.querySelector(".pending-label").textContent =
      b ? (b.getAttribute("aria-label") || b.textContent).replace(/\s+/g, " ").trim() : "";
    list.appendChild(row);
    list.hidden = false;
    if (window.htmx) htmx.process(row);
    return true;
  }
  function why(row, text) { row.querySelector(".pending-why").textContent = row.getAttribute(text); }
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (document.body.dataset.connection === "lost" && keep(e.detail.requestConfig || {})) e.preventDefault();
  });
  // A request that could not reach the server changed nothing: a tap waits (or says so), and
  // the game page now knows it is cut off.
  document.addEventListener("htmx:sendError", function (e) {
    var config = e.detail.requestConfig || {}, elt = config.elt, row = elt && elt.closest && elt.closest("#pending form");
    if (row) why(row, "data-waiting");  // a retry that failed again: still waiting
    else if (config.verb === "post" && !keep(config)) {
      show(T.unsent);
      if (!lostAt) hideTimer = setTimeout(hide, 4000);
    }
    if (restartStream) {
      lost();
      restartStream();  // the stream says when the phone is back
    }
  });
  // Answered (done, or refused with its reason in #notice): it waits no more.
  document.addEventListener("htmx:afterRequest", function (e) {
    var row = e.detail.elt;
    if (!row || !row.matches || !row.matches("#pending form") || !e.detail.xhr.status) return;
    row.remove();
    sendWaiting();
  });
  function sendWaiting() {
    var list = document.getElementById("pending");
    if (!list) return;
    list.hidden = !list.querySelector("form");
    var next = document.body.dataset.connection !== "lost" && list.querySelector("form[data-auto]");
    if (next) {
      next.removeAttribute("data-auto");
      next.requestSubmit();
    }
  }
  document.addEventListener("click", function () { setTimeout(sendWaiting, 0); });  // after a Drop
  // Back, with the live part fetched: what waits is sent, one at a time, if the game is
  // where it was; what no longer fits asks.
  document.addEventListener("htmx:afterSwap", function (e) {
    var list = document.getElementById("pending");
    if (!list || e.detail.target.id !== "live" || document.body.dataset.connection === "lost" ||
        list.querySelector("form[data-auto], form.htmx-request")) return;
    var now = shownVersion();
    list.querySelectorAll("form:not([data-asked])").forEach(function (row) {
      if (row.dataset.version === now) row.setAttribute("data-auto", "");
      else {
        row.setAttribute("data-asked", "");
        why(row, "data-moved");
        // Its Send is the player's "yes, anyway": the level tap's own check that the level
        // is still the one the page showed (_seen) would only ask a second time.
        var seen = row.querySelector('input[name="_seen"]');
        if (seen) seen.remove();
      }
    });
    sendWaiting();
  });

  // A phone that wakes up catches up at once.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      document.body.dispatchEvent(new CustomEvent("visible-again"));
      keepAwake();
    }
  });

  // No inline handlers (the Content-Security-Policy allows scripts from files only): buttons
  // and selects say what they do with data attributes, handled here for the whole page.
  // data-dismiss=".notice": the button removes its closest such element (a refusal notice).
  document.addEventListener("click", function (e) {
    var b = e.target && e.target.closest && e.target.closest("[data-dismiss]");
    if (!b) return;
    var gone = b.closest(b.getAttribute("data-dismiss"));
    if (gone) gone.remove();
  });
  // data-autosubmit: a select that sends its form as soon as it changes (the language switch,
  // the calculator's rulebook); without JavaScript the form has a button instead.
  document.addEventListener("change", function (e) {
    var s = e.target;
    if (s && s.hasAttribute && s.hasAttribute("data-autosubmit") && s.form) s.form.submit();
  });

  // The game page's live part is re-fetched on every change anyone makes. The "keep-edits"
  // swap morphs it (idiomorph) without undoing this player's own work: a panel they opened
  // stays open, and fields they typed in, ticked or picked keep their value; hidden fields
  // follow the server. An extension here, not a config in hx-swap, which idiomorph would eval.
  function keepEdit(attr, node, mutation) {
    if (attr === "open") return mutation !== "remove";
    var el = node.tagName === "OPTION" ? node.parentNode : node;
    if (!el || el.type === "hidden") return;
    if (el.tagName === "SELECT") {
      var i = [].findIndex.call(el.options, function (o) { return o.defaultSelected; });
      return el.selectedIndex === (i < 0 ? 0 : i);
    }
    if (attr === "checked") return el.checked === el.defaultChecked;
    if (attr === "value" && (el.tagName === "INPUT" || el.tagName === "TEXTAREA")) return el.value === el.defaultValue;
  }
  // Most of the part is the same after a change (a number, a log line): a subtree whose markup
  // equals the new one is left as it is, not walked node by node (isEqualNode, the browser's
  // own compare, is far quicker: a phone's part at a six-player fight, 441 nodes, took 5.7 ms
  // to morph, 2.2 ms with it). The morph would change nothing there: a panel opened on this
  // phone differs from the markup (its "open"), and a field edited here keeps its edit either
  // way (keepEdit), its markup being the server's.
  function changed(node, next) { return !node.isEqualNode(next); }
  if (window.htmx && window.Idiomorph) {
    htmx.defineExtension("keep-edits", {
      handleSwap: function (style, target, fragment) {
        if (style !== "keep-edits") return false;
        return Idiomorph.morph(target, fragment.children, {
          morphStyle: "innerHTML", ignoreActiveValue: true,
          callbacks: {beforeAttributeUpdated: keepEdit, beforeNodeMorphed: changed}
        });
      }
    });
  }

  // A successful change clears the last refusal.
  document.addEventListener("clear-notice", function () {
    var n = document.getElementById("notice");
    if (n) n.innerHTML = "";
  });

  // A ring for a version this page already shows (its own change, answered already) needs
  // no fetch: the server renders one page less per change.
  document.addEventListener("htmx:confirm", function (e) {
    var rung = e.detail.triggeringEvent, live = e.detail.elt, shown, version;
    if (!rung || !live || live.id !== "live") return;
    if (rung.type === "live-changed") version = rung.detail.version;
    else if (rung.type === "sse:changed") {
      try { version = JSON.parse(rung.detail.data).version; } catch (err) { return; }
    } else return;
    shown = live.querySelector(".live[data-version]");
    if (shown && Number(shown.dataset.version) >= version) e.preventDefault();
  });

  // Answers may come back out of order (a slow reply to this phone's own tap after the fetch
  // for someone's newer change): one older than what the page shows is not put in #live. Its
  // out-of-band parts (#notice) still go in, as htmx's "none" swap does; the page keeps the
  // newer version it has, and a newer change still rings.
  var ROOT_VERSION = /^\s*<div class="live"[^>]*\sdata-version="(\d+)"/;
  document.addEventListener("htmx:beforeSwap", function (e) {
    var d = e.detail, shown = shownVersion(), found;
    if (!d.shouldSwap || !d.target || d.target.id !== "live" || !shown || typeof d.serverResponse !== "string") return;
    found = ROOT_VERSION.exec(d.serverResponse);
    if (found && Number(found[1]) < Number(shown)) d.swapOverride = "none";
    keepEditsOnLateAnswer(d);
  });

  // Every answer put in #live keeps this player's edits (the keep-edits swap), the answer to
  // their own tap too: it may come after the live update for the same change, when they have
  // picked the next die already. The form they sent is sent, so it follows the server again.
  // htmx looks a swap's extension up from the element that asked; when a live update has
  // taken that form away meanwhile, nothing would be found and htmx would replace the whole
  // part (every pick undone), so the swap is made here with #live itself as the asker.
  // The fields a tap sent, noted when it leaves: a live update meanwhile may have rebuilt
  // their form and moved them (idiomorph keeps an element with an id), so they are put back
  // one by one, wherever they are now, not through the form.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var config = e.detail.requestConfig, asker = config && config.elt;
    var form = asker && (asker.tagName === "FORM" ? asker : asker.closest && asker.closest("form"));
    if (form) config.sentFields = [].slice.call(form.elements);
  });
  function backToDefault(el) {
    if (el.type === "hidden" || el.tagName === "BUTTON" || el.tagName === "FIELDSET") return;
    if (el.tagName === "SELECT") {
      var i = [].findIndex.call(el.options, function (o) { return o.defaultSelected; });
      el.selectedIndex = i < 0 ? 0 : i;
    } else if (el.type === "checkbox" || el.type === "radio") el.checked = el.defaultChecked;
    else if ("defaultValue" in el) el.value = el.defaultValue;
  }
  function keepEditsOnLateAnswer(d) {
    var asker = d.requestConfig && d.requestConfig.elt;
    if (!asker || d.isError || !window.htmx || !window.Idiomorph) return;
    (d.requestConfig.sentFields || []).forEach(backToDefault);
    if (asker.isConnected) return;
    d.shouldSwap = false;
    htmx.swap(d.target, d.serverResponse, {swapStyle: d.swapOverride || "keep-edits"}, {contextElement: d.target});
  }

  // The game page's sections (me, fight, table): links that work without JavaScript
  // (?tab=...), switched here in place. The choice lives on #game, outside the live part, so
  // a live update keeps it; the address keeps it for a reload.
  document.addEventListener("click", function (e) {
    var a = e.target && e.target.closest && e.target.closest("a[data-tab]");
    var game = document.getElementById("game");
    if (!a || !game || e.defaultPrevented || e.button || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    var tab = a.getAttribute("data-tab");
    game.dataset.tab = tab;
    document.querySelectorAll(".tabbar a[data-tab]").forEach(function (link) {
      if (link.getAttribute("data-tab") === tab) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    });
    var url = new URL(a.href, location.href);
    var hash = url.hash;
    url.hash = "";
    history.replaceState(null, "", url.pathname + url.search);
    var spot = hash && document.getElementById(hash.slice(1));
    if (spot) spot.scrollIntoView({block: "start"});
    else window.scrollTo(0, 0);
  });

  // The heights of the sticky header and of the floating notice, so that scrolling to a
  // control never leaves it under either, and the page can always scroll out from under them.
  var sizes = window.ResizeObserver && new ResizeObserver(function () {
    var root = document.documentElement.style;
    [["hud", "--hud-h"], ["notice", "--notice-h"]].forEach(function (pair) {
      var el = document.getElementById(pair[0]);
      if (el) root.setProperty(pair[1], el.offsetHeight + "px");
    });
  });

  // Calls (an offer to me, a forced help, my turn): a new one makes the phone vibrate where
  // it can; one dismissed stays dismissed on this phone, across live updates and reloads.
  function remembered(name) {
    try { return JSON.parse(sessionStorage.getItem(name) || "[]"); } catch (e) { return []; }
  }
  function remember(name, key) {
    var keys = remembered(name);
    if (keys.indexOf(key) < 0) keys.push(key);
    try { sessionStorage.setItem(name, JSON.stringify(keys.slice(-50))); } catch (e) { /* private mode */ }
  }
  function checkCalls() {
    ["hud", "notice"].forEach(function (id) {
      var el = document.getElementById(id);
      if (el && sizes) sizes.observe(el);
    });
    var dismissed = remembered("calls-dismissed"), seen = remembered("calls-seen"), fresh = false;
    document.querySelectorAll(".call[data-call]").forEach(function (call) {
      var key = call.getAttribute("data-call");
      call.hidden = dismissed.indexOf(key) >= 0;
      if (!call.hidden && seen.indexOf(key) < 0) {
        fresh = true;
        remember("calls-seen", key);
      }
    });
    if (fresh && navigator.vibrate) {
      try { navigator.vibrate([150, 80, 150]); } catch (e) { /* not allowed before a first tap */ }
    }
  }
  document.addEventListener("DOMContentLoaded", checkCalls);
  document.addEventListener("htmx:afterSwap", checkCalls);
  document.addEventListener("click", function (e) {
    var b = e.target && e.target.closest && e.target.closest('[data-dismiss=".call"]');
    var call = b && b.closest(".call[data-call]");
    if (call) remember("calls-dismissed", call.getAttribute("data-call"));
  }, true);

  // A toast saying what a tap did (with its Undo) stays until the next change by anyone (the
  // live part shows a newer version: its Undo would take back that one instead) or 20 s; a
  // refusal stays until dismissed or until the next change goes through.
  var toastTimer = null;
  function watchNotice() {
    var notice = document.getElementById("notice");
    if (!notice || !window.MutationObserver) return;
    new MutationObserver(function () {
      clearTimeout(toastTimer);
      var toast = notice.querySelector(".toast");
      if (toast) toastTimer = setTimeout(function () { if (toast.isConnected) toast.remove(); }, 20000);
    }).observe(notice, {childList: true, subtree: true});
  }
  document.addEventListener("DOMContentLoaded", watchNotice);
  document.addEventListener("htmx:afterSettle", function () {
    var toast = document.querySelector("#notice .toast[data-version]");
    var shown = document.querySelector("#live .live[data-version]");
    if (toast && shown && Number(shown.dataset.version) > Number(toast.dataset.version)) toast.remove();
  });
  // A throttled tap (429, "wait a few seconds") is a toast too: once the wait is over it has
  // nothing left to say.
  document.addEventListener("htmx:afterSwap", function (e) {
    var xhr = e.detail && e.detail.xhr, notice = document.querySelector("#notice .notice");
    if (!xhr || xhr.status !== 429 || !notice) return;
    var wait = parseInt(xhr.getResponseHeader("Retry-After"), 10) || 8;
    setTimeout(function () { if (notice.isConnected) notice.remove(); }, Math.min(Math.max(wait, 3), 8) * 1000);
  });

  // Theme: follows the phone unless switched; remembered on this phone.
  var saved = null;
  try { saved = localStorage.getItem("theme"); } catch (e) { /* private mode */ }
  if (saved) document.documentElement.dataset.theme = saved;
  document.addEventListener("click", function (e) {
    var t = e.target && e.target.closest && e.target.closest("#theme-toggle");
    if (!t) return;
    var dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
    var now = document.documentElement.dataset.theme || (dark ? "dark" : "light");
    var next = now === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    t.setAttribute("aria-pressed", next === "dark" ? "true" : "false");
    try { localStorage.setItem("theme", next); } catch (err) { /* private mode */ }
  });

  // The app installed on the home screen opens to the last game.
  if (/[?&]source=pwa\b/.test(location.search)) {
    var last = document.getElementById("last-game");
    if (last) location.replace(last.href);
  }

  // Keep the screen awake during a game. The Wake Lock API exists only in a secure context
  // (https, localhost); on plain http over the LAN a silent, muted, looping inline video
  // started by the first tap does it (the NoSleep.js technique). #awake says which works.
  var lock = null, video = null, mode = "";
  function status(m) {
    mode = m;
    var el = document.getElementById("awake");
    if (!el) return;
    pictured(el, m === "lock" || m === "video" ? "sun" : m === "tap" ? "pointer" : "triangle-alert", T[m]);
    el.dataset.mode = m;
    el.hidden = false;
  }
  function keepAwake() {
    if (!document.getElementById("awake") || document.visibilityState !== "visible") return;
    if ("wakeLock" in navigator) {
      if (lock) return;
      navigator.wakeLock.request("screen").then(function (l) {
        lock = l;
        status("lock");
        l.addEventListener("release", function () { lock = null; });
      }).catch(function () { lock = null; videoFallback(); });
    } else {
      videoFallback();
    }
  }
  function videoFallback() {
    if (video) {  // the browser paused it while the page was hidden: play on
      if (mode === "video" && video.paused) video.play().catch(function () { status("tap"); waitForTap(); });
      return;
    }
    video = document.createElement("video");
    if (!video.canPlayType || !(video.canPlayType("video/webm") || video.canPlayType("video/mp4"))) {
      video = null;
      status("none");
      return;
    }
    var base = (document.querySelector('script[src*="app.js"]') || {}).src || "/static/app.js";
    base = base.replace(/app\.js.*$/, "vendor/nosleep.js-0.12.0/no-sleep.");
    video.muted = true;
    video.setAttribute("muted", "");
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
    video.setAttribute("tabindex", "-1");
    video.preload = "none";
    video.className = "no-sleep";
    [["webm", "video/webm"], ["mp4", "video/mp4"]].forEach(function (s) {
      var source = document.createElement("source");
      source.src = base + s[0];
      source.type = s[1];
      video.appendChild(source);
    });
    video.addEventListener("loadedmetadata", function () {
      if (video.duration <= 1) video.loop = true;  // the webm clip loops cleanly
      else video.addEventListener("timeupdate", function () {  // the mp4 clip: stay in its first second
        if (video.currentTime > 0.5) video.currentTime = Math.random();
      });
    });
    document.body.appendChild(video);
    status("tap");
    waitForTap();
  }
  function waitForTap() {
    function start() {
      document.removeEventListener("click", start, true);
      document.removeEventListener("touchend", start, true);
      video.play().then(function () { status("video"); })
        .catch(function () { status("none"); });
    }
    document.addEventListener("click", start, true);
    document.addEventListener("touchend", start, true);
  }
  document.addEventListener("DOMContentLoaded", keepAwake);

  // A question typed into a search box before htmx was listening (a slow phone, a page still
  // loading) is asked once it is: htmx sets itself up on DOMContentLoaded, before this runs,
  // and takes the box's value then as already seen (so an "input" would not count as changed);
  // the search forms also listen to "search", the event of pressing Enter in the box.
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll('input[type="search"]').forEach(function (box) {
      if (box.value !== box.defaultValue) box.dispatchEvent(new Event("search", {bubbles: true}));
    });
  });

  // Press and hold on a +/- button (data-hold, from the m.act macro: the level in the header,
  // the gear bonus, the cards in hand). A tap is one step, as any button. Held for HOLD_MS, the
  // value on screen steps on every STEP_MS, as far as the engine accepts (asked once per hold:
  // GET .../reach), and on release the final value goes once, as one change (one undo). The
  // click that follows a hold is swallowed. Pointer events: touch, pen and mouse alike.
  var HOLD_MS = 450, STEP_MS = 160, hold = null, swallow = null, held = null;
  function holdButton(e) {
    return e.target && e.target.closest && e.target.closest("button[data-hold]");
  }
  function holdValue(h) {  // the value on screen after h.steps steps
    var n = h.base + h.steps * h.step;
    return h.format === "signed" && n >= 0 ? "+" + n : String(n);
  }
  function holdPaint() {
    if (!hold || !hold.steps) return;
    var shows = document.querySelector(hold.button.getAttribute("data-hold-shows"));
    if (shows) shows.textContent = holdValue(hold);
  }
  function holdStep() {
    if (!hold || hold.steps >= hold.most) return;
    hold.steps += 1;
    holdPaint();
    if (navigator.vibrate) try { navigator.vibrate(8); } catch (err) { /* not allowed */ }
  }
  function holdStart() {
    var h = hold;
    h.active = true;
    h.button.classList.add("holding");
    var query = new URLSearchParams();
    new FormData(h.form).forEach(function (value, name) {
      if (typeof value === "string" && name !== "csrf_token") query.append(name, value);
    });
    query.set("_field", h.field);
    query.set("_step", String(h.step));
    fetch(h.form.getAttribute("action").replace(/\/act$/, "/reach") + "?" + query, {cache: "no-store"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) {
        if (hold !== h || !answer) return;
        h.most = Math.max(answer.steps, 1);  // the first step shows anyway: a tap's refusal explains it
        if (h.steps > h.most) { h.steps = h.most; holdPaint(); }
      }, function () { /* cut off: it steps on; the change waits or is refused as any tap */ });
    holdStep();  // the first step at once, then one every STEP_MS
    h.timer = setInterval(holdStep, STEP_MS);
  }
  function holdEnd(send) {
    var h = hold;
    if (!h) return;
    hold = null;
    clearTimeout(h.timer);
    clearInterval(h.timer);
    h.button.classList.remove("holding");
    if (!h.active) return;  // a tap: its click sends one step, as ever
    swallow = h.button;
    setTimeout(function () { if (swallow === h.button) swallow = null; }, 800);
    var shows = document.querySelector(h.button.getAttribute("data-hold-shows"));
    if (send && h.steps) {
      held = {form: h.form, field: h.field, value: String(h.first + (h.steps - 1) * h.step)};
      try { h.form.requestSubmit(h.button); } finally { held = null; }
      // On its way, the answer redraws the number; kept for later (cut off) or not sent, the
      // screen shows the value as it is until then.
      if (h.form.classList.contains("htmx-request")) sentHold = {form: h.form, shows: shows, shown: h.shown};
      else if (shows) shows.textContent = h.shown;
    } else if (shows) {
      shows.textContent = h.shown;
    }
  }
  var sentHold = null;
  document.addEventListener("htmx:afterRequest", function (e) {  // refused, or lost on the way
    var sent = sentHold, status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (!sent || e.detail.elt !== sent.form) return;
    sentHold = null;
    if ((status < 200 || status >= 300) && sent.shows) sent.shows.textContent = sent.shown;
  });
  document.addEventListener("pointerdown", function (e) {
    var b = holdButton(e);
    swallow = null;
    if (!b || b.disabled || !e.isPrimary || e.button !== 0 || !b.form) return;
    var input = b.form.querySelector('input[name="' + b.getAttribute("data-hold") + '"]');
    var shows = document.querySelector(b.getAttribute("data-hold-shows"));
    if (!input || !shows) return;
    holdEnd(false);
    var step = Number(b.getAttribute("data-hold-step")) || 1;
    hold = {button: b, form: b.form, field: input.name, first: Number(input.value), step: step,
            base: parseInt(shows.textContent.replace("\u2212", "-"), 10) || 0, shown: shows.textContent,
            format: b.getAttribute("data-hold-format"), steps: 0, most: Infinity, active: false};
    try { b.setPointerCapture(e.pointerId); } catch (err) { /* an old browser: pointerup still comes */ }
    hold.timer = setTimeout(holdStart, HOLD_MS);
  });
  document.addEventListener("pointerup", function () { holdEnd(true); });
  document.addEventListener("pointercancel", function () { holdEnd(false); });
  // A long press must not open the phone's menu (or select the label) instead of repeating.
  document.addEventListener("contextmenu", function (e) { if (holdButton(e)) e.preventDefault(); });
  document.addEventListener("click", function (e) {
    var b = holdButton(e);
    if (!b || b !== swallow) return;
    swallow = null;
    e.preventDefault();
    e.stopImmediatePropagation();
  }, true);
  // The change a hold sends: its final value in place of the button's one step.
  document.addEventListener("htmx:configRequest", function (e) {
    if (held && e.detail.elt === held.form) e.detail.parameters[held.field] = held.value;
  });
  // Another phone's change redraws the header meanwhile: the held value stays on screen.
  document.addEventListener("htmx:afterSwap", holdPaint);

  // The ask-the-rules box opens folded in the top bar: opened, the cursor is in it (a phone
  // shows its keyboard). "toggle" does not bubble, hence the capturing listener.
  document.addEventListener("toggle", function (e) {
    var box = e.target;
    if (box.id !== "ask" || !box.open) return;
    var q = box.querySelector("input[type=search]");
    if (q) q.focus();
  }, true);
  document.addEventListener("keydown", function (e) {  // Escape folds it again
    var box = e.key === "Escape" && e.target.closest && e.target.closest("#ask[open]");
    if (!box) return;
    box.open = false;
    box.querySelector("summary").focus();
  });

  // A tap that cannot be taken back easily asks first (data-confirm on the button or form).
  document.addEventListener("submit", function (event) {
    var button = event.submitter, form = event.target;
    var question = (button && button.getAttribute("data-confirm")) || form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
})();
