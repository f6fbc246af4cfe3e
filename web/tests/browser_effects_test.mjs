// Particle systems on the page against the desktop, in a real browser (Debian's Chromium headless, puppeteer-core):
//   node browser_effects_test.mjs SITE_DIR CORPUS_DIR BIN_DIR OUT_DIR
// SITE_DIR: build-web/site; BIN_DIR: the desktop build's bin/ (rigscope, rigscope-cli, rigscope-test-fixtures), the
// reference. Exit 77 (ctest SKIP) when Chromium or the built page is missing, and after the corpus-free checks when
// the corpus is. Each case opens the same files on the embed page (1280x720, the picker) and in
// `rigscope --screenshot` with the same camera and time, once with particles and once without: the pixels the
// particles change are the particle region of each; the regions agree (intersection over union >= 0.97) and, inside
// both, the colours with particles are within 8/255 on average (where a case bounds less, it says why). Cases:
//   - a textured Alamo particle system: the stormtrooper's proxy P_GLight_Red (additive, world-oriented, atlas frame
//     2 of 8x8) with its colour texture p_particle_master.tga written by the test (no corpus particle texture
//     exists): in the frame's cell a white L (the left half and the top quarter), transparent elsewhere, and every
//     other cell blue, so a flipped or misplaced cell changes the region;
//   - W3D emitters embedded in a W3D model file (chunk 0x500), written by core's W3D writer
//     (rigscope-test-fixtures w3d-emitters);
//   - W3D spheres and rings (chunks 0x741 / 0x742), written by core's W3D writer (rigscope-test-fixtures
//     w3d-primitives), at two times of their keyframes; the region is what the primitives change;
//   - a SAGE object's particle systems at its bones (ParticleSysBone of a draw state, defined in the mod's INI).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readPng, startBrowserTest, tga } from './browser_util.mjs';

const [siteDir, corpus, binDir, outDir] = process.argv.slice(2).map((p) => p && path.resolve(p));
const { browser, server, base, check, counts } = await startBrowserTest(siteDir, outDir, null);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rigscope-web-fx-'));
let code = 0;

// The embed page at 1280x720 with `files` opened by the picker, at clip time `time` seen from `yaw`; then `prepare`
// (in the page) if given; `open(page)` (here) opens what is shown instead of the picker. Returns the page's picture with its particles and without them (the same frame, the
// particle instances left out), as PNGs written to OUT_DIR, and what `prepare` returned.
// leaveOut 'primitives': the picture without is the same frame without the W3D spheres and rings instead.
async function webShots(stem, files, time, yaw, prepare = null, open = null, size = [1280, 720], leaveOut = 'particles') {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewport({ width: size[0], height: size[1] });
  await page.goto(`${base}index.html?time=${time}&yaw=${yaw}&embed=1`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.rigscope && window.rigscope.frames() > 0, { timeout: 30000 });
  if (files) {
    await (await page.$('#pick-files')).uploadFile(...files);
    await page.waitForFunction(() => window.rigscope.state.summary || window.rigscope.state.error, { timeout: 60000 });
  }
  if (open) await open(page);
  const info = prepare ? await page.evaluate(prepare) : null;
  await page.waitForFunction(() => window.rigscope.state.error || (window.rigscope.state.summary &&
    window.rigscope.state.texturesLoaded && window.rigscope.renderer.particleTexturesLoaded &&
    window.rigscope.renderer.primitiveTexturesLoaded), { timeout: 60000 });
  const shot = async (particles) => page.evaluate((on, what) => {
    const R = window.rigscope.renderer, kept = R.sprites, keptPrims = R.primitiveData;
    if (!on && what === 'primitives') R.primitiveData = null;
    else if (!on && kept) R.sprites = { dazzles: kept.dazzles, particles: new Float32Array(0) };
    R.draw();
    const data = R.canvas.toDataURL('image/png').split(',')[1];
    R.sprites = kept;
    R.primitiveData = keptPrims;
    return { data, drawn: what === 'primitives' ? R.primitivesDrawn || 0 : R.particlesDrawn || 0 };
  }, particles, leaveOut);
  const out = {};
  let drawn = 0;
  for (const [key, on] of [['with', true], ['without', false]]) {
    const file = path.join(outDir, `web_${stem}_${key}.png`);
    const r = await shot(on);
    if (on) drawn = r.drawn;
    fs.writeFileSync(file, Buffer.from(r.data, 'base64'));
    out[key] = readPng(file);
  }
  out.state = await page.evaluate(() => ({ error: window.rigscope.state.error && window.rigscope.state.error.text,
    particles: window.rigscope.state.sprites ? window.rigscope.state.sprites.particles : 0,
    summary: window.rigscope.state.summary }));
  out.state.drawn = drawn;
  out.info = info;
  out.errors = errors;
  await page.close();
  return out;
}

