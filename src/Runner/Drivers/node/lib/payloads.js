'use strict';
// The payload catalogue (src/Service/Contracts/Payloads/PayloadCatalogue.cs) as typed value trees:
// what each payload sends, and how its reply is checked. Numbers are kept as their decimal text so that
// long.MaxValue and decimal.MaxValue survive (JavaScript numbers stop being exact at 2^53).

/** Typed leaves and containers. */
const num = (t, v) => ({ t, v });
const str = (v) => ({ t: 'string', v });
const bytes = (v) => ({ t: 'bytes', v });
const bool = (v) => ({ t: 'bool', v });
const empty = () => ({ t: 'empty' });
const struct = (fields) => ({ t: 'struct', fields });
/** An array; `wrap` names the item element when XML wraps the items in a member element (JAXB's OrderItems/OrderLine). */
const array = (items, wrap = null) => ({ t: 'array', items, wrap });

const UDTYPE = struct([
  ['ByteValue', num('byte', '255')],
  ['ShortValue', num('short', '32767')],
  ['IntValue', num('int', '2147483647')],
  ['LongValue', num('long', '9223372036854775807')],
  ['FloatValue', num('float', '3.4028235E+38')],
  ['DoubleValue', num('double', '1.7976931348623157E+308')],
  ['DecimalValue', num('decimal', '79228162514264337593543950335')],
  ['BoolValue', bool(true)],
]);

const PRODUCT_DETAILS = struct([
  ['Url', str('http://www.example.com/exec/obidos/ASIN/043935806X')],
  ['Asin', str('043935806X')],
  ['ProductName', str('Any Book Available')],
  ['Catalog', str('Books')],
  ['ReleaseDate', str('07/01/2003')],
  ['Manufacturer', str('Scholastic')],
  ['Distributor', str('Scholastic')],
  ['ImageUrlSmall', str('http://images.example.com/images/P/043935806X.01.THUMBZZZ.jpg')],
  ['ImageUrlMedium', str('http://images.example.com/images/P/043935806X.01.MZZZZZZZ.jpg')],
  ['ImageUrlLarge', str('http://images.example.com/images/P/043935806X.01.LZZZZZZZ.jpg')],
  ['ListPrice', str('29.99')],
  ['OurPrice', str('12.00')],
  ['UsedPrice', str('3.95')],
  ['Isbn', str('043935806X')],
  ['MpaaRating', str('')],
]);

const productInfo = (count) => struct([
  ['TotalResults', str(String(count))],
  ['TotalPages', str('1')],
  ['ListName', str('Books')],
  ['Details', array(Array.from({ length: count }, () => PRODUCT_DETAILS), 'ProductDetails')],
]);

const filled = (n, node) => array(Array.from({ length: n }, () => node));

/**
 * kind: 'void' (no reply), 'echo' (reply equals the single argument), 'expect' (reply equals `expected`),
 * 'orders' (count orders of two lines), 'rbytes' (size bytes).
 */
const echo = (id, operation, value) => ({ id, operation, params: [['value', value]], kind: 'echo', expected: value });

const CATALOGUE = [
  { id: 'Empty', operation: 'EmptyMethod', params: [], kind: 'void' },
  echo('Byte', 'ByteSimple', num('byte', '255')),
  echo('Int', 'IntSimple', num('int', '2147483647')),
  echo('Double', 'DoubleSimple', num('double', '1.7976931348623157E+308')),
  echo('StringEmpty', 'StringSimple', str('')),
  echo('String1', 'StringSimple', str('a')),
  echo('String500', 'StringSimple', str('a'.repeat(500))),
  echo('String1000', 'StringSimple', str('a'.repeat(1000))),
  echo('Object', 'ObjectSimple', empty()),
  echo('UDType', 'UDTypeSimple', UDTYPE),
  echo('ByteArray500', 'ByteArray', bytes(Buffer.alloc(500, 255))),
  echo('ByteArray1000', 'ByteArray', bytes(Buffer.alloc(1000, 255))),
  echo('IntArray500', 'IntArray', filled(500, num('int', '2147483647'))),
  echo('IntArray1000', 'IntArray', filled(1000, num('int', '2147483647'))),
  echo('DoubleArray500', 'DoubleArray', filled(500, num('double', '1.7976931348623157E+308'))),
  echo('DoubleArray1000', 'DoubleArray', filled(1000, num('double', '1.7976931348623157E+308'))),
  echo('ObjectArray500', 'ObjectArray', filled(500, empty())),
  echo('ObjectArray1000', 'ObjectArray', filled(1000, empty())),
  echo('UDTypeArray500', 'UDTypeArray', filled(500, UDTYPE)),
  echo('UDTypeArray1000', 'UDTypeArray', filled(1000, UDTYPE)),
  { id: 'Orders1', operation: 'GetOrders', params: [['count', num('int', '1')]], kind: 'orders', count: 1 },
  { id: 'Orders10', operation: 'GetOrders', params: [['count', num('int', '10')]], kind: 'orders', count: 10 },
  { id: 'Orders100', operation: 'GetOrders', params: [['count', num('int', '100')]], kind: 'orders', count: 100 },
  {
    id: 'TransferFunds', operation: 'TransferFunds', kind: 'expect', expected: str('successful'),
    params: [['fromAccount', num('int', '1')], ['toAccount', num('int', '2')], ['amount', num('decimal', '100.00')]],
  },
  { id: 'ProductInfo', operation: 'CreateProductInfo', params: [['count', num('int', '1')]], kind: 'expect', expected: productInfo(1) },
  { id: 'Bytes128', operation: 'GetRBytes', params: [['size', num('int', '128')]], kind: 'rbytes', size: 128 },
  { id: 'Bytes4K', operation: 'GetRBytes', params: [['size', num('int', '4096')]], kind: 'rbytes', size: 4096 },
  { id: 'Bytes256K', operation: 'GetRBytes', params: [['size', num('int', '262144')]], kind: 'rbytes', size: 262144 },
  { id: 'Get256Bytes', operation: 'Get256Bytes', params: [], kind: 'expect', expected: str('x'.repeat(256)) },
];

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
