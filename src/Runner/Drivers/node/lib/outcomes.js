'use strict';
// Sample outcomes (docs/driver-protocol.md, SampleOutcome; the catalogue's outcome kinds) and how a failed call is classified.

const { catalogue } = require('./catalogue');

/** Outcome name → its wire number, from the catalogue: { Success: 0, Timeout: 1, ... }. */
const Outcome = Object.freeze(Object.fromEntries(catalogue.outcomes.map((o) => [o.name, o.code])));

const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTCONN', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL',
  'ENOTFOUND', 'EAI_AGAIN',
  // undici: the other side closed the socket, or the socket failed.
  'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
// TLS refusals (docs/security.md): our verification of the server's certificate (untrusted, expired, wrong name) or the
// server's alert refusing ours. Node's OpenSSL codes; alerts arrive as ERR_SSL_TLSV1_ALERT_* / ERR_SSL_SSLV3_ALERT_*.
const TLS_AUTH_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_UNTRUSTED', 'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE', 'ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH',
]);
const isTlsAuthCode = (code) => TLS_AUTH_CODES.has(code) || /^ERR_SSL_(TLSV1|SSLV3|TLSV13)_ALERT_/.test(code);

/** The error code of an error or of one of its causes (undici and axios wrap system errors). */
function errorCode(error) {
  for (let e = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (typeof e.code === 'string' && (CONNECTION_CODES.has(e.code) || TIMEOUT_CODES.has(e.code) || isTlsAuthCode(e.code))) return e.code;
    if (Array.isArray(e.errors)) { // AggregateError from happy-eyeballs connects
      for (const inner of e.errors) if (inner && typeof inner.code === 'string') return inner.code;
    }
  }
  return error && typeof error.code === 'string' ? error.code : undefined;
}

/** Outcome of a transport-level error (no HTTP answer was read). */
function classifyTransportError(error) {
  const code = errorCode(error);
  if (code && isTlsAuthCode(code)) return Outcome.Authentication;
  if (code && TIMEOUT_CODES.has(code)) return Outcome.Timeout;
  if (code && CONNECTION_CODES.has(code)) return Outcome.Connection;
  return Outcome.Other;
}

/** A one-line reason for people (fail messages, stderr). */
function describeError(error) {
  const code = errorCode(error);
  const message = (error && error.message) || String(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

module.exports = { Outcome, errorCode, classifyTransportError, describeError, isTlsAuthCode };
