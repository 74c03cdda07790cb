#!/usr/bin/env node
'use strict';
// The node client driver (docs/driver-protocol.md, version 1): reads the job and its levels from stdin,
// runs each level as a closed loop of N async clients, writes `ready`, `p` (progress, once a second), `s` (the samples taken
// so far once a second, the rest after the level), `level` and `fail` records to stdout. Everything for people goes to stderr.

const readline = require('node:readline');
const { findPayload } = require('./lib/payloads');
const fs = require('node:fs');
const { describeError } = require('./lib/outcomes');
const { findVariant, variantsOf } = require('./lib/catalogue');

const PROTOCOL = 1;
const DEFAULT_TIMEOUT_MS = 30_000;

const log = (message) => process.stderr.write(`node-driver: ${message}\n`);

// ---- output ----

/** Writes protocol text to stdout; resolves when it was handed to the pipe. */
function emit(text) {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

/** Flushes stdout, then exits with `code`. */
function exit(code) {
  process.exitCode = code;
  process.stdout.write('', () => process.exit(code));
}

async function fail(message) {
  log(message);
  await emit(`fail ${JSON.stringify({ message })}\n`);
  exit(1);
}

// ---- input ----

const state = {
  job: null,
  cell: null, // { createClient(): client with open/call/close }
  running: null, // the level in progress: { cancelled: boolean, cancel(): void }
  queue: [], // level lines waiting for the current level to end
  ended: false, // stdin closed
  interrupted: false, // SIGINT
  failed: false,
  busy: false,
};

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
const lines = [];
let lineWaiter = null;
input.on('line', (line) => {
  if (line.trim() === '') return;
  // A cancel acts at once, even while a level runs; anything else is handled in order.
  if (state.job !== null && isCancel(line)) {
    if (state.running) state.running.cancel();
    return;
  }
  lines.push(line);
  if (lineWaiter) { const w = lineWaiter; lineWaiter = null; w(); }
});
input.on('close', () => {
  state.ended = true;
  if (state.running) state.running.cancel();
  if (lineWaiter) { const w = lineWaiter; lineWaiter = null; w(); }
});

process.on('SIGINT', () => {
  state.interrupted = true;
  if (state.running) state.running.cancel();
  else exit(130);
});

function isCancel(line) {
  try {
    const record = JSON.parse(line);
    return record !== null && record.type === 'cancel';
  } catch {
    return false;
  }
}

async function nextLine() {
  while (lines.length === 0) {
    if (state.ended) return null;
    await new Promise((resolve) => { lineWaiter = resolve; });
  }
  return lines.shift();
}

// ---- the job ----

function parseJob(line) {
  let job;
  try {
    job = JSON.parse(line);
  } catch (e) {
    throw new Error(`the job line is not JSON: ${e.message}`);
  }
  if (job === null || typeof job !== 'object' || job.type !== 'job') throw new Error("the first line is not a job (type 'job')");
  if (job.protocol !== PROTOCOL) throw new Error(`protocol ${job.protocol} is not supported (this driver speaks ${PROTOCOL})`);
  const e = job.endpoint;
  if (e === null || typeof e !== 'object' || typeof e.name !== 'string' || typeof e.address !== 'string') throw new Error('the job has no endpoint with a name and an address');
  if (typeof job.payload !== 'string') throw new Error('the job has no payload id');
  if (job.timeoutMs !== undefined && job.timeoutMs !== null && !(Number.isInteger(job.timeoutMs) && job.timeoutMs > 0)) throw new Error('timeoutMs is not a positive integer');
  return job;
}

/**
 * What the job says about security (docs/security.md): `ca`, the PEM text of `caCertificate` (the only root trusted for
 * https); `userName`/`password` of a Basic or UserName credential profile and `authorization`, their Basic header;
 * `pfx`/`passphrase`, the client certificate of a certificate profile (AspNetGrpcTls only; other variants refuse it).
 */
function readSecurity(variant, job) {
  const endpoint = job.endpoint;
  const security = {};
  const https = endpoint.address.startsWith('https:');
  if (job.caCertificate) {
    try {
      security.ca = fs.readFileSync(job.caCertificate, 'utf8');
    } catch (e) {
      throw new Error(`cannot read the CA certificate ${job.caCertificate}: ${e.message}`);
    }
  } else if (https) {
    throw new Error(`${endpoint.name} uses TLS and the job gives no caCertificate (the runner's --security-dir)`);
  }
  const credentials = job.credentials;
  if (credentials && credentials.certificate) {
    // Mutual TLS: only the gRPC variant takes a client certificate from this driver (grpc-client.js).
    if (variant.codec !== 'protobuf') throw new Error(`the node driver does not present client certificates (${endpoint.name})`);
    try {
      security.pfx = fs.readFileSync(credentials.certificate);
    } catch (e) {
      throw new Error(`cannot read the client certificate ${credentials.certificate}: ${e.message}`);
    }
    security.passphrase = typeof credentials.password === 'string' ? credentials.password : undefined;
  }
  // Missing credentials are not an error: the client calls without them and counts the refusals (4).
  if (credentials && typeof credentials.userName === 'string' && typeof credentials.password === 'string') {
    security.userName = credentials.userName;
    security.password = credentials.password;
    if (endpoint.credentialType === 'Basic') security.authorization = 'Basic ' + Buffer.from(`${credentials.userName}:${credentials.password}`, 'utf8').toString('base64');
  }
  return security;
}

/** Prepares what the cell's clients share; throws an Error whose message is the `fail` reason. */
async function prepareCell(job) {
  const endpoint = job.endpoint;
  // Which variants this driver calls is the catalogue's (client `node`); how, its codec says.
  const callable = variantsOf('node');
  const variant = findVariant(endpoint.name);
  if (!variant || !callable.includes(endpoint.name)) {
    throw new Error(`the node driver does not call variant '${endpoint.name}' (it calls ${callable.join(', ')})`);
  }
  const payload = findPayload(job.payload);
  if (!payload) throw new Error(`unknown payload '${job.payload}'`);
  const timeoutMs = job.timeoutMs || DEFAULT_TIMEOUT_MS;
  const security = readSecurity(variant, job);
  switch (variant.codec) {
    case 'json': {
      const { JsonCodec, JsonLoadClient } = require('./lib/json-client');
      const codec = new JsonCodec(payload);
      return {
        ready: { driver: 'node', runtime: `Node.js ${process.versions.node}`, library: `undici ${require('undici/package.json').version}` },
        createClient: () => new JsonLoadClient(endpoint, codec, timeoutMs, security),
      };
    }
    case 'protobuf': {
      const { GrpcCodec, GrpcLoadClient } = require('./lib/grpc-client');
      const codec = new GrpcCodec(payload);
      return {
        ready: { driver: 'node', runtime: `Node.js ${process.versions.node}`, library: `@grpc/grpc-js ${require('@grpc/grpc-js/package.json').version}` },
        createClient: () => new GrpcLoadClient(endpoint, codec, timeoutMs, security),
      };
    }
    case 'soap11':
    case 'soap12-wsa': {
      if (typeof endpoint.wsdl !== 'string' || endpoint.wsdl === '') throw new Error(`${endpoint.name} has no WSDL address`);
      const { SoapCell, SoapLoadClient } = require('./lib/soap-client');
      let cell;
      try {
        cell = await SoapCell.create(endpoint, payload, timeoutMs, security);
      } catch (e) {
        throw new Error(`cannot read the WSDL of ${endpoint.name} at ${endpoint.wsdl}: ${describeError(e)}`);
      }
      cell.action(payload.operation); // the operation exists
      return {
        ready: { driver: 'node', runtime: `Node.js ${process.versions.node}`, library: `npm soap ${require('soap/package.json').version}` },
        createClient: () => new SoapLoadClient(cell),
      };
    }
    default:
      throw new Error(`the catalogue pairs node with '${endpoint.name}' but the node driver has no client for codec '${variant.codec}'`);
  }
}

// ---- a level ----

function parseLevel(line) {
  const level = JSON.parse(line);
  if (level === null || level.type !== 'level') throw new Error(`expected a level record, got '${line.slice(0, 120)}'`);
  const positive = (v) => Number.isInteger(v) && v >= 0;
  if (!Number.isInteger(level.clients) || level.clients < 1) throw new Error('a level needs clients >= 1');
  if (!positive(level.warmup ?? 0)) throw new Error('warmup must be a non-negative integer');
  const hasRequests = level.requests !== null && level.requests !== undefined;
  const hasDuration = level.durationMs !== null && level.durationMs !== undefined;
  if (hasRequests === hasDuration) throw new Error('exactly one of requests and durationMs must be set');
  if (hasRequests && !positive(level.requests)) throw new Error('requests must be a non-negative integer');
  if (hasDuration && !(typeof level.durationMs === 'number' && level.durationMs >= 0)) throw new Error('durationMs must be a non-negative number');
  return { index: level.index ?? 0, clients: level.clients, warmup: level.warmup ?? 0, requests: hasRequests ? level.requests : null, durationMs: hasDuration ? level.durationMs : null };
}

/**
 * Runs one level: opens every client (one connection each), releases them together, and returns
 * { samples: per-client flat arrays, startedUnixMs, elapsedUs, cancelled }. Throws when a client cannot open.
 */
async function runLevel(cell, level, control) {
  const clients = [];
  try {
    for (let c = 0; c < level.clients; c++) clients.push(cell.createClient());
    const opened = await Promise.race([
      Promise.allSettled(clients.map((client) => client.open())),
      control.cancelledPromise.then(() => null),
    ]);
    if (opened === null) return { buffers: [], startedUnixMs: Date.now(), elapsedUs: 0, cancelled: true };
    const refused = opened.find((r) => r.status === 'rejected');
    if (refused) throw new Error(describeError(refused.reason));

    const buffers = clients.map(() => []);
    const ends = new Array(clients.length).fill(0n);
    const startedUnixMs = Date.now();
    const origin = process.hrtime.bigint();
    const workers = clients.map((client, c) => worker(c, client, level, origin, buffers[c], ends, control));
    // Once a second: the samples taken since the last tick as `s` records (so a driver killed mid-level has handed the
    // runner what it measured until then), then progress, measured requests so far (7 numbers per sample per buffer).
    const written = clients.map(() => 0);
    const ticker = setInterval(() => {
      let requests = 0;
      const streamed = [];
      buffers.forEach((b, c) => {
        written[c] = appendSamples(streamed, b, written[c]);
        requests += Math.max(0, b.length / 7 - level.warmup);
      });
      streamed.push(`p {"requests":${requests},"elapsedUs":${Number((process.hrtime.bigint() - origin) / 1000n)}}\n`);
      emit(streamed.join(''));
    }, 1000);
    try {
      await Promise.race([Promise.all(workers), control.cancelledPromise]);
    } finally {
      clearInterval(ticker);
    }
    const last = control.cancelled ? process.hrtime.bigint() : ends.reduce((a, b) => (b > a ? b : a), origin);
    return { buffers, written, startedUnixMs, elapsedUs: Number((last - origin) / 1000n), cancelled: control.cancelled };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
  }
}

/** One closed-loop client: warm-up, then `requests` calls or calls for `durationMs`; its own buffer. */
async function worker(index, client, level, origin, buffer, ends, control) {
  const record = async (warmup) => {
    const start = process.hrtime.bigint();
    const [outcome, requestBytes, responseBytes] = await client.call();
    const end = process.hrtime.bigint();
    if (control.cancelled) return; // abandoned by the cancel: its sample is not written
    buffer.push(index, Number((start - origin) / 1000n), Number((end - start) / 1000n), outcome, warmup, requestBytes, responseBytes);
    ends[index] = end;
  };
  for (let w = 0; w < level.warmup && !control.cancelled; w++) await record(1);
  if (level.requests !== null) {
    for (let r = 0; r < level.requests && !control.cancelled; r++) await record(0);
  } else {
    const deadline = process.hrtime.bigint() + BigInt(Math.round(level.durationMs * 1e6));
    while (!control.cancelled && process.hrtime.bigint() < deadline) await record(0);
  }
  if (ends[index] === 0n) ends[index] = process.hrtime.bigint();
}

/** Appends the `s` records of `buffer` from the `from`-th number on to `out`; returns the buffer's length, the next `from`. */
function appendSamples(out, buffer, from) {
  const end = buffer.length;
  for (let k = from; k < end; k += 7) {
    out.push(`s ${buffer[k]} ${buffer[k + 1]} ${buffer[k + 2]} ${buffer[k + 3]} ${buffer[k + 4]} ${buffer[k + 5]} ${buffer[k + 6]}\n`);
  }
  return end;
}

/** Writes the level's `s` records not yet streamed, then its `level` record. */
async function writeLevel(level, result) {
  const CHUNK = 4096;
  let out = [];
  for (let c = 0; c < result.buffers.length; c++) {
    const buffer = result.buffers[c];
    for (let k = result.written ? result.written[c] : 0; k < buffer.length; k += 7) {
      out.push(`s ${buffer[k]} ${buffer[k + 1]} ${buffer[k + 2]} ${buffer[k + 3]} ${buffer[k + 4]} ${buffer[k + 5]} ${buffer[k + 6]}\n`);
      if (out.length >= CHUNK) { await emit(out.join('')); out = []; }
    }
  }
  if (out.length) await emit(out.join(''));
  await emit(`level ${JSON.stringify({ index: level.index, clients: level.clients, startedUnixMs: result.startedUnixMs, elapsedUs: result.elapsedUs, cancelled: result.cancelled })}\n`);
}

function newControl() {
  let resolve;
  const control = {
    cancelled: false,
    cancelledPromise: new Promise((r) => { resolve = r; }),
    cancel() {
      if (!control.cancelled) { control.cancelled = true; resolve(); }
    },
  };
  return control;
}

// ---- main ----

async function main() {
  const first = await nextLine();
  if (first === null) { log('end of input before the job line'); exit(2); return; }
  let job;
  try {
    job = parseJob(first);
  } catch (e) {
    log(e.message);
    exit(2);
    return;
  }
  state.job = job;

  let cell;
  try {
    cell = await prepareCell(job);
  } catch (e) {
    await fail(e.message);
    return;
  }
  await emit(`ready ${JSON.stringify(cell.ready)}\n`);
  log(`ready: ${job.endpoint.name} × ${job.payload} (${cell.ready.library})`);

  for (;;) {
    if (state.interrupted) { exit(130); return; }
    const line = await nextLine();
    if (line === null || state.interrupted) break;
    let level;
    try {
      level = parseLevel(line);
    } catch (e) {
      await fail(`a level record was not understood: ${e.message}`);
      return;
    }
    const control = newControl();
    state.running = control;
    if (state.ended || state.interrupted) control.cancel();
    let result;
    try {
      result = await runLevel(cell, level, control);
    } catch (e) {
      state.running = null;
      await fail(`cannot connect to ${job.endpoint.name} at ${job.endpoint.address}: ${e.message}`);
      return;
    }
    state.running = null;
    await writeLevel(level, result);
    if (state.interrupted) { exit(130); return; }
    if (result.cancelled && state.ended) break;
  }
  exit(state.interrupted ? 130 : 0);
}

main().catch((e) => {
  log(`crashed: ${e && e.stack ? e.stack : e}`);
  exit(1);
});