// `rigscope --screenshot` at 1280x720 with the embed page's look, with particles (args) and without them
// (argsWithout: the same scene with every particle texture fully transparent, so that every particle is discarded;
// --no-particles would also leave the particles out of the screenshot's framing).
function deskShots(stem, args, argsWithout, size = [1280, 720]) {
  const out = {};
  for (const [key, extra] of [['with', args], ['without', argsWithout]]) {
    const file = path.join(outDir, `desktop_${stem}_${key}.png`);
    execFileSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24 -noreset', path.join(binDir, 'rigscope'),
      '--screenshot', file, '--size', size.join('x'), '--no-grid', '--no-labels', ...extra],
    { env: { ...process.env, QT3D_RENDERER: 'opengl' }, stdio: ['ignore', 'ignore', 'ignore'] });
    out[key] = readPng(file);
  }
  return out;
}

// A copy of the files in `dir` (into dir + suffix) where the textures `names` are fully transparent 8x8 TGAs.
function clearCopy(dir, names, suffix = '_clear') {
  const to = dir + suffix;
  fs.cpSync(dir, to, { recursive: true });
  for (const n of names) fs.writeFileSync(path.join(to, n), tga(8, () => [0, 0, 0, 0]));
  return to;
}

// The pixels the particles change (RGB sum over 6 against the picture without them), per side; their IoU; the
// mean absolute RGB difference (0-255 per channel) between the two pictures with particles inside both regions,
// away from the regions' edges (a pixel whose 4 neighbours are in both regions too).
function particleRegions(web, desk) {
  const w = web.with.width, h = web.with.height;
  const region = (s) => {
    const m = new Uint8Array(w * h);
    for (let i = 0; i < m.length; ++i) {
      const a = s.with.rgba, b = s.without.rgba, k = i * 4;
      m[i] = Math.abs(a[k] - b[k]) + Math.abs(a[k + 1] - b[k + 1]) + Math.abs(a[k + 2] - b[k + 2]) > 6 ? 1 : 0;
    }
    return m;
  };
  const rw = region(web), rd = region(desk);
  let inter = 0, union = 0, nw = 0, nd = 0;
  for (let i = 0; i < rw.length; ++i) {
    inter += rw[i] & rd[i];
    union += rw[i] | rd[i];
    nw += rw[i];
    nd += rd[i];
  }
  const both = (x, y) => rw[y * w + x] && rd[y * w + x];
  let sum = 0, n = 0, off = 0; // off: pixels with a channel more than 8/255 apart
  const added = { web: [0, 0, 0], desk: [0, 0, 0] }; // mean (with - without) per channel: what the particles add
  for (let y = 1; y < h - 1; ++y)
    for (let x = 1; x < w - 1; ++x) {
      if (!both(x, y) || !both(x - 1, y) || !both(x + 1, y) || !both(x, y - 1) || !both(x, y + 1)) continue;
      const k = (y * w + x) * 4, a = web.with.rgba, b = desk.with.rgba;
      sum += (Math.abs(a[k] - b[k]) + Math.abs(a[k + 1] - b[k + 1]) + Math.abs(a[k + 2] - b[k + 2])) / 3;
      if (Math.max(Math.abs(a[k] - b[k]), Math.abs(a[k + 1] - b[k + 1]), Math.abs(a[k + 2] - b[k + 2])) > 8) ++off;
      for (let c = 0; c < 3; ++c) {
        added.web[c] += a[k + c] - web.without.rgba[k + c];
        added.desk[c] += b[k + c] - desk.without.rgba[k + c];
      }
      ++n;
    }
  for (const side of ['web', 'desk']) added[side] = added[side].map((v) => (n ? v / n : 0));
  // Where the regions lie (their bounding boxes), to say in the message.
  const box = (m) => {
    let x0 = w, y0 = h, x1 = -1, y1 = -1;
    for (let i = 0; i < m.length; ++i)
      if (m[i]) {
        const x = i % w, y = Math.floor(i / w);
        x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      }
    return x1 < 0 ? 'none' : `${x0},${y0}-${x1},${y1}`;
  };
  return { iou: union ? inter / union : 0, web: nw, desk: nd, meanDiff: n ? sum / n : 255, n, off, added, boxWeb: box(rw),
    boxDesk: box(rd) };
}

