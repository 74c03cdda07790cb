'use strict';
// The driver protocol (docs/driver-protocol.md) against an in-test AspNetHttpJson-like echo server:
// exact counts, outcomes by kind (wrong reply, fault, timeout, refused, server gone), byte counts, cancel,
// end of input and SIGINT. Run: node --test test/   (after npm ci)

const { test, describe, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');
const { startDriver, samples } = require('./harness');

const UDTYPE_JSON = '{"byteValue":255,"shortValue":32767,"intValue":2147483647,"longValue":9223372036854775807,'
  + '"floatValue":3.4028235E+38,"doubleValue":1.7976931348623157E+308,"decimalValue":79228162514264337593543950335,"boolValue":true}';

/**
 * An echo server in the shape of the aspnet JSON variant: POST /{Operation}, the `value` property's text back.
 * `mode` per server: echo, wrong (long.MaxValue - 1, equal as a double), fault (500), slow (answers late),
 * dies (closes every connection and stops listening after `dieAfter` requests).
 * Records each exchange's bytes as the server's socket saw them.
 */
async function startServer(mode, options = {}) {
  const exchanges = [];
  const sockets = new Set();
  let served = 0;
  const server = http.createServer((req, res) => {
    const socket = req.socket;
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const operation = req.url.slice(1);
      const record = { operation, inBytes: socket.bytesRead - (socket.markRead || 0), outBytes: 0 };
      socket.markRead = socket.bytesRead;
      res.on('finish', () => {
        record.outBytes = socket.bytesWritten - (socket.markWritten || 0);
        socket.markWritten = socket.bytesWritten;
        exchanges.push(record);
      });
      if (operation === 'EmptyMethod') { res.statusCode = 204; res.end(); return; }
      served++;
      if (mode === 'dies' && served > options.dieAfter) {
        server.close();
        for (const s of sockets) s.destroy();
        return;
      }
      const value = /^\{"value":([\s\S]*)\}$/.exec(body);
      let reply = value ? value[1] : '';
      if (mode === 'wrong') reply = reply.replace('9223372036854775807', '9223372036854775806');
      if (mode === 'fault') { res.statusCode = 500; res.end('boom'); return; }
      const send = () => { res.setHeader('content-type', 'application/json'); res.end(reply); };
      if (mode === 'slow') setTimeout(send, options.delayMs); else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    exchanges,
    close: () => new Promise((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}

function job(port, payload, timeoutMs = 10_000) {
  return {
    type: 'job', protocol: 1, payload, timeoutMs, credentials: null, caCertificate: null,
    endpoint: { name: 'AspNetHttpJson', stack: 'aspnet', address: `http://127.0.0.1:${port}/`, transport: 'HTTP/1.1', encoding: 'JSON (System.Text.Json)', securityMode: 'None', credentialType: 'None', wsdl: null },
  };
}

const level = (index, clients, warmup, requests, durationMs = null) => ({ type: 'level', index, clients, warmup, requests, durationMs });

/** Starts the driver on a job and waits for `ready`. */
async function ready(jobRecord) {
  const d = startDriver();
  d.send(jobRecord);
  const first = await d.waitFor(['ready', 'fail']);
  assert.equal(first.kind, 'ready', `expected ready, got ${first.line} ${d.stderr}`);
  const info = JSON.parse(first.data);
  assert.equal(info.driver, 'node');
  return d;
}

/** Sends a level and returns its samples and its level record. */
async function runLevel(d, record) {
  const from = d.records.length;
  d.send(record);
  const end = await d.waitFor(['level', 'fail'], from);
  assert.equal(end.kind, 'level', `expected level, got ${end.line} ${d.stderr}`);
  return { samples: samples(d.records, from), level: JSON.parse(end.data) };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const outcomes = (list) => list.reduce((a, s) => { a[s.outcome] = (a[s.outcome] || 0) + 1; return a; }, {});

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

describe('node driver, AspNetHttpJson against an echo server', () => {
  let echo;
  before(async () => { echo = await startServer('echo'); });
  after(async () => { await echo.close(); });

  test('counts are exact per level, warm-up flagged, every reply right, bytes as the server saw them', async () => {
    const d = await ready(job(echo.port, 'Int'));
    for (const [index, clients] of [[0, 1], [1, 4]]) {
      echo.exchanges.length = 0;
      const { samples: list, level: lv } = await runLevel(d, level(index, clients, 3, 20));
      assert.equal(list.length, clients * 23);
      assert.deepEqual(outcomes(list), { 0: clients * 23 });
      assert.equal(list.filter((s) => s.warmup === 1).length, clients * 3);
      for (let c = 0; c < clients; c++) assert.equal(list.filter((s) => s.client === c).length, 23);
      assert.deepEqual(lv, { index, clients, startedUnixMs: lv.startedUnixMs, elapsedUs: lv.elapsedUs, cancelled: false });
      assert.ok(lv.elapsedUs > 0 && Math.abs(lv.startedUnixMs - Date.now()) < 60_000);
      const last = Math.max(...list.map((s) => s.startUs + s.latencyUs));
      assert.ok(lv.elapsedUs >= last - 1, `elapsedUs ${lv.elapsedUs} covers the last end ${last}`);
      const served = echo.exchanges.filter((x) => x.operation === 'IntSimple');
      assert.equal(served.length, clients * 23);
      for (const s of list) {
        assert.equal(s.requestBytes, served[0].inBytes);
        assert.equal(s.responseBytes, served[0].outBytes);
      }
    }
    d.end();
    assert.equal((await d.exited).code, 0);
  });

  test('UDType with long.MaxValue and decimal.MaxValue is checked exactly', async () => {
    const d = await ready(job(echo.port, 'UDType'));
    const { samples: list } = await runLevel(d, level(0, 2, 1, 10));
    assert.deepEqual(outcomes(list), { 0: 22 });
    d.end();
    assert.equal((await d.exited).code, 0);
  });

  test('a duration-bound level stops starting requests after the duration', async () => {
    const d = await ready(job(echo.port, 'String1'));
    const { samples: list, level: lv } = await runLevel(d, level(0, 2, 2, null, 300));
    assert.ok(list.filter((s) => s.warmup === 0).length > 0);
    assert.equal(list.filter((s) => s.warmup === 1).length, 4);
    assert.equal(lv.cancelled, false);
    for (let c = 0; c < 2; c++) {
      const own = list.filter((s) => s.client === c);
      const measuredStart = own.find((s) => s.warmup === 0).startUs;
      const lastWarmupEnd = Math.max(...own.filter((s) => s.warmup === 1).map((s) => s.startUs + s.latencyUs));
      for (const s of own.filter((x) => x.warmup === 0)) assert.ok(s.startUs - lastWarmupEnd < 300_000 + 5_000, 'no request starts after the duration');
      assert.ok(measuredStart >= lastWarmupEnd - 1);
    }
    d.end();
    assert.equal((await d.exited).code, 0);
  });

  test('cancel keeps the samples taken, writes level cancelled, and the driver goes on', async () => {
    const d = await ready(job(echo.port, 'Int'));
    const from = d.records.length;
    d.send(level(0, 3, 0, 10_000_000));
    await sleep(500);
    d.send({ type: 'cancel' });
    const end = await d.waitFor(['level'], from);
    const lv = JSON.parse(end.data);
    assert.equal(lv.cancelled, true);
    const taken = samples(d.records, from);
    assert.ok(taken.length > 0 && taken.every((s) => s.outcome === 0));
    const next = await runLevel(d, level(1, 2, 0, 5));
    assert.equal(next.samples.length, 10);
    assert.equal(next.level.cancelled, false);
    d.end();
    assert.equal((await d.exited).code, 0);
  });

  test('end of input mid-level: samples, level cancelled, exit 0', async () => {
    const d = await ready(job(echo.port, 'Int'));
    d.send(level(0, 2, 0, null, 60_000));
    await sleep(500);
    d.end();
    const end = await d.waitFor(['level']);
    assert.equal(JSON.parse(end.data).cancelled, true);
    assert.ok(samples(d.records).length > 0);
    assert.equal((await d.exited).code, 0);
  });

  test('SIGINT mid-level: samples, level cancelled, exit 130', async () => {
    const d = await ready(job(echo.port, 'Int'));
    d.send(level(0, 2, 0, null, 60_000));
    await sleep(500);
    d.child.kill('SIGINT');
    const end = await d.waitFor(['level']);
    assert.equal(JSON.parse(end.data).cancelled, true);
    assert.ok(samples(d.records).length > 0);
    assert.equal((await d.exited).code, 130);
  });
});

describe('node driver, outcomes by kind', () => {
  test('a reply that differs only beyond 2^53 is a wrong reply (6)', async () => {
    const server = await startServer('wrong');
    try {
      const d = await ready(job(server.port, 'UDType'));
      const { samples: list } = await runLevel(d, level(0, 2, 1, 5));
      assert.deepEqual(outcomes(list), { 6: 12 });
      d.end();
      assert.equal((await d.exited).code, 0);
    } finally {
      await server.close();
    }
  });

  test('an HTTP error status is a fault (2)', async () => {
    const server = await startServer('fault');
    try {
      const d = await ready(job(server.port, 'Int'));
      const { samples: list } = await runLevel(d, level(0, 1, 0, 5));
      assert.deepEqual(outcomes(list), { 2: 5 });
      d.end();
      assert.equal((await d.exited).code, 0);
    } finally {
      await server.close();
    }
  });

  test('a reply later than timeoutMs is a timeout (1)', async () => {
    const server = await startServer('slow', { delayMs: 1500 });
    try {
      const d = await ready(job(server.port, 'Int', 200));
      const { samples: list } = await runLevel(d, level(0, 1, 0, 2));
      assert.deepEqual(outcomes(list), { 1: 2 });
      assert.ok(list.every((s) => s.latencyUs >= 190_000 && s.latencyUs < 1_400_000));
      d.end();
      assert.equal((await d.exited).code, 0);
    } finally {
      await server.close();
    }
  });

  test('a server that goes away mid-level gives connection samples (3); counts stay exact', async () => {
    const server = await startServer('dies', { dieAfter: 5 });
    try {
      const d = await ready(job(server.port, 'Int'));
      const { samples: list } = await runLevel(d, level(0, 2, 0, 20));
      assert.equal(list.length, 40);
      const kinds = outcomes(list);
      assert.equal(kinds[0], 5);
      assert.equal(kinds[3], 35);
      d.end();
      assert.equal((await d.exited).code, 0);
    } finally {
      await server.close();
    }
  });

  test('a refused connection fails the cell: fail record, exit 1', async () => {
    const port = await freePort();
    const d = await ready(job(port, 'Int'));
    d.send(level(0, 2, 1, 5));
    const end = await d.waitFor(['fail', 'level']);
    assert.equal(end.kind, 'fail');
    assert.match(JSON.parse(end.data).message, /ECONNREFUSED/);
    assert.equal((await d.exited).code, 1);
  });

  test('a job line that is not understood: exit 2; an unsupported variant: fail, exit 1', async () => {
    let d = startDriver();
    d.send('not json');
    assert.equal((await d.exited).code, 2);
    d = startDriver();
    const j = job(1, 'Int');
    j.endpoint.name = 'AspNetH2BinXml';
    d.send(j);
    const end = await d.waitFor(['fail', 'ready']);
    assert.equal(end.kind, 'fail');
    assert.equal((await d.exited).code, 1);
  });
});
