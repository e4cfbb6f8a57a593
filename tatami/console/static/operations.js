// Operations: stream backlogs and the index lag, failure queues (what is parked and why), each
// function's recent invocations, the IAM report and the template's alarms.
import { fmt, getJSON, grid, h, short } from "./dom.js";

export async function render(root) {
  const found = await getJSON("/console/api/operations");
  if (found.unavailable) {
    root.append(h("p", {}, found.unavailable));
  }
  root.append(
    h("div", { class: "controls" }, h("button", { onclick: () => { root.replaceChildren(); render(root); } }, "refresh")),
    section("Stream triggers", "streams", found.streams, [
      ["table", (s) => short(s.table)], ["function", (s) => short(s.function)],
      ["backlog", (s) => (s.running ? s.backlog_records : "not running"), "num"], ["delivered", (s) => s.records_delivered, "num"],
      ["filtered", (s) => s.records_filtered, "num"], ["discarded", (s) => s.records_discarded, "num"], ["invocations", (s) => s.invocations, "num"],
    ]),
    section("Index lag", "index-lag", found.index_lag, [
      ["indexed table", (t) => t.table], ["entries", (t) => t.entries, "num"],
      ["last batch (s ago)", (t) => t.last_batch_seconds_ago, "num"], ["lag (s)", (t) => t.lag_seconds, "num"],
    ]),
    queues(found.queues || []),
    section("Functions: recent invocations", "functions", found.functions, [
      ["function", (f) => short(f.function)], ["invocations", (f) => f.count, "num"], ["errors", (f) => f.errors, "num"],
      ["median ms", (f) => f.median_ms, "num"], ["max ms", (f) => f.max_ms, "num"],
      ["max memory MB", (f) => (f.max_memory_used_mb === null ? null : `${f.max_memory_used_mb} / ${f.memory_size_mb}`), "num"],
      ["last errors", (f) => f.recent.filter((i) => !i.ok).slice(0, 3).map((i) => i.error).join(", ")],
    ]),
    iam(found.iam || []),
    alarms(found.alarms));
}

function section(title, testid, rows, columns) {
  if (!rows) return null;
  return h("section", { "data-testid": testid }, h("h2", {}, title),
    rows.length ? grid(columns, rows) : h("p", { class: "muted" }, "none"));
}

function queues(found) {
  const parked = found.filter((queue) => queue.messages.length);
  return h("section", { "data-testid": "queues" }, h("h2", {}, "Failure queues"),
    found.length ? grid([
      ["queue", (q) => q.queue], ["parked", (q) => q.count, "num"], ["fed by", (q) => short(q.fed_by)],
    ], found) : h("p", { class: "muted" }, "no failure queues"),
    parked.map((queue) => h("div", { "data-queue": queue.queue },
      h("h3", {}, `parked in ${queue.queue} (the first ${queue.messages.length})`),
      grid([
        ["sent", (m) => new Date(m.sent * 1000).toISOString().replace("T", " ").slice(0, 19)],
        ["why", (m) => m.why],
        ["message", (m) => h("details", {}, h("summary", {}, "body"), h("pre", {}, JSON.stringify(m.body, null, 2)))],
      ], queue.messages))));
}

function iam(reports) {
  return h("section", { "data-testid": "iam" }, h("h2", {}, "IAM: what each function used, was refused, and was granted but never used"),
    reports.length ? grid([
      ["function", (r) => short(r.function)], ["used", (r) => r.used.length, "num"], ["refused", (r) => r.refused.length, "num"],
      ["refused calls", (r) => r.refused.map(([action]) => action).join(", ")],
      ["granted, never used", (r) => r.unused.map(([action]) => action).join(", ")],
    ], reports) : h("p", { class: "muted" }, "no IAM report yet"));
}

// The local cloud's alarm evaluator, as `tatami local alarms --all` prints it (ALARM first).
function alarms(found) {
  if (!found) return null;
  return h("section", { "data-testid": "alarms" }, h("h2", {}, `Alarms (${found.length})`),
    found.length ? grid([
      ["state", (a) => h("span", { class: `state-${a.state}` }, a.state)], ["alarm", (a) => a.name],
      ["watches", (a) => a.watches], ["why", (a) => a.reason],
    ], found) : h("p", { class: "muted" }, "The template declares no CloudWatch alarms."));
}
