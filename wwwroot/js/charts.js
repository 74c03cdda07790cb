// The dashboard's one chart module: draws a ChartSpec (src/Web/Charts/ChartSpec.cs) with plotly.js, which App.razor
// loads from lib/plotly (copied from npm at build time), and exports it as PNG or SVG in a "for paper" style.

const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
const errorColor = '#b00020';

// Screen and paper styles: the paper style has a white background, larger fonts (≥ 14 px) and thicker lines.
const styles = {
  screen: { font: 12, title: 15, small: 12, legend: 11, axis: 13, tick: 11, line: 2, marker: 6, background: 'rgba(0,0,0,0)', rowHeight: 19 },
  paper: { font: 16, title: 22, small: 15, legend: 15, axis: 18, tick: 15, line: 2.5, marker: 8, background: '#ffffff', rowHeight: 26 },
};

function colorOf(spec) {
  const keys = new Map();
  return (s, i) => {
    if (!s.colorKey) return palette[i % palette.length];
    if (!keys.has(s.colorKey)) keys.set(s.colorKey, palette[keys.size % palette.length]);
    return keys.get(s.colorKey);
  };
}

function errorBars(s) {
  if (!s.low || !s.high) return undefined;
  const plus = s.y.map((y, j) => (y == null || s.high[j] == null ? 0 : Math.max(0, s.high[j] - y)));
  const minus = s.y.map((y, j) => (y == null || s.low[j] == null ? 0 : Math.max(0, y - s.low[j])));
  if (!plus.some(v => v > 0) && !minus.some(v => v > 0)) return undefined;
  return { type: 'data', symmetric: false, array: plus, arrayminus: minus, thickness: 1.2, width: 4, visible: true };
}

function traces(spec, style) {
  const color = colorOf(spec);
  const list = spec.series.map((s, i) => {
    const errors = new Set(s.errorPoints ?? []);
    const c = color(s, i);
    const x = s.categories ?? s.x;
    const common = {
      name: s.name,
      x,
      y: s.y,
      text: s.text ?? undefined,
      hovertemplate: s.text ? '%{text}<extra>%{fullData.name}</extra>' : undefined,
      error_y: errorBars(s),
      visible: s.hidden ? 'legendonly' : true,
    };
    if (spec.kind === 'bar') {
      return {
        ...common,
        type: 'bar',
        textposition: 'none',
        marker: {
          color: c,
          line: { color: errorColor, width: x.map((_, j) => (errors.has(j) ? 2 : 0)) },
          pattern: { shape: x.map((_, j) => (errors.has(j) ? 'x' : (s.pattern ?? ''))), fgcolor: errors.size > 0 ? errorColor : '#ffffff', fillmode: 'overlay', solidity: 0.35 },
        },
      };
    }
    return {
      ...common,
      type: 'scatter',
      mode: x.length > 60 ? 'lines' : 'lines+markers',
      line: { dash: s.dash ?? 'solid', color: c, width: style.line },
      marker: {
        color: x.map((_, j) => (errors.has(j) ? errorColor : c)),
        size: x.map((_, j) => (errors.has(j) ? style.marker + 6 : style.marker)),
        symbol: x.map((_, j) => (errors.has(j) ? 'x' : 'circle')),
      },
      connectgaps: false,
    };
  });
  // Levels with errors say so in the legend too.
  const anyErrorPoint = spec.series.some(s => (s.errorPoints ?? []).length > 0);
  const anyErrorSpan = (spec.spans ?? []).some(s => s.hasErrors);
  if (anyErrorPoint || anyErrorSpan) {
    list.push({
      type: 'scatter', mode: 'markers', x: [null], y: [null], hoverinfo: 'skip',
      name: anyErrorSpan && !anyErrorPoint ? 'level with errors (shaded red)' : 'level with errors',
      marker: { symbol: anyErrorSpan && !anyErrorPoint ? 'square' : 'x', color: anyErrorSpan && !anyErrorPoint ? 'rgba(176,0,32,0.3)' : errorColor, size: 11 },
    });
  }
  return list;
}

