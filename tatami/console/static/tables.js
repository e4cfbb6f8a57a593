// Tables as the seeds draw them: keys, indexes, TTL and stream; items grouped by partition key and
// ordered by sort key (NoSQL Workbench's aggregate view), a page at a time; each index's own view.
import { getJSON, h, showError } from "./dom.js";

const MAX_COLUMNS = 8;

export async function render(root) {
  const tables = await getJSON("/console/api/tables");
  const list = h("div", { class: "list", "data-testid": "table-list" });
  const detail = h("section", { "data-testid": "table-detail" });
  root.append(h("h2", {}, `${tables.length} tables`), h("div", { class: "split" }, list, detail));
  const wanted = decodeURIComponent(location.hash.split("/")[1] || "");
  const buttons = tables.map((table) => {
    const button = h("button", { "data-table": table.name, onclick: () => choose(table, button) },
      h("div", {}, table.label), h("small", {}, keyText(table.keys)));
    return button;
  });
  list.append(...buttons);

  function choose(table, button) {
    for (const other of buttons) other.classList.toggle("active", other === button);
    history.replaceState(null, "", `#tables/${encodeURIComponent(table.name)}`);
    showTable(detail, table);
  }
  const first = tables.findIndex((table) => table.name === wanted);
  if (tables.length) choose(tables[Math.max(first, 0)], buttons[Math.max(first, 0)]);
}

function keyText(keys) {
  return keys.sort ? `${keys.partition} + ${keys.sort}` : keys.partition;
}

function showTable(root, table) {
  const facts = h("div", { class: "facts" },
    h("span", {}, h("b", {}, "table "), table.name),
    h("span", {}, h("b", {}, "partition key "), `${table.keys.partition} (${table.attributes[table.keys.partition] || "?"})`),
    table.keys.sort && h("span", {}, h("b", {}, "sort key "), `${table.keys.sort} (${table.attributes[table.keys.sort] || "?"})`),
    h("span", {}, h("b", {}, "TTL "), table.ttl || "none"),
    h("span", {}, h("b", {}, "stream "), table.stream || "none"));
  const indexes = table.indexes.length
    ? h("ul", {}, table.indexes.map((index) => h("li", {},
        `${index.local ? "LSI" : "GSI"} ${index.name}: ${keyText(index.keys)}, projection ${index.projection}`,
        index.included.length ? ` (${index.included.join(", ")})` : "")))
    : h("p", { class: "muted" }, "no secondary indexes");
  const tabs = h("div", { class: "tabs" });
  const items = h("div", { class: "scroll", "data-testid": "items" });
  root.replaceChildren(h("h2", {}, table.label), facts, h("h3", {}, "Indexes"), indexes, tabs, items);
  const views = [null, ...table.indexes.map((index) => index.name)];
  const buttons = views.map((index) => h("button", { "data-index": index || "", onclick: () => open(index) },
    index ? `index ${index}` : "table"));
  tabs.append(...buttons);

  function open(index) {
    buttons.forEach((button, n) => button.classList.toggle("active", views[n] === index));
    showItems(items, table, index, []);
  }
  open(null);
}

async function showItems(root, table, index, tokens) {
  const query = new URLSearchParams({ table: table.name, limit: "50" });
  if (index) query.set("index", index);
  if (tokens.length) query.set("next", tokens[tokens.length - 1]);
  root.replaceChildren(h("p", { class: "muted" }, "reading…"));
  let page;
  try {
    page = await getJSON(`/console/api/items?${query}`);
  } catch (error) {
    root.replaceChildren();
    showError(root, error);
    return;
  }
  const pager = h("div", { class: "controls" },
    h("button", { disabled: !tokens.length, onclick: () => showItems(root, table, index, tokens.slice(0, -1)) }, "previous page"),
    h("span", { class: "muted" }, `page ${tokens.length + 1}: ${page.count} items${index ? ` in ${index} (a sparse index holds only what it indexes)` : ""}`),
    h("button", { disabled: !page.next, "data-testid": "next-page", onclick: () => showItems(root, table, index, [...tokens, page.next]) }, "next page"));
  root.replaceChildren(pager, aggregate(page));
}

// One row per item; the partition key's cell spans its whole item collection.
function aggregate(page) {
  const { partition, sort } = page.keys;
  const others = [];
  for (const group of page.groups) for (const item of group.items)
    for (const name of Object.keys(item)) if (name !== partition && name !== sort && !others.includes(name)) others.push(name);
  const shown = others.slice(0, MAX_COLUMNS);
  const head = h("tr", {}, h("th", {}, `${partition} (partition)`), sort && h("th", {}, `${sort} (sort)`),
    shown.map((name) => h("th", {}, name)), others.length > shown.length && h("th", {}, `+${others.length - shown.length} more`));
  const rows = page.groups.flatMap((group) => group.items.map((item, n) => h("tr", {},
    n === 0 && h("td", { class: "pk", rowspan: group.items.length }, group.partition),
    sort && h("td", { class: "sk" }, item[sort] ?? ""),
    shown.map((name) => h("td", { title: item[name] ?? "" }, item[name] ?? "")),
    others.length > shown.length && h("td", {}, ""))));
  return h("table", { "data-testid": "aggregate" }, h("thead", {}, head), h("tbody", {}, rows));
}
