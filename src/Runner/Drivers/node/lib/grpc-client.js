'use strict';
// AspNetGrpc and AspNetGrpcTls through @grpc/grpc-js with the stub @grpc/proto-loader builds at start from the one
// .proto (src/Service/Contracts/Protos/benchmark.proto). One grpc-js channel per closed-loop client, on a local
// subchannel pool ('grpc.use_local_subchannel_pool'), so one HTTP/2 connection each (grpc-js's global pool would let
// every client of the process share one). AspNetGrpcTls: the job's CA as the only root (host name checked by Node's
// tls), the client certificate from `credentials.certificate` (PKCS#12) presented.
//
// Wire bytes: grpc-js opens the TCP socket itself and hands it to its credentials' secure connector (plain: the socket
// as is; TLS: tls.connect({ socket })). Each client's credentials object gets a connector wrapper that attaches the
// socket to the client's SocketBytes before passing it on, so the counts are the raw socket's bytesWritten/bytesRead
// (HTTP/2 frames, TLS records and the handshake). The hook is grpc-js's internal `_createSecureConnector` (the one its
// own composed credentials override), pinned with the package version in package.json.

const path = require('node:path');
const tls = require('node:tls');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { numberEquals } = require('./payloads');
const { Outcome, errorCode, isTlsAuthCode } = require('./outcomes');
const { SocketBytes } = require('./socket-bytes');

const PROTO = path.resolve(__dirname, '../../../../Service/Contracts/Protos/benchmark.proto');
const camel = (name) => name.charAt(0).toLowerCase() + name.slice(1);

let service = null;
/** The Benchmark service's client constructor, loaded once: int64 as decimal strings, absent messages as null. */
function benchmarkService() {
  if (service === null) {
    const definition = protoLoader.loadSync(PROTO, { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true });
    service = grpc.loadPackageDefinition(definition).dashboard.benchmark.Benchmark;
  }
  return service;
}

/** A typed payload value (lib/payloads.js) as the object protobufjs encodes: numbers as numbers, int64 and decimal as text. */
function toMessage(node) {
  switch (node.t) {
    case 'byte': case 'short': case 'int': case 'float': case 'double': return Number(node.v);
    case 'long': case 'decimal': return node.v;
    case 'bool': case 'string': case 'bytes': return node.v;
    case 'empty': return {};
    case 'struct': return Object.fromEntries(node.fields.map(([n, v]) => [camel(n), toMessage(v)]));
    case 'array': return node.items.map(toMessage);
    default: throw new Error(`cannot write a ${node.t} as protobuf`);
  }
}

/** Whether a decoded protobuf value equals the typed payload value. */
function messageEquals(node, value) {
  switch (node.t) {
    case 'byte': case 'short': case 'int': case 'long': case 'float': case 'double':
      return (typeof value === 'number' || typeof value === 'string') && numberEquals(node.t, node.v, String(value));
    case 'decimal': return typeof value === 'string' && numberEquals('decimal', node.v, value);
    case 'bool': case 'string': return value === node.v;
    case 'bytes': return Buffer.isBuffer(value) && value.equals(node.v);
    case 'empty': return value !== null && typeof value === 'object';
    case 'struct':
      if (value === null || typeof value !== 'object') return false;
      for (const [n, v] of node.fields) if (!messageEquals(v, value[camel(n)])) return false;
      return true;
    case 'array':
      if (!Array.isArray(value) || value.length !== node.items.length) return false;
      for (let k = 0; k < value.length; k++) if (!messageEquals(node.items[k], value[k])) return false;
      return true;
    default: return false;
  }
}

/** The request message and the reply check of a payload, shared by the cell's clients. */
class GrpcCodec {
  constructor(payload) {
    this.payload = payload;
    const params = Object.fromEntries(payload.params.map(([n, v]) => [n, toMessage(v)]));
    this.request = params; // { value } for echoes, { count }, { size }, { fromAccount, toAccount, amount }
  }

