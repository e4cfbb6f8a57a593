// Z search on a world map: draw a box (or type bounds, a population range too), the places it holds
// as points, the chosen plan's Z ranges as cells, EXPLAIN beside it; page on with the API's `next`.
import { h, library } from "./dom.js";
import { plane } from "./plane.js";
import { searchPanel } from "./search.js";

const FIELDS = ["latitude_min", "latitude_max", "longitude_min", "longitude_max", "population_min", "population_max"];

export async function render(root) {
  const map = plane({
    x: [-180, 180], y: [-90, 90], width: 900, height: 454, testid: "map",
    xTicks: [-120, -60, 0, 60, 120], yTicks: [-60, -30, 0, 30, 60],
    xLabel: (v) => `${v}°`, yLabel: (v) => `${v}°`,
  });
  await drawLand(map);
  const inputs = Object.fromEntries(FIELDS.map((name) => [name, h("input", { name, type: "number", step: "any" })]));
  const panel = searchPanel({
    plane: map, path: "/places/search", table: "places", axes: ["longitude", "latitude"],
    point: (item) => [item.longitude, item.latitude],
    columns: [["id", (p) => p.id], ["name", (p) => p.name], ["country", (p) => p.country], ["latitude", (p) => p.latitude, "num"],
      ["longitude", (p) => p.longitude, "num"], ["population", (p) => p.population, "num"]],
  });
  const go = h("button", { "data-testid": "search", onclick: () => search() }, "search");
  root.append(
    h("h2", {}, "Places: drag a box on the map, or type bounds"),
    h("div", { class: "controls" }, FIELDS.map((name) => h("label", {}, name, inputs[name])), go),
    h("div", { class: "row" }, map.element, panel.element));

  function search() {
    const params = new URLSearchParams();
    for (const name of FIELDS) if (inputs[name].value !== "") params.set(name, inputs[name].value);
    const value = (name, fallback) => (inputs[name].value === "" ? fallback : Number(inputs[name].value));
    map.showBox([value("longitude_min", -180), value("longitude_max", 180), value("latitude_min", -90), value("latitude_max", 90)]);
    return panel.search(params);
  }
  map.onBox(([x0, x1, y0, y1]) => {
    inputs.longitude_min.value = x0.toFixed(3);
    inputs.longitude_max.value = x1.toFixed(3);
    inputs.latitude_min.value = y0.toFixed(3);
    inputs.latitude_max.value = y1.toFixed(3);
    search();
  });
}

// The land outline from world-atlas, drawn with d3-geo's equirectangular projection fitted to the
// plane, so longitude and latitude stay linear (the plane's scales).
async function drawLand(map) {
  await library("d3-array.min.js"); // d3-geo's UMD build reads d3-array's global
  await Promise.all([library("d3-geo.min.js"), library("topojson-client.min.js")]);
  const topology = await (await fetch("/console/vendor/land-110m.json")).json();
  const land = window.topojson.feature(topology, topology.objects.land);
  const projection = window.d3.geoEquirectangular()
    .scale(map.inner.w / (2 * Math.PI))
    .translate([map.pad.left + map.inner.w / 2, map.pad.top + map.inner.h / 2]);
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("class", "land");
  path.setAttribute("d", window.d3.geoPath(projection)(land));
  map.layers.background.append(path);
}
