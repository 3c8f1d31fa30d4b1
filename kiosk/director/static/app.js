// The director's pages, made live. Each page works without this script (it reloads itself); with
// it, one stream of server-sent events per page brings each change as soon as the log is read:
//   board / hall: the page's live part, replaced whole ("board", "hall"); the time of each read
//   ("read"); judges' page: "log" when a challenge arrives, and the list is fetched again.
// The page's title and icon say its problems, so a page in a background tab still shows them; on
// the board, a new problem also sounds once the director has switched the sound on (a browser
// plays nothing before a click on the page).
"use strict";
(function () {
  const body = document.body;
  const stream = body.dataset.stream;
  const live = document.getElementById("live");
  const lost = document.getElementById("lost");
  const asOf = () => document.getElementById("as-of");

  function after() {
    const state = document.getElementById("state");
    if (state) {
      document.title = state.dataset.title;
      const icon = document.getElementById("icon");
      if (icon) icon.href = "static/" + (state.dataset.problems !== "0" ? "problem" : "ok") + ".svg";
      newProblems(state);
    }
    ages();
    if (stream === "hall") showTurn();
  }

  // A station that becomes a problem sounds two short tones (a station that recovers and fails
  // again is new again); the problems on screen when the page opens do not. body.dataset.chimed
  // counts the chimes (the tests read it: a headless browser has no loudspeaker).
  const sound = document.getElementById("sound");
  let soundOn = false;
  let audio = null;
  let known = null;
  function newProblems(state) {
    let names = [];
    try { names = JSON.parse(state.dataset.problemNames || "[]"); } catch (error) { return; }
    const fresh = known === null ? [] : names.filter((name) => !known.has(name));
    known = new Set(names);
    if (fresh.length && soundOn) chime();
  }
  function chime() {
    body.dataset.chimed = String(Number(body.dataset.chimed || "0") + 1);
    try {
      audio = audio || new AudioContext();
      const start = audio.currentTime + 0.05;
      [880, 660].forEach((hertz, index) => {
        const tone = audio.createOscillator();
        const loudness = audio.createGain();
        const at = start + index * 0.2;
        tone.frequency.value = hertz;
        loudness.gain.setValueAtTime(0.25, at);
        loudness.gain.exponentialRampToValueAtTime(0.001, at + 0.18);
        tone.connect(loudness).connect(audio.destination);
        tone.start(at);
        tone.stop(at + 0.19);
      });
    } catch (error) { /* no sound here: the title and the icon still say it */ }
  }
  if (sound && stream === "board") {
    sound.hidden = false;
    sound.addEventListener("click", () => {
      soundOn = !soundOn;
      sound.setAttribute("aria-pressed", String(soundOn));
      sound.textContent = "Sound for a new problem: " + (soundOn ? "on" : "off");
      if (soundOn) {
        try { audio = audio || new AudioContext(); audio.resume().catch(() => {}); } catch (error) { /* none */ }
      }
    });
  }

  // "not seen for 40 s", counted here from the moment the page was sent, so that the live part
  // changes only when the log does.
  function ages() {
    const now = Date.now() / 1000;
    for (const element of document.querySelectorAll(".ago[data-since]")) {
      const since = Number(element.dataset.since);
      if (!since) continue;
      const seconds = Math.max(0, Math.floor(now - since));
      element.textContent = seconds < 120 ? seconds + " s"
        : seconds < 7200 ? Math.floor(seconds / 60) + " min" : Math.floor(seconds / 3600) + " h";
    }
  }

  // The hall: one division at a time, each for a few seconds, when there is more than one; a
  // division with a new challenge (its count for the day changed) comes at once, for a whole turn.
  let turn = 0;
  let turns = null;
  function todayByDivision() {
    const found = new Map();
    for (const division of document.querySelectorAll("#hall-divisions .division")) {
      found.set(division.dataset.division, division.dataset.today || "");
    }
    return found;
  }
  function changedDivision(before) {
    const divisions = [...document.querySelectorAll("#hall-divisions .division")];
    return divisions.findIndex((division) => before.has(division.dataset.division)
      && before.get(division.dataset.division) !== (division.dataset.today || ""));
  }
  function nextTurnsFromNow() {
    if (turns !== null) clearInterval(turns);
    turns = setInterval(() => { turn += 1; showTurn(); }, 1000 * Number(live.dataset.turnS || 12));
  }
  function showTurn() {
    const divisions = document.querySelectorAll("#hall-divisions .division");
    if (!divisions.length) return;
    turn = turn % divisions.length;
    divisions.forEach((division, index) => division.classList.toggle("current", index === turn));
  }
  if (stream === "hall" && live) {
    const current = [...document.querySelectorAll("#hall-divisions .division")]
      .findIndex((division) => division.classList.contains("current"));
    turn = Math.max(0, current);
    nextTurnsFromNow();
  }

  // The judges' page: the list again when a challenge arrives; the lock waits while a judge works.
  let fetching = false;
  let again = false;
  async function rows() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const query = new URLSearchParams(location.search);
      query.set("auto", "1");  // not the judge's doing: it does not keep the page open
      const answer = await fetch("challenges/rows?" + query.toString(), { credentials: "same-origin" });
      if (answer.status === 401 || answer.status === 403) { location.reload(); return; }  // locked
      if (answer.ok) document.getElementById("rows").innerHTML = await answer.text();
    } catch (error) {
      if (lost) lost.hidden = false;
    } finally {
      fetching = false;
      if (again) { again = false; rows(); }
    }
  }
  const AWAKE_EVERY_MS = 15000;
  let lastAwake = Date.now();
  function awake() {
    if (Date.now() - lastAwake < AWAKE_EVERY_MS) return;
    lastAwake = Date.now();
    const form = document.querySelector("input[name=form]");
    if (!form) return;
    fetch("awake", { method: "POST", credentials: "same-origin",
      body: new URLSearchParams({ form: form.value }) })
      .then((answer) => { if (answer.status === 401) location.reload(); })
      .catch(() => {});
  }
  if (stream === "log") {
    for (const kind of ["keydown", "pointerdown", "pointermove", "scroll", "wheel", "touchstart", "input"]) {
      addEventListener(kind, awake, { passive: true });
    }
  }

  if (stream && typeof EventSource !== "undefined") {
    const source = new EventSource("events?view=" + stream);
    const replace = (event) => {
      if (!live) return;
      const before = stream === "hall" ? todayByDivision() : null;
      live.innerHTML = event.data;
      if (before !== null) {
        const changed = changedDivision(before);
        if (changed >= 0) { turn = changed; nextTurnsFromNow(); }
      }
      after();
    };
    source.addEventListener("board", replace);
    source.addEventListener("hall", replace);
    source.addEventListener("log", () => { if (stream === "log") rows(); });
    source.addEventListener("read", (event) => {
      const time = asOf();
      if (time) time.textContent = event.data;
      if (lost) lost.hidden = true;
    });
    source.addEventListener("error", () => { if (lost) lost.hidden = false; });
  }
  setInterval(ages, 1000);
  after();
})();
