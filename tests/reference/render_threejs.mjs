#!/usr/bin/env node
// render_threejs.mjs — the independent reference render of a SOURCE glTF (issue 20 item 5):
// three.js' GLTFLoader in headless Chromium, every material unlit (base colour), framed by the
// camera rule written in docs/rendering-reference.md, written as an 8-bit RGBA PNG.
//
//   node render_threejs.mjs MODEL.gltf|.glb OUT.png [--size W H] [--camera auto|front|back|
//        left|right|top|bottom] [--background r,g,b,a] [--time T] [--clip N|all|none]
//        [--bounds minx,miny,minz,maxx,maxy,maxz] [--info OUT.json]
//   node render_threejs.mjs --batch JOBS.json
//
// --batch renders many models in one Chromium (its start is most of a single render's time):
// JOBS.json is a JSON array of argument arrays, each as on the command line above; one JSON line
// per job on stdout ({"model", "out", ...} with "error" when it failed), exit 1 if any failed.
// The page and the model's folder are served on 127.0.0.1 by this process; the browser may not
// reach anything else. Prints one JSON line (bounds, camera, matrices, clips) on stdout.
// Exit 0 rendered, 1 the model failed to load or render, 2 usage, 77 Chromium or the npm
// packages (tests/node: three, puppeteer-core) are missing.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeDir = path.resolve(here, '..', 'node');
const require = createRequire(path.join(nodeDir, 'package.json'));

function usage(msg) {
  if (msg) process.stderr.write(`render_threejs: ${msg}\n`);
  process.stderr.write('usage: render_threejs.mjs MODEL.gltf|.glb OUT.png [--size W H] ' +
    '[--camera auto|front|back|left|right|top|bottom] [--background r,g,b,a] [--time T] ' +
    '[--clip N|all|none] [--bounds minx,miny,minz,maxx,maxy,maxz] [--info OUT.json]\n' +
    '       render_threejs.mjs --batch JOBS.json\n');
  process.exit(2);
}

function parseArgs(argv) {
  const o = { width: 512, height: 512, view: 'auto', background: [0, 0, 0, 255], time: 0,
              clip: '0', bounds: null, info: null };
  const pos = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => { if (i + 1 >= argv.length) usage(`${a} needs a value`); return argv[++i]; };
    if (a === '--size') {
      o.width = Number(next()); o.height = Number(next());
      if (!Number.isInteger(o.width) || !Number.isInteger(o.height) || o.width < 1 ||
          o.height < 1 || o.width > 4096 || o.height > 4096) usage('bad --size');
    } else if (a === '--camera') {
      o.view = next();
      if (!['auto', 'front', 'back', 'left', 'right', 'top', 'bottom'].includes(o.view)) {
        usage(`unknown camera ${o.view}`);
      }
    } else if (a === '--background') {
      const v = next().split(',').map(Number);
      if (v.length === 3) v.push(255);
      if (v.length !== 4 || v.some((x) => !Number.isInteger(x) || x < 0 || x > 255)) {
        usage('--background takes r,g,b[,a] in 0..255');
      }
      o.background = v;
    } else if (a === '--time') {
      o.time = Number(next());
      if (!Number.isFinite(o.time) || o.time < 0) usage('bad --time');
    } else if (a === '--clip') {
      o.clip = next();
      if (!['all', 'none'].includes(o.clip) && !/^[0-9]+$/.test(o.clip)) usage('bad --clip');
    } else if (a === '--bounds') {
      const v = next().split(',').map(Number);
      if (v.length !== 6 || v.some((x) => !Number.isFinite(x))) usage('bad --bounds');
      o.bounds = v;
    } else if (a === '--info') {
      o.info = next();
    } else if (a.startsWith('--')) {
      usage(`unknown option ${a}`);
    } else {
      pos.push(a);
    }
  }
  if (pos.length !== 2) usage();
  [o.model, o.out] = pos;
  return o;
}

// PNG writer (8-bit RGBA, filter 0, zlib level 9): deterministic bytes for identical pixels.
const crcTable = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(buf) {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = crcTable[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function encodePng(width, height, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; ihdr[9] = 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  const raw = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
                        chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
                        chunk('IEND', Buffer.alloc(0))]);
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
                '.wasm': 'application/wasm', '.json': 'application/json',
                '.gltf': 'model/gltf+json', '.glb': 'model/gltf-binary', '.png': 'image/png',
                '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp',
                '.ktx2': 'image/ktx2' };