// Legend rows below the plot: as many entries per row as fit the width, judged by the longest name.
function legendRows(names, style, width) {
  const longest = Math.max(8, ...names.map(n => n.length));
  const perRow = Math.max(1, Math.floor((width - 40) / ((longest * style.legend * 0.6) + 50)));
  return Math.ceil(names.length / perRow);
}

// Levels on a time axis: a vertical line at each level start (solid where a new cell starts), error levels shaded red
// with a ✕, the clients at the bottom and the cell at the top. Shapes and annotations cost plotly one DOM node each,
// redrawn on every change, so lines, shading and labels are a few traces on a hidden 0..1 axis (y2). Labels that would
// overlap their neighbour are left out (the hover still names every level).
function segments(spans, pick) {
  const x = [];
  const y = [];
  for (const s of spans.filter(pick)) { x.push(s.start, s.start, null); y.push(0, 1, null); }
  return { x, y };
}

function thinned(items, textOf, fontSize, plotWidth, xmin, xmax) {
  const perUnit = plotWidth / Math.max(1e-9, xmax - xmin);
  let lastEnd = -Infinity;
  return items.map(s => {
    const text = textOf(s);
    const left = (s.start - xmin) * perUnit;
    if (!text || left < lastEnd) return '';
    lastEnd = left + (text.length * fontSize * 0.6) + 6;
    return text;
  });
}

function spanTraces(spec, style, width) {
  const spans = spec.spans ?? [];
  if (spans.length === 0) return [];
  const xs = spec.series.flatMap(s => s.x).concat(spans.map(s => s.end), spans.map(s => s.start));
  const xmin = Math.min(...xs);
  const xmax = Math.max(...xs);
  const plotWidth = Math.max(100, width - 110);
  const font = style.small - 2;
  const common = { type: 'scatter', yaxis: 'y2', showlegend: false, hoverinfo: 'skip' };
  const list = [
    { ...common, mode: 'lines', name: 'level starts', ...segments(spans, s => !s.cellStart), line: { color: '#b0bec5', width: 1, dash: 'dot' } },
    { ...common, mode: 'lines', name: 'cell starts', ...segments(spans, s => s.cellStart), line: { color: '#455a64', width: 1.5 } },
  ];
  const errors = spans.filter(s => s.hasErrors);
  if (errors.length > 0) {
    const x = [];
    const y = [];
    for (const s of errors) { x.push(s.start, s.end, s.end, s.start, s.start, null); y.push(0, 0, 1, 1, 0, null); }
    list.push({ ...common, mode: 'lines', name: 'levels with errors', x, y, fill: 'toself', fillcolor: 'rgba(176,0,32,0.12)', line: { width: 0 } });
    list.push({
      ...common, mode: 'text', name: 'errors', hoverinfo: 'text',
      x: errors.map(s => (s.start + s.end) / 2), y: errors.map(() => 0.97), text: errors.map(() => '✕'),
      textfont: { size: style.small, color: errorColor }, hovertext: errors.map(s => s.title),
    });
  }
  list.push({
    ...common, mode: 'text+markers', name: 'levels', hoverinfo: 'text',
    x: spans.map(s => s.start), y: spans.map(() => 0.0), text: thinned(spans, s => s.label, font, plotWidth, xmin, xmax),
    textposition: 'top right', textfont: { size: font, color: '#546e7a' },
    marker: { size: 6, color: 'rgba(0,0,0,0)' }, hovertext: spans.map(s => s.title),
  });
  const cells = spans.filter(s => s.cellStart);
  list.push({
    ...common, mode: 'text', name: 'cells', hoverinfo: 'text',
    x: cells.map(s => s.start), y: cells.map(() => 0.99), text: thinned(cells, s => s.title.split(',')[0], font, plotWidth, xmin, xmax),
    textposition: 'bottom right', textfont: { size: font, color: '#263238' }, hovertext: cells.map(s => s.title),
  });
  return list;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
}

