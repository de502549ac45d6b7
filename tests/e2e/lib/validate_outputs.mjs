// SPDX-License-Identifier: MIT
// Validates tool outputs against the tools' outputSchema with the validator
// the SDK client uses (its AjvJsonSchemaValidator), after compiling every
// schema with a strict Ajv so that a misspelt keyword is an error rather than
// ignored. Used by tests/mcp/typed_results_test.cc.
//
//   node validate_outputs.mjs FILE
//
// FILE: {"schemas": {tool: outputSchema}, "samples": [{tool, where, value}]}.
// Prints one line per sample that does not conform; exits 1 if any does.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

const { schemas, samples } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const strict = new Ajv({ strict: true, allErrors: true });
const sdk = new AjvJsonSchemaValidator();
const validators = {};
let failures = 0;
for (const [tool, schema] of Object.entries(schemas)) {
  try {
    strict.compile(schema);
  } catch (error) {
    console.log(`${tool}: outputSchema does not compile strictly: ${error.message}`);
    failures++;
  }
  validators[tool] = sdk.getValidator(schema);
}
for (const { tool, where, value } of samples) {
  const check = validators[tool];
  if (!check) {
    console.log(`${tool}: no outputSchema (${where})`);
    failures++;
    continue;
  }
  const result = check(value);
  if (!result.valid) {
    console.log(`${where}: ${result.errorMessage}: ${JSON.stringify(value).slice(0, 400)}`);
    failures++;
  }
}
console.log(`${samples.length} outputs of ${Object.keys(schemas).length} tools, ${failures} failures`);
process.exit(failures ? 1 : 0);
