// validate_gltf.mjs — runs Khronos' glTF Validator (npm gltf-validator, installed into
// tests/node/node_modules by scripts/setup.sh) over glTF/GLB files and prints each file's
// errors, warnings, infos and hints. Exit status: 0 when no file has an error, 1 when some has,
// 77 when the validator is not installed (the caller may skip).
//   node examples/validate_gltf.mjs examples/assets/models/rock.glb examples/assets/models/arm.gltf
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(new URL('../tests/node/package.json', import.meta.url));
let validator;
try {
  validator = require('gltf-validator');
} catch {
  console.error('validate_gltf: gltf-validator is not installed (cd tests/node && npm install)');
  process.exit(77);
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node examples/validate_gltf.mjs FILE.gltf|FILE.glb ...');
  process.exit(2);
}

let failed = false;
const severities = ['error', 'warning', 'info', 'hint'];
for (const file of files) {
  const bytes = await readFile(file);
  const report = await validator.validateBytes(new Uint8Array(bytes), {
    uri: path.basename(file),
    maxIssues: 0,
    writeTimestamp: false,
    externalResourceFunction: async (uri) =>
      new Uint8Array(await readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)))),
  });
  const is = report.issues;
  console.log(`${file}: validator ${report.validatorVersion}: ${is.numErrors} errors, ` +
              `${is.numWarnings} warnings, ${is.numInfos} infos, ${is.numHints} hints`);
  for (const m of is.messages)
    console.log(`  ${severities[m.severity] ?? m.severity} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
  if (is.numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
