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
    for (const k of ["waiting", "running", "done", "failed", "futile",
                     "cancelled"]) {
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
    cell(row, h.running);
    cell(row, h.slots_seen);
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

// One row per host and slot; each attempt a bar from its start to its end.
function drawStream(state) {
  const svg = document.getElementById("stream");
  const ns = "http://www.w3.org/2000/svg";
  const rows = new Map();
  for (const a of state.stream) {
    const key = a.host + "/" + a.slot;
    if (!rows.has(key)) rows.set(key, rows.size);
  }
  const rowHeight = 14, width = 900;
  svg.setAttribute("height", Math.max(40, rows.size * rowHeight + 4));
  svg.replaceChildren();
  const span = Math.max(state.elapsed_s, 0.001);
  for (const a of state.stream) {
    const r = document.createElementNS(ns, "rect");
    r.setAttribute("x", width * a.start / span);
    r.setAttribute("width", Math.max(1, width * (a.end - a.start) / span));
    r.setAttribute("y", 2 + rows.get(a.host + "/" + a.slot) * rowHeight);
    r.setAttribute("height", rowHeight - 2);
    r.setAttribute("fill", a.outcome === "ok" ? colour(a.operation) : "#222");
    const title = document.createElementNS(ns, "title");
    title.textContent = a.operation + " #" + a.task + " on " + a.host +
        " (" + a.outcome + ")";
    r.appendChild(title);
    svg.appendChild(r);
  }
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
