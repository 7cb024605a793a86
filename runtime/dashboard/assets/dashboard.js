// The live page: renders the snapshot served in the page, then each one
// the master pushes (/events). No library, nothing from outside.
"use strict";

const token = new URLSearchParams(location.search).get("token");
const query = token ? "?token=" + encodeURIComponent(token) : "";
const palette = ["#4a90d9", "#e4a13a", "#59a95a", "#a66bbf", "#d9584a",
                 "#3fb5b0", "#8c7b62", "#c76aa1"];
const colours = new Map();

function colour(op) {
  if (!colours.has(op)) colours.set(op, palette[colours.size % palette.length]);
  return colours.get(op);
}

function cell(row, text, cls) {
  const td = row.insertCell();
  td.textContent = text;
  if (cls) td.className = cls;
}

function seconds(s) {
  if (s === null || s === undefined) return "?";
  if (s < 60) return s.toFixed(1) + " s";
  return Math.floor(s / 60) + " min " + Math.round(s % 60) + " s";
}

// Queue wait is shown to the 0.01 s: local and ssh waits are that small.
function waitText(h) {
  if (h.queue_wait_mean_s === null || h.queue_wait_mean_s === undefined) {
    return "-";
  }
  const fmt = (s) => (s < 60 ? s.toFixed(2) + " s" : seconds(s));
  return fmt(h.queue_wait_mean_s) + " / " + fmt(h.queue_wait_last_s);
}

function render(state) {
  const status = document.getElementById("status");
  status.textContent = state.status;
  status.className = state.status;
  const fraction = state.submitted ? state.finished / state.submitted : 0;
  document.getElementById("bar").style.width = (100 * fraction) + "%";
  document.getElementById("summary").textContent =
      state.finished + " of " + state.submitted + " tasks finished in " +
      seconds(state.elapsed_s) +
      (state.eta_s !== null ? "; about " + seconds(state.eta_s) + " left" : "");

  const ops = document.querySelector("#operations tbody");
  ops.replaceChildren();
  for (const o of state.operations) {
    const row = ops.insertRow();
    row.dataset.operation = o.operation;
    cell(row, o.operation);
    for (const k of ["waiting", "running", "done", "reused", "failed",
                     "futile", "cancelled"]) {
      cell(row, o[k], k);
    }
  }

  const hosts = document.querySelector("#hosts tbody");
  hosts.replaceChildren();
  for (const h of state.hosts) {
    const row = hosts.insertRow();
    row.dataset.host = h.host;
    cell(row, h.host);
    cell(row, h.state, h.state);
    // Running: in a slot; queued: sent ahead (prefetch), waiting on the
    // host for one. Slots: the host's, else the most seen busy at once.
    cell(row, h.running, "running");
    cell(row, h.queued, "queued");
    cell(row, h.slots !== null && h.slots !== undefined ? h.slots
                                                        : h.slots_seen,
         "slots");
    cell(row, h.jobs);
    cell(row, h.ok);
    cell(row, h.infra, "infra");
    cell(row, h.distrust, "distrust");
    cell(row, waitText(h), "queue-wait");
    cell(row, h.why);
  }

  drawStream(state);

  const failures = document.getElementById("failures");
  failures.replaceChildren();
  for (const f of state.failures) {
    const li = document.createElement("li");
    li.textContent = f.operation + " #" + f.task + " on " + f.host + ": " +
        f.error + (f.log_dir ? " (logs: " + f.log_dir + ")" : "");
    failures.appendChild(li);
  }
}

// A tick every 1, 2 or 5 times a power of ten seconds: about 8 in `span`.
function tickStep(span) {
  const raw = span / 8;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5]) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}

function svgText(ns, x, y, text, cls) {
  const t = document.createElementNS(ns, "text");
  t.setAttribute("x", x);
  t.setAttribute("y", y);
  t.setAttribute("class", cls);
  t.textContent = text;
  return t;
}

// One lane per host and slot (the lanes the master chose, at most the
// host's slots), labelled "host · slot k"; each attempt a bar from its
// start to its end; below, a time axis in seconds since the run started.
function drawStream(state) {
  const svg = document.getElementById("stream");
  const ns = "http://www.w3.org/2000/svg";
  const lanes = new Map();
  for (const a of state.stream) lanes.set(a.host + "/" + a.slot, a);
  const keys = [...lanes.keys()].sort((x, y) => {
    const a = lanes.get(x), b = lanes.get(y);
    return a.host < b.host ? -1 : a.host > b.host ? 1 : a.slot - b.slot;
  });
  const row = new Map(keys.map((k, i) => [k, i]));
  const rowHeight = 14, labelWidth = 160, width = 900, axisHeight = 24;
  const plot = width - labelWidth - 10;
  const axisY = 2 + keys.length * rowHeight + 2;
  svg.setAttribute("height", axisY + axisHeight);
  svg.replaceChildren();
  const span = Math.max(state.elapsed_s, 0.001);
  const x = (t) => labelWidth + plot * t / span;
  for (const k of keys) {
    const a = lanes.get(k);
    svg.appendChild(svgText(ns, labelWidth - 6,
                            2 + row.get(k) * rowHeight + rowHeight - 4,
                            a.host + " \u00b7 slot " + (a.slot + 1),
                            "lane-label"));
  }
  for (const a of state.stream) {
    const r = document.createElementNS(ns, "rect");
    r.setAttribute("x", x(a.start));
    r.setAttribute("width", Math.max(1, plot * (a.end - a.start) / span));
    r.setAttribute("y", 2 + row.get(a.host + "/" + a.slot) * rowHeight);
    r.setAttribute("height", rowHeight - 2);
    r.setAttribute("fill", a.outcome === "ok" ? colour(a.operation) : "#222");
    const title = document.createElementNS(ns, "title");
    title.textContent = a.operation + " #" + a.task + " on " + a.host +
        " (" + a.outcome + ")";
    r.appendChild(title);
    svg.appendChild(r);
  }
  const axis = document.createElementNS(ns, "g");
  axis.setAttribute("class", "time-axis");
  const line = document.createElementNS(ns, "line");
  line.setAttribute("x1", x(0));
  line.setAttribute("x2", x(span));
  line.setAttribute("y1", axisY);
  line.setAttribute("y2", axisY);
  axis.appendChild(line);
  const step = tickStep(span);
  const digits = step < 1 ? Math.ceil(-Math.log10(step)) : 0;
  for (let i = 0; i * step <= span + 1e-9; ++i) {
    const t = i * step;
    const tick = document.createElementNS(ns, "line");
    tick.setAttribute("x1", x(t));
    tick.setAttribute("x2", x(t));
    tick.setAttribute("y1", axisY);
    tick.setAttribute("y2", axisY + 4);
    axis.appendChild(tick);
    axis.appendChild(svgText(ns, x(t), axisY + 16, t.toFixed(digits) + " s",
                             "tick"));
  }
  svg.appendChild(axis);
}

// The server puts the snapshot of the moment into the page itself, so the
// first render needs no request.
if (window.gsrtInitial) render(window.gsrtInitial);
const events = new EventSource("events" + query);
events.onmessage = (e) => render(JSON.parse(e.data));
events.onerror = () => {
  const status = document.getElementById("status");
  if (status.textContent === "running") status.textContent = "disconnected";
};
