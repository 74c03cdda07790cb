'use strict';
// Drives driver.js the way the runner does: the job, then each level after the previous `level` record,
// then end of input. Used by protocol.test.js and, from the command line, for trying the driver by hand:
//   node test/harness.js '<endpoint JSON>' PAYLOAD CLIENTS[,CLIENTS...] [WARMUP] [REQUESTS]

const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');

const DRIVER = path.join(__dirname, '..', 'driver.js');

/** Starts the driver; returns helpers to send records and await the records it writes. */
function startDriver() {
  const child = spawn(process.execPath, [DRIVER], { stdio: ['pipe', 'pipe', 'pipe'] });
  const records = [];
  const waiters = [];
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const rl = readline.createInterface({ input: child.stdout });
  rl.on('line', (line) => {
    const space = line.indexOf(' ');
    const record = { kind: space < 0 ? line : line.slice(0, space), data: space < 0 ? '' : line.slice(space + 1), line };
    records.push(record);
    for (const w of [...waiters]) if (w.test(record)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(record); }
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    records,
    exited,
    get stderr() { return stderr; },
    send(obj) { child.stdin.write((typeof obj === 'string' ? obj : JSON.stringify(obj)) + '\n'); },
    end() { child.stdin.end(); },
    /** The first record (from now on, or already written) of one of the kinds. */
    waitFor(kinds, from = 0) {
      const test = (r) => kinds.includes(r.kind);
      const found = records.slice(from).find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
  };
}

/** Parses the `s` records written since `from`. */
function samples(records, from = 0) {
  return records.slice(from).filter((r) => r.kind === 's').map((r) => {
    const f = r.data.split(' ').map(Number);
    return { client: f[0], startUs: f[1], latencyUs: f[2], outcome: f[3], warmup: f[4], requestBytes: f[5], responseBytes: f[6] };
  });
}

async function cli() {
  const [endpointJson, payload, clientList, warmup = '5', requests = '200'] = process.argv.slice(2);
  const endpoint = JSON.parse(endpointJson);
  const d = startDriver();
  d.send({ type: 'job', protocol: 1, endpoint, payload, timeoutMs: 30000, credentials: null, caCertificate: null });
  const first = await Promise.race([d.waitFor(['ready', 'fail']), d.exited.then((e) => ({ kind: 'exit', data: JSON.stringify(e) }))]);
  console.log(`${first.kind} ${first.data}`);
  if (first.kind !== 'ready') { d.end(); console.log((await d.exited), d.stderr.trim()); return; }
  let index = 0;
  for (const clients of clientList.split(',').map(Number)) {
    const from = d.records.length;
    d.send({ type: 'level', index, clients, warmup: Number(warmup), requests: Number(requests), durationMs: null });
    const end = await Promise.race([d.waitFor(['level', 'fail'], from), d.exited.then(() => ({ kind: 'exit', data: '' }))]);
    if (end.kind !== 'level') { console.log(`${end.kind} ${end.data}`); break; }
    const level = JSON.parse(end.data);
    const all = samples(d.records, from);
    const measured = all.filter((s) => s.warmup === 0);
    const outcomes = {};
    for (const s of all) outcomes[s.outcome] = (outcomes[s.outcome] || 0) + 1;
    const sorted = measured.map((s) => s.latencyUs).sort((a, b) => a - b);
    const firstStart = Math.min(...measured.map((s) => s.startUs));
    const lastEnd = Math.max(...measured.map((s) => s.startUs + s.latencyUs));
    const rate = measured.length / ((lastEnd - firstStart) / 1e6);
    const avg = (k) => Math.round(measured.reduce((a, s) => a + s[k], 0) / measured.length);
    console.log(`${endpoint.name} ${payload} clients=${clients}: samples=${all.length} (expected ${clients * (Number(warmup) + Number(requests))}) outcomes=${JSON.stringify(outcomes)} `
      + `req/s=${rate.toFixed(0)} p50=${sorted[Math.floor(sorted.length / 2)]}us p99=${sorted[Math.floor(sorted.length * 0.99)]}us `
      + `reqBytes=${avg('requestBytes')} resBytes=${avg('responseBytes')} elapsedUs=${level.elapsedUs} cancelled=${level.cancelled}`);
    index++;
  }
  d.end();
  const e = await d.exited;
  console.log(`exit ${e.code}${e.signal ? ' ' + e.signal : ''}`);
}

if (require.main === module && process.argv.length > 3) cli().catch((e) => { console.error(e); process.exit(1); });

module.exports = { startDriver, samples, DRIVER };
