// Page weight and time to charts of dashboard pages, side by side for several running dashboards, in Debian's Chromium
// (Playwright's node package as the Microsoft.Playwright NuGet package ships it; no browser is downloaded).
// Every load is cold (a new browser context: no cache, no service worker), the dashboards take turns load by load.
//   node bench/page-load.js --site before=http://localhost:24080 --site after=http://localhost:24081 \
//        --page home=/ --page run=/runs/1 --charts run [--loads 5] [--width 1280]
// Per site and page it prints:
//   - page weight: bytes transferred over HTTP (headers + body as served, i.e. compressed when the server compressed it)
//     and uncompressed, by kind (document, script, stylesheet, font, other), with the content encodings seen, and the
//     bytes the server pushed over the Blazor circuit's WebSocket until the page was complete (not HTTP; listed apart);
//   - time to charts: from navigation start to the first chart drawn (a Plotly graph with a drawn trace, ms), and to
//     every chart of the page drawn (the count stable for 1.5 s), median, min and max over the loads.
const path = require('path');
const fs = require('fs');
const os = require('os');

const pkg = [
  ...['Release', 'Debug'].map(c => path.join(__dirname, '..', 'tests', 'Web.Tests', 'bin', c, 'net10.0', '.playwright', 'package')),
  path.join(os.homedir(), '.nuget', 'packages', 'microsoft.playwright', '1.64.1', '.playwright', 'package'),
].find(p => fs.existsSync(p));
if (!pkg) { console.error('page-load.js: no Playwright package; build tests/Web.Tests first (dotnet build)'); process.exit(2); }
const { chromium } = require(pkg);

const sites = [], pages = [], charted = new Set(), tokens = {};
let loads = 5, width = 1280;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const [name, value] = (argv[i + 1] || '').split(/=(.*)/s);
  if (argv[i] === '--site') { sites.push({ name, url: value.replace(/\/$/, '') }); i++; }
  else if (argv[i] === '--token') { tokens[name] = value; i++; }
  else if (argv[i] === '--page') { pages.push({ name, path: value }); i++; }
  else if (argv[i] === '--charts') { charted.add(argv[++i]); }
  else if (argv[i] === '--loads') { loads = Number(argv[++i]); }
  else if (argv[i] === '--width') { width = Number(argv[++i]); }
  else { console.error(`page-load.js: unknown argument ${argv[i]}`); process.exit(2); }
}
if (sites.length === 0 || pages.length === 0 || !(loads > 0)) {
  console.error('usage: node bench/page-load.js --site NAME=URL ... [--token NAME=API_TOKEN ...] --page NAME=PATH ... [--loads N] [--width PX]');
  process.exit(2);
}

// Records, in the page, when the first and the last Plotly trace appeared (performance.now(): ms since navigation start).
const probe = () => {
  window.__charts = { first: null, last: null, count: 0 };
  const look = () => {
    const n = document.querySelectorAll('.js-plotly-plot').length;
    const drawn = [...document.querySelectorAll('.js-plotly-plot')].filter(g => g.querySelector('g.trace, g.point, path.js-line')).length;
    if (drawn > 0 && window.__charts.first === null) window.__charts.first = performance.now();
    if (drawn > window.__charts.count) { window.__charts.count = drawn; window.__charts.last = performance.now(); }
    window.__charts.graphs = n;
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true });
};

const kindOf = type => ({ Document: 'document', Script: 'script', Stylesheet: 'stylesheet', Font: 'font' })[type] ?? 'other';

