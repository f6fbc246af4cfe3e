// What the browser tests share: their set-up (server and browser), TGA fixtures, 4x4 matrices, PNG reading and the
// screenshot comparisons.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';

// A size x size uncompressed 32-bit TGA (top-left origin) of the colours rgbaAt(x, y) gives, y = 0 the image top.
export function tga(size, rgbaAt) {
  const h = Buffer.alloc(18);
  h[2] = 2; // uncompressed true colour
  h.writeUInt16LE(size, 12);
  h.writeUInt16LE(size, 14);
  h[16] = 32;
  h[17] = 0x28; // 8 alpha bits, top-left origin
  const px = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; ++y)
    for (let x = 0; x < size; ++x) {
      const [r, g, b, a] = rgbaAt(x, y);
      px.set([b, g, r, a], (y * size + x) * 4); // BGRA
    }
  return Buffer.concat([h, px]);
}
export const tga64 = (rgbaAt) => tga(64, rgbaAt);

// Column-major 4x4 product a * b, and the inverse of a.
export function mul4(a, b) {
  const o = new Array(16).fill(0);
  for (let c = 0; c < 4; ++c)
    for (let r = 0; r < 4; ++r)
      for (let k = 0; k < 4; ++k) o[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return o;
}
export function invert4(m) { // Gauss-Jordan on the row-major copy
  const a = [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => m[c * 4 + r]).concat([0, 1, 2, 3].map((c) => (c === r ? 1 : 0))));
  for (let c = 0; c < 4; ++c) {
    let p = c;
    for (let r = c + 1; r < 4; ++r) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    [a[c], a[p]] = [a[p], a[c]];
    const d = a[c][c];
    for (let k = 0; k < 8; ++k) a[c][k] /= d;
    for (let r = 0; r < 4; ++r)
      if (r !== c) {
        const f = a[r][c];
        for (let k = 0; k < 8; ++k) a[r][k] -= f * a[c][k];
      }
  }
  const o = new Array(16);
  for (let r = 0; r < 4; ++r) for (let c = 0; c < 4; ++c) o[c * 4 + r] = a[r][4 + c];
  return o;
}

// --- PNG (8-bit RGB/RGBA, non-interlaced) and silhouettes -----------------------------------------------------------
export function readPng(file) {
  const buf = fs.readFileSync(file);
  let pos = 8, width = 0, height = 0, type = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos), kind = buf.toString('ascii', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (kind === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      type = data[9];
      if (data[8] !== 8 || data[12] !== 0) throw new Error(file + ': only 8-bit non-interlaced PNG');
    } else if (kind === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const bpp = type === 6 ? 4 : type === 2 ? 3 : 0;
  if (!bpp) throw new Error(file + ': PNG colour type ' + type);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const out = Buffer.alloc(width * height * 4);
  const stride = width * bpp;
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; ++y) {
    const f = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; ++x) {
      const a = x >= bpp ? line[x - bpp] : 0, up = prev[x], c = x >= bpp ? prev[x - bpp] : 0;
      const p = a + up - c, pa = Math.abs(p - a), pb = Math.abs(p - up), pc = Math.abs(p - c);
      const pred = f === 1 ? a : f === 2 ? up : f === 3 ? (a + up) >> 1 : f === 4 ? (pa <= pb && pa <= pc ? a : pb <= pc ? up : c) : 0;
      line[x] = (line[x] + pred) & 255;
    }
    for (let x = 0; x < width; ++x) {
      out[(y * width + x) * 4] = line[x * bpp];
      out[(y * width + x) * 4 + 1] = line[x * bpp + 1];
      out[(y * width + x) * 4 + 2] = line[x * bpp + 2];
      out[(y * width + x) * 4 + 3] = bpp === 4 ? line[x * bpp + 3] : 255;
    }
    prev = line;
  }
  return { width, height, rgba: out };
}

