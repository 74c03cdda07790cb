'use strict';
// A small JSON parser that keeps every number as its source text (JsonNumber), so that integers beyond
// 2^53 (long.MaxValue) and decimals beyond a double (decimal.MaxValue) can be checked exactly.
// Node 20's JSON.parse has no access to a number's source text.

class JsonNumber {
  constructor(raw) { this.raw = raw; }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WS = /[ \t\n\r]*/y;

/** Parses JSON text; numbers become JsonNumber. Throws SyntaxError on malformed input. */
function parseLossless(text) {
  let i = 0;
  const fail = (what) => { throw new SyntaxError(`JSON: ${what} at ${i}`); };
  const ws = () => { WS.lastIndex = i; WS.test(text); i = WS.lastIndex; };

  function string() {
    // text[i] === '"'
    const start = i + 1;
    let end = text.indexOf('"', start);
    if (end < 0) fail('unterminated string');
    const slash = text.indexOf('\\', start);
    if (slash < 0 || slash > end) {
      i = end + 1;
      const s = text.slice(start, end);
      for (let k = 0; k < s.length; k++) if (s.charCodeAt(k) < 0x20) fail('control character in string');
      return s;
    }
    // Escapes: find the real closing quote, let JSON.parse decode the literal.
    end = start;
    for (;;) {
      const c = text.charCodeAt(end);
      if (Number.isNaN(c)) fail('unterminated string');
      if (c === 0x5c) { end += 2; continue; }
      if (c === 0x22) break;
      end++;
    }
    i = end + 1;
    return JSON.parse(text.slice(start - 1, end + 1));
  }

  function value() {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj = Object.create(null);
      ws();
      if (text[i] === '}') { i++; return obj; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name');
        const key = string();
        ws();
        if (text[i] !== ':') fail("expected ':'");
        i++;
        obj[key] = value();
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return obj; }
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const arr = [];
      ws();
      if (text[i] === ']') { i++; return arr; }
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return arr; }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', i)) { i += 4; return true; }
    if (text.startsWith('false', i)) { i += 5; return false; }
    if (text.startsWith('null', i)) { i += 4; return null; }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) fail('unexpected character');
    i = NUMBER.lastIndex;
    return new JsonNumber(m[0]);
  }

  const result = value();
  ws();
  if (i !== text.length) fail('trailing characters');
  return result;
}

module.exports = { parseLossless, JsonNumber };
