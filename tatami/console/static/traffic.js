// Traffic and capacity: the units each table and index consumed per second (what the local cloud
// recorded), their hottest keys, and the capacity model's replay at a chosen scale (what
// `tatami local insights --scale N` prints, drawn).
import { fmt, getJSON, grid, h, library, pct, short } from "./dom.js";

const COLORS = ["#1f6feb", "#c4320a", "#067647", "#7a5af8", "#dc6803", "#0e9384", "#c11574", "#667085"];

export async function render(root) {
  await Promise.all([library("uPlot.iife.min.js"), library("uPlot.min.css")]);
  const scale = h("input", { type: "number", min: "0.1", step: "any", value: "50", name: "scale" });
  const body = h("div");
  const go = h("button", { "data-testid": "replay", onclick: () => load() }, "replay");
  root.append(h("h2", {}, "Traffic the local cloud recorded, and would it throttle in AWS?"),
    h("div", { class: "controls" }, h("label", {}, "replay at scale ×", scale), go), body);

  async function load() {
    body.replaceChildren(h("p", { class: "muted" }, "replaying through the capacity model…"));
    const found = await getJSON(`/console/api/traffic?scale=${encodeURIComponent(scale.value)}`);
    body.replaceChildren();
    if (found.unavailable) {
      body.append(h("p", {}, found.unavailable));
      return;
    }
    if (!found.calls) {
      body.append(h("p", { "data-testid": "no-traffic" }, "No DynamoDB traffic recorded yet: use the API, then come back."));
      return;
    }
    body.append(
      h("p", {}, `${fmt(found.calls)} calls over ${fmt(found.seconds / 60)} min from ${found.sources.join(", ")}`),
      h("h3", {}, "Consumed units per second, per table and index"),
      unitsChart(found.spaces),
      h("h3", {}, "Hottest keys (flags: the replay throttles on that key's partition)"),
      h("div", { class: "row", "data-testid": "hot-keys" }, found.spaces.map(hotKeys)),
      replay(found.replay));
  }
  await load();
}

function unitsChart(spaces) {
  const seconds = [...new Set(spaces.flatMap((space) => space.per_second.map(([second]) => second)))].sort((a, b) => a - b);
  const data = [seconds, ...spaces.map((space) => {
    const byTime = new Map(space.per_second);
    return seconds.map((second) => byTime.get(second) ?? 0);
  })];
  return chart(data, spaces.map((space) => short(space.name)), "units/s");
}

function chart(data, names, unit) {
  const holder = h("div", { class: "chart" });
  const options = {
    width: 880, height: 220,
    scales: { x: { time: false } },
    legend: { live: false },
    axes: [{ label: "seconds" }, { label: unit }],
    series: [{ label: "second" }, ...names.map((name, n) => ({ label: name, stroke: COLORS[n % COLORS.length], width: 1.2 }))],
  };
  new window.uPlot(options, data, holder);
  return holder;
}

function hotKeys(space) {
  return h("div", {},
    h("h3", {}, `${short(space.name)} (${fmt(space.keys_total)} keys, ${fmt(space.units)} units)`),
    grid([
      ["key", (k) => k.key], ["write u", (k) => k.write_units, "num"], ["read u", (k) => k.read_units, "num"],
      ["calls", (k) => k.calls, "num"], ["peak/s", (k) => k.peak, "num"], ["share", (k) => pct(k.share), "num"],
      ["", (k) => (k.flag ? h("span", { class: "flag" }, k.flag) : "")],
    ], space.keys));
}

function replay(found) {
  const section = h("section", { "data-testid": "replay-result" },
    h("h2", {}, `The capacity model at ×${found.scale}: ${found.capacity}, ${fmt(found.seconds)} s simulated`),
    h("p", { "data-testid": "verdict" }, h("b", {}, found.verdict)),
    grid([
      ["partition", (p) => short(p.name)], ["keys", (p) => p.keys, "num"], ["hottest key", (p) => p.top_key],
      ["share", (p) => pct(p.top_share), "num"], ["peak", (p) => pct(p.peak), "num"],
      ["throttled units", (p) => p.throttled, "num"], ["throttled s", (p) => p.throttled_seconds, "num"],
    ], found.partitions));
  for (const space of found.series) {
    const seconds = space.accepted.map((_, n) => n);
    section.append(h("h3", {}, `${short(space.name)} at ×${found.scale}`), chart([seconds, space.accepted, space.throttled], ["accepted", "throttled"], "units/s"));
  }
  return section;
}
