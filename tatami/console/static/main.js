// The console's shell: one view at a time, chosen by the URL's hash (#tables, #places, ...).
import { getJSON, h, showError } from "./dom.js";

const views = {
  tables: () => import("./tables.js"),
  places: () => import("./places.js"),
  orders: () => import("./orders.js"),
  traffic: () => import("./traffic.js"),
  operations: () => import("./operations.js"),
};

async function show() {
  const name = location.hash.slice(1).split("/")[0] || "tables";
  const root = document.getElementById("view");
  root.replaceChildren();
  root.dataset.view = name;
  root.dataset.ready = "false";
  for (const link of document.querySelectorAll("nav a")) link.classList.toggle("active", link.hash === `#${name}`);
  try {
    const view = await (views[name] || views.tables)();
    await view.render(root);
  } catch (error) {
    showError(root, error);
  }
  root.dataset.ready = "true";
  if (!performance.getEntriesByName("console-ready").length) performance.mark("console-ready"); // the first view, drawn
}

getJSON("/console/api/overview").then((overview) => {
  document.getElementById("mode").textContent = `${overview.name}${overview.api_url ? ` · ${overview.api_url}` : ""}`;
}, (error) => showError(document.getElementById("view"), error));
window.addEventListener("hashchange", show);
show();
