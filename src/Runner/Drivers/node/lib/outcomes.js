'use strict';
// Sample outcomes (docs/driver-protocol.md, SampleOutcome) and how a failed call is classified.

const Outcome = Object.freeze({ Success: 0, Timeout: 1, Fault: 2, Connection: 3, Authentication: 4, Other: 5, WrongReply: 6 });

const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTCONN', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL',
  'ENOTFOUND', 'EAI_AGAIN',
  // undici: the other side closed the socket, or the socket failed.
  'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The error code of an error or of one of its causes (undici and axios wrap system errors). */
function errorCode(error) {
  for (let e = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (typeof e.code === 'string' && (CONNECTION_CODES.has(e.code) || TIMEOUT_CODES.has(e.code))) return e.code;
    if (Array.isArray(e.errors)) { // AggregateError from happy-eyeballs connects
      for (const inner of e.errors) if (inner && typeof inner.code === 'string') return inner.code;
    }
  }
  return error && typeof error.code === 'string' ? error.code : undefined;
}

/** Outcome of a transport-level error (no HTTP answer was read). */
function classifyTransportError(error) {
  const code = errorCode(error);
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

module.exports = { Outcome, errorCode, classifyTransportError, describeError };
