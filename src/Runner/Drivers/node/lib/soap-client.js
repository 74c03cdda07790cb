'use strict';
// Metro variants through npm soap: one soap client per closed-loop client, each with its own keep-alive
// http.Agent (maxSockets 1) so that each client has its own connection. SOAP 1.2 + WS-Addressing for
// MetroSoap12Wsa: the endpoint is @Addressing(required=true) and dispatches on wsa:Action, which npm soap
// does not write, so every call adds the operation's Action (read from the WSDL's portType) as a
// WS-Addressing header and as the SOAP 1.2 content type's action parameter (docs/driver-protocol.md).
// Secure variants (docs/security.md): https with the host's CA as the only trusted root (the agents' `ca`, host name
// checked), Basic through npm soap's BasicAuthSecurity (MetroSoap11Basic, MetroSoap11HttpsBasic), a WS-Security
// UsernameToken (PasswordText, with a Timestamp) through its WSSecurity (MetroSoap12WsaUserNameHttps).

const http = require('node:http');
const https = require('node:https');
const net = require('node:net');
const { randomUUID } = require('node:crypto');
const soap = require('soap');
const { numberEquals, decodeBase64 } = require('./payloads');
const { Outcome, errorCode, classifyTransportError } = require('./outcomes');
const { findVariant } = require('./catalogue');
const { SocketBytes } = require('./socket-bytes');

const WSA = 'http://www.w3.org/2005/08/addressing';
const ANONYMOUS = WSA + '/anonymous';

// Numbers stay as the text that came on the wire; the check compares them exactly (long, decimal).
const RAW = (text) => text;
const CUSTOM_DESERIALIZER = {
  int: RAW, integer: RAW, short: RAW, long: RAW, unsignedByte: RAW, byte: RAW,
  float: RAW, double: RAW, decimal: RAW,
};

/** Each portType operation's input Action (wsam:Action / wsaw:Action), with the WS-Addressing default when absent. */
function parseActions(wsdlText) {
  const actions = new Map();
  const tns = (/<(?:\w+:)?definitions\b[^>]*\btargetNamespace="([^"]*)"/.exec(wsdlText) || [])[1] || '';
  const portTypeRe = /<(?:\w+:)?portType\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/(?:\w+:)?portType>/g;
  for (let pt; (pt = portTypeRe.exec(wsdlText));) {
    const opRe = /<(?:\w+:)?operation\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/(?:\w+:)?operation>/g;
    for (let op; (op = opRe.exec(pt[2]));) {
      const input = /<(?:\w+:)?input\b([^>]*)>/.exec(op[2]);
      const explicit = input && /\b[\w.-]+:Action="([^"]*)"/.exec(input[1]);
      const delimiter = tns.startsWith('urn:') ? ':' : '/';
      actions.set(op[1], explicit ? explicit[1] : `${tns}${delimiter}${pt[1]}${delimiter}${op[1]}Request`);
    }
  }
  return actions;
}

/** A typed value as npm soap arguments: numbers as their exact text. */
function renderArgs(node) {
  switch (node.t) {
    case 'byte': case 'short': case 'int': case 'long': case 'float': case 'double': case 'decimal':
      return node.v;
    case 'bool': return node.v ? 'true' : 'false';
    case 'string': return node.v;
    case 'bytes': return node.v.toString('base64');
    case 'empty': return {};
    case 'struct': return Object.fromEntries(node.fields.map(([n, v]) => [n, renderArgs(v)]));
    case 'array': return node.wrap ? { [node.wrap]: node.items.map(renderArgs) } : node.items.map(renderArgs);
    default: throw new Error(`cannot write a ${node.t} as SOAP`);
  }
}

