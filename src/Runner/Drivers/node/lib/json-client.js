'use strict';
// AspNetHttpJson through undici: one undici.Client (one HTTP/1.1 connection) per closed-loop client,
// POST /{Operation} with the parameters as a JSON object, the bare result back (docs/service-contract.md).

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
          && parsed.every((o) => o !== null && typeof o === 'object' && Array.isArray(o.orderItems) && o.orderItems.length === 2)
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
  constructor(endpoint, codec, timeoutMs) {
    const url = new URL(endpoint.address);
    this.codec = codec;
    this.timeoutMs = timeoutMs;
    this.base = url.pathname.endsWith('/') ? url.pathname : url.pathname + '/';
    this.path = this.base + codec.payload.operation;
    this.bytes = new SocketBytes();
    const connector = buildConnector({ timeout: timeoutMs });
    this.client = new Client(url.origin, {
      pipelining: 1,
      connections: 1,
      headersTimeout: 0, // the driver's own per-call timer applies (timeoutMs)
      bodyTimeout: 0,
      keepAliveTimeout: 600_000,
      keepAliveMaxTimeout: 600_000,
      connect: (options, callback) => connector(options, (error, socket) => {
        if (socket) {
          socket.setNoDelay(true);
          this.bytes.attach(socket);
        }
        callback(error, socket);
      }),
    });
  }

  /** Opens the connection with one EmptyMethod call (not recorded); throws when the service cannot be reached. */
  async open() {
    const { statusCode, body } = await this.client.request({
      path: this.base + 'EmptyMethod', method: 'POST',
      headers: { 'content-type': 'application/json' }, body: this.codec.probeBody,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    await body.text();
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
        headers: { 'content-type': 'application/json' }, body: this.codec.body,
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
