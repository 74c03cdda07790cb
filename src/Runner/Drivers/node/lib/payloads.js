'use strict';
// The payload catalogue as typed value trees, built from the one catalogue file (lib/catalogue.js): what each payload
// sends, and how its reply is checked. Numbers are kept as their decimal text so that long.MaxValue and decimal.MaxValue
// survive (JavaScript numbers stop being exact at 2^53).

const { catalogue } = require('./catalogue');

/** Typed leaves and containers. */
const num = (t, v) => ({ t, v });
const str = (v) => ({ t: 'string', v });
const bytes = (v) => ({ t: 'bytes', v });
const bool = (v) => ({ t: 'bool', v });
const empty = () => ({ t: 'empty' });
const struct = (fields) => ({ t: 'struct', fields });
/** An array; `wrap` names the item element when XML wraps the items in a member element (JAXB's OrderItems/OrderLine). */
const array = (items, wrap = null) => ({ t: 'array', items, wrap });

const NUMBER_KINDS = ['byte', 'short', 'int', 'long', 'float', 'double', 'decimal'];

/**
 * The typed tree of one catalogue value description (docs/service-contract.md, "The catalogue file"); `wrapped` is true
 * for a data contract's member, whose array items XML wraps in an element named for the item's type.
 */
function valueOf(d, wrapped = false) {
  if (d.ref !== undefined) {
    const named = catalogue.values[d.ref];
    if (!named) throw new Error(`the catalogue has no value '${d.ref}'`);
    return valueOf(named, wrapped);
  }
  if (d.array !== undefined) {
    if (Array.isArray(d.array)) return array(d.array.map((item) => valueOf(item)), wrapped ? structName(d.array[0]) : null);
    if (d.array.byte !== undefined) return bytes(Buffer.alloc(d.count, Number(d.array.byte)));
    const item = valueOf(d.array);
    return array(Array.from({ length: d.count }, () => item), wrapped ? structName(d.array) : null);
  }
  if (d.struct !== undefined) return struct(d.fields.map(([name, v]) => [name, valueOf(v, true)]));
  if (d.string !== undefined) return str(d.string.repeat(d.repeat ?? 1));
  if (d.object !== undefined) return empty();
  if (d.bool !== undefined) return bool(d.bool);
  const kind = NUMBER_KINDS.find((k) => d[k] !== undefined);
  if (kind) return num(kind, d[kind]);
  throw new Error(`unknown value description ${JSON.stringify(d)}`);
}

function structName(d) {
  const resolved = d.ref !== undefined ? catalogue.values[d.ref] : d;
  return resolved && resolved.struct ? resolved.struct : null;
}

/**
 * One payload case: `params` [name, typed value] in call order; kind 'void' (no reply), 'echo' (reply equals the single
 * argument), 'expect' (reply equals `expected`), 'orders' (`count` orders of `lines` lines), 'rbytes' (`size` bytes).
 */
function payloadOf(p) {
  const operation = catalogue.operations.find((o) => o.name === p.operation);
  if (!operation) throw new Error(`payload ${p.id} calls unknown operation ${p.operation}`);
  const params = operation.parameters.map((parameter, i) => [parameter.name, valueOf(p.arguments[i])]);
  const base = { id: p.id, operation: p.operation, params };
  const r = p.reply;
  if (r.void) return { ...base, kind: 'void' };
  if (r.echo) return { ...base, kind: 'echo', expected: params[0][1] };
  if (r.expect) return { ...base, kind: 'expect', expected: valueOf(r.expect) };
  if (r.orders) {
    const element = r.orders.element.ref ? catalogue.values[r.orders.element.ref] : r.orders.element;
    const lines = element.fields.find(([name]) => name === 'OrderItems')[1].array.length;
    return { ...base, kind: 'orders', count: r.orders.count, lines };
  }
  if (r.randomBytes !== undefined) return { ...base, kind: 'rbytes', size: r.randomBytes };
  throw new Error(`payload ${p.id}: unknown reply ${JSON.stringify(r)}`);
}

const CATALOGUE = catalogue.payloads.map(payloadOf);

const BY_ID = new Map(CATALOGUE.map((p) => [p.id, p]));

/** The payload case with that id (case-sensitive), or undefined. */
function findPayload(id) {
  return BY_ID.get(id);
}

// ---- value comparison (shared by the JSON and the SOAP checks) ----

const INTEGER = /^[+-]?\d+$/;
const FLOATING = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A decimal number's text without sign noise and leading/trailing zeros ("0100.10" → "100.1"), or null. */
function normalizeDecimal(text) {
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) return null;
  const whole = m[2].replace(/^0+/, '') || '0';
  const fraction = (m[3] || '').replace(/0+$/, '');
  const sign = m[1] === '-' && (whole !== '0' || fraction !== '') ? '-' : '';
  return sign + whole + (fraction ? '.' + fraction : '');
}

/** Whether a number's text (as it came on the wire) stands for the expected typed number. */
function numberEquals(type, expected, text) {
  if (typeof text !== 'string') return false;
  text = text.trim();
  switch (type) {
    case 'byte': case 'short': case 'int': case 'long':
      return INTEGER.test(text) && BigInt(text) === BigInt(expected);
    case 'float':
      return FLOATING.test(text) && Math.fround(Number(text)) === Math.fround(Number(expected));
    case 'double':
      return FLOATING.test(text) && Number(text) === Number(expected);
    case 'decimal':
      return normalizeDecimal(text) !== null && normalizeDecimal(text) === normalizeDecimal(expected);
    default:
      return false;
  }
}

/** Decodes strict base64 (what both stacks write), or null when the text is not base64. */
function decodeBase64(text) {
  if (typeof text !== 'string') return null;
  const t = text.trim();
  if (t.length % 4 !== 0 || !BASE64.test(t)) return null;
  return Buffer.from(t, 'base64');
}

module.exports = {
  CATALOGUE, findPayload, numberEquals, decodeBase64, normalizeDecimal,
  types: { num, str, bytes, bool, empty, struct, array },
};
