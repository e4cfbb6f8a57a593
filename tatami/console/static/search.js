// A search through the API with explain=true, drawn on a plane: the results as points, the chosen Z
// plan's ranges as cells over the box, EXPLAIN beside it (every candidate: estimate; the chosen one:
// actual too), and the API's `next` to page on. Places and orders use it alike.
import { fmt, getJSON, grid, h, postJSON, showError } from "./dom.js";

export function searchPanel({ plane, path, table, axes, point, columns, limit = 200 }) {
  const status = h("div", { "data-testid": "search-status" });
  const explain = h("div", { "data-testid": "explain" });
  const results = h("div", { class: "scroll", "data-testid": "results" });
  const more = h("button", { disabled: true, "data-testid": "search-next" }, "next page");
  const element = h("section", {}, h("div", { class: "controls" }, more), status, explain, results);
  let query = null;
  let next = null;
  let found = [];

  async function page() {
    const params = new URLSearchParams(query);
    params.set("explain", "true");
    params.set("limit", String(limit));
    if (next) params.set("next", next);
    status.replaceChildren(h("p", { class: "muted" }, "searching…"));
    let body;
    try {
      body = await getJSON(`${path}?${params}`);
    } catch (error) {
      status.replaceChildren();
      showError(status, error);
      return null;
    }
    const first = !next;
    next = body.next;
    more.disabled = !next;
    found = first ? body.items : found.concat(body.items);
    (first ? plane.showPoints : plane.addPoints)(body.items.map(point));
    status.replaceChildren(summary(body, found.length, Boolean(next)));
    explain.replaceChildren(explainTable(body));
    results.replaceChildren(grid(columns, found.slice(0, 500)));
    if (first) await drawCells(body);
    return body;
  }

  async function drawCells(body) {
    const chosen = (body.plan || []).find((row) => row.chosen);
    if (!chosen || !chosen.ranges) return plane.showCells([]);
    const answer = await postJSON("/console/api/zcells", { table, index: chosen.index, ranges: chosen.ranges, axes });
    plane.showCells(answer.cells);
    if (answer.omitted) status.append(h("p", { class: "muted" }, `${fmt(answer.omitted)} smaller blocks of the ranges not drawn`));
  }

  more.addEventListener("click", page);
  return {
    element,
    // Start a new search with these API parameters (a URLSearchParams); resolves to its first page.
    search(params) {
      query = params;
      next = null;
      return page();
    },
  };
}

function summary(body, total, more) {
  const s = body.stats;
  return h("div", { class: "facts" },
    h("span", {}, h("b", {}, "plan "), s.plan || "–"),
    h("span", {}, h("b", {}, "returned "), `${fmt(s.items_returned)} (${fmt(total)} so far${more ? ", more to come" : ", the end"})`),
    h("span", {}, h("b", {}, "read "), fmt(s.items_read)),
    h("span", {}, h("b", {}, "Queries "), fmt(s.queries)),
    h("span", {}, h("b", {}, "read units "), fmt(s.consumed_rcu)),
    h("span", {}, h("b", {}, "index lag "), `${fmt(s.index_lag_seconds)} s`));
}

function explainTable(body) {
  const actual = body.stats;
  const rows = body.plan || [];
  const mine = (row, key) => (row.chosen ? actual[key] : null);
  return h("div", {},
    h("h3", {}, "EXPLAIN: every candidate plan, cheapest first (actual figures: this page of the chosen one)"),
    grid([
      ["plan", (row) => `${row.chosen ? "* " : ""}${row.plan}`],
      ["est. read", (row) => row.estimate.items_read, "num"],
      ["read", (row) => mine(row, "items_read"), "num"],
      ["est. returned", (row) => row.estimate.items_returned, "num"],
      ["returned", (row) => mine(row, "items_returned"), "num"],
      ["est. Queries", (row) => row.estimate.queries, "num"],
      ["Queries", (row) => mine(row, "queries"), "num"],
      ["est. RCU", (row) => row.estimate.consumed_rcu, "num"],
      ["RCU", (row) => mine(row, "consumed_rcu"), "num"],
      ["cost", (row) => row.cost, "num"],
      ["ranges", (row) => (row.ranges ? row.ranges.length : null), "num"],
    ], rows, (row) => ({ class: row.chosen ? "chosen" : null })));
}