  /** Outcome of a reply message. */
  check(reply) {
    const p = this.payload;
    if (reply === null || typeof reply !== 'object') return Outcome.WrongReply;
    switch (p.kind) {
      case 'void': return Outcome.Success;
      case 'echo': return messageEquals(p.expected, reply.value) ? Outcome.Success : Outcome.WrongReply;
      case 'expect': // TransferFunds and Get256Bytes answer a StringValue; CreateProductInfo the ProductInfo itself
        return messageEquals(p.expected, p.expected.t === 'string' ? reply.value : reply) ? Outcome.Success : Outcome.WrongReply;
      case 'orders':
        return Array.isArray(reply.value) && reply.value.length === p.count
          && reply.value.every((o) => Array.isArray(o.orderItems) && o.orderItems.length === p.lines) ? Outcome.Success : Outcome.WrongReply;
      case 'rbytes':
        return Buffer.isBuffer(reply.value) && reply.value.length === p.size ? Outcome.Success : Outcome.WrongReply;
      default: return Outcome.Other;
    }
  }
}

/** One closed-loop client: one grpc-js channel (local subchannel pool), one HTTP/2 connection. */
class GrpcLoadClient {
  /**
   * @param endpoint the job's endpoint (http://host:port/ or https://host:port/)
   * @param codec the cell's GrpcCodec
   * @param timeoutMs per-call deadline
   * @param security `{ ca, pfx, passphrase }`: CA PEM text; the client's PKCS#12 and its password (mutual TLS)
   */
  constructor(endpoint, codec, timeoutMs, security = {}) {
    const url = new URL(endpoint.address);
    this.codec = codec;
    this.timeoutMs = timeoutMs;
    this.bytes = new SocketBytes();
    this.tlsError = null;
    const secure = url.protocol === 'https:';
    const credentials = secure
      ? grpc.credentials.createFromSecureContext(tls.createSecureContext({
        ca: security.ca, pfx: security.pfx, passphrase: security.passphrase, minVersion: 'TLSv1.2',
      }))
      : grpc.credentials.createInsecure();
    const createConnector = credentials._createSecureConnector.bind(credentials);
    credentials._createSecureConnector = (...args) => {
      const connector = createConnector(...args);
      return {
        connect: (socket) => {
          this.bytes.attach(socket);
          return connector.connect(socket).catch((error) => { this.tlsError = error; throw error; });
        },
        waitForReady: () => connector.waitForReady(),
        getCallCredentials: () => connector.getCallCredentials(),
        destroy: () => connector.destroy(),
      };
    };
    const Benchmark = benchmarkService();
    this.client = new Benchmark(url.host, credentials, {
      'grpc.use_local_subchannel_pool': 1,
      'grpc.enable_retries': 0, // a failed call is a sample, not a silent retry
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
      'grpc.max_send_message_length': 64 * 1024 * 1024,
      'grpc-node.flow_control_window': 4 * 1024 * 1024, // as the host's window: a Bytes256K reply does not wait on updates
    });
    this.method = this.client[codec.payload.operation].bind(this.client);
  }

  unary(method, request) {
    return new Promise((resolve, reject) => {
      method(request, { deadline: Date.now() + this.timeoutMs }, (error, reply) => (error ? reject(error) : resolve(reply)));
    });
  }

  classify(error) {
    switch (error && error.code) {
      case grpc.status.UNAUTHENTICATED: case grpc.status.PERMISSION_DENIED: return Outcome.Authentication;
      case grpc.status.DEADLINE_EXCEEDED: return Outcome.Timeout;
      case grpc.status.UNAVAILABLE: {
        const code = this.tlsError ? errorCode(this.tlsError) : undefined;
        return code && isTlsAuthCode(code) ? Outcome.Authentication : Outcome.Connection;
      }
      case undefined: return Outcome.Other;
      default: return Outcome.Fault; // the service answered with an error status
    }
  }

  /**
   * Opens the connection with one EmptyMethod call (not recorded); throws when the service cannot be reached.
   * A refusal of our credentials (Unauthenticated, a TLS refusal) does not throw: the level runs and its samples say so.
   */
  async open() {
    try {
      await this.unary(this.client.EmptyMethod.bind(this.client), {});
    } catch (error) {
      if (this.classify(error) === Outcome.Authentication) return;
      throw new Error(`${error.details || error.message}${this.tlsError ? ` (${errorCode(this.tlsError) || this.tlsError.message})` : ''}`);
    }
  }

  /** One call: [outcome, requestBytes, responseBytes]. */
  async call() {
    this.bytes.begin();
    let outcome;
    try {
      outcome = this.codec.check(await this.unary(this.method, this.codec.request));
    } catch (error) {
      outcome = this.classify(error);
    }
    const [written, read] = this.bytes.end();
    return [outcome, written, read];
  }

  async close() {
    this.client.close();
    this.bytes.destroy();
  }
}

module.exports = { GrpcCodec, GrpcLoadClient, toMessage, messageEquals, PROTO };
