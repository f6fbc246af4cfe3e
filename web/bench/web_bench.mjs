// The web viewer's figures in one run (docs/PERFORMANCE.md, "Web viewer"):
//   - parse throughput of the WebAssembly core (Node, build-web/node) against the native build
//     (build/bin/web_parse_bench) on the same corpus files: the same function (web/src/parse_bench.h), as a ratio;
//   - time from "drop" (files handed to the page's picker) to the first frame for the corpus's largest model;
//   - frames per second at 1280x720 in headless Chromium (software WebGL2) while the clip plays, and the desktop's
//     `rigscope --screenshot --bench-fps` on the same scene;
//   - the page's download size (every file of build-web/site).
// node web/bench/web_bench.mjs [--seconds S]   (from the repository root; needs build/, build-web/, the corpus)
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1] || 3) || 3;
const corpus = path.resolve(root, '..', 'shared', 'corpus');
const site = path.join(root, 'build-web', 'site');
const models = path.join(corpus, 'alamo/Delta730+Imperial_Civil_War/Data/Art/Models');
if (!fs.existsSync(models)) {
  console.log('SKIPPED: the corpus is absent');
  process.exit(77);
}
const out = {};

// 1. Parse throughput: every Alamo model and clip of the corpus folder (particles included: they read too).
const files = fs.readdirSync(models).filter((f) => /\.(alo|ala)$/i.test(f)).map((f) => path.join(models, f)).sort();
const native = JSON.parse(execFileSync(path.join(root, 'build/bin/web_parse_bench'), [String(seconds), ...files],
  { encoding: 'utf8' }));
const M = await require(path.join(root, 'build-web/node/rigscope_web_node.js'))();
// A first pass not counted: V8 compiles the module in tiers (a quick baseline first, optimised code later); the
// first seconds measure the baseline (0.06 of native in one run, against 0.57 after it).
M.benchParse(files.join('\n'), seconds);
const wasm = JSON.parse(M.benchParse(files.join('\n'), seconds));
out.parse = { files: files.length, bytes: native.bytes, nativeMBps: native.bytesPerSecond / 1e6,
  wasmMBps: wasm.bytesPerSecond / 1e6, ratio: wasm.bytesPerSecond / native.bytesPerSecond };

// 2-3. The page in headless Chromium.
const largest = fs.readdirSync(models).filter((f) => /\.alo$/i.test(f) && !/^P_/i.test(f))
  .map((f) => path.join(models, f)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
const stem = path.basename(largest).replace(/\.alo$/i, '').toUpperCase();
const companions = fs.readdirSync(models).filter((f) => f.toUpperCase().startsWith(stem + '_') && /\.ala$/i.test(f))
  .map((f) => path.join(models, f));
const server = http.createServer((req, res) => {
  const u = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  const file = path.join(site, u === '/' ? 'index.html' : u);
  fs.readFile(file, (e, d) => {
    if (e) return res.writeHead(404).end();
    const t = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.css': 'text/css' };
    res.writeHead(200, { 'Content-Type': t[path.extname(file)] || 'application/octet-stream' }).end(d);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const puppeteer = require(path.join(root, 'web/node_modules/puppeteer-core'));
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'] });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 720 });
  await page.goto(`http://127.0.0.1:${server.address().port}/index.html?embed=1`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.rigscope && window.rigscope.frames() > 0);
  const input = await page.$('#pick-files');
  await input.uploadFile(largest, ...companions);
  await page.waitForFunction(() => window.rigscope.state.firstFrameMs !== null, { timeout: 120000 });
  const first = await page.evaluate(() => ({ ms: window.rigscope.state.firstFrameMs, parse: window.rigscope.state.summary.parseMs }));
  out.firstFrame = { model: path.basename(largest), bytes: fs.statSync(largest).size, clips: companions.length,
    dropToFirstFrameMs: first.ms, parseMs: first.parse };
  // Textures are read after the first frame, in the worker that also poses: wait for them.
  await page.waitForFunction(() => window.rigscope.state.texturesLoaded === true, { timeout: 120000 });
  // Play the clip for `seconds` and count frames drawn (each one a pose from the worker and a draw).
  // A frame read back first: SwiftShader compiles each program variant at its first draw (3.5 s for the two of
  // this model under load), and frames issued meanwhile queue behind it; the count ends with a read-back too, so
  // that it counts frames drawn, not frames issued.
  const fps = await page.evaluate(async (s) => {
    const r = window.rigscope;
    const g = document.getElementById('view').getContext('webgl2');
    const px = new Uint8Array(4);
    const flush = () => g.readPixels(0, 0, 1, 1, g.RGBA, g.UNSIGNED_BYTE, px);
    r.draw();
    flush();
    document.getElementById('play').click();
    const f0 = r.frames(), t0 = performance.now();
    await new Promise((ok) => setTimeout(ok, s * 1000));
    document.getElementById('play').click();
    const n = r.frames() - f0;
    flush();
    return n / ((performance.now() - t0) / 1000);
  }, seconds);
  out.fps = { web: fps, size: '1280x720', model: path.basename(largest) };
} finally {
  await browser.close();
  server.close();
}
try {
  const txt = execFileSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24 -noreset', path.join(root, 'build/bin/rigscope'),
    '--screenshot', '/tmp/rigscope-web-bench.png', '--size', '1280x720', '--no-grid', '--no-labels',
    '--bench-fps', String(seconds), largest], { encoding: 'utf8', env: { ...process.env, QT3D_RENDERER: 'opengl' },
    stdio: ['ignore', 'pipe', 'pipe'] });
  const m = txt.match(/([0-9.]+)\s*fps/i);
  out.fps.desktop = m ? Number(m[1]) : txt.trim();
} catch (e) {
  out.fps.desktop = 'not measured: ' + String(e.message).split('\n')[0];
}
out.fps.ratio = typeof out.fps.desktop === 'number' ? out.fps.web / out.fps.desktop : null;

// 4. Download size.
out.download = Object.fromEntries(fs.readdirSync(site).map((f) => [f, fs.statSync(path.join(site, f)).size]));
out.download.total = Object.values(out.download).reduce((a, b) => a + b, 0);
console.log(JSON.stringify(out, null, 1));
