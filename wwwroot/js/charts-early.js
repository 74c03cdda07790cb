// On pages with charts (App.razor adds it to /runs/… and /compare): starts loading plotly.js at once, while the Blazor
// circuit starts and the page's data loads, instead of when the first chart is rendered (issue #36, time to the first
// chart). It asks Plotly.Blazor's own module for the script element Plotly.Blazor itself would add (same id and address,
// from Chart.razor), so the charts find it loaded or loading and wait for that one.
(() => {
  const { module, id, src } = document.currentScript.dataset;
  import(new URL(module, document.baseURI).href)
    .then(plotly => plotly.importScript(id, src))
    .catch(e => console.warn('charts-early.js: plotly.js will load with the first chart', e));
})();