// Pixels that differ from the view's flat background (48, 52, 60) by more than 6 (sum over RGB) are the model (a
// loose threshold loses the desktop's dark shading; the clear colour itself is exact in both).
// IoU of the silhouettes, and the mean absolute RGB difference (per channel, 0-255) over pixels both draw, away
// from silhouette edges (a pixel whose 4 neighbours are all drawn in both: anti-aliasing differs).
// mask (optional): only pixels white there (and at their four neighbours) count towards the colour difference.
export function compare(a, b, mask = null) {
  const iou = silhouetteIoU(a, b);
  const w = a.width, h = a.height;
  const fg = (p, i) => Math.abs(p[i] - 48) + Math.abs(p[i + 1] - 52) + Math.abs(p[i + 2] - 60) > 6;
  const both = (x, y) => {
    const i = (y * w + x) * 4;
    return fg(a.rgba, i) && fg(b.rgba, i) && (!mask || mask.rgba[i] > 127);
  };
  let sum = 0, n = 0;
  for (let y = 1; y < h - 1; ++y)
    for (let x = 1; x < w - 1; ++x) {
      if (!both(x, y) || !both(x - 1, y) || !both(x + 1, y) || !both(x, y - 1) || !both(x, y + 1)) continue;
      const i = (y * w + x) * 4;
      sum += (Math.abs(a.rgba[i] - b.rgba[i]) + Math.abs(a.rgba[i + 1] - b.rgba[i + 1]) + Math.abs(a.rgba[i + 2] - b.rgba[i + 2])) / 3;
      ++n;
    }
  return { iou, meanDiff: n ? sum / n : 255, n };
}

export function silhouetteIoU(a, b) {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`sizes differ: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  let inter = 0, union = 0;
  const fg = (p, i) => Math.abs(p[i] - 48) + Math.abs(p[i + 1] - 52) + Math.abs(p[i + 2] - 60) > 6;
  for (let i = 0; i < a.rgba.length; i += 4) {
    const x = fg(a.rgba, i), y = fg(b.rgba, i);
    if (x && y) ++inter;
    if (x || y) ++union;
  }
  return union ? inter / union : 0;
}

// The set-up both browser tests share. Exits 77 (ctest SKIP) when Chromium or the page built in SITE_DIR is missing,
// and 1 when puppeteer-core is not installed; else starts a static server (SITE_DIR at /, and CORPUS at /corpus/ when
// given: same origin, as a mod's site serving its files) and a headless Chromium (WebGL2 in software). Returns
// { browser, server, base (the server's URL), check(cond, what) (prints ok/FAILED and counts), counts }.
export async function startBrowserTest(siteDir, outDir, corpus = null) {
  const chromium = process.env.RIGSCOPE_CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    console.log(`SKIPPED: ${chromium} is missing (tools/bootstrap.sh test installs Debian's chromium)`);
    process.exit(77);
  }
  if (!siteDir || !fs.existsSync(path.join(siteDir, 'rigscope_web.wasm'))) {
    console.log(`SKIPPED: the web page is not built in ${siteDir} (tools/bootstrap.sh web)`);
    process.exit(77);
  }
  let puppeteer;
  try {
    puppeteer = createRequire(import.meta.url)('puppeteer-core');
  } catch {
    console.error('FAILED: puppeteer-core is not installed (cd web && npm ci; tools/bootstrap.sh test does it)');
    process.exit(1);
  }
  fs.mkdirSync(outDir, { recursive: true });
  const counts = { failures: 0, checks: 0 };
  const check = (cond, what) => {
    ++counts.checks;
    console.log((cond ? 'ok: ' : 'FAILED: ') + what);
    if (!cond) ++counts.failures;
  };
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const u = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = u.startsWith('/corpus/') && corpus ? path.join(corpus, u.slice(8)) : path.join(siteDir, u === '/' ? 'index.html' : u);
    if (!file.startsWith(siteDir) && !(corpus && file.startsWith(corpus))) return res.writeHead(403).end();
    fs.readFile(file, (err, data) => {
      if (err) return res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' }).end(data);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });
  return { browser, server, base, check, counts };
}