function compareParticles(stem, web, desk, minPixels, iouMin = 0.97) {
  const r = particleRegions(web, desk);
  check(web.errors.length === 0 && !web.state.error, `${stem}: the page opens it without errors ` +
    [...web.errors, web.state.error || ''].join(' | '));
  check(r.web >= minPixels && r.desk >= minPixels,
    `${stem}: particles change ${r.web} pixels on the page (${r.boxWeb}), ${r.desk} on the desktop (${r.boxDesk}); ` +
    `${web.state.particles} particles, ${web.state.drawn} drawn`);
  check(r.iou >= iouMin, `${stem}: particle region against rigscope --screenshot: IoU ${r.iou.toFixed(4)} (>= ${iouMin})`);
  check(r.n > minPixels / 4 && r.meanDiff <= 8, `${stem}: colours inside both particle regions: mean difference ` +
    `${r.meanDiff.toFixed(2)}/255 over ${r.n} pixels (<= 8)`);
  // What the particles add there (their formula's share, small for a dim glow): the same on both, within a tenth
  // of itself or 1/255 per channel.
  const f = (v) => v.map((x) => x.toFixed(2)).join(', ');
  check(r.added.web.every((v, c) => Math.abs(v - r.added.desk[c]) <= Math.max(1, 0.1 * Math.abs(r.added.desk[c]))),
    `${stem}: colour the particles add inside both regions: page (${f(r.added.web)}), desktop (${f(r.added.desk)})`);
  return r;
}

