import { h } from "./dom";

const SVG = "http://www.w3.org/2000/svg";
const svg = (tag: string, attrs: Record<string, string | number>) => {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
};

/**
 * Requests per day as a small bar chart, with the same figures as a table for those who do not
 * see the chart (the chart is one image with a summary as its name).
 */
export function usageChart(prefix: string, days: Array<{ date: string; requests: number }>) {
  const highest = Math.max(0, ...days.map((d) => d.requests));
  const max = Math.max(1, highest); // the scale of the bars: no division by zero
  const total = days.reduce((sum, d) => sum + d.requests, 0);
  const today = days[days.length - 1]?.requests ?? 0;
  const [width, height, gap] = [600, 160, 4];
  const bar = width / days.length;
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height + 20}`,
    class: "chart",
    role: "img",
    "aria-label":
      `Requests per day with key ${prefix}, last ${days.length} days: ` +
      `${total} in total, ${today} today.`,
  });
  days.forEach((d, i) => {
    const barHeight = Math.round((d.requests / max) * height);
    const rect = svg("rect", {
      x: i * bar + gap / 2,
      y: height - barHeight,
      width: bar - gap,
      height: Math.max(barHeight, d.requests ? 2 : 0),
    });
    const title = document.createElementNS(SVG, "title");
    title.textContent = `${d.date}: ${d.requests}`;
    rect.append(title);
    chart.append(rect);
  });
  chart.append(svg("line", { x1: 0, x2: width, y1: height, y2: height, stroke: "#4a5360" }));
  const label = svg("text", { x: 0, y: height + 16, "font-size": 12, fill: "#4a5360" });
  const span = `${days[0]?.date ?? ""} … ${days[days.length - 1]?.date ?? ""}`;
  label.textContent = `${span} (UTC days), highest ${highest}`;
  chart.append(label);
  const rows = days.map((d) => h("tr", {}, h("td", {}, d.date), h("td", {}, String(d.requests))));
  return h(
    "div",
    { class: "usage" },
    h("p", {}, `${total} requests in the last ${days.length} days, ${today} today (UTC).`),
    chart,
    h(
      "details",
      {},
      h("summary", {}, "The figures as a table"),
      h(
        "table",
        {},
        h("caption", { class: "visually-hidden" }, `Requests per day with key ${prefix}`),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, "Day (UTC)"),
            h("th", { scope: "col" }, "Requests"),
          ),
        ),
        h("tbody", {}, rows),
      ),
    ),
  );
}
