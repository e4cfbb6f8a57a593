// Small helpers every view uses: build elements, fetch JSON, format numbers and tables.

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// A library's own browser build (a classic script defining a global), loaded once, when a view needs it.
const loaded = new Map();
export function library(name) {
  if (!loaded.has(name)) {
    loaded.set(name, new Promise((resolve, reject) => {
      const src = `/console/vendor/${name}`;
      const node = name.endsWith(".css") ? h("link", { rel: "stylesheet", href: src }) : h("script", { src });
      node.addEventListener("load", resolve);
      node.addEventListener("error", () => reject(new Error(`could not load ${src}`)));
      document.head.append(node);
    }));
  }
  return loaded.get(name);
}

export async function getJSON(url) {
  return answer(await fetch(url));
}

export async function postJSON(url, body) {
  return answer(await fetch(url, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } }));
}

async function answer(response) {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message || `${response.status} ${response.statusText}`);
  return body;
}

export function fmt(value, digits = 1) {
  if (value === null || value === undefined) return "–";
  if (typeof value !== "number") return String(value);
  return value.toLocaleString("en-US", { maximumFractionDigits: Number.isInteger(value) ? 0 : digits });
}

export function pct(share) {
  return `${Math.round(share * 100)}%`;
}

// A table from column specs: [header, row => value, "num"?]
export function grid(columns, rows, rowAttrs = () => ({})) {
  return h("table", {},
    h("thead", {}, h("tr", {}, columns.map(([title, , kind]) => h("th", { class: kind }, title)))),
    h("tbody", {}, rows.map((row) => h("tr", rowAttrs(row),
      columns.map(([, value, kind]) => h("td", { class: kind }, cell(value(row))))))));
}

function cell(value) {
  return value instanceof Node ? value : fmt(value);
}

// A table or index name without its stack's prefix: `Tatami-PlacesTable410DAFB6 places-z` -> `PlacesTable410DAFB6 places-z`.
export function short(name) {
  return String(name).replace(/^[A-Za-z0-9]+-/, "");
}

export function showError(root, error) {
  root.append(h("p", { class: "error", role: "alert" }, error.message));
}
