// The orders' Z index (date x total x status) on a chart: every order as a grey dot, a box dragged
// over date and total (and a status) searched through GET /orders/search with EXPLAIN, the chosen
// plan's Z ranges drawn as cells over the box, the matching orders in red.
import { getJSON, h } from "./dom.js";
import { plane } from "./plane.js";
import { searchPanel } from "./search.js";

const DAY = 86_400_000;
const STATUSES = ["", "PENDING", "ORDERED", "IN_TRANSIT", "DELIVERED"];

export async function render(root) {
  const all = await everyOrder();
  const times = all.map((order) => Date.parse(order.OrderDate));
  const first = times.length ? Math.min(...times) : Date.now();
  const last = Math.max(...times, first + 1);
  const pad = Math.max(60_000, (last - first) * 0.05);
  const x = [first - pad, last + pad];
  const y = [0, Math.max(100, ...all.map((order) => order.Total)) * 1.05];
  const chart = plane({
    x, y, width: 900, height: 420, testid: "orders-chart",
    xTicks: ticks(x, 8), yTicks: ticks(y, 6),
    xLabel: (v) => new Date(v).toISOString().slice(x[1] - x[0] > 2 * DAY ? 5 : 11, x[1] - x[0] > 2 * DAY ? 10 : 19),
    yLabel: (v) => Math.round(v),
  });
  chart.showPoints(all.map((order) => [Date.parse(order.OrderDate), order.Total]), "context", 2);
  const status = h("select", { name: "status" }, STATUSES.map((s) => h("option", { value: s }, s || "any status")));
  const panel = searchPanel({
    plane: chart, path: "/orders/search", table: "orders", axes: ["OrderDate", "Total"],
    point: (order) => [Date.parse(order.OrderDate), order.Total],
    columns: [["order", (o) => o.OrderId], ["customer", (o) => o.CustomerId], ["date", (o) => o.OrderDate],
      ["status", (o) => o.Status], ["total", (o) => o.Total, "num"]],
  });
  let box = null;
  const search = () => {
    const params = new URLSearchParams();
    if (box) {
      params.set("from", new Date(box[0]).toISOString());
      params.set("to", new Date(box[1]).toISOString());
      params.set("total_min", box[2].toFixed(2));
      params.set("total_max", box[3].toFixed(2));
    }
    if (status.value) params.set("status", status.value);
    chart.showBox(box);
    return panel.search(params);
  };
  status.addEventListener("change", search);
  chart.onBox((drawn) => { box = drawn; search(); });
  root.append(
    h("h2", {}, `Orders: ${all.length} orders by date and total; drag a box to search the Z index`),
    h("div", { class: "controls" }, h("label", {}, "status", status)),
    h("div", { class: "row" }, chart.element, panel.element));
}

// Every order through the same search route (no bounds: the optimizer picks a Scan), page by page.
async function everyOrder() {
  const found = [];
  let next = null;
  do {
    const params = new URLSearchParams({ limit: "1000" });
    if (next) params.set("next", next);
    const page = await getJSON(`/orders/search?${params}`);
    found.push(...page.items);
    next = page.next;
  } while (next && found.length < 5000);
  return found;
}

function ticks([low, high], count) {
  const step = (high - low) / count;
  return Array.from({ length: count - 1 }, (_, n) => low + step * (n + 1));
}
