// node sarif_validate.js PREFIX FILE: validates FILE against the SARIF 2.1.0 schema that @microsoft/jest-sarif ships,
// with ajv 6 (both installed under PREFIX by install_sarif_validator.cmake). Exit 0 valid, 1 invalid (errors on
// stdout), 2 validator or schema missing.
const path = require('path');
const fs = require('fs');
const [prefix, file] = process.argv.slice(2);
const mods = path.join(prefix, 'node_modules');
let Ajv, schema;
try {
  Ajv = require(path.join(mods, 'ajv'));
  schema = JSON.parse(fs.readFileSync(path.join(mods, '@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json')));
} catch (e) {
  console.log('validator missing: ' + e.message);
  process.exit(2);
}
// The SARIF 2.1.0 schema is JSON Schema draft-04: ajv 6 validates it with its draft-04 meta-schema added.
const ajv = new Ajv({allErrors: true, schemaId: 'auto'});
ajv.addMetaSchema(require(path.join(mods, 'ajv/lib/refs/json-schema-draft-04.json')));
const validate = ajv.compile(schema);
const log = JSON.parse(fs.readFileSync(file, 'utf8'));
if (validate(log)) {
  console.log('valid SARIF 2.1.0 (' + (schema.$id || schema.id) + ')');
  process.exit(0);
}
console.log(JSON.stringify(validate.errors, null, 1));
process.exit(1);