const toArray = (v) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether the value npm soap parsed (numbers kept as text) equals the typed value. */
function soapEquals(node, value) {
  switch (node.t) {
    case 'byte': case 'short': case 'int': case 'long': case 'float': case 'double': case 'decimal':
      return numberEquals(node.t, node.v, value);
    case 'bool': return value === node.v || value === String(node.v);
    case 'string': return value === node.v;
    case 'bytes': {
      const decoded = decodeBase64(value);
      return decoded !== null && decoded.equals(node.v);
    }
    // npm soap turns an empty element into null
    case 'empty': return value === null || (isObject(value) && Object.keys(value).length === 0);
    case 'struct':
      if (!isObject(value)) return false;
      for (const [n, v] of node.fields) if (!(n in value) || !soapEquals(v, value[n])) return false;
      return true;
    case 'array': {
      const items = toArray(node.wrap ? (isObject(value) ? value[node.wrap] : undefined) : value);
      if (items.length !== node.items.length) return false;
      for (let k = 0; k < items.length; k++) if (!soapEquals(node.items[k], items[k])) return false;
      return true;
    }
    default: return false;
  }
}

const ONE_SHOT_HTTP = new http.Agent({ keepAlive: false });

/** GETs a document (the WSDL) on a connection of its own, closed afterwards. */
function getText(url, timeoutMs, httpsAgent, headers) {
  return new Promise((resolve, reject) => {
    const secure = url.startsWith('https:');
    const request = (secure ? https : http).get(url, { agent: secure ? httpsAgent : ONE_SHOT_HTTP, timeout: timeoutMs, headers }, (response) => {
      const chunks = [];
      response.on('data', (c) => chunks.push(c));
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}`));
        else resolve(Buffer.concat(chunks).toString('utf8'));
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    request.on('error', reject);
  });
}

/** What the cell's clients share: the WSDL (read once), the Actions, the arguments and the reply check. */
class SoapCell {
  /** Reads the WSDL; throws when it cannot be read. `security`: `{ ca, userName, password, authorization }` (driver.js). */
  static async create(endpoint, payload, timeoutMs, security = {}) {
    const cell = new SoapCell(endpoint, payload, timeoutMs, security);
    cell.actions = parseActions(await getText(endpoint.wsdl, timeoutMs, cell.oneShotHttps, cell.wsdlHeaders()));
    // Loads and caches npm soap's parsed WSDL for the clients.
    await soap.createClientAsync(endpoint.wsdl, cell.clientOptions(), endpoint.address);
    return cell;
  }

  constructor(endpoint, payload, timeoutMs, security = {}) {
    this.endpoint = endpoint;
    this.payload = payload;
    this.timeoutMs = timeoutMs;
    this.security = security;
    // rejectUnauthorized stays true: the chain must end at the job's CA and the certificate must name the host.
    this.tls = security.ca ? { ca: security.ca, rejectUnauthorized: true } : {};
    this.oneShotHttps = new https.Agent({ keepAlive: false, ...this.tls });
    this.soap12 = findVariant(endpoint.name)?.codec === 'soap12-wsa';
    this.args = Object.fromEntries(payload.params.map(([n, v]) => [n, renderArgs(v)]));
    this.resultName = payload.operation + 'Result';
    this.actions = new Map();
  }

  clientOptions() {
    return {
      forceSoap12Headers: this.soap12,
      customDeserializer: CUSTOM_DESERIALIZER,
      // The WSDL and its schemas are read once, on connections of their own that are closed afterwards.
      wsdl_options: { proxy: false, timeout: this.timeoutMs, httpAgent: ONE_SHOT_HTTP, httpsAgent: this.oneShotHttps },
      wsdl_headers: this.wsdlHeaders(),
    };
  }

  /** The Basic header for reading the WSDL of a Basic variant (the service may protect it too). */
  wsdlHeaders() {
    return this.security.authorization ? { Authorization: this.security.authorization } : undefined;
  }

  /** npm soap's security object for the variant's credential type, or null. */
  soapSecurity() {
    const { userName, password } = this.security;
    if (userName === undefined) return null;
    switch (this.endpoint.credentialType) {
      case 'Basic': return new soap.BasicAuthSecurity(userName, password);
      case 'UserName': return new soap.WSSecurity(userName, password, { passwordType: 'PasswordText', hasTimeStamp: true, mustUnderstand: true });
      default: return null;
    }
  }

  action(operation) {
    const action = this.actions.get(operation);
    if (action === undefined) throw new Error(`the WSDL at ${this.endpoint.wsdl} has no operation ${operation}`);
    return action;
  }

  /** Outcome of a reply npm soap parsed without error (`result` is the response wrapper's content). */
  check(result) {
    const p = this.payload;
    switch (p.kind) {
      case 'void': return Outcome.Success;
      case 'echo': case 'expect':
        return isObject(result) && this.resultName in result && soapEquals(p.expected, result[this.resultName])
          ? Outcome.Success : Outcome.WrongReply;
      case 'orders': {
        const orders = toArray(isObject(result) ? result.GetOrdersResult : undefined);
        return orders.length === p.count
          && orders.every((o) => isObject(o) && isObject(o.OrderItems) && toArray(o.OrderItems.OrderLine).length === p.lines)
          ? Outcome.Success : Outcome.WrongReply;
      }
      case 'rbytes': {
        const decoded = decodeBase64(isObject(result) ? result.GetRBytesResult : undefined);
        return decoded !== null && decoded.length === p.size ? Outcome.Success : Outcome.WrongReply;
      }
      default: return Outcome.Other;
    }
  }
}

// WS-Security 1.0's fault codes (docs/security.md): credentials or signature refused.
const WSSE_FAULT = /\b(?:FailedAuthentication|FailedCheck|InvalidSecurity|InvalidSecurityToken|SecurityTokenUnavailable)\b/;

/** Whether an npm soap error carries a WS-Security fault (in the raw body or the parsed Fault). */
function isSecurityFault(error) {
  if (!error) return false;
  const texts = [];
  if (typeof error.body === 'string') texts.push(error.body);
  if (error.root) {
    try {
      texts.push(JSON.stringify(error.root));
    } catch {
      // cyclic: ignore
    }
  }
  return texts.some((t) => WSSE_FAULT.test(t));
}

/** Outcome of an error npm soap reported (transport error, HTTP error status, SOAP fault, unparsable body). */
function classifySoapError(error) {
  const status = error && error.response && error.response.status;
  if (status === 401 || status === 403) return Outcome.Authentication;
  if (isSecurityFault(error)) return Outcome.Authentication;
  const code = errorCode(error);
  if (code && classifyTransportError(error) !== Outcome.Other) return classifyTransportError(error);
  if (error && (error.response || error.body !== undefined || error.root || error.Fault)) return Outcome.Fault;
  return Outcome.Other;
}

/** One closed-loop client: one npm soap client, one keep-alive agent, one connection. */
class SoapLoadClient {
  constructor(cell) {
    this.cell = cell;
    this.bytes = new SocketBytes();
    const secure = cell.endpoint.address.startsWith('https:');
    this.agent = secure
      ? new https.Agent({ keepAlive: true, maxSockets: 1, maxFreeSockets: 1, ...cell.tls })
      : new http.Agent({ keepAlive: true, maxSockets: 1, maxFreeSockets: 1 });
    const create = this.agent.createConnection.bind(this.agent);
    this.agent.createConnection = (options, callback) => {
      if (!secure) {
        const socket = create(options, callback);
        socket.setNoDelay(true);
        this.bytes.attach(socket);
        return socket;
      }
      // TLS over a TCP socket of our own, so that the bytes counted are those on the wire (TLS records included).
      const raw = net.connect({ host: options.host, port: Number(options.port) || 443 });
      raw.setNoDelay(true);
      this.bytes.attach(raw);
      return create({ ...options, socket: raw }, callback);
    };
    this.client = null;
    this.operation = cell.payload.operation;
  }

  /** Builds the soap client and opens the connection with one EmptyMethod call (not recorded). */
  async open() {
    const cell = this.cell;
    this.client = await soap.createClientAsync(cell.endpoint.wsdl, cell.clientOptions(), cell.endpoint.address);
    qualifyLocalElements(this.client.wsdl);
    const security = cell.soapSecurity();
    if (security) this.client.setSecurity(security);
    if (cell.soap12) {
      this.client.addSoapHeader((method, location) => wsaHeaders(cell.action(method.$name), location));
    }
    const method = this.client[this.operation];
    if (typeof method !== 'function') throw new Error(`the WSDL at ${cell.endpoint.wsdl} has no operation ${this.operation}`);
    this.method = method;
    this.headers = this.extraHeaders(this.operation);
    this.probe = this.client.EmptyMethod;
    try {
      await this.invoke(this.probe, {}, this.extraHeaders('EmptyMethod'), AbortSignal.timeout(cell.timeoutMs));
    } catch (error) {
      // Our credentials refused: the level runs and its samples say so (4).
      if (classifySoapError(error) !== Outcome.Authentication) throw error;
    }
  }

  extraHeaders(operation) {
    return this.cell.soap12 ? { 'Content-Type': `application/soap+xml; charset=utf-8; action="${this.cell.action(operation)}"` } : undefined;
  }

  invoke(method, args, headers, signal) {
    const options = { httpAgent: this.agent, httpsAgent: this.agent, proxy: false, maxRedirects: 0, signal };
    return new Promise((resolve, reject) => {
      method(args, (error, result) => (error ? reject(error) : resolve(result)), options, headers);
    });
  }

  /** One call: [outcome, requestBytes, responseBytes]. */
  async call() {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; controller.abort(); }, this.cell.timeoutMs);
    this.bytes.begin();
    let outcome;
    try {
      const result = await this.invoke(this.method, this.cell.args, this.headers, controller.signal);
      outcome = this.cell.check(result);
    } catch (error) {
      outcome = timedOut ? Outcome.Timeout : classifySoapError(error);
    } finally {
      clearTimeout(timer);
    }
    const [written, read] = this.bytes.end();
    return [outcome, written, read];
  }

  async close() {
    this.agent.destroy();
    this.bytes.destroy();
  }
}

/**
 * JAXB's wrapper schema leaves elementFormDefault unset and marks every local element form="qualified";
 * npm soap 1.13 ignores the per-element form when it writes the wrapper's children (they go out without a
 * namespace and Metro reads null), so the schemas whose local elements are all qualified are marked
 * elementFormDefault="qualified" — what their elements say, in the form npm soap reads.
 */
function qualifyLocalElements(wsdl) {
  for (const schema of Object.values(wsdl.definitions.schemas || {})) {
    if (schema.$elementFormDefault === 'qualified') continue;
    let local = 0;
    let qualified = 0;
    const visit = (element, depth) => {
      for (const child of element.children || []) {
        if (child.name === 'element' && depth > 0) {
          local++;
          if (child.$form === 'qualified') qualified++;
        }
        visit(child, depth + 1);
      }
    };
    for (const type of Object.values(schema.complexTypes || {})) visit(type, 1);
    for (const element of Object.values(schema.elements || {})) visit(element, 0);
    if (local > 0 && local === qualified) schema.$elementFormDefault = 'qualified';
  }
}

function wsaHeaders(action, to) {
  return `<wsa:Action xmlns:wsa="${WSA}">${action}</wsa:Action>`
    + `<wsa:MessageID xmlns:wsa="${WSA}">urn:uuid:${randomUUID()}</wsa:MessageID>`
    + `<wsa:To xmlns:wsa="${WSA}">${to}</wsa:To>`
    + `<wsa:ReplyTo xmlns:wsa="${WSA}"><wsa:Address>${ANONYMOUS}</wsa:Address></wsa:ReplyTo>`;
}

module.exports = { SoapCell, SoapLoadClient, parseActions, renderArgs, soapEquals, classifySoapError, isSecurityFault };
