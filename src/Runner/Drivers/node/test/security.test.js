'use strict';
// The secure paths of the node driver (docs/security.md): https with the job's CA as the only trusted root, Basic
// credentials, refusals counted as authentication (4), TLS bytes counted on the wire, WS-Security faults classified.
// The certificates are made with the openssl command line in a temporary folder. Run: node --test test/

const { test, describe, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const https = require('node:https');
const { execFileSync } = require('node:child_process');
const { startDriver, samples } = require('./harness');
const { classifySoapError } = require('../lib/soap-client');
const { Outcome } = require('../lib/outcomes');

const openssl = (...args) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** A CA and a server certificate for the name localhost (not its address) issued by it, plus a second, unrelated CA. */
function makeCertificates(dir) {
  const f = (name) => path.join(dir, name);
  for (const ca of ['ca', 'other-ca']) {
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f(`${ca}.key`), '-out', f(`${ca}.crt`), '-days', '2',
      '-subj', `/CN=${ca}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign');
  }
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=localhost');
  fs.writeFileSync(f('ext.cnf'), 'subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', f('server.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('server.crt'), '-days', '1', '-extfile', f('ext.cnf'));
  return { ca: f('ca.crt'), otherCa: f('other-ca.crt'), key: f('server.key'), cert: f('server.crt') };
}

/** An https echo server in the shape of AspNetHttpsJsonBasic: Basic bench:secret required (401 otherwise). */
async function startHttpsServer(files) {
  const expected = 'Basic ' + Buffer.from('bench:secret').toString('base64');
  const server = https.createServer({ key: fs.readFileSync(files.key), cert: fs.readFileSync(files.cert) }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.headers.authorization !== expected) {
        res.statusCode = 401;
        res.setHeader('www-authenticate', 'Basic realm="test"');
        res.end();
        return;
      }
      if (req.url === '/EmptyMethod') { res.statusCode = 204; res.end(); return; }
      const value = /^\{"value":([\s\S]*)\}$/.exec(Buffer.concat(chunks).toString('utf8'));
      res.setHeader('content-type', 'application/json');
      res.end(value ? value[1] : '');
    });
  });
  server.keepAliveTimeout = 60_000;
  const sockets = new Set();
  server.on('secureConnection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}

function job(port, { ca, password = 'secret', name = 'AspNetHttpsJsonBasic', host = 'localhost', credentials } = {}) {
  return {
    type: 'job', protocol: 1, payload: 'String500', timeoutMs: 10_000, caCertificate: ca,
    credentials: credentials !== undefined ? credentials : { profile: 'bench', userName: 'bench', password },
    endpoint: { name, stack: 'aspnet', address: `https://${host}:${port}/`, transport: 'HTTP/1.1 over TLS', encoding: 'JSON (System.Text.Json)', securityMode: 'Transport', credentialType: 'Basic', wsdl: null },
  };
}

/** Runs one level of 2 clients × (1 warm-up + 3) and returns its samples; fails the test on `fail`. */
async function runLevel(jobRecord) {
  const d = startDriver();
  d.send(jobRecord);
  const first = await d.waitFor(['ready', 'fail']);
  assert.equal(first.kind, 'ready', `${first.line} ${d.stderr}`);
  const from = d.records.length;
  d.send({ type: 'level', index: 0, clients: 2, warmup: 1, requests: 3, durationMs: null });
  const end = await d.waitFor(['level', 'fail'], from);
  assert.equal(end.kind, 'level', `${end.line} ${d.stderr}`);
  d.end();
  assert.equal((await d.exited).code, 0);
  return samples(d.records, from);
}

describe('node driver, https and Basic (AspNetHttpsJsonBasic shape)', () => {
  let dir;
  let files;
  let server;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-driver-tls-'));
    files = makeCertificates(dir);
    server = await startHttpsServer(files);
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the right password and our CA: every reply right, TLS records counted in the bytes', async () => {
    const all = await runLevel(job(server.port, { ca: files.ca }));
    assert.equal(all.length, 8);
    assert.ok(all.every((s) => s.outcome === Outcome.Success), JSON.stringify(all));
    // A 500-character echo: body 511 B out and 500 B in, plus HTTP headers, plus at least one 22-byte TLS 1.3 record each way.
    const measured = all.filter((s) => s.warmup === 0);
    assert.ok(measured.every((s) => s.requestBytes >= 511 + 60 + 22), JSON.stringify(measured));
    assert.ok(measured.every((s) => s.responseBytes >= 500 + 60 + 22), JSON.stringify(measured));
  });

  test('a wrong password: every sample is authentication (4), no fail', async () => {
    const all = await runLevel(job(server.port, { ca: files.ca, password: 'wrong' }));
    assert.equal(all.length, 8);
    assert.ok(all.every((s) => s.outcome === Outcome.Authentication), JSON.stringify(all));
  });

  test('no credentials: every sample is authentication (4)', async () => {
    const all = await runLevel(job(server.port, { ca: files.ca, credentials: null }));
    assert.ok(all.length === 8 && all.every((s) => s.outcome === Outcome.Authentication), JSON.stringify(all));
  });

  test('a CA that did not issue the server certificate: every sample is authentication (4)', async () => {
    const all = await runLevel(job(server.port, { ca: files.otherCa }));
    assert.ok(all.length === 8 && all.every((s) => s.outcome === Outcome.Authentication), JSON.stringify(all));
  });

  test('a host name the certificate does not cover: every sample is authentication (4)', async () => {
    // 127.0.0.1 reaches the same server, but the certificate names only localhost.
    const all = await runLevel(job(server.port, { ca: files.ca, host: '127.0.0.1' }));
    assert.ok(all.length === 8 && all.every((s) => s.outcome === Outcome.Authentication), JSON.stringify(all));
  });

  test('https without a caCertificate in the job: fail naming it, exit 1', async () => {
    const d = startDriver();
    d.send(job(server.port, { ca: null }));
    const first = await d.waitFor(['ready', 'fail']);
    assert.equal(first.kind, 'fail');
    assert.match(JSON.parse(first.data).message, /caCertificate/);
    d.end();
    assert.equal((await d.exited).code, 1);
  });
});

describe('node driver, WS-Security faults', () => {
  test('a wsse:FailedAuthentication fault is authentication (4); another fault is a fault (2)', () => {
    const body = (code) => `<S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope"><S:Body><S:Fault><S:Code><S:Value>S:Sender</S:Value><S:Subcode><S:Value xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">${code}</S:Value></S:Subcode></S:Code><S:Reason><S:Text xml:lang="en">refused</S:Text></S:Reason></S:Fault></S:Body></S:Envelope>`;
    const error = (code) => Object.assign(new Error('soap fault'), { response: { status: 500 }, body: body(code) });
    for (const code of ['wsse:FailedAuthentication', 'wsse:FailedCheck', 'wsse:InvalidSecurity', 'wsse:SecurityTokenUnavailable']) {
      assert.equal(classifySoapError(error(code)), Outcome.Authentication, code);
    }
    assert.equal(classifySoapError(error('S:Receiver')), Outcome.Fault);
    assert.equal(classifySoapError(Object.assign(new Error('unauthorized'), { response: { status: 401 } })), Outcome.Authentication);
  });
});
