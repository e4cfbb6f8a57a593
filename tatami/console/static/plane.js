// A 2-D plane in SVG: linear x and y scales over a domain, a box drawn by dragging, a Z plan's
// cells, and points. The places map (longitude x latitude over a land outline) and the orders
// chart (date x total) are both planes.

const NS = "http://www.w3.org/2000/svg";
const PAD = { left: 44, right: 8, top: 8, bottom: 22 };

function svg(tag, attrs = {}) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

export function plane({ x, y, width, height, xTicks = [], yTicks = [], xLabel = String, yLabel = String, testid }) {
  const root = svg("svg", { class: "plane", viewBox: `0 0 ${width} ${height}`, width, height, "data-testid": testid });
  const inner = { w: width - PAD.left - PAD.right, h: height - PAD.top - PAD.bottom };
  const toX = (v) => PAD.left + ((v - x[0]) / (x[1] - x[0])) * inner.w;
  const toY = (v) => PAD.top + (1 - (v - y[0]) / (y[1] - y[0])) * inner.h;
  const fromX = (px) => x[0] + ((px - PAD.left) / inner.w) * (x[1] - x[0]);
  const fromY = (py) => y[0] + (1 - (py - PAD.top) / inner.h) * (y[1] - y[0]);
  const layers = Object.fromEntries(["background", "grid", "context", "cells", "points", "box"].map((name) => {
    const layer = svg("g", { class: `layer-${name}` });
    root.append(layer);
    return [name, layer];
  }));
  for (const tick of xTicks) {
    layers.grid.append(svg("line", { class: "grid", x1: toX(tick), x2: toX(tick), y1: PAD.top, y2: PAD.top + inner.h }));
    const text = svg("text", { class: "axis", x: toX(tick), y: height - 6, "text-anchor": "middle" });
    text.textContent = xLabel(tick);
    layers.grid.append(text);
  }
  for (const tick of yTicks) {
    layers.grid.append(svg("line", { class: "grid", x1: PAD.left, x2: PAD.left + inner.w, y1: toY(tick), y2: toY(tick) }));
    const text = svg("text", { class: "axis", x: PAD.left - 4, y: toY(tick) + 3, "text-anchor": "end" });
    text.textContent = yLabel(tick);
    layers.grid.append(text);
  }
  const clamp = (v, [low, high]) => Math.min(high, Math.max(low, v));
  const rect = (a0, a1, b0, b1, cls) => {
    const [x0, x1, y0, y1] = [clamp(a0, x), clamp(a1, x), clamp(b0, y), clamp(b1, y)];
    return svg("rect", {
      class: cls, x: toX(Math.min(x0, x1)), y: toY(Math.max(y0, y1)),
      width: Math.abs(toX(x1) - toX(x0)), height: Math.abs(toY(y1) - toY(y0)),
    });
  };

  const api = {
    element: root, layers, toX, toY, inner, pad: PAD,
    // A box [x0, x1, y0, y1]; x0 > x1 wraps around (the antimeridian), drawn as two rectangles.
    showBox(box) {
      layers.box.replaceChildren();
      if (!box) return;
      const [x0, x1, y0, y1] = box;
      const parts = x0 <= x1 ? [[x0, x1]] : [[x0, x[1]], [x[0], x1]];
      for (const [a, b] of parts) layers.box.append(rect(a, b, y0, y1, "box"));
    },
    showCells(cells) {
      layers.cells.replaceChildren(...cells.map(([x0, x1, y0, y1]) => rect(x0, x1, y0, y1, "cell")));
    },
    showPoints(points, layer = "points", radius = 2.2) {
      layers[layer].replaceChildren(...points.map(([px, py]) => svg("circle", { class: layer === "points" ? "point" : "context", cx: toX(px), cy: toY(py), r: radius })));
    },
    addPoints(points) {
      layers.points.append(...points.map(([px, py]) => svg("circle", { class: "point", cx: toX(px), cy: toY(py), r: 2.2 })));
    },
    // Calls back with [x0, x1, y0, y1] (x0 < x1, y0 < y1) once a drag ends.
    onBox(callback) {
      let start = null;
      const at = (event) => {
        const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(root.getScreenCTM().inverse());
        return [clamp(fromX(point.x), x), clamp(fromY(point.y), y)];
      };
      root.addEventListener("pointerdown", (event) => { start = at(event); root.setPointerCapture(event.pointerId); });
      root.addEventListener("pointermove", (event) => {
        if (!start) return;
        const [px, py] = at(event);
        api.showBox([Math.min(start[0], px), Math.max(start[0], px), Math.min(start[1], py), Math.max(start[1], py)]);
      });
      root.addEventListener("pointerup", (event) => {
        if (!start) return;
        const [px, py] = at(event);
        const box = [Math.min(start[0], px), Math.max(start[0], px), Math.min(start[1], py), Math.max(start[1], py)];
        start = null;
        if (box[1] - box[0] > 0 && box[3] - box[2] > 0) callback(box);
      });
    },
  };
  return api;
}
