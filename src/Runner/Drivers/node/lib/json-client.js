'use strict';
// AspNetHttpJson, AspNetHttpsJson and AspNetHttpsJsonBasic through undici: one undici.Client (one HTTP/1.1
// connection) per closed-loop client, POST /{Operation} with the parameters as a JSON object, the bare result back
// (docs/service-contract.md). Over https the host's CA is the only trusted root (connect: { ca }) and the host name is
// checked; Basic credentials go in every request's Authorization header (docs/security.md).

const net = require('node:net');
const { Client, buildConnector } = require('undici');
const { parseLossless, JsonNumber } = require('./lossless-json');
const { numberEquals, decodeBase64 } = require('./payloads');
const { Outcome, classifyTransportError } = require('./outcomes');
const { SocketBytes } = require('./socket-bytes');

const camel = (name) => name.charAt(0).toLowerCase() + name.slice(1);

/** Writes a typed value as JSON text, numbers as their exact text. */
function renderJson(node) {
  switch (node.t) {
    case 'byte': case 'short': case 'int': case 'long': case 'float': case 'double': case 'decimal':
      return node.v;
    case 'bool': return node.v ? 'true' : 'false';
    case 'string': return JSON.stringify(node.v);
    case 'bytes': return JSON.stringify(node.v.toString('base64'));
    case 'empty': return '{}';
    case 'struct': return '{' + node.fields.map(([n, v]) => JSON.stringify(camel(n)) + ':' + renderJson(v)).join(',') + '}';
    case 'array': return '[' + node.items.map(renderJson).join(',') + ']';
    default: throw new Error(`cannot write a ${node.t} as JSON`);
  }
}

/** Whether a losslessly parsed JSON value equals the typed value. */
function jsonEquals(node, value) {
  switch (node.t) {
    case 'byte': case 'short': case 'int': case 'long': case 'float': case 'double': case 'decimal':
      return value instanceof JsonNumber && numberEquals(node.t, node.v, value.raw);
    case 'bool': return value === node.v;
    case 'string': return value === node.v;
    case 'bytes': {
      const decoded = decodeBase64(value);
      return decoded !== null && decoded.equals(node.v);
    }
    case 'empty': return isObject(value) && Object.keys(value).length === 0;
    case 'struct': {
      if (!isObject(value) || Object.keys(value).length !== node.fields.length) return false;
      for (const [n, v] of node.fields) {
        const key = camel(n);
        if (!(key in value) || !jsonEquals(v, value[key])) return false;
      }
      return true;
    }
    case 'array': {
      if (!Array.isArray(value) || value.length !== node.items.length) return false;
      for (let k = 0; k < value.length; k++) if (!jsonEquals(node.items[k], value[k])) return false;
      return true;
    }
    default: return false;
  }
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JsonNumber);
}

/** The request body and the reply check of a payload, shared by all clients of the cell. */
class JsonCodec {
  constructor(payload) {
    this.payload = payload;
    this.body = Buffer.from('{' + payload.params.map(([n, v]) => JSON.stringify(n) + ':' + renderJson(v)).join(',') + '}', 'utf8');
    this.probeBody = Buffer.from('{}');
    // The text of the last reply that passed the lossless check: an identical reply is the same value.
    this._verified = null;
  }

  /** Outcome of a 2xx reply. */
  check(statusCode, text) {
    const p = this.payload;
    if (p.kind === 'void') return text.length === 0 ? Outcome.Success : Outcome.WrongReply;
    let parsed;
    try {
      parsed = JSON.parse(text); // what a node client does with every reply
    } catch {
      return Outcome.Fault;
    }
    switch (p.kind) {
      case 'echo': case 'expect': {
        if (text === this._verified) return Outcome.Success;
        let exact;
        try {
          exact = parseLossless(text);
        } catch {
          return Outcome.Fault;
        }
        if (!jsonEquals(p.expected, exact)) return Outcome.WrongReply;
        this._verified = text;
        return Outcome.Success;
      }
      case 'orders':
        return Array.isArray(parsed) && parsed.length === p.count
          && parsed.every((o) => o !== null && typeof o === 'object' && Array.isArray(o.orderItems) && o.orderItems.length === p.lines)
          ? Outcome.Success : Outcome.WrongReply;
      case 'rbytes': {
        const decoded = decodeBase64(parsed);
        return decoded !== null && decoded.length === p.size ? Outcome.Success : Outcome.WrongReply;
      }
      default:
        return Outcome.Other;
    }
  }
}

