// Bytes a page of the dashboard transfers (what Chromium's network panel calls "transferred": headers + encoded body)
// and the uncompressed size, per resource and in total, in Debian's Chromium; see docs/web.md "Page weight".
//   node scripts/page-weight.js URL [width]
const path = require('path');
const fs = require('fs');
const root = path.join(__dirname, '..', 'tests', 'Web.Tests', 'bin');
const pkg = ['Release', 'Debug'].map(c => path.join(root, c, 'net10.0', '.playwright', 'package')).find(p => fs.existsSync(p))
  ?? [path.join(require('os').homedir(), '.nuget', 'packages', 'microsoft.playwright', '1.64.1', '.playwright', 'package')].find(p => fs.existsSync(p));
if (!pkg) { console.error('build tests/Web.Tests first (dotnet build)'); process.exit(2); }
const { chromium } = require(pkg);
const [url, width = '1280'] = process.argv.slice(2);
(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const rows = new Map();
  cdp.on('Network.responseReceived', e => rows.set(e.requestId, { url: e.response.url, encoding: (e.response.headers['content-encoding'] || e.response.headers['Content-Encoding'] || ''), transferred: 0, size: 0 }));
  cdp.on('Network.dataReceived', e => { const r = rows.get(e.requestId); if (r) r.size += e.dataLength; });
  cdp.on('Network.loadingFinished', e => { const r = rows.get(e.requestId); if (r) r.transferred = e.encodedDataLength; });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(3000);
  let t = 0, s = 0;
  for (const r of rows.values()) {
    if (r.url.startsWith('data:')) continue;
    t += r.transferred; s += r.size;
    console.log(`${String(r.transferred).padStart(10)} ${String(r.size).padStart(10)} ${r.encoding.padEnd(5)} ${r.url}`);
  }
  console.log(`${String(t).padStart(10)} ${String(s).padStart(10)}       total (transferred, uncompressed bytes)`);
  await browser.close();
})().catch(e => { console.error(e.message); process.exit(1); });
