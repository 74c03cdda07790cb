'use strict';
// The one catalogue (src/Service/Contracts/Catalogue/catalogue.json, docs/architecture.md "How to add"): endpoint
// variants, operations, payloads, outcome kinds, client technologies and the pairs that work. Read once at start: the
// file DASHBOARD_CATALOGUE names, else catalogue.json beside driver.js (an installed copy, docker/web.Dockerfile), else
// the source tree's (the driver runs from src/Runner/Drivers/node).

const fs = require('node:fs');
const path = require('node:path');

const CATALOGUE_FILE = process.env.DASHBOARD_CATALOGUE
  || [path.join(__dirname, '..', 'catalogue.json'), path.join(__dirname, '..', '..', '..', '..', 'Service', 'Contracts', 'Catalogue', 'catalogue.json')]
    .find((file) => fs.existsSync(file));
if (!CATALOGUE_FILE) throw new Error('catalogue.json not found (src/Service/Contracts/Catalogue; or set DASHBOARD_CATALOGUE)');

/** The parsed catalogue document (read-only). */
const catalogue = deepFreeze(JSON.parse(fs.readFileSync(CATALOGUE_FILE, 'utf8')));

const VARIANTS = new Map(catalogue.variants.map((v) => [v.name, v]));

/** The catalogue's variant `name` (stack, codec, tls, credentialType, ...), or undefined. */
function findVariant(name) {
  return VARIANTS.get(name);
}

/** The variants client technology `id` calls, in catalogue order (empty for an unknown client). */
function variantsOf(id) {
  const client = catalogue.clients.find((c) => c.id === id);
  return client ? catalogue.variants.filter((v) => client.variants.includes(v.name)).map((v) => v.name) : [];
}

function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

module.exports = { catalogue, CATALOGUE_FILE, findVariant, variantsOf };