async function load(browser, site, page) {
  // A dashboard with accounts (docs/security.md) answers its pages only to a signed-in user or an API token.
  const extraHTTPHeaders = tokens[site.name] ? { Authorization: `Bearer ${tokens[site.name]}` } : {};
  const context = await browser.newContext({ viewport: { width, height: 900 }, extraHTTPHeaders });
  const tab = await context.newPage();
  await tab.addInitScript(probe);
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const rows = new Map();
  let socket = 0;
  cdp.on('Network.responseReceived', e => rows.set(e.requestId, {
    url: e.response.url, kind: kindOf(e.type), encoding: e.response.headers['content-encoding'] || e.response.headers['Content-Encoding'] || '', transferred: 0, size: 0,
  }));
  cdp.on('Network.dataReceived', e => { const r = rows.get(e.requestId); if (r) r.size += e.dataLength; });
  cdp.on('Network.loadingFinished', e => { const r = rows.get(e.requestId); if (r) r.transferred = e.encodedDataLength; });
  cdp.on('Network.webSocketFrameReceived', e => { socket += e.response.opcode === 2 ? Math.floor(e.response.payloadData.length * 3 / 4) : Buffer.byteLength(e.response.payloadData); });
  await tab.goto(site.url + page.path, { waitUntil: 'load', timeout: 120000 });
  // Complete: no new chart for 1.5 s after the last one (a page given with --charts waits up to 120 s for its first;
  // another page is complete after 3 s without one), and the network quiet.
  const deadline = Date.now() + 120000;
  let last = -1, since = Date.now();
  for (;;) {
    const c = await tab.evaluate(() => window.__charts);
    if (c.count !== last) { last = c.count; since = Date.now(); }
    const quiet = Date.now() - since > (c.count > 0 ? 1500 : charted.has(page.name) ? 120000 : 3000);
    if (quiet || Date.now() > deadline) break;
    await tab.waitForTimeout(100);
  }
  await tab.waitForLoadState('networkidle');
  const charts = await tab.evaluate(() => window.__charts);
  const status = (await tab.evaluate(() => document.title)) || '';
  await context.close();
  return { rows: [...rows.values()].filter(r => !r.url.startsWith('data:')), socket, charts, title: status };
}

const kb = b => `${(b / 1024).toFixed(1)} KB`;
const median = xs => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : NaN; };

(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const results = new Map();
  // One warm-up load per site and page (JIT, first database connection), not counted.
  for (const page of pages) for (const site of sites) await load(browser, site, page);
  for (let n = 0; n < loads; n++) {
    for (const page of pages) {
      for (const site of (n % 2 ? [...sites].reverse() : sites)) {
        const key = `${site.name} ${page.name}`;
        if (!results.has(key)) results.set(key, []);
        results.get(key).push(await load(browser, site, page));
      }
    }
  }
  await browser.close();

  for (const page of pages) {
    console.log(`\n== ${page.name} (${page.path}), ${width} px, ${loads} cold loads each after one warm-up load`);
    for (const site of sites) {
      const all = results.get(`${site.name} ${page.name}`);
      const one = all[all.length - 1];
      const byKind = {};
      for (const r of one.rows) {
        const k = (byKind[r.kind] ??= { transferred: 0, size: 0, count: 0, encodings: new Set() });
        k.transferred += r.transferred; k.size += r.size; k.count++; k.encodings.add(r.encoding || 'identity');
      }
      const total = one.rows.reduce((s, r) => s + r.transferred, 0), size = one.rows.reduce((s, r) => s + r.size, 0);
      console.log(`${site.name}: ${one.rows.length} requests, ${kb(total)} transferred (${kb(size)} uncompressed); circuit WebSocket ${kb(median(all.map(a => a.socket)))} (median)`);
      for (const [k, v] of Object.entries(byKind).sort()) {
        console.log(`  ${k.padEnd(10)} ${String(v.count).padStart(3)} × ${kb(v.transferred).padStart(10)} transferred, ${kb(v.size).padStart(10)} uncompressed (${[...v.encodings].join(', ')})`);
      }
      for (const r of [...one.rows].sort((a, b) => b.transferred - a.transferred).slice(0, 8)) {
        console.log(`    ${kb(r.transferred).padStart(10)} ${kb(r.size).padStart(10)} ${(r.encoding || '-').padEnd(4)} ${r.url.replace(site.url, '')}`);
      }
      const firsts = all.map(a => a.charts.first).filter(x => x !== null), lasts = all.map(a => a.charts.last).filter(x => x !== null);
      if (firsts.length) {
        console.log(`  first chart drawn: median ${median(firsts).toFixed(0)} ms (min ${Math.min(...firsts).toFixed(0)}, max ${Math.max(...firsts).toFixed(0)}) after navigation start; ` +
          `all ${one.charts.count} charts: median ${median(lasts).toFixed(0)} ms (min ${Math.min(...lasts).toFixed(0)}, max ${Math.max(...lasts).toFixed(0)})`);
      } else {
        console.log(`  no chart drawn (${one.charts.graphs ?? 0} plot elements)`);
      }
    }
  }
})().catch(e => { console.error(e.stack || e.message); process.exit(1); });
