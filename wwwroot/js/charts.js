// The dashboard's one chart module: draws a ChartSpec (src/Web/Charts/ChartSpec.cs) with plotly.js,
// which App.razor loads from lib/plotly (copied from npm at build time).

const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

function traces(spec) {
  return spec.series.map((s, i) => {
    const errors = new Set(s.errorPoints ?? []);
    const color = palette[i % palette.length];
    return {
      type: 'scatter',
      mode: s.x.length > 200 ? 'lines' : 'lines+markers',
      name: s.name,
      x: s.x,
      y: s.y,
      text: s.text ?? undefined,
      hovertemplate: s.text ? '%{text}<extra>%{fullData.name}</extra>' : undefined,
      line: { dash: s.dash ?? 'solid', color, width: 2 },
      marker: {
        color,
        size: s.x.map((_, j) => errors.has(j) ? 11 : 6),
        symbol: s.x.map((_, j) => errors.has(j) ? 'x' : 'circle'),
      },
      connectgaps: false,
      visible: s.hidden ? 'legendonly' : true,
    };
  });
}

// Legend rows below the plot (two entries per row, roughly): the legend sits at the bottom of the whole figure
// (yref 'container') and the bottom margin makes room for it, so it never covers the x-axis title.
function legendRows(spec) {
  return Math.ceil(spec.series.length / 2);
}

function layout(spec) {
  let title = `<b>${spec.title}</b>`;
  let lines = 0;
  if (spec.subtitle) { title += `<br><span style="font-size:12px;color:#5f6368">${spec.subtitle}</span>`; lines++; }
  if (spec.note) { title += `<br><span style="font-size:12px;color:#b00020">${spec.note}</span>`; lines++; }
  return {
    title: { text: title, font: { size: 15 }, x: 0.02, xanchor: 'left' },
    xaxis: { title: { text: spec.xTitle }, zeroline: false, automargin: true },
    yaxis: { title: { text: spec.yTitle }, type: spec.logY ? 'log' : 'linear', rangemode: spec.logY || !spec.zeroY ? undefined : 'tozero', automargin: true },
    margin: { l: 60, r: 20, t: 50 + (lines * 18), b: 60 + (legendRows(spec) * 19) },
    legend: { orientation: 'h', x: 0, yref: 'container', y: 0, yanchor: 'bottom', font: { size: 11 } },
    hovermode: 'closest',
    paper_bgcolor: 'rgba(0,0,0,0)',
    plot_bgcolor: '#fff',
    font: { family: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  };
}

const config = { responsive: true, displaylogo: false, toImageButtonOptions: { format: 'png', scale: 2 } };

export function render(element, spec) {
  if (!window.Plotly) {
    element.textContent = 'plotly.js did not load (lib/plotly/plotly.min.js): build src/Web to copy it from npm.';
    return;
  }
  element.dataset.series = String(spec.series.length);
  element.style.height = `${360 + (legendRows(spec) * 19)}px`;
  window.Plotly.react(element, traces(spec), layout(spec), config);
}

export function download(element, format, fileName) {
  if (window.Plotly && element.data) {
    window.Plotly.downloadImage(element, { format, filename: fileName, width: 1200, height: 700 });
  }
}

export function purge(element) {
  if (window.Plotly && element) {
    window.Plotly.purge(element);
  }
}