try {
  // W3D emitters in the model file (chunk 0x500, placed at ARM and BODY by the HLOD's aggregates), written by core's
  // W3D writer (rigscope-test-fixtures), with their textures written here: SPARKS (additive) reads the top-right cell
  // of a 2x2 atlas, a disc white on its left half and yellow on its right (the other cells blue inside a transparent
  // 4-texel gutter); SMOKE (alpha blended) a square green on its top half at full alpha, magenta on its bottom half
  // at half alpha. At 1 s both have particles in flight; no corpus file is needed. The smoke's sprites (110-120
  // pixels tall) are over the desktop's low-resolution threshold (90 pixels at 720), the sparks' (30-50) under it:
  // both paths are compared, and the smoke's edges against the plate in front of it test the target's depth.
  {
    const fixtures = path.join(binDir, 'rigscope-test-fixtures');
    const dir = path.join(tmp, 'w3dfx');
    fs.mkdirSync(dir);
    const unit = path.join(dir, 'wfx_unit.w3d');
    let made = false;
    try {
      execFileSync(fixtures, ['w3d-emitters', unit], { stdio: ['ignore', 'ignore', 'pipe'] });
      made = true;
    } catch (e) {
      check(false, `W3D emitters: ${fixtures} w3d-emitters (build the target rigscope-test-fixtures): ${e.message}`);
    }
    if (made) {
      const gutter = (t) => t % 64 < 4 || t % 64 >= 60;
      fs.writeFileSync(path.join(dir, 'wfx_sparks.tga'), tga(128, (x, y) => {
        if (x < 64 || y >= 64) return gutter(x) || gutter(y) ? [0, 0, 0, 0] : [0, 0, 255, 255];
        const u = (x - 64) / 64 - 0.5, v = y / 64 - 0.5;
        if (u * u + v * v > 0.16) return [0, 0, 0, 0];
        return u < 0 ? [255, 255, 255, 255] : [255, 230, 0, 255];
      }));
      fs.writeFileSync(path.join(dir, 'wfx_smoke.tga'), tga(64, (x, y) => (y < 32 ? [40, 220, 60, 255] : [220, 40, 200, 128])));
      const upload = ['wfx_unit.w3d', 'wfx_sparks.tga', 'wfx_smoke.tga'].map((f) => path.join(dir, f));
      const time = 1, yaw = 35;
      const web = await webShots('w3d_emitters', upload, time, yaw);
      const cam = ['--time', String(time), '--yaw', String(yaw)];
      const clear = clearCopy(dir, ['wfx_sparks.tga', 'wfx_smoke.tga']);
      const desk = deskShots('w3d_emitters', [...cam, unit], [...cam, path.join(clear, 'wfx_unit.w3d')]);
      const sys = (web.state.summary && web.state.summary.emitters) || [];
      check(sys.length === 2 && sys[0].label === 'SPARKS' && sys[1].label === 'SMOKE' &&
        sys[0].list[0].kind === 1 && sys[1].list[0].kind === 2 && sys[0].list[0].texture === 'wfx_sparks.tga',
      `W3D emitters: the model file's systems listed with their blend and texture: ` +
        sys.map((x) => `${x.label} at bone ${x.bone}: ${JSON.stringify(x.list.map((e) => [e.kind, e.texture]))}`).join('; '));
      // Both, at the acceptance's bounds (IoU >= 0.97, colours within 8/255 on average): measured 0.991 and 0.21/255;
      // without the page's low-resolution target 0.955 and 2.4/255 (13 % of the pixels more than 8/255 apart).
      compareParticles('W3D emitters', web, desk, 2000);
      // The sparks alone (the smoke's texture transparent; the framing is the same, as the particles still are),
      // their colours pixel by pixel, which the smoke's coarse low-resolution edges would drown: the same formula
      // and texture sampled the same way (mipmapped, the nearest level, as render/textures.cpp) leave at most 1 % of
      // the pixels inside both regions more than 8/255 apart in a channel (none measured; a trilinear page: 3.4 %).
      // Why the atlas's gutter: the cell's edge is the quad's edge, and which mip level the two rasterizers pick
      // there (the GL spec lets the scale factor be approximated) decides whether a sliver of the blue neighbour is
      // blended in along the outline of every quad: a one-pixel frame round each sprite on one side and not the
      // other (IoU 0.94 without the gutter, 0.998 with it).
      const sparks = clearCopy(dir, ['wfx_smoke.tga'], '_sparks');
      const webSparks = await webShots('w3d_sparks', ['wfx_unit.w3d', 'wfx_sparks.tga', 'wfx_smoke.tga'].map((f) =>
        path.join(sparks, f)), time, yaw);
      const deskSparks = deskShots('w3d_sparks', [...cam, path.join(sparks, 'wfx_unit.w3d')],
        [...cam, path.join(clear, 'wfx_unit.w3d')]);
      const r = compareParticles('W3D sparks alone', webSparks, deskSparks, 2000);
      check(r.off <= 0.01 * r.n, `W3D sparks alone: pixels inside both regions more than 8/255 apart in a channel: ` +
        `${r.off} of ${r.n} (<= 1 %)`);
    }
  }

  // W3D spheres and rings (chunks 0x741 / 0x742; rigscope-test-fixtures w3d-primitives): an additive keyframed
  // sphere at BODY and a camera-aligned alpha-blended ring at ARM, against rigscope --screenshot at two times of
  // their keys (0.25 s: mid-way, small dark sphere, narrow ring; 1 s: the sphere's last key, bright green, the ring
  // at its widest): the pixels the primitives change (the page: the same frame without them; the desktop:
  // --no-particles, which also hides the primitives; the framing is the same as the fixture has no particles).
  {
    const fixtures = path.join(binDir, 'rigscope-test-fixtures');
    const dir = path.join(tmp, 'w3dprim');
    fs.mkdirSync(dir);
    const unit = path.join(dir, 'wprim_unit.w3d');
    let made = false;
    try {
      execFileSync(fixtures, ['w3d-primitives', unit], { stdio: ['ignore', 'ignore', 'pipe'] });
      made = true;
    } catch (e) {
      check(false, `W3D primitives: ${fixtures} w3d-primitives (build the target rigscope-test-fixtures): ${e.message}`);
    }
    for (const time of made ? [0.25, 1] : []) {
      const yaw = 35, stem = `w3d_primitives_${time}`;
      const web = await webShots(stem, [unit], time, yaw, null, null, [1280, 720], 'primitives');
      const cam = ['--time', String(time), '--yaw', String(yaw), unit];
      const desk = deskShots(stem, cam, ['--no-particles', ...cam]);
      const prims = (web.state.summary && web.state.summary.primitives) || [];
      check(prims.length === 2 && prims[0].type === 'sphere' && prims[0].kind === 1 && prims[1].type === 'ring' &&
        prims[1].kind === 2 && web.state.drawn === 2,
      `W3D primitives at ${time} s: listed with their blend and drawn: ${JSON.stringify(prims)}, ${web.state.drawn} drawn`);
      compareParticles(`W3D primitives at ${time} s`, web, desk, 2000);
    }
  }

  const models = corpus && path.join(corpus, 'alamo/Delta730+Imperial_Civil_War/Data/Art/Models');
  if (!models || !fs.existsSync(models)) {
    console.log(`SKIPPED: corpus cases: ${models || '(no corpus)'} is absent`);
    code = 77;
  } else {
    // The stormtrooper's gun light P_GLight_Red (proxy bone P_GLight_Red, shown by the attack clip only): at 0.235 s
    // of EI_STORMTROOPER_ATTACK_00 the bone is shown and both emitters' particle (born at 0.2 s, life 0.07 s) is at
    // mid-life, its brightest. The files in a temporary folder with the texture the test writes.
    const dir = path.join(tmp, 'glight');
    fs.mkdirSync(dir);
    const files = ['EI_STORMTROOPER.ALO', 'EI_STORMTROOPER_ATTACK_00.ala', 'P_GLight_Red.ALO'];
    for (const f of files) fs.copyFileSync(path.join(models, f), path.join(dir, f));
    // 512x512, an 8x8 atlas of 64-pixel cells; frame 2 is the third cell of the top row.
    const cell = 64;
    fs.writeFileSync(path.join(dir, 'p_particle_master.tga'), tga(512, (x, y) => {
      const cx = Math.floor(x / cell), cy = Math.floor(y / cell), u = (x % cell) / cell, v = (y % cell) / cell;
      if (cx !== 2 || cy !== 0) return [0, 0, 255, 255];
      return u < 0.5 || v < 0.25 ? [255, 255, 255, 255] : [0, 0, 0, 0];
    }));
    const upload = [...files, 'p_particle_master.tga'].map((f) => path.join(dir, f));
    const time = 0.235, yaw = 35;
    const web = await webShots('glight', upload, time, yaw);
    const cam = ['--time', String(time), '--yaw', String(yaw)];
    const clear = clearCopy(dir, ['p_particle_master.tga']);
    const desk = deskShots('glight', [...cam, '--clip', upload[1], upload[0]],
      [...cam, '--clip', path.join(clear, files[1]), path.join(clear, files[0])]);
    compareParticles('P_GLight_Red textured', web, desk, 400);
  }

  // A SAGE object's particle systems at its bones: TROWMod's AngmarForgeWorks, whose default draw state names four
  // systems at SMOKE01 (ParticleSysBone, defined in the mod's INI; their textures are not in the corpus, so both
  // draw the soft round sprite). The mod folder with the folder input, the object chosen in the Objects list, its
  // first state shown, as a user does; the desktop: rigscope --screenshot --mod DIR --object NAME.
  const trow = corpus && path.join(corpus, 'games/SymoniusGit+TROWMod');
  if (!trow || !fs.existsSync(trow)) {
    console.log(`SKIPPED: SAGE ParticleSysBone case: ${trow || '(no corpus)'} is absent`);
    code = 77;
  } else {
    const time = 1, yaw = 35, object = 'AngmarForgeWorks', small = [640, 360];
    const web = await webShots('sage_particles', null, time, yaw, null, async (page) => {
      await (await page.$('#pick-folder')).uploadFile(trow);
      await page.waitForFunction(() => window.rigscope.state.summary || window.rigscope.state.error, { timeout: 60000 });
      await page.evaluate(() => { window.rigscope.state.summary = null; window.rigscope.state.error = null; });
      await page.evaluate(() => window.rigscope.listObjects());
      await page.waitForFunction(() => window.rigscope.state.objects || window.rigscope.state.error, { timeout: 60000 });
      await page.select('#objects', object);
      await page.waitForFunction(() => window.rigscope.state.summary || window.rigscope.state.error, { timeout: 60000 });
    }, small);
    const sys = (web.state.summary && web.state.summary.emitters) || [];
    // The mod copied with the systems' textures (the SAGE layout: art/compiledtextures/<first two letters>/)
    // written transparent, for the desktop's picture without particles.
    const copy = path.join(tmp, 'trow');
    fs.cpSync(trow, copy, { recursive: true });
    const names = [...new Set(sys.flatMap((x) => x.list.map((e) => e.texture)).filter((t) => t))];
    for (const n of names) {
      const d = path.join(copy, 'arts/art/compiledtextures', n.slice(0, 2).toLowerCase());
      fs.mkdirSync(d, { recursive: true });
      // The same image in another format (the corpus's exlnzflar2.dds for EXLnzFlar2.tga) would be found first.
      const stem = n.replace(/\.[^.]*$/, '').toLowerCase();
      for (const f of fs.readdirSync(d)) if (f.replace(/\.[^.]*$/, '').toLowerCase() === stem) fs.rmSync(path.join(d, f));
      fs.writeFileSync(path.join(d, n), tga(8, () => [0, 0, 0, 0]));
    }
    const cam = ['--time', String(time), '--yaw', String(yaw), '--object', object];
    const desk = deskShots('sage_particles', [...cam, '--mod', trow], [...cam, '--mod', copy], small);
    check(sys.length >= 4 && sys.every((x) => / at SMOKE01$/i.test(x.label) && x.bone >= 0 && x.list.length > 0),
      `${object}: its state's ParticleSysBone systems on the page at SMOKE01: ${sys.map((x) => `${x.label} (bone ${x.bone})`).join(', ')}`);
    // The four systems draw in the INI's order on both (the engine's creation order; the desktop's layer keeps it
    // since it stopped leaving it to Qt3D's sort; before, it drew the alpha-blended smoke between the additive glows
    // and the colours were 14.1/255 apart), and the smoke's and AngForgeWorksGlow01's large sprites (over a sixth of
    // the picture's height) go to the low-resolution target on both (IoU 0.914 without it on the page): IoU 0.979,
    // colours 1.4/255 measured.
    compareParticles(object, web, desk, 1000);
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`${counts.checks - counts.failures}/${counts.checks} checks passed`);
process.exit(counts.failures ? 1 : code);
