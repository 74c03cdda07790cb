// Screenshot of a dashboard page in Debian's Chromium, for docs/ (Playwright's node package as the Microsoft.Playwright
// NuGet package ships it in the Web.Tests build output; no browser is downloaded).
//   [DASHBOARD_TOKEN=…] node scripts/screenshot.js URL OUT.png [width] [waitForText]
// DASHBOARD_TOKEN: an API token (`Dashboard.Web token create --role Viewer`) sent as a bearer header on every request.
const path = require('path');
const fs = require('fs');
const root = path.join(__dirname, '..', 'tests', 'Web.Tests', 'bin');
const pkg = ['Release', 'Debug'].map(c => path.join(root, c, 'net10.0', '.playwright', 'package')).find(p => fs.existsSync(p))
  ?? [path.join(require('os').homedir(), '.nuget', 'packages', 'microsoft.playwright', '1.64.1', '.playwright', 'package')].find(p => fs.existsSync(p));
if (!pkg) { console.error('build tests/Web.Tests first (dotnet build)'); process.exit(2); }
const { chromium } = require(pkg);
const [url, out, width = '1400', waitFor] = process.argv.slice(2);
(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const token = process.env.DASHBOARD_TOKEN;
  const page = await browser.newPage({ viewport: { width: Number(width), height: 900 }, extraHTTPHeaders: token ? { Authorization: `Bearer ${token}` } : {} });
  await page.goto(url, { waitUntil: 'networkidle' });
  if (waitFor) await page.getByText(waitFor).first().waitFor({ timeout: 60000 });
  await page.waitForTimeout(2500);
  await page.screenshot({ path: out, fullPage: true });
  await browser.close();
})().catch(e => { console.error(e.message); process.exit(1); });
