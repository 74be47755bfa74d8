#!/usr/bin/env node
// check_page.mjs — loads a page `kiln report --html` wrote in headless Chromium, from file://,
// with every request that is not a file of the page's folder refused, and checks: the page
// loads, no console error and no page error, no request leaves the folder, every <img> decoded
// (naturalWidth > 0), the page holds what the report says (asset cards, the size chart). Writes a
// full-page screenshot. Also loads it with JavaScript off: the page needs none.
//
//   node check_page.mjs PAGE.html SCREENSHOT.png [--expect-cards N] [--expect-images N]
//
// Exit 0 ok, 1 a check failed, 2 usage, 77 Chromium or tests/node's puppeteer-core is missing.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'node', 'package.json'));

function usage(msg) {
  process.stderr.write(`check_page: ${msg}\nusage: check_page.mjs PAGE.html SCREENSHOT.png ` +
    '[--expect-cards N] [--expect-images N]\n');
  process.exit(2);
}

const args = process.argv.slice(2);
const pos = [];
const want = {};
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--expect-cards' || args[i] === '--expect-images') {
    if (i + 1 >= args.length) usage(`${args[i]} needs a value`);
    want[args[i].slice(9)] = Number(args[++i]);
  } else pos.push(args[i]);
}
if (pos.length !== 2) usage('two paths');
const [pagePath, shotPath] = pos;

function findChromium() {
  for (const c of [process.env.KILN_CHROMIUM, '/usr/lib/chromium/chromium', '/usr/bin/chromium',
                   '/usr/bin/chromium-browser']) {
    if (c && fs.existsSync(c)) return c;
  }
  return null;
}

const chromium = findChromium();
if (!chromium) { process.stderr.write('check_page: chromium not found\n'); process.exit(77); }
let puppeteer;
try {
  puppeteer = (await import(require.resolve('puppeteer-core'))).default;
} catch {
  process.stderr.write('check_page: npm packages missing (cd tests/node && npm install)\n');
  process.exit(77);
}
if (!fs.existsSync(pagePath)) { process.stderr.write(`check_page: no ${pagePath}\n`); process.exit(1); }

const pageUrl = pathToFileURL(path.resolve(pagePath)).href;
const folder = pathToFileURL(path.dirname(path.resolve(pagePath))).href + '/';
const failures = [];

async function load(browser, js) {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(js);
  await page.setViewport({ width: 1280, height: 900 });
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    const u = r.url();
    if (u.startsWith(folder)) r.continue();
    else { failures.push(`request outside the page's folder: ${u}`); r.abort(); }
  });
  page.on('requestfailed', (r) => {
    if (r.url().startsWith(folder)) failures.push(`failed to load ${r.url()}`);
  });
  page.on('pageerror', (e) => failures.push(`page error: ${e}`));
  page.on('console', (m) => { if (m.type() === 'error') failures.push(`console: ${m.text()}`); });
  await page.goto(pageUrl, { waitUntil: 'load' });
  // Folded sections (a model's textures) opened, as a reader would; lazy images load once in
  // view: the page is scrolled through, a screen at a time, as a reader would.
  await page.$$eval('details', (l) => l.forEach((d) => { d.open = true; }));
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 800) {
    await page.evaluate((to) => window.scrollTo(0, to), y);
    await new Promise((r) => setTimeout(r, 10));
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return page;
}

async function images(page) {
  // Each <img> settles (loaded or broken) within the time allowed.
  const deadline = Date.now() + 60000;
  for (;;) {
    const pending = await page.$$eval('img', (l) => l.filter((i) => !i.complete).length);
    if (!pending || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return page.$$eval('img', (l) => l.map((i) => ({ src: i.getAttribute('src'),
                                                    w: i.naturalWidth, done: i.complete })));
}

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--force-color-profile=srgb', '--no-proxy-server',
         '--disable-extensions', '--allow-file-access-from-files', '--hide-scrollbars'],
});
let summary = {};
try {
  const page = await load(browser, true);
  const imgs = await images(page);
  for (const i of imgs) if (!i.done || !(i.w > 0)) failures.push(`image not loaded: ${i.src}`);
  const cards = await page.$$eval('article.asset', (l) => l.length);
  const charts = await page.$$eval('svg.chart rect', (l) => l.length);
  const scripts = await page.$$eval('script[src], link[rel="stylesheet"]', (l) => l.length);
  if (scripts) failures.push(`${scripts} external scripts or style sheets`);
  if (want['cards'] !== undefined && cards !== want['cards']) {
    failures.push(`${cards} asset cards, expected ${want['cards']}`);
  }
  if (want['images'] !== undefined && imgs.length !== want['images']) {
    failures.push(`${imgs.length} images, expected ${want['images']}`);
  }
  await page.screenshot({ path: shotPath, fullPage: true });
  summary = { cards, images: imgs.length, chart_bars: charts };
  // Without JavaScript: the same images load.
  const plain = await load(browser, false);
  const imgs2 = await images(plain);
  for (const i of imgs2) if (!(i.w > 0)) failures.push(`without JavaScript: image not loaded: ${i.src}`);
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify({ page: pagePath, screenshot: shotPath, ...summary,
                                      failures }) + '\n');
for (const f of failures) process.stderr.write(`check_page: ${f}\n`);
process.exit(failures.length ? 1 : 0);
