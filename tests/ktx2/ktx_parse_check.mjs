// ktx_parse_check.mjs — independent check of kiln's KTX2 files with the ktx-parse npm package:
// each file must parse, re-serialise to identical bytes, and carry what kiln says it wrote.
//
//   node ktx_parse_check.mjs [--expect=vkFormat,levelCount,width,height,scheme[,depth,layers,faces]]
//        file.ktx2 ...
//
// An --expect applies to the file after it. ktx-parse is found in ../node/node_modules (or at
// $KTX_PARSE_MODULE). Exit 0 when every file passes, 1 otherwise, 2 on bad usage.
import { readFileSync } from 'node:fs';

const modulePath = process.env.KTX_PARSE_MODULE
  ? new URL(`file://${process.env.KTX_PARSE_MODULE}`)
  : new URL('../node/node_modules/ktx-parse/dist/index.mjs', import.meta.url);
const { read, write } = await import(modulePath.href);

let failures = 0;
let checked = 0;
let expect = null;

function fail(path, what) {
  console.log(`FAIL ${path}: ${what}`);
  failures++;
}

for (const arg of process.argv.slice(2)) {
  if (arg.startsWith('--expect=')) {
    const v = arg.slice('--expect='.length).split(',').map(Number);
    if ((v.length !== 5 && v.length !== 8) || v.some(Number.isNaN)) {
      console.error(`bad ${arg}`);
      process.exit(2);
    }
    expect = { vkFormat: v[0], levelCount: v[1], pixelWidth: v[2], pixelHeight: v[3], supercompressionScheme: v[4] };
    if (v.length === 8) Object.assign(expect, { pixelDepth: v[5], layerCount: v[6], faceCount: v[7] });
    continue;
  }
  const path = arg;
  checked++;
  const bytes = new Uint8Array(readFileSync(path));
  let container;
  try {
    container = read(bytes);
  } catch (e) {
    fail(path, `read() threw: ${e.message}`);
    expect = null;
    continue;
  }
  // keepWriter: otherwise write() replaces KTXwriter with its own name.
  const again = write(container, { keepWriter: true });
  if (again.length !== bytes.length) {
    fail(path, `write() gave ${again.length} bytes, the file has ${bytes.length}`);
  } else {
    const at = again.findIndex((b, i) => b !== bytes[i]);
    if (at >= 0) fail(path, `write() differs at byte ${at}: ${again[at]} vs ${bytes[at]}`);
  }
  const kv = container.keyValue;
  const orientation = container.pixelDepth > 0 ? 'rdi' : 'rd';
  if (kv.KTXorientation !== orientation) fail(path, `KTXorientation is ${JSON.stringify(kv.KTXorientation)}`);
  if (typeof kv.KTXwriter !== 'string' || !kv.KTXwriter.startsWith('kiln ')) {
    fail(path, `KTXwriter is ${JSON.stringify(kv.KTXwriter)}`);
  }
  const dfd = container.dataFormatDescriptor[0];
  if (container.levels.length !== container.levelCount) {
    fail(path, `${container.levels.length} levels parsed, levelCount ${container.levelCount}`);
  }
  for (const [i, level] of container.levels.entries()) {
    if (container.supercompressionScheme === 0 && level.uncompressedByteLength !== level.levelData.byteLength) {
      fail(path, `level ${i}: uncompressedByteLength ${level.uncompressedByteLength} != byteLength ${level.levelData.byteLength}`);
    }
  }
  if (expect) {
    for (const [key, want] of Object.entries(expect)) {
      if (container[key] !== want) fail(path, `${key} is ${container[key]}, kiln expects ${want}`);
    }
  }
  console.log(
    `${path}: vkFormat ${container.vkFormat} typeSize ${container.typeSize} ` +
      `${container.pixelWidth}x${container.pixelHeight} depth ${container.pixelDepth} ` +
      `layers ${container.layerCount} faces ${container.faceCount} levels ${container.levelCount} ` +
      `scheme ${container.supercompressionScheme} colorModel ${dfd.colorModel} ` +
      `transfer ${dfd.transferFunction} samples ${dfd.samples.length} writer "${kv.KTXwriter}"`,
  );
  expect = null;
}

if (checked === 0) {
  console.error('no files given');
  process.exit(2);
}
console.log(`${checked} files checked, ${failures} failures`);
process.exit(failures ? 1 : 0);