function layout(spec, style, width, names) {
  let title = `<b>${escapeHtml(spec.title)}</b>`;
  let lines = 0;
  if (spec.subtitle) { title += `<br><span style="font-size:${style.small}px;color:#5f6368">${escapeHtml(spec.subtitle)}</span>`; lines++; }
  if (spec.note) { title += `<br><span style="font-size:${style.small}px;color:${errorColor}">${escapeHtml(spec.note)}</span>`; lines++; }
  const rows = legendRows(names, style, width);
  const grid = '#e6e6e6';
  return {
    title: { text: title, font: { size: style.title }, x: 0.02, xanchor: 'left' },
    xaxis: {
      title: { text: spec.xTitle, font: { size: style.axis } }, type: spec.logX ? 'log' : (spec.series.some(s => s.categories) ? 'category' : undefined), dtick: spec.logX ? 'D2' : undefined,
      zeroline: false, automargin: true, tickfont: { size: style.tick }, gridcolor: grid, linecolor: '#444', showline: true,
    },
    yaxis: {
      title: { text: spec.yTitle, font: { size: style.axis } }, type: spec.logY ? 'log' : 'linear', dtick: spec.logY ? 'D2' : undefined,
      rangemode: spec.logY || !spec.zeroY ? undefined : 'tozero', automargin: true, tickfont: { size: style.tick }, gridcolor: grid, linecolor: '#444', showline: true,
    },
    margin: { l: 70, r: 25, t: 56 + (lines * (style.small + 6)) + (style.title - 15), b: 70 + (rows * style.rowHeight) },
    legend: { orientation: 'h', x: 0, yref: 'container', y: 0, yanchor: 'bottom', font: { size: style.legend } },
    yaxis2: { overlaying: 'y', range: [0, 1], visible: false, fixedrange: true },
    barmode: 'group',
    hovermode: 'closest',
    paper_bgcolor: style.background,
    plot_bgcolor: '#ffffff',
    font: { family: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif', size: style.font, color: '#222' },
  };
}

const config = { responsive: true, displaylogo: false, toImageButtonOptions: { format: 'png', scale: 2 } };

export async function render(element, spec) {
  // One chart per task: the page stays responsive while a page full of charts is drawn.
  await new Promise(resolve => setTimeout(resolve, 0));
  if (!window.Plotly) {
    element.textContent = 'plotly.js did not load (lib/plotly/plotly.min.js): build src/Web to copy it from npm.';
    return;
  }
  element.dashSpec = spec;
  const data = traces(spec, styles.screen);
  const width = element.clientWidth || 600;
  element.dataset.series = String(spec.series.length);
  const names = data.map(t => t.name);
  element.style.height = `${360 + (legendRows(names, styles.screen, width) * styles.screen.rowHeight)}px`;
  window.Plotly.react(element, data.concat(spanTraces(spec, styles.screen, width)), layout(spec, styles.screen, width, names), config);
}

// The figure in the paper style at width × height pixels, as a data URL (format 'png' or 'svg').
export async function paperImage(element, format, width, height) {
  const spec = element.dashSpec;
  if (!window.Plotly || !spec) return null;
  const data = traces(spec, styles.paper);
  const names = data.map(t => t.name);
  const figure = { data: data.concat(spanTraces(spec, styles.paper, width)), layout: { ...layout(spec, styles.paper, width, names), width, height }, config: { staticPlot: true } };
  return window.Plotly.toImage(figure, { format, width, height, scale: 1 });
}

// Downloads the figure in the paper style as fileName.png / fileName.svg, width × height pixels.
export async function download(element, format, fileName, width, height) {
  const url = await paperImage(element, format, width, height);
  if (!url) return;
  const blob = await (await fetch(url)).blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = `${fileName}.${format}`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10000);
}

export function purge(element) {
  if (window.Plotly && element) {
    window.Plotly.purge(element);
  }
}
