'use strict';
// JSON with every number kept as its source text (JsonNumber), so that integers beyond 2^53 (long.MaxValue) and
// decimals beyond a double (decimal.MaxValue) can be checked exactly; Node 20's JSON.parse has no access to a number's
// source text. The parsing is npm lossless-json's; only the number type is ours.
const { parse } = require('lossless-json');

/** A JSON number as written: `raw` is its source text. */
class JsonNumber {
  constructor(raw) { this.raw = raw; }
}

/** Parses JSON text; numbers become JsonNumber. Throws SyntaxError on malformed input. */
function parseLossless(text) {
  return parse(text, null, (raw) => new JsonNumber(raw));
}

module.exports = { parseLossless, JsonNumber };