// Serves /three/ (the npm package), /model/I/ (the folder of job I's model), /page.html and
// /page.js.
function serve(threeDir, modelDirs) {
  const page = '<!doctype html><html><head><meta charset="utf-8"><script type="importmap">' +
    JSON.stringify({ imports: { three: '/three/build/three.module.js',
                                'three/addons/': '/three/examples/jsm/' } }) +
    '</script></head><body style="margin:0"><script type="module" src="/page.js"></script>' +
    '</body></html>';
  const server = http.createServer((req, res) => {
    let url;
    try { url = decodeURIComponent(new URL(req.url, 'http://x').pathname); } catch {
      res.writeHead(400); res.end(); return;
    }
    let file = null;
    const under = (root, rel) => {
      const f = path.resolve(root, '.' + path.posix.normalize('/' + rel));
      return f.startsWith(path.resolve(root) + path.sep) ? f : null;
    };
    if (url === '/favicon.ico') {
      res.writeHead(204); res.end(); return;
    } else if (url === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html' }); res.end(page); return;
    } else if (url === '/page.js') file = path.join(here, 'page.js');
    else if (url.startsWith('/three/')) file = under(threeDir, url.slice(7));
    else if (url.startsWith('/model/')) {
      const m = /^\/model\/([0-9]+)\/(.*)$/s.exec(url);
      if (m && Number(m[1]) < modelDirs.length) file = under(modelDirs[Number(m[1])], m[2]);
    }
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404); res.end(); return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file).toLowerCase()] ||
                                         'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function findChromium() {
  for (const c of [process.env.KILN_CHROMIUM, '/usr/lib/chromium/chromium', '/usr/bin/chromium',
                   '/usr/bin/chromium-browser']) {
    if (c && fs.existsSync(c)) return c;
  }
  return null;
}

async function renderJob(browser, origin, o, index, tStart) {
  const page = await browser.newPage();
  try {
    await page.setRequestInterception(true);
    page.on('request', (r) => (r.url().startsWith(origin + '/') || r.url().startsWith('data:') ||
                               r.url().startsWith('blob:') ? r.continue() : r.abort()));
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${origin}/page.html`, { waitUntil: 'load' });
    await page.waitForFunction('window.kilnReady === true', { timeout: 30000 });
    const url = `/model/${index}/` + encodeURIComponent(path.basename(o.model));
    const r = await page.evaluate((opt) => window.kilnRender(opt).catch((e) => ({
      error: String(e && e.stack ? e.stack : e) })), {
      url, width: o.width, height: o.height, view: o.view, background: o.background,
      time: o.time, clip: o.clip, bounds: o.bounds });
    if (r.error) return { error: r.error.split('\n')[0], page_errors: errors };
    fs.writeFileSync(o.out, encodePng(o.width, o.height, Buffer.from(r.rgba, 'base64')));
    r.info.page_errors = errors;
    r.info.time_ms.total = Date.now() - tStart;
    return r.info;
  } finally {
    await page.close();
  }
}

async function main() {
  const argv = process.argv.slice(2);
  let jobs, batch = false;
  if (argv[0] === '--batch') {
    if (argv.length !== 2) usage('--batch takes one file');
    let list;
    try { list = JSON.parse(fs.readFileSync(argv[1], 'utf8')); } catch (e) { usage(`--batch: ${e.message}`); }
    if (!Array.isArray(list) || list.some((j) => !Array.isArray(j))) {
      usage('--batch file: a JSON array of argument arrays');
    }
    jobs = list.map((j) => parseArgs(j.map(String)));
    batch = true;
  } else {
    jobs = [parseArgs(argv)];
  }
  const chromium = findChromium();
  if (!chromium) { process.stderr.write('render_threejs: chromium not found\n'); process.exit(77); }
  let puppeteer, threeDir;
  try {
    puppeteer = (await import(require.resolve('puppeteer-core'))).default;
    threeDir = path.dirname(path.dirname(require.resolve('three')));
  } catch {
    process.stderr.write('render_threejs: npm packages missing (cd tests/node && npm install)\n');
    process.exit(77);
  }
  if (!batch && !fs.existsSync(jobs[0].model)) {
    process.stderr.write(`render_threejs: no ${jobs[0].model}\n`);
    process.exit(1);
  }
  const server = await serve(threeDir, jobs.map((o) => path.dirname(path.resolve(o.model))));
  const origin = `http://127.0.0.1:${server.address().port}`;
  let tStart = Date.now();
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    // SwiftShader WebGL: the same software rasterizer on every machine, no GPU needed.
    args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader',
           '--enable-unsafe-swiftshader', '--disable-gpu-driver-bug-workarounds',
           '--force-color-profile=srgb', '--no-proxy-server', '--disable-extensions'],
  });
  let code = 0;
  try {
    for (let i = 0; i < jobs.length; i++) {
      const o = jobs[i];
      let info;
      if (!fs.existsSync(o.model)) info = { error: `no ${o.model}`, page_errors: [] };
      else info = await renderJob(browser, origin, o, i, tStart);
      tStart = Date.now();
      if (info.error) {
        process.stderr.write(`render_threejs: ${o.model}: ${info.error}\n`);
        for (const e of info.page_errors) process.stderr.write(`render_threejs: page: ${e}\n`);
        code = 1;
      }
      const line = JSON.stringify({ model: o.model, out: o.out, ...info });
      if (o.info) fs.writeFileSync(o.info, line + '\n');
      if (batch || !info.error) process.stdout.write(line + '\n');
    }
  } finally {
    await browser.close();
    server.close();
  }
  process.exit(code);
}

main().catch((e) => { process.stderr.write(`render_threejs: ${e.stack || e}\n`); process.exit(1); });