/** One closed-loop client: one undici.Client, one connection. */
class JsonLoadClient {
  /**
   * @param endpoint the job's endpoint
   * @param codec the cell's JsonCodec
   * @param timeoutMs per-call timeout
   * @param security `{ ca, authorization }`: the CA certificate (PEM text) to trust for https, the Authorization header value
   */
  constructor(endpoint, codec, timeoutMs, security = {}) {
    const url = new URL(endpoint.address);
    this.codec = codec;
    this.timeoutMs = timeoutMs;
    this.base = url.pathname.endsWith('/') ? url.pathname : url.pathname + '/';
    this.path = this.base + codec.payload.operation;
    this.bytes = new SocketBytes();
    this.headers = { 'content-type': 'application/json' };
    if (security.authorization) this.headers.authorization = security.authorization;
    // rejectUnauthorized stays true: the server's chain must end at our CA and its certificate must name the host.
    const secure = url.protocol === 'https:';
    const connector = buildConnector(secure ? { timeout: timeoutMs, ca: security.ca, rejectUnauthorized: true } : { timeout: timeoutMs });
    this.client = new Client(url.origin, {
      pipelining: 1,
      connections: 1,
      headersTimeout: 0, // the driver's own per-call timer applies (timeoutMs)
      bodyTimeout: 0,
      keepAliveTimeout: 600_000,
      keepAliveMaxTimeout: 600_000,
      connect: (options, callback) => {
        if (!secure) {
          connector(options, (error, socket) => {
            if (socket) {
              socket.setNoDelay(true);
              this.bytes.attach(socket);
            }
            callback(error, socket);
          });
          return;
        }
        // TLS over a TCP socket of our own: its counters are the bytes on the wire (TLS records and handshakes), where
        // the TLS socket's would be the plaintext.
        const raw = net.connect({ host: options.hostname, port: Number(options.port) || 443 });
        raw.setNoDelay(true);
        this.bytes.attach(raw);
        connector({ ...options, httpSocket: raw }, (error, socket) => {
          if (!error) {
            callback(null, socket);
            return;
          }
          raw.destroy();
          // undici 6 keeps requests queued on ERR_TLS_CERT_ALTNAME_INVALID when the origin is an IP address (its
          // servername is null), and they never end: hand it over under another code, the original as the cause
          // (outcomes.js finds it there and counts authentication).
          callback(error.code === 'ERR_TLS_CERT_ALTNAME_INVALID'
            ? Object.assign(new Error(error.message, { cause: error }), { code: 'DASHBOARD_TLS_NAME_REFUSED' })
            : error);
        });
      },
    });
  }

  /**
   * Opens the connection with one EmptyMethod call (not recorded); throws when the service cannot be reached.
   * A refusal of our credentials (401/403, a TLS refusal) does not throw: the level runs and its samples say so (4).
   */
  async open() {
    let statusCode;
    try {
      const response = await this.client.request({
        path: this.base + 'EmptyMethod', method: 'POST',
        headers: this.headers, body: this.codec.probeBody,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      statusCode = response.statusCode;
      await response.body.text();
    } catch (error) {
      if (classifyTransportError(error) === Outcome.Authentication) return;
      throw error;
    }
    if (statusCode === 401 || statusCode === 403) return;
    if (statusCode < 200 || statusCode >= 300) throw new Error(`the connection probe (EmptyMethod) answered HTTP ${statusCode}`);
  }

  /** One call: [outcome, requestBytes, responseBytes]. */
  async call() {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; controller.abort(); }, this.timeoutMs);
    this.bytes.begin();
    let outcome;
    try {
      const { statusCode, body } = await this.client.request({
        path: this.path, method: 'POST',
        headers: this.headers, body: this.codec.body,
        signal: controller.signal,
      });
      const text = await body.text();
      if (statusCode === 401 || statusCode === 403) outcome = Outcome.Authentication;
      else if (statusCode < 200 || statusCode >= 300) outcome = Outcome.Fault;
      else outcome = this.codec.check(statusCode, text);
    } catch (error) {
      outcome = timedOut ? Outcome.Timeout : classifyTransportError(error);
    } finally {
      clearTimeout(timer);
    }
    const [written, read] = this.bytes.end();
    return [outcome, written, read];
  }

  async close() {
    try {
      await this.client.destroy();
    } catch {
      // already gone
    }
    this.bytes.destroy();
  }
}

module.exports = { JsonCodec, JsonLoadClient, renderJson, jsonEquals };
