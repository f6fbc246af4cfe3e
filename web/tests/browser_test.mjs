// The web viewer in a real browser: Debian's Chromium headless (WebGL2 in software), driven by puppeteer-core.
//   node browser_test.mjs SITE_DIR CORPUS_DIR BIN_DIR OUT_DIR
// SITE_DIR: build-web/site (tools/bootstrap.sh web); BIN_DIR: the desktop build's bin/ (rigscope, rigscope-cli),
// the reference. Exit 77 (ctest SKIP) when Chromium or the built page is missing, and after the corpus-free checks
// when the corpus is. Checks:
//   - the page loads with no error and draws (the background only, before a model);
//   - a broken file opened with the file picker shows the core's message (file, chunk path, offset);
//   - the shared particle program (atlas frames, blend kinds, rotation, world-oriented foreshortening by cos of the
//     view angle, kites) and DefaultW3D's second UV set on a W3X quad written here, against their formulas;
//   - with the corpus: a game folder holding a 1 GiB file, picked with the folder input: the model opens and the
//     browser's processes grow by less than 512 MiB (read on demand, not copied);
//   - with the corpus: a skinned model with its clips opened with the picker (several files), its bone world matrices
//     at several clip times against `rigscope-cli pose --json` (1e-5); a broken file then keeps the model shown;
//     the embed link `?open=URL&time=S&yaw=DEG&embed=1` at 1280x720 against `rigscope --screenshot` of the same
//     file, camera and time: silhouettes (intersection over union >= 0.97).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compare, invert4, mul4, readPng, startBrowserTest, tga64 } from './browser_util.mjs';

const [siteDir, corpus, binDir, outDir] = process.argv.slice(2).map((p) => p && path.resolve(p));
const { browser, server, base, check, counts } = await startBrowserTest(siteDir, outDir, corpus);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rigscope-web-'));
let code = 0;
try {
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(base, { waitUntil: 'load' });
  await page.waitForFunction(() => window.rigscope && window.rigscope.frames() > 0, { timeout: 30000 });
  check(pageErrors.length === 0, 'page loads without errors ' + pageErrors.join(' | '));
  const hintShown = () => page.$eval('#drop-hint', (e) => getComputedStyle(e).display !== 'none');
  check(await hintShown(), 'the empty view says where to drop files');

  // The GLSL shared with the desktop (render/glsl, bundled into shaders.js) compiles and links as GLSL ES 3.00 in
  // every variant the desktop builds: each Alamo implementation, W3D pass switches, NormalMapped.fx, the C&C 3
  // Objects switches, the generic program's and the particles'.
  const glslErrors = await page.evaluate(async () => {
    const { glsl, esPrefix } = await import('./shaders.js');
    const gl = document.createElement('canvas').getContext('webgl2');
    const variants = [];
    for (const d of ['BUMP_COLORIZE', 'GLOSS', 'GLOSS_COLORIZE', 'ALPHA', 'ADDITIVE', 'SHIELD', 'SKYDOME', 'PLANET',
      'DEFAULT', 'BUMP_REFLECT', 'ALPHA_GLOSS', 'ADDITIVE_VCOLOR', 'ADDITIVE_OFFSET', 'SOLID_COLOR', 'ALPHA_SCROLL',
      'HEAT', 'TERRAIN_BUMP', 'TERRAIN_GLOSS', 'NEBULA', 'TREE', 'GRASS', 'OCCLUDED'])
      variants.push(['alamo', [d]]);
    for (const pri of [0, 1, 2, 3, 5])
      variants.push(['w3d', [`PRI ${pri}`, 'TEXTURING', `DCOLOR ${pri * 2}`, `DALPHA ${pri % 4}`, 'ALPHA_TEST', 'SEC_GRADIENT']]);
    variants.push(['w3d', ['PRI 1', 'DCOLOR 0', 'DALPHA 0']]);
    variants.push(['w3d_fx', []], ['w3d_fx', ['ALPHA_TEST']]);
    variants.push(['w3x_objects', []], ['w3x_objects', ['SPECMAP', 'RECOLOR', 'ALPHA_TEST']],
      ['w3x_objects', ['SPECMAP', 'SCROLL_HOUSECOLOR']], ['w3x_objects', ['SPECMAP', 'OBJECTS_ALIEN']],
      ['w3x_objects', ['SPECMAP', 'ENV_CUBE']]);
    variants.push(['w3x_basic', []], ['w3x_basic', ['RECOLOR', 'ALPHA_TEST']], ['w3x_basic', ['TREE_SWAY']],
      ['w3x_basic', ['DEFAULT_W3D', 'HOUSE_COLOR']]);
    variants.push(['w3x_effects', ['ALIEN_SHIELD']], ['w3x_effects', ['MUZZLE_FLASH']],
      ['w3x_effects', ['DISTORTION']], ['w3x_effects', ['DISTORTION', 'SHIELD_FALLOFF']]);
    variants.push(['mesh', ['BUMP', 'SPECULAR']], ['mesh', ['UNLIT', 'NO_BASE_TEXTURE']]);
    for (const [kind, low, tex, orient] of [[0, 0, 1, 0], [1, 1, 0, 2], [2, 0, 1, 1], [3, 0, 0, 2]])
      variants.push(['particle', [`BLEND_KIND ${kind}`, `LOW_PASS ${low}`, `HAS_TEXTURE ${tex}`, `ORIENT ${orient}`]]);
    variants.push(['particle_composite', []]);
    for (const [kind, tex, pri] of [[0, 1, 1], [1, 1, 0], [2, 1, 2], [3, 0, 1]])
      variants.push(['w3d_prim', [`BLEND_KIND ${kind}`, `HAS_TEXTURE ${tex}`, `PRI ${pri}`]]);
    const errors = [];
    for (const [name, defines] of variants) {
      const head = esPrefix + defines.map((d) => `#define ${d}\n`).join('');
      const prog = gl.createProgram();
      for (const [type, ext] of [[gl.VERTEX_SHADER, '.vert'], [gl.FRAGMENT_SHADER, '.frag']]) {
        const sh = gl.createShader(type);
        gl.shaderSource(sh, head + glsl[name + ext]);
        gl.compileShader(sh);
        if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) errors.push(`${name}${ext} ${defines}: ${gl.getShaderInfoLog(sh)}`);
        gl.attachShader(prog, sh);
      }
      gl.linkProgram(prog);
      if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) errors.push(`${name} ${defines}: link: ${gl.getProgramInfoLog(prog)}`);
    }
    return { count: variants.length, errors };
  });
  check(glslErrors.errors.length === 0,
    `the shared GLSL compiles as GLSL ES 3.00: ${glslErrors.count} programs ${glslErrors.errors.join(' | ')}`);

  // Particles by the desktop's particle program (render/glsl/particle.*, render.js drawParticles), with synthetic
  // instances in the module's layout: a 2x2 atlas (top-left red, top-right green, bottom-left blue, bottom-right
  // white in the file's convention) picks the frame's cell; each blend kind gives its formula over the background;
  // a rotation of 45 degrees uncovers the quad's corner; world-oriented quads are foreshortened where camera-facing
  // ones are not; a velocity-aligned kite trails its tail behind the velocity.
  const pt = await page.evaluate(() => {
    const R = window.rigscope.renderer, gl = R.gl, W = R.canvas.width, H = R.canvas.height;
    const saved = { view: R.view, projection: R.projection, eye: R.eye, slots: R.emitterSlots, textures: R.particleTextures };
    const I = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const tex = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, tex);
    // Rows bottom first (the page's upload convention, the desktop's): bottom blue, white; top red, green.
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 2, 2, 0, gl.RGBA, gl.UNSIGNED_BYTE,
      new Uint8Array([0, 0, 255, 255, 255, 255, 255, 255, 255, 0, 0, 255, 0, 255, 0, 255]));
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    R.particleTextures = new Map([['atlas', tex]]);
    const bg = [0.2, 0.4, 0.6];
    // One particle: centre, size, colour, atlas rect, rotation, velocity; drawn alone; the pixels read back.
    const run = (em, p, view = I) => {
      R.view = view;
      R.projection = I;
      R.eye = [0, 0, 0];
      R.emitterSlots = [em];
      gl.viewport(0, 0, W, H);
      gl.clearColor(bg[0], bg[1], bg[2], 1);
      // drawParticles leaves depth writes off, and glClear honours the depth mask: without this the depth of the
      // previous run's opaque quad stays and hides what lies behind it (a world-oriented quad's far half).
      gl.depthMask(true);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      gl.enable(gl.DEPTH_TEST);
      const d = new Float32Array(17);
      d.set([...p.c, p.size, ...p.rgba, ...p.rect, p.rot || 0, ...(p.vel || [0, 0, 0]), 0]);
      R.drawParticles(d, view);
      const px = new Uint8Array(W * H * 4);
      gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, px);
      return px;
    };
    const at = (px, nx, ny) => { // NDC -> pixel
      const x = Math.round((nx * 0.5 + 0.5) * (W - 1)), y = Math.round((ny * 0.5 + 0.5) * (H - 1));
      return Array.from(px.subarray((y * W + x) * 4, (y * W + x) * 4 + 3));
    };
    const covered = (px, nx, ny) => { const c = at(px, nx, ny); return Math.abs(c[0] - 51) + Math.abs(c[1] - 102) + Math.abs(c[2] - 153) > 6; };
    const em = (kind, orient = 0, tail = 0) => ({ kind, orient, tail, noDepthTest: false, texture: 'atlas' });
    const rect = (f) => [(f % 2) * 0.5, Math.floor(f / 2) * 0.5, 0.5, 0.5]; // core's atlasRect(frame, 2)
    const out = { frames: [], blends: {} };
    for (let f = 0; f < 4; ++f) out.frames.push(at(run(em(0), { c: [0, 0, -0.5], size: 1, rgba: [1, 1, 1, 1], rect: rect(f) }), 0, 0));
    for (const k of [0, 1, 2, 3])
      out.blends[k] = at(run(em(k), { c: [0, 0, -0.5], size: 1, rgba: [1, 1, 1, k === 0 ? 1 : 0.5], rect: rect(0) }), 0, 0);
    const corner = (rot) => covered(run(em(0), { c: [0, 0, -0.5], size: 1, rgba: [1, 1, 1, 1], rect: rect(0), rot }), 0.45, 0.45);
    out.corner = [corner(0), corner(Math.PI / 4)];
    // The view turned about x by 60 and 30 degrees (the quad's normal, world +z, at that angle from the view axis;
    // orthographic): the quad's height and width on screen, camera-facing and world XY.
    const tilt = (deg) => {
      const c = Math.cos((deg * Math.PI) / 180), sn = Math.sin((deg * Math.PI) / 180);
      return new Float32Array([1, 0, 0, 0, 0, c, sn, 0, 0, -sn, c, 0, 0, 0, -0.5, 1]);
    };
    const extent = (orient, deg) => {
      const px = run(em(0, orient), { c: [0, 0, 0], size: 1, rgba: [1, 1, 1, 1], rect: rect(0) }, tilt(deg));
      const e = [0, 0];
      for (let t = -1; t <= 1; t += 0.005) {
        if (covered(px, 0, t)) ++e[0];
        if (covered(px, t, 0)) ++e[1];
      }
      return e;
    };
    out.tilts = [60, 30].map((deg) => ({ deg, facing: extent(0, deg), world: extent(1, deg) }));
    // A kite moving along +x with a tail of 2: covered to the left of its centre (behind) and to the right.
    const kite = run(em(0, 2, 2), { c: [0.6, 0, -0.5], size: 0.5, rgba: [1, 1, 1, 1], rect: rect(0), vel: [1, 0, 0] });
    out.kite = [0, 0];
    for (let x = -1; x <= 1; x += 0.005) if (covered(kite, x, 0)) ++out.kite[x < 0.6 ? 0 : 1];
    Object.assign(R, { view: saved.view, projection: saved.projection, eye: saved.eye, emitterSlots: saved.slots,
      particleTextures: saved.textures });
    gl.deleteTexture(tex);
    R.draw();
    return out;
  });
  const near = (got, want) => got.every((v, i) => Math.abs(v - want[i]) <= 3);
  check(near(pt.frames[0], [255, 0, 0]) && near(pt.frames[1], [0, 255, 0]) && near(pt.frames[2], [0, 0, 255]) &&
    near(pt.frames[3], [255, 255, 255]), `particles: atlas frames 0-3 draw their cells: ${JSON.stringify(pt.frames)}`);
  // Red texel, alpha 0.5 over (51, 102, 153): opaque writes it, additive adds rgb*a, alpha blends, modulate multiplies
  // the background by mix(1, rgb, a).
  check(near(pt.blends[0], [255, 0, 0]) && near(pt.blends[1], [178, 102, 153]) && near(pt.blends[2], [153, 51, 77]) &&
    near(pt.blends[3], [51, 51, 77]), `particles: blend kinds by their formula: ${JSON.stringify(pt.blends)}`);
  check(pt.corner[0] && !pt.corner[1], `particles: rotation by 45 degrees uncovers the quad's corner (${pt.corner})`);
  // A world-oriented quad lies in the world XY plane (the engine's XY-aligned renderer): seen with its normal at
  // angle a from the view axis its height is cos(a) of the camera-facing one, its width the same (within 10 %).
  for (const t of pt.tilts) {
    const want = Math.cos((t.deg * Math.PI) / 180), ratio = t.world[0] / t.facing[0];
    check(t.facing[0] > 150 && Math.abs(ratio - want) <= 0.1 * want && Math.abs(t.world[1] - t.facing[1]) <= 0.1 * t.facing[1],
      `particles: a world-oriented quad seen at ${t.deg} degrees from its normal: height ${t.world[0]} against ` +
      `${t.facing[0]} camera-facing (ratio ${ratio.toFixed(3)}, cos = ${want.toFixed(3)}), width ${t.world[1]} against ${t.facing[1]}`);
  }
  check(pt.kite[0] > 3 * pt.kite[1] && pt.kite[1] > 0, `particles: a kite trails behind its velocity: ${pt.kite[0]} steps behind, ${pt.kite[1]} ahead`);

  // DefaultW3D's second UV set (the same file as the desktop's tests/render/w3x_second_uv_test.cpp): a W3X quad
  // written here whose second <TexCoords> list mirrors u, Texture_0 and Texture_1 each a left and a right colour,
  // opened with the picker with its two textures and seen from yaw 180 (screen left = -X, uv0's u < 0.5). With
  // ColorAmbient, ColorDiffuse and ColorSpecular 0, DefaultW3D.fxh's pass P0 leaves COLOR0 = saturate(ColorEmissive / 2)
  // times Texture_0(uv0), SecondaryTextureBlendMode 0 times Texture_1(uv1), doubled: each half multiplies opposite
  // halves of the two textures (the same halves if TEXCOORD1 were the first set).
  {
    const dir = path.join(tmp, 'second_uv');
    fs.mkdirSync(dir, { recursive: true });
    const first = [[0.9, 0.9, 0.5], [0.5, 0.9, 0.9]], second = [[1, 0.3, 0.3], [0.3, 0.3, 1]], emissive = 0.8;
    const to8 = (c) => c.map((x) => Math.round(x * 255));
    const halves = (lr) => tga64((x) => [...to8(lr[x < 32 ? 0 : 1]), 255]);
    fs.writeFileSync(path.join(dir, 'uv_first.tga'), halves(first));
    fs.writeFileSync(path.join(dir, 'uv_second.tga'), halves(second));
    const xs = [-1, 1, 1, -1, 0], zs = [1, 1, -1, -1, 0];
    const f4 = (n, v) => `<Float Name="${n}">${[...v, 1].map((x) => `<Value>${x}</Value>`).join('')}</Float>`;
    const w3x = '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n' +
      '<W3DMesh id="UVQUAD" GeometryType="Normal">\n' +
      '<BoundingBox><Min X="-1" Y="0" Z="-1"/><Max X="1" Y="0" Z="1"/></BoundingBox>\n' +
      `<Vertices>${xs.map((x, i) => `<V X="${x}" Y="0" Z="${zs[i]}"/>`).join('')}</Vertices>\n` +
      `<Normals>${xs.map(() => '<N X="0" Y="-1" Z="0"/>').join('')}</Normals>\n` +
      `<TexCoords>${xs.map((x, i) => `<T X="${(x + 1) / 2}" Y="${(1 - zs[i]) / 2}"/>`).join('')}</TexCoords>\n` +
      `<TexCoords>${xs.map((x, i) => `<T X="${1 - (x + 1) / 2}" Y="${(1 - zs[i]) / 2}"/>`).join('')}</TexCoords>\n` +
      `<Triangles>${[[0, 1], [1, 2], [2, 3], [3, 0]].map(([a, b]) =>
        `<T><V>${a}</V><V>${b}</V><V>4</V><Nrm X="0" Y="-1" Z="0"/><Dist>0</Dist></T>`).join('')}</Triangles>\n` +
      '<FXShader ShaderName="DefaultW3D.fx" TechniqueIndex="0"><Constants>' +
      f4('ColorAmbient', [0, 0, 0]) + f4('ColorDiffuse', [0, 0, 0]) + f4('ColorSpecular', [0, 0, 0]) +
      f4('ColorEmissive', [emissive, emissive, emissive]) +
      '<Texture Name="Texture_0"><Value>UvFirst</Value></Texture><Texture Name="Texture_1"><Value>UvSecond</Value></Texture>' +
      '<Int Name="NumTextures"><Value>2</Value></Int><Int Name="SecondaryTextureBlendMode"><Value>0</Value></Int>' +
      '<Bool Name="CullingEnable"><Value>false</Value></Bool></Constants></FXShader>\n</W3DMesh>\n' +
      '<Texture id="UvFirst" File="uv_first.tga"/>\n<Texture id="UvSecond" File="uv_second.tga"/>\n</AssetDeclaration>\n';
    fs.writeFileSync(path.join(dir, 'uvquad.w3x'), w3x);
    const upage = await browser.newPage();
    await upage.setViewport({ width: 640, height: 480 });
    await upage.goto(`${base}index.html?yaw=180&embed=1`, { waitUntil: 'load' });
    await upage.waitForFunction(() => window.rigscope && window.rigscope.frames() > 0, { timeout: 30000 });
    await (await upage.$('#pick-files')).uploadFile(...['uvquad.w3x', 'uv_first.tga', 'uv_second.tga'].map((f) => path.join(dir, f)));
    await upage.waitForFunction(() => window.rigscope.state.summary && window.rigscope.renderer.engine.texturesLoaded,
      { timeout: 60000 });
    await upage.evaluate(() => window.rigscope.ready);
    const png = path.join(outDir, 'web_second_uv.png');
    await upage.evaluate(() => window.rigscope.draw());
    fs.writeFileSync(png, Buffer.from(await upage.$eval('#view', (c) => c.toDataURL('image/png').split(',')[1]), 'base64'));
    const error = await upage.evaluate(() => window.rigscope.state.error || '');
    await upage.close();
    const img = readPng(png);
    const px = (x, y) => Array.from(img.rgba.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3));
    const bg = px(0, 0);
    let x0 = img.width, x1 = -1, y0 = img.height, y1 = -1;
    for (let y = 0; y < img.height; ++y)
      for (let x = 0; x < img.width; ++x) {
        const c = px(x, y);
        if (Math.max(...c.map((v, k) => Math.abs(v - bg[k]))) > 2) {
          x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
        }
      }
    const q8 = (c) => c.map((x) => Math.round(x * 255) / 255);
    const formula = (t0, t1) => q8(t0).map((v, k) => Math.min(1, (emissive / 2) * v * q8(t1)[k] * 2) * 255);
    const want = [formula(first[0], second[1]), formula(first[1], second[0])];
    const cy = Math.round((y0 + y1) / 2);
    const got = [0.25, 0.75].map((u) => px(Math.round(x0 + u * (x1 - x0)), cy));
    const within = (g, w) => g.every((v, k) => Math.abs(v - w[k]) <= 4);
    check(!error && x1 - x0 > 40 && y1 - y0 > 40 && within(got[0], want[0]) && within(got[1], want[1]),
      `DefaultW3D's second UV set: a W3X quad's halves ${JSON.stringify(got)} against the formula ` +
      `${JSON.stringify(want.map((w) => w.map((v) => +v.toFixed(1))))} (within 4/255; TEXCOORD1 = the first set would give ` +
      `${JSON.stringify(formula(first[0], second[0]).map((v) => +v.toFixed(1)))} on the left) ${error}`);
  }

  // ObjectsGenericEnvMap.fx with its DDS cube map (rigscope-test-fixtures dds-cube: one colour a face, the desktop
  // render test's) on a W3X quad written here (the second UV case's quad facing -Y, a flat normal map, a spec map
  // whose green channel lets the reflection through): the page (640x480, yaw 180, the picker) against
  // `rigscope --screenshot` of the same files. Inside the quad (away from its edges) the colours agree within
  // 8/255 on average (the reflection crosses a cube edge, where WebGL2's seamless filtering blends the two faces
  // over half a texel and the desktop's does not: a band of a few pixels with 64-texel faces); the page without the cube file draws the ambient stand-in (as the desktop does then), at least
  // 20/255 away: the check tells the cube from the stand-in.
  {
    const dir = path.join(tmp, 'env_cube');
    fs.mkdirSync(dir, { recursive: true });
    let made = false;
    try {
      execFileSync(path.join(binDir, 'rigscope-test-fixtures'), ['dds-cube', path.join(dir, 'env_cube.dds')],
        { stdio: ['ignore', 'ignore', 'pipe'] });
      made = true;
    } catch (e) {
      check(false, `ObjectsGenericEnvMap: rigscope-test-fixtures dds-cube (build the target rigscope-test-fixtures): ${e.message}`);
    }
    if (made) {
      fs.writeFileSync(path.join(dir, 'env_diffuse.tga'), tga64(() => [150, 120, 90, 255]));
      fs.writeFileSync(path.join(dir, 'env_normal.tga'), tga64(() => [128, 128, 255, 255]));
      fs.writeFileSync(path.join(dir, 'env_spec.tga'), tga64(() => [51, 230, 0, 255]));
      const xs = [-1, 1, 1, -1, 0], zs = [1, 1, -1, -1, 0];
      const fl = (n, v) => `<Float Name="${n}">${v.map((x) => `<Value>${x}</Value>`).join('')}</Float>`;
      const tex = (n, id) => `<Texture Name="${n}"><Value>${id}</Value></Texture>`;
      const w3x = '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n' +
        '<W3DMesh id="ENVQUAD" GeometryType="Normal">\n' +
        '<BoundingBox><Min X="-1" Y="0" Z="-1"/><Max X="1" Y="0" Z="1"/></BoundingBox>\n' +
        `<Vertices>${xs.map((x, i) => `<V X="${x}" Y="0" Z="${zs[i]}"/>`).join('')}</Vertices>\n` +
        `<Normals>${xs.map(() => '<N X="0" Y="-1" Z="0"/>').join('')}</Normals>\n` +
        `<Tangents>${xs.map(() => '<T X="1" Y="0" Z="0"/>').join('')}</Tangents>\n` +
        `<Binormals>${xs.map(() => '<B X="0" Y="0" Z="1"/>').join('')}</Binormals>\n` +
        `<TexCoords>${xs.map((x, i) => `<T X="${(x + 1) / 2}" Y="${(1 - zs[i]) / 2}"/>`).join('')}</TexCoords>\n` +
        `<Triangles>${[[0, 1], [1, 2], [2, 3], [3, 0]].map(([a, b]) =>
          `<T><V>${a}</V><V>${b}</V><V>4</V><Nrm X="0" Y="-1" Z="0"/><Dist>0</Dist></T>`).join('')}</Triangles>\n` +
        '<FXShader ShaderName="ObjectsGenericEnvMap.fx" TechniqueIndex="0"><Constants>' +
        tex('DiffuseTexture', 'EnvDiffuse') + tex('NormalMap', 'EnvNormal') + tex('SpecMap', 'EnvSpec') +
        tex('EnvironmentTexture', 'EnvCube') +
        fl('AmbientColor', [0.5, 0.5, 0.5, 1]) + fl('DiffuseColor', [0.7, 0.7, 0.7, 1]) +
        fl('SpecularColor', [0.8, 0.7, 0.9, 1]) + fl('SpecularExponent', [20]) + fl('EnvMult', [0.6]) +
        fl('BumpScale', [1]) + '<Bool Name="CullingEnable"><Value>false</Value></Bool></Constants></FXShader>\n' +
        '</W3DMesh>\n<Texture id="EnvDiffuse" File="env_diffuse.tga"/>\n<Texture id="EnvNormal" File="env_normal.tga"/>\n' +
        '<Texture id="EnvSpec" File="env_spec.tga"/>\n<Texture id="EnvCube" File="env_cube.dds"/>\n</AssetDeclaration>\n';
      fs.writeFileSync(path.join(dir, 'envquad.w3x'), w3x);
      const base2 = ['envquad.w3x', 'env_diffuse.tga', 'env_normal.tga', 'env_spec.tga'];
      const webShot = async (files, stem) => {
        const p = await browser.newPage();
        await p.setViewport({ width: 640, height: 480 });
        await p.goto(`${base}index.html?yaw=180&embed=1`, { waitUntil: 'load' });
        await p.waitForFunction(() => window.rigscope && window.rigscope.frames() > 0, { timeout: 30000 });
        await (await p.$('#pick-files')).uploadFile(...files.map((f) => path.join(dir, f)));
        await p.waitForFunction(() => window.rigscope.state.error || (window.rigscope.state.summary &&
          window.rigscope.renderer.engine.texturesLoaded), { timeout: 60000 });
        const info = await p.evaluate(() => {
          const part = (window.rigscope.state.summary.parts || [])[0] || {};
          window.rigscope.draw();
          return { error: window.rigscope.state.error && window.rigscope.state.error.text,
            envCube: part.fx && part.fx.envCube, cubeLoaded: !!(part.fx && part.fx.envCube &&
              window.rigscope.renderer.engine.cubes.get(part.fx.envCube)) };
        });
        const file = path.join(outDir, `web_${stem}.png`);
        fs.writeFileSync(file, Buffer.from(await p.$eval('#view', (c) => c.toDataURL('image/png').split(',')[1]), 'base64'));
        await p.close();
        return { img: readPng(file), info };
      };
      const withCube = await webShot([...base2, 'env_cube.dds'], 'env_cube');
      const standIn = await webShot(base2, 'env_cube_missing');
      const deskPng = path.join(outDir, 'desktop_env_cube.png');
      execFileSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24 -noreset', path.join(binDir, 'rigscope'), '--screenshot',
        deskPng, '--size', '640x480', '--no-grid', '--no-labels', '--yaw', '180', path.join(dir, 'envquad.w3x')],
      { env: { ...process.env, QT3D_RENDERER: 'opengl' }, stdio: ['ignore', 'ignore', 'ignore'] });
      const desk = readPng(deskPng);
      // The quad: pixels of both pictures away from their corner's background by more than 6, 3 pixels in from
      // its edges; the mean colour difference there, per channel.
      const w = desk.width, h = desk.height;
      const differs = (img, x, y) => {
        const k = (y * w + x) * 4, bg = img.rgba;
        return Math.abs(bg[k] - bg[0]) + Math.abs(bg[k + 1] - bg[1]) + Math.abs(bg[k + 2] - bg[2]) > 6;
      };
      const inside = (x, y) => {
        for (let dy = -3; dy <= 3; ++dy)
          for (let dx = -3; dx <= 3; ++dx)
            if (!differs(desk, x + dx, y + dy) || !differs(withCube.img, x + dx, y + dy)) return false;
        return true;
      };
      const sum = [0, 0, 0], standInSum = [0, 0, 0], mean = [0, 0, 0];
      let n = 0;
      for (let y = 3; y < h - 3; ++y)
        for (let x = 3; x < w - 3; ++x) {
          if (!inside(x, y)) continue;
          const k = (y * w + x) * 4;
          for (let c = 0; c < 3; ++c) {
            sum[c] += Math.abs(withCube.img.rgba[k + c] - desk.rgba[k + c]);
            standInSum[c] += Math.abs(standIn.img.rgba[k + c] - desk.rgba[k + c]);
            mean[c] += desk.rgba[k + c];
          }
          ++n;
        }
      const f = (v) => v.map((x) => (n ? x / n : 0).toFixed(1)).join(', ');
      check(!withCube.info.error && withCube.info.envCube === 'env_cube.dds' && withCube.info.cubeLoaded &&
        !standIn.info.cubeLoaded, `ObjectsGenericEnvMap: the page loads the material's cube ${JSON.stringify(withCube.info)}, ` +
        `and without the file draws the stand-in ${JSON.stringify(standIn.info)}`);
      check(n > 5000 && sum.every((v) => v / n <= 8), `ObjectsGenericEnvMap: the quad's colours (desktop mean ${f(mean)}) ` +
        `against rigscope --screenshot: mean difference (${f(sum)})/255 per channel over ${n} pixels (<= 8)`);
      check(n > 5000 && standInSum.some((v) => v / n >= 20), `ObjectsGenericEnvMap: the ambient stand-in (no cube file) ` +
        `differs from the desktop's cube by (${f(standInSum)})/255 per channel (some >= 20: the check tells them apart)`);
    }
  }

  // A broken Alamo file (a chunk claiming more bytes than the file has), opened with the picker.
  const broken = path.join(tmp, 'BROKEN.ALO');
  const b = Buffer.alloc(24);
  b.writeUInt32LE(0x400, 0);
  b.writeUInt32LE(0x80001000, 4);
  b.writeUInt32LE(0x401, 8);
  b.writeUInt32LE(8, 12);
  fs.writeFileSync(broken, b);
  const picker = await page.$('#pick-files');
  await picker.uploadFile(broken);
  await page.waitForFunction(() => window.rigscope.state.error, { timeout: 30000 });
  const err = await page.$eval('#error', (e) => ({ text: e.textContent, hidden: e.hidden }));
  check(!err.hidden && err.text.includes('BROKEN.ALO') && /offset|0x/.test(err.text),
    'broken file: the message names the file and where: ' + err.text);

  const models = corpus && path.join(corpus, 'alamo/Delta730+Imperial_Civil_War/Data/Art/Models');
  if (!models || !fs.existsSync(models)) {
    console.log(`SKIPPED: corpus checks: ${models || '(no corpus)'} is absent`);
    code = 77;
  } else {
    const name = 'EI_STORMTROOPER';
    const modelFile = path.join(models, name + '.ALO');
    const clipFiles = fs.readdirSync(models).filter((f) => f.toUpperCase().startsWith(name + '_') && /\.ala$/i.test(f));
    // Several files at once with the picker: the model and its clips, found beside it by the resolver.
    await page.evaluate(() => { window.rigscope.state.error = null; });
    // The proxy's particle system (P_GLight_Red.ALO) comes along: proxies are looked up among the files given.
    await picker.uploadFile(modelFile, ...clipFiles.map((f) => path.join(models, f)), path.join(models, 'P_GLight_Red.ALO'));
    await page.waitForFunction(() => window.rigscope.state.summary, { timeout: 60000 });
    const s = await page.evaluate(() => {
      const x = window.rigscope.state.summary;
      return { bones: x.bones.length, clips: x.clips.map((c) => [c.name, c.source, c.duration]), initial: x.initialClip,
        error: !document.getElementById('error').hidden };
    });
    check(s.bones > 10 && s.clips.length === clipFiles.length, `model and ${s.clips.length} clips opened`);
    check(!s.error, 'the error of the broken file is cleared by a good open');
    check(!(await hintShown()), 'the drop hint is gone once a model is shown');
    const cli = path.join(binDir, 'rigscope-cli');
    // Bone world matrices at several times of each of two clips against the desktop's pose.
    let worst = 0, compared = 0;
    for (const ci of [s.initial, (s.initial + 1) % s.clips.length]) {
      const [, source, duration] = s.clips[ci];
      const clipPath = path.join(models, path.basename(source));
      await page.evaluate((i) => window.rigscope.setClipIndex(i), ci);
      for (const t of [0, duration * 0.37, duration * 0.81, duration + 0.25]) {
        await page.evaluate((tt) => window.rigscope.setTime(tt), t);
        const web = await page.evaluate(() => window.rigscope.boneWorld());
        const ref = JSON.parse(execFileSync(cli, ['pose', '--json', modelFile, '--clip', clipPath, '--time', String(t)],
          { encoding: 'utf8' }));
        const flat = ref.bones.flatMap((bn) => bn.world);
        if (flat.length !== web.length) {
          check(false, `pose sizes: ${flat.length} vs ${web.length}`);
          continue;
        }
        for (let k = 0; k < flat.length; ++k) worst = Math.max(worst, Math.abs(flat[k] - web[k]));
        ++compared;
      }
    }
    check(compared === 8 && worst <= 1e-5, `bone world matrices at ${compared} clip times within 1e-5 of rigscope-cli pose (worst ${worst.toExponential(2)})`);

    // The glTF button: the page's download (an anchor to a Blob) captured and read back: a GLB with the bones as
    // nodes and the clips as animations, as rigscope-cli export --all-clips writes for the same model.
    const glb = await page.evaluate(async () => {
      const click = HTMLAnchorElement.prototype.click;
      let got = null;
      HTMLAnchorElement.prototype.click = function () { got = { href: this.href, name: this.download }; };
      try {
        document.getElementById('gltf').click();
        for (let i = 0; i < 600 && !got; ++i) await new Promise((r) => setTimeout(r, 50));
      } finally {
        HTMLAnchorElement.prototype.click = click;
      }
      if (!got) return null;
      const bytes = new Uint8Array(await (await fetch(got.href)).arrayBuffer());
      let bin = '';
      for (let i = 0; i < bytes.length; i += 8192) bin += String.fromCharCode(...bytes.subarray(i, i + 8192));
      return { name: got.name, b64: btoa(bin) };
    });
    check(glb && glb.name === name + '.glb', 'glTF button: a download named ' + (glb && glb.name));
    if (glb) {
      const g = Buffer.from(glb.b64, 'base64');
      const json = g.toString('latin1', 0, 4) === 'glTF' && g.readUInt32LE(8) === g.length &&
        JSON.parse(g.toString('utf8', 20, 20 + g.readUInt32LE(12)));
      const refFile = path.join(tmp, 'ref.glb');
      execFileSync(cli, ['export', modelFile, '--all-clips', '-o', refFile], { stdio: 'ignore' });
      const r = fs.readFileSync(refFile);
      const ref = JSON.parse(r.toString('utf8', 20, 20 + r.readUInt32LE(12)));
      check(json && json.nodes.length === ref.nodes.length && json.animations.length === ref.animations.length &&
        json.meshes.length === ref.meshes.length,
        `glTF button: a GLB of ${json && json.nodes.length} nodes, ${json && json.animations.length} animations, ` +
        `${json && json.meshes.length} meshes as rigscope-cli export --all-clips (${ref.nodes.length}, ${ref.animations.length}, ${ref.meshes.length})`);
    }

    // LOD: the stormtrooper's LOD 0 chosen in the toolbar (its most detailed is LOD 3): the meshes drawn are the
    // ones rigscope-cli export --lod 0 writes, and fewer triangles are drawn.
    const tris = () => window.rigscope.state.summary.parts.reduce((n, p, i) =>
      n + (window.rigscope.renderer.parts[i].visible ? p.triangles : 0), 0);
    const before3 = await page.evaluate(tris);
    await page.select('#lod', '0');
    await page.waitForFunction(() => window.rigscope.state.summary.lod === 0, { timeout: 30000 });
    const lod3 = { tris: await page.evaluate(tris), names: await page.evaluate(() => window.rigscope.state.summary.parts
      .filter((p, i) => window.rigscope.renderer.parts[i].visible && p.owner === 0).map((p) => p.meshName)) };
    execFileSync(cli, ['export', modelFile, '--lod', '0', '-o', path.join(tmp, 'lod3.glb')], { stdio: 'ignore' });
    const l3 = fs.readFileSync(path.join(tmp, 'lod3.glb'));
    const l3names = JSON.parse(l3.toString('utf8', 20, 20 + l3.readUInt32LE(12))).meshes.map((m) => m.name);
    check(lod3.names.length > 0 && lod3.names.every((n) => l3names.includes(n)) && lod3.tris < before3,
      `LOD 0: drawn ${lod3.names.join(',')} (${lod3.tris} triangles, ${before3} before), as rigscope-cli export --lod 0`);
    await page.select('#lod', '-1');
    await page.waitForFunction(() => window.rigscope.state.summary.lod === -1, { timeout: 30000 });

    // The proxy's particle system (P_GLight_Red at its bone) is drawn: sprites at the proxy bone's position.
    // Its bone is hidden at the bind pose and shown by the clips (the desktop's rule): the clip times are searched.
    const sprites = await page.evaluate(async () => {
      const r = window.rigscope.renderer, s = window.rigscope.state.summary;
      for (let c = 0; c < s.clips.length; ++c) {
        await window.rigscope.setClipIndex(c);
        for (let k = 0; k < 20; ++k) {
          await window.rigscope.setTime(s.clips[c].duration * k / 20);
          const n = r.sprites && r.sprites.particles ? r.sprites.particles.length / 17 : 0;
          if (n) return { particles: n, drawn: r.spritesDrawn || 0, clip: s.clips[c].name, k };
        }
      }
      return { particles: 0, drawn: 0 };
    });
    check(sprites.particles > 0 && sprites.drawn > 0,
      `proxy particles: ${sprites.particles} simulated, ${sprites.drawn} drawn (${sprites.clip}, step ${sprites.k})`);
    await page.evaluate(async (i) => { await window.rigscope.setClipIndex(i); await window.rigscope.setTime(0); }, s.initial);

    // Faction colour: the picker changes the pixels of faction-coloured parts only where the model has them drawn
    // from their texture (here the texture is not among the files: the stand-in grey takes no faction colour, as on
    // the desktop). No corpus model has a non-empty team-colour mask (ESCORT_CARRIER's colourised texture has alpha 0
    // throughout), so the change itself is checked on the formula's other input only by the render tests.
    const colorizes = await page.evaluate(() => window.rigscope.state.summary.parts.some((p, i) =>
      p.colorize && p.drawn && window.rigscope.renderer.parts[i].texture));
    const faction = async (hex) => page.evaluate(async (h) => {
      const i = document.getElementById('faction');
      i.value = h;
      i.dispatchEvent(new Event('input'));
      await new Promise((r) => setTimeout(r, 300));
      window.rigscope.draw();
      const c = document.getElementById('view'), g = c.getContext('webgl2');
      const px = new Uint8Array(c.width * c.height * 4);
      g.readPixels(0, 0, c.width, c.height, g.RGBA, g.UNSIGNED_BYTE, px);
      return Array.from(px.filter((_, k) => k % 16 === 0));
    }, hex);
    const red = await faction('#ff0000'), blue = await faction('#0000ff');
    const changed = red.filter((v, i) => Math.abs(v - blue[i]) > 8).length;
    check(colorizes ? changed > 0 : changed === 0, `faction colour: ${changed} sampled values change (${colorizes ? 'faction-coloured parts drawn' : 'none drawn'})`);
    await faction('#286eff');

    // A broken file now: the message, and the model stays (its summary and its pixels).
    const before = await page.evaluate(() => window.rigscope.state.summary.path);
    await page.evaluate(() => { window.rigscope.state.error = null; });
    await picker.uploadFile(broken);
    await page.waitForFunction(() => window.rigscope.state.error, { timeout: 30000 });
    const after = await page.evaluate(() => ({ path: window.rigscope.state.summary.path,
      shown: !document.getElementById('error').hidden, text: document.getElementById('error').textContent }));
    check(after.shown && after.text.includes('BROKEN.ALO'), 'broken file after a model: message shown');
    check(after.path === before, 'broken file after a model: the model stays');
    const drawn = await page.evaluate(() => {
      window.rigscope.draw();
      const c = document.getElementById('view');
      const g = c.getContext('webgl2');
      const px = new Uint8Array(c.width * c.height * 4);
      g.readPixels(0, 0, c.width, c.height, g.RGBA, g.UNSIGNED_BYTE, px);
      let n = 0;
      for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - 48) + Math.abs(px[i + 1] - 52) + Math.abs(px[i + 2] - 60) > 24) ++n;
      return n;
    });
    check(drawn > 1000, `the model is still drawn after the broken file (${drawn} pixels)`);

    // A game folder holding a 1 GiB file (sparse on disk), picked with the folder input: files are read on demand,
    // so the model opens and the browser's processes grow by far less than the file (a copy into memory would add
    // at least 1024 MiB). RSS of Chromium's whole process tree from /proc, before and after.
    {
      const big = path.join(tmp, 'BigGame');
      fs.mkdirSync(path.join(big, 'Data/Art/Models'), { recursive: true });
      fs.mkdirSync(path.join(big, 'Data/Audio'), { recursive: true });
      fs.copyFileSync(modelFile, path.join(big, 'Data/Art/Models', name + '.ALO'));
      const huge = path.join(big, 'Data/Audio/Speech.bin');
      fs.closeSync(fs.openSync(huge, 'w'));
      fs.truncateSync(huge, 1024 * 1024 * 1024);
      const treeRssMiB = () => {
        const kids = new Map();
        for (const d of fs.readdirSync('/proc')) {
          if (!/^\d+$/.test(d)) continue;
          try {
            const ppid = Number(fs.readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1]);
            if (!kids.has(ppid)) kids.set(ppid, []);
            kids.get(ppid).push(Number(d));
          } catch { /* gone */ }
        }
        let kib = 0;
        const todo = [browser.process().pid];
        while (todo.length) {
          const pid = todo.pop();
          try { kib += Number((fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/) || [0, 0])[1]); } catch { /* gone */ }
          todo.push(...(kids.get(pid) || []));
        }
        return kib / 1024;
      };
      const bpage = await browser.newPage();
      await bpage.goto(`${base}index.html`, { waitUntil: 'load' });
      await bpage.waitForFunction(() => window.rigscope && window.rigscope.frames() > 0, { timeout: 30000 });
      const before = treeRssMiB();
      const t0 = Date.now();
      await (await bpage.$('#pick-folder')).uploadFile(big);
      await bpage.waitForFunction(() => window.rigscope.state.summary || window.rigscope.state.error, { timeout: 60000 });
      const opened = await bpage.evaluate(() => window.rigscope.state.summary && window.rigscope.state.summary.path);
      const after = treeRssMiB();
      check(!!opened && opened.toUpperCase().endsWith(name + '.ALO'),
        `1 GiB folder: its model opened in ${Date.now() - t0} ms (${opened})`);
      check(after - before < 512, `1 GiB folder: read on demand, the browser grew ${Math.round(after - before)} MiB ` +
        `(${Math.round(before)} -> ${Math.round(after)} MiB)`);
      await bpage.close();
      fs.rmSync(big, { recursive: true, force: true });
    }

    // A mod folder with the folder input (webkitdirectory), as a user picks it: mounted, its models listed, the
    // first opened through the mount with its companions.
    const mod = path.join(corpus, 'games/Delta730+Imperial_Civil_War');
    if (fs.existsSync(mod)) {
      const onDisk = [];
      (function walk(d) {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          if (e.isDirectory()) walk(path.join(d, e.name));
          else if (/\.alo$/i.test(e.name)) onDisk.push(e.name);
        }
      })(mod);
      await page.evaluate(() => { window.rigscope.state.summary = null; window.rigscope.state.error = null; });
      const folderInput = await page.$('#pick-folder');
      await folderInput.uploadFile(mod);
      await page.waitForFunction(() => window.rigscope.state.summary || window.rigscope.state.error, { timeout: 60000 });
      const listed = await page.$$eval('#assets option', (os) => os.map((o) => o.textContent));
      const opened = await page.evaluate(() => window.rigscope.state.summary && window.rigscope.state.summary.path);
      check(listed.length === onDisk.length, `folder: its ${onDisk.length} .alo files listed (${listed.length})`);
      check(!!opened && /\.alo$/i.test(opened), 'folder: a model of it opened: ' + opened);

      // The Objects panel: the mount's object database as rigscope-cli objects lists it, an object chosen, its
      // states offered and the first shown.
      await page.click('#objects-panel summary');
      await page.click('#list-objects');
      await page.waitForFunction(() => window.rigscope.state.objects || window.rigscope.state.error, { timeout: 60000 });
      const objs = await page.evaluate(() => window.rigscope.state.objects && window.rigscope.state.objects.objects.map((o) => o.name));
      const refObjs = JSON.parse(execFileSync(cli, ['objects', '--game', mod, '--json'], { encoding: 'utf8' })).objects.map((o) => o.name);
      check(objs && objs.length === refObjs.length && objs.every((n, i) => n === refObjs[i]),
        `Objects panel: the ${refObjs.length} objects of rigscope-cli objects (${objs && objs.length})`);
      const options = await page.$$eval('#objects option', (os) => os.length);
      check(options === Math.min(2000, refObjs.length), `Objects panel: ${options} listed`);
      // An object whose state has a model in the mod: chosen in the list, its state shown as the model.
      const pickObject = await page.evaluate(async (names) => {
        for (const n of names.slice(0, 80)) {
          const st = await window.rigscope.call('objectStates', n);
          if (!st.error && st.states.length && st.states[0].model) return { name: n, key: st.states[0].model, states: st.states.length };
        }
        return null;
      }, objs || []);
      if (pickObject) {
        await page.evaluate(() => { window.rigscope.state.summary = null; });
        await page.select('#objects', pickObject.name);
        await page.waitForFunction(() => window.rigscope.state.summary || window.rigscope.state.error, { timeout: 60000 });
        const st = await page.evaluate(() => ({ path: window.rigscope.state.summary && window.rigscope.state.summary.path,
          states: document.querySelectorAll('#states option').length }));
        check(st.path && st.path.toUpperCase().endsWith(pickObject.key.split('/').pop().toUpperCase()) && st.states === pickObject.states,
          `Objects panel: ${pickObject.name}'s ${st.states} states offered, the first shows ${st.path}`);
      } else check(false, 'Objects panel: no object of the mod has a state with a model');

      // The Problems panel: the mod check's findings, the same as rigscope-cli check's.
      await page.click('#check-panel summary');
      await page.click('#run-check');
      await page.waitForFunction(() => window.rigscope.state.findings, { timeout: 120000 });
      // Files are named where each opened them (the page: /in/N/<folder>/..., the CLI: the folder's path): compared
      // from the mod folder on.
      const rel = (t) => t.replace(/\/in\/\d+\/Delta730\+Imperial_Civil_War\//g, '').split(mod + '/').join('');
      const web = await page.evaluate(() => window.rigscope.state.findings.findings.map((f) => [f.id, f.key, f.message].join('|')))
        .then((a) => a.map(rel).sort());
      let ref;
      try {
        ref = JSON.parse(execFileSync(cli, ['check', '--game', mod, '--json'], { encoding: 'utf8' }));
      } catch (e) {
        ref = JSON.parse(e.stdout);
      }
      const refKeys = ref.findings.map((f) => rel([f.id, f.key, f.message].join('|'))).sort();
      const firstDiff = web.findIndex((k, i) => k !== refKeys[i]);
      if (firstDiff >= 0) console.log('first difference:\n  page: ' + web[firstDiff] + '\n  cli:  ' + refKeys[firstDiff]);
      const rows = await page.$$eval('#findings tr', (r) => r.length);
      check(web.length === refKeys.length && web.every((k, i) => k === refKeys[i]) && rows === Math.min(5000, web.length),
        `Problems panel: the ${refKeys.length} findings of rigscope-cli check (page ${web.length}, ${rows} rows)`);
    }

    // Archives dropped alone (.meg and .big made by rigscope-cli pack from the corpus model, its clips and
    // textures): the page lists the archive's models and opens one from it with its clips, read entry by entry.
    const packDir = path.join(tmp, 'pack');
    const artDir = path.join(packDir, 'DATA/ART/MODELS');
    fs.mkdirSync(artDir, { recursive: true });
    for (const f of [path.basename(modelFile), ...clipFiles]) fs.copyFileSync(path.join(models, f), path.join(artDir, f));
    for (const [ext, extra] of [['meg', []], ['big', []]]) {
      const archive = path.join(tmp, 'MODELS.' + ext.toUpperCase());
      execFileSync(cli, ['pack', packDir, '-o', archive, ...extra], { stdio: 'ignore' });
      await page.evaluate(() => { window.rigscope.state.summary = null; window.rigscope.state.error = null; });
      await page.evaluate(() => { document.getElementById('assets').innerHTML = ''; });
      await picker.uploadFile(archive);
      await page.waitForFunction(() => document.querySelectorAll('#assets option').length > 0 || window.rigscope.state.error,
        { timeout: 60000 });
      const listedA = await page.$$eval('#assets option', (os) => os.map((o) => o.value));
      check(listedA.length === 1 && listedA[0].toUpperCase().endsWith('DATA/ART/MODELS/' + name + '.ALO'),
        `.${ext} dropped: its model listed: ${listedA.join(', ')}`);
      if (listedA.length) {
        await page.select('#assets', listedA[0]);
        await page.waitForFunction(() => window.rigscope.state.summary || window.rigscope.state.error, { timeout: 60000 });
        const a = await page.evaluate(() => window.rigscope.state.summary && {
          bones: window.rigscope.state.summary.bones.length, clips: window.rigscope.state.summary.clips.length });
        check(a && a.bones === s.bones && a.clips === clipFiles.length,
          `.${ext}: the model opened from the archive with its ${a && a.clips} clips (${a && a.bones} bones)`);
      }
    }

    // Faction colour, positively: no corpus model has a non-empty team-colour mask, so the test writes the
    // stormtrooper's colorised texture (EI_TROOPER, looked up as .tga when the .dds is absent) itself, 64x64 RGBA:
    //   A: white, alpha (the mask) 255 in the left half of the texture, 0 in the right half;
    //   Z, B, W: alpha 0 (no colorisation), RGB black, white in the left half only, white.
    // B against Z gives the screen pixels of the left half (mask set), W against B those of the right half (mask
    // unset). With A, red against blue faction colour must change the first and not the second.
    {
      const tga = (rgba) => tga64((x) => rgba(x < 32));
      const kinds = { A: (l) => [255, 255, 255, l ? 255 : 0], Z: () => [0, 0, 0, 0],
        B: (l) => (l ? [255, 255, 255, 0] : [0, 0, 0, 0]), W: () => [255, 255, 255, 0] };
      const fpage = await browser.newPage();
      await fpage.setViewport({ width: 800, height: 600 });
      await fpage.goto(base, { waitUntil: 'load' });
      await fpage.waitForFunction(() => window.rigscope && window.rigscope.frames() > 0, { timeout: 30000 });
      const frame = async (kind, hex) => {
        const dir = path.join(tmp, 'faction_' + kind);
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'EI_TROOPER.TGA'), tga(kinds[kind]));
        await fpage.evaluate(() => { window.rigscope.state.summary = null; });
        await (await fpage.$('#pick-files')).uploadFile(modelFile, path.join(dir, 'EI_TROOPER.TGA'));
        await fpage.waitForFunction(() => window.rigscope.state.summary && window.rigscope.renderer.engine.texturesLoaded,
          { timeout: 60000 });
        return fpage.evaluate(async (h) => {
          await window.rigscope.setClipIndex(-1); // the bind pose: the same picture for every texture
          await window.rigscope.setFaction(h);
          window.rigscope.draw();
          const c = document.getElementById('view'), g = c.getContext('webgl2');
          const px = new Uint8Array(c.width * c.height * 4);
          g.readPixels(0, 0, c.width, c.height, g.RGBA, g.UNSIGNED_BYTE, px);
          return Array.from(px);
        }, hex);
      };
      const differ = (a, b) => {
        const out = new Uint8Array(a.length / 4);
        for (let i = 0; i < out.length; ++i)
          out[i] = Math.abs(a[i * 4] - b[i * 4]) + Math.abs(a[i * 4 + 1] - b[i * 4 + 1]) + Math.abs(a[i * 4 + 2] - b[i * 4 + 2]) > 24 ? 1 : 0;
        return out;
      };
      const z = await frame('Z', '#ff0000'), bl = await frame('B', '#ff0000'), w = await frame('W', '#ff0000');
      const aRed = await frame('A', '#ff0000');
      const aBlue = await fpage.evaluate(async () => {
        await window.rigscope.setFaction('#0000ff');
        window.rigscope.draw();
        const c = document.getElementById('view'), g = c.getContext('webgl2');
        const px = new Uint8Array(c.width * c.height * 4);
        g.readPixels(0, 0, c.width, c.height, g.RGBA, g.UNSIGNED_BYTE, px);
        return Array.from(px);
      });
      await fpage.close();
      const maskSet = differ(bl, z), maskUnset = differ(w, bl), changed = differ(aRed, aBlue);
      let set = 0, unset = 0, inSet = 0, inUnset = 0, n = 0;
      for (let i = 0; i < changed.length; ++i) {
        set += maskSet[i];
        unset += maskUnset[i] && !maskSet[i] ? 1 : 0;
        n += changed[i];
        inSet += changed[i] && maskSet[i] ? 1 : 0;
        inUnset += changed[i] && maskUnset[i] && !maskSet[i] ? 1 : 0;
      }
      check(set > 500 && unset > 500, `faction mask fixture: ${set} pixels show the mask's half, ${unset} the other half`);
      check(inSet >= 0.9 * set, `faction colour changes the pixels where the mask is set: ${inSet} of ${set}`);
      check(inUnset <= 0.02 * unset, `faction colour leaves the pixels where the mask is not set: ${inUnset} of ${unset} change`);
    }

    // Dazzle textures: the model's dazzle atlas is read through the module's resolver (a test-written 2x2 atlas
    // beside the model: top-left red, top-right green, bottom-left blue, bottom-right white) and a dazzle is drawn
    // by the desktop's dazzle program with its cell (render/dazzle_rules.h dazzleRect: texX 1, texY 0, texSize 2:
    // the top-right cell): its centre adds green and nothing else to the frame (a flipped atlas would add white).
    {
      const dir = path.join(tmp, 'dazzle');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'DZ_ATLAS.TGA'), tga64((x, y) => (y < 32 ? (x < 32 ? [255, 0, 0, 255] : [0, 255, 0, 255])
        : (x < 32 ? [0, 0, 255, 255] : [255, 255, 255, 255]))));
      const dpage = await browser.newPage();
      await dpage.setViewport({ width: 800, height: 600 });
      await dpage.goto(base, { waitUntil: 'load' });
      await dpage.waitForFunction(() => window.rigscope && window.rigscope.frames() > 0, { timeout: 30000 });
      await (await dpage.$('#pick-files')).uploadFile(modelFile, path.join(dir, 'DZ_ATLAS.TGA'));
      await dpage.waitForFunction(() => window.rigscope.state.summary && window.rigscope.boneWorld() &&
        window.rigscope.renderer.view, { timeout: 60000 });
      const d = await dpage.evaluate(async () => {
        const r = window.rigscope.renderer, gl = r.gl, c = r.canvas;
        await r.loadDazzleTexture({ dazzles: [{ texture: 'DZ_ATLAS.TGA' }] });
        // A dazzle 40 pixels in radius on screen, between the first bone and the eye (in front of the model).
        const w = window.rigscope.boneWorld(), e = r.eye;
        const p = [0, 1, 2].map((k) => w[12 + k] + 0.6 * (e[k] - w[12 + k]));
        const v = r.view, pr = r.projection;
        const z = -(v[2] * p[0] + v[6] * p[1] + v[10] * p[2] + v[14]);
        const radius = 40 * z / (pr[5] * 0.5 * c.height);
        const frame = (sprites) => {
          r.setSprites(sprites, new Float32Array(0));
          r.draw();
          // the dazzle centre on screen
          const vp = [];
          for (let col = 0; col < 4; ++col)
            for (let row = 0; row < 4; ++row) {
              let s = 0;
              for (let k = 0; k < 4; ++k) s += pr[k * 4 + row] * v[col * 4 + k];
              vp[col * 4 + row] = s;
            }
          const q = [0, 1, 2, 3].map((row) => vp[row] * p[0] + vp[4 + row] * p[1] + vp[8 + row] * p[2] + vp[12 + row]);
          const x = Math.round((q[0] / q[3] * 0.5 + 0.5) * c.width), y = Math.round((q[1] / q[3] * 0.5 + 0.5) * c.height);
          const px = new Uint8Array(4);
          gl.readPixels(x, y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
          return Array.from(px);
        };
        const without = frame(new Float32Array(0));
        const withDz = frame(new Float32Array([p[0], p[1], p[2], radius, 1, 1, 1, 1, 0.5, 0.5, 1, 0]));
        return { texture: r.dazzleTextureName, without, withDz, drawn: r.dazzlesDrawn };
      });
      await dpage.close();
      const dr = d.withDz[0] - d.without[0], dg = d.withDz[1] - d.without[1], db = d.withDz[2] - d.without[2];
      check(d.texture === 'DZ_ATLAS.TGA' && d.drawn === 1, `dazzle atlas read through the resolver: ${d.texture}, ${d.drawn} drawn`);
      check(dg > 100 && Math.abs(dr) < 12 && Math.abs(db) < 12,
        `dazzle draws its atlas cell (top-right, green): the centre changes by ${dr}, ${dg}, ${db}`);
    }

    // A proxy model follows its bone over the clip. No corpus model attaches a proxy model, so the light factory's
    // proxy p_girder_sparks00 (a particle system in the game, on a bone its build clip moves) is given a model under
    // that name (a copy of EI_NOVATROOPER.ALO in a temporary folder): at two times of the clip, every palette slot
    // the page uploads for the attached model's parts satisfies P(t1) = B(t1) * B(t0)^-1 * P(t0), B the proxy
    // bone's world matrix.
    const factory = fs.readdirSync(models).filter((f) => /^EB_LIGHTFACTORY(_.*\.ala|\.alo)$/i.test(f));
    if (factory.length > 1) {
      const dir = path.join(tmp, 'proxy_model');
      fs.mkdirSync(dir, { recursive: true });
      for (const f of factory) fs.copyFileSync(path.join(models, f), path.join(dir, f));
      fs.copyFileSync(path.join(models, 'EI_NOVATROOPER.ALO'), path.join(dir, 'p_girder_sparks00.ALO'));
      const upload = [...factory, 'p_girder_sparks00.ALO'].map((f) => path.join(dir, f));
      const ppage = await browser.newPage();
      await ppage.goto(base, { waitUntil: 'load' });
      await ppage.waitForFunction(() => window.rigscope && window.rigscope.frames() > 0, { timeout: 30000 });
      await (await ppage.$('#pick-files')).uploadFile(...upload);
      await ppage.waitForFunction(() => window.rigscope.state.summary, { timeout: 60000 });
      const r = await ppage.evaluate(async () => {
        const R = window.rigscope, s = R.state.summary, rd = R.renderer;
        const a = s.attached[0];
        if (!a) return { attached: 0 };
        const parts = rd.parts.filter((p) => p.info.owner === 1);
        const grab = async (c, t) => {
          await R.setClipIndex(c);
          await R.setTime(t);
          const w = R.boneWorld();
          return { bone: w.slice(a.bone * 16, a.bone * 16 + 16),
            slots: parts.map((p) => Array.from(rd.uboData.slice(p.uboOffset / 4, p.uboOffset / 4 + p.info.paletteCount * 16))) };
        };
        for (let c = 0; c < s.clips.length; ++c) {
          const d = s.clips[c].duration;
          if (!s.clips[c].fits) continue;
          const x = await grab(c, 0), y = await grab(c, d * 0.5);
          const moved = Math.hypot(x.bone[12] - y.bone[12], x.bone[13] - y.bone[13], x.bone[14] - y.bone[14]);
          if (moved > 0.01) return { attached: s.attached.length, parts: parts.length, clip: s.clips[c].name, moved, x, y };
        }
        return { attached: s.attached.length, parts: parts.length, moved: 0 };
      });
      await ppage.close();
      let worst = Infinity, slots = 0;
      if (r.moved > 0) {
        worst = 0;
        const inv = invert4(r.x.bone), rel = mul4(r.y.bone, inv);
        r.x.slots.forEach((xs, k) => {
          for (let i = 0; i + 16 <= xs.length; i += 16, ++slots) {
            const want = mul4(rel, xs.slice(i, i + 16)), got = r.y.slots[k].slice(i, i + 16);
            for (let e = 0; e < 16; ++e) worst = Math.max(worst, Math.abs(want[e] - got[e]) / Math.max(1, Math.abs(want[e])));
          }
        });
      }
      check(r.attached >= 1 && r.parts > 0, `proxy model: attached at its proxy bone (${r.attached} model(s), ${r.parts} parts)`);
      check(r.moved > 0 && slots > 0 && worst <= 1e-4, `proxy model follows its bone over ${r.clip}: the bone moves ` +
        `${(r.moved || 0).toFixed(2)}, ${slots} palette slots within ${worst.toExponential(2)} of B(t1) B(t0)^-1 P(t0)`);
    }

    // The embed link against the desktop's headless screenshot: same file, camera and time. The stormtrooper is
    // drawn by the Alamo shaders on both (the shared GLSL with the desktop's uniform values, web/page/engine.js), the
    // TROWMod building by BFME's NormalMapped.fx on both, the B&W2 model by the generic lit program on both:
    // silhouettes and colours compared.
    const url = (f) => '/corpus/' + path.relative(corpus, f).split(path.sep).map(encodeURIComponent).join('/');
    // A link names its clip (a web server lists no folder): the idle clip, which the desktop picks by itself.
    const idle = path.join(models, clipFiles.find((f) => /_IDLE_/i.test(f)));
    await compareWithDesktop(modelFile, idle, 0.5, 35, true);
    // The citadel's buildings are NormalMapped.fx shader materials; its water a ww3d2 pass with a second UV set and
    // a scrolling mapper (render/glsl/w3d.*, the values of render/fx_uniforms.cpp w3dPassBindings on both): colours
    // compared where the page draws by a formula (its formula mask).
    const citadel = path.join(corpus, 'w3d/OpenSAGE+OpenSAGE.BlenderPlugin/tests/cases/dol_amroth_citadel/gbdolamr.w3d');
    if (fs.existsSync(citadel)) await compareWithDesktop(citadel, null, 0, 35, 'formulas');
    // ww3d2 passes: per-vertex colours (Renegade's marker, no texture) and a TROWMod building whose passes read a
    // second UV set through mappers (self-contained files: a link brings no companion).
    for (const f of ['w3d/electronicarts+CnC_Renegade/Code/Tools/LevelEdit/res/carmarker.w3d',
      'games/SymoniusGit+TROWMod/arts/art/w3d/kb/kbforge.w3d']) {
      const file = path.join(corpus, f);
      if (fs.existsSync(file)) await compareWithDesktop(file, null, 0, 35, 'formulas');
    }
    // ww3d2 passes with their textures (the picker with the model and the textures the desktop finds in the mod's
    // folders): the images' orientation and the stage sampling against the desktop.
    const stables = path.join(corpus, 'w3d/FuryslavBoytcov+rotwk_evilmod/mod/asis/art/w3d/eb/ebstables_opa.W3D');
    if (fs.existsSync(stables)) {
      const tex = path.join(corpus, 'w3d/FuryslavBoytcov+rotwk_evilmod/mod/asis/art/compiledtextures');
      const names = ['eb/ebstablesbib.dds', 'eu/eurivbanner.dds', 'eb/ebstables.dds', 'eb/ebstables2.dds', 'eb/ebstables3.dds'];
      await compareWithDesktop(stables, null, 0, 35, 'formulas', null, names.map((n) => path.join(tex, n)).filter((f) => fs.existsSync(f)));
    }
    const bwm = path.join(corpus, 'bw2/WilliamESE+bw2ModelEditor/Models/m_norse_chieftains_grave.bwm');
    if (fs.existsSync(bwm)) await compareWithDesktop(bwm, null, 0, 60, true);

    // The Space light preset (render/lights.h alamoLightRig, computed by the module as by the desktop): the link's
    // &lights=space against `rigscope --screenshot --lights space`, and the picture differs from the Land one.
    const space = await compareWithDesktop(modelFile, idle, 0.5, 35, true, 'space');
    const land = readPng(path.join(outDir, 'web_' + name + '.png'));
    const spaceDiff = compare(space.web, land);
    check(spaceDiff.meanDiff > 2, `light presets: Space differs from Land on the page (mean ${spaceDiff.meanDiff.toFixed(2)}/255)`);

    // Returns the page's and the desktop's pictures ({web, desk}).
    // upload: open these files with the picker on the embed page instead of the link (a link brings no companion:
    // textures beside the model come this way).
    async function compareWithDesktop(file, clip, time, yaw, colours, lights = null, upload = null) {
      const stem = path.basename(file).replace(/\.[^.]*$/, '') + (lights ? '_' + lights : '');
      const embed = await browser.newPage();
      await embed.setViewport({ width: 1280, height: 720 });
      const link = `${base}index.html?open=${url(file)}${clip ? '&clip=' + url(clip) : ''}&time=${time}&yaw=${yaw}` +
        `${lights ? '&lights=' + lights : ''}&embed=1`;
      if (upload) {
        await embed.goto(`${base}index.html?time=${time}&yaw=${yaw}&embed=1`, { waitUntil: 'load' });
        await embed.waitForFunction(() => window.rigscope && window.rigscope.frames() > 0, { timeout: 30000 });
        await (await embed.$('#pick-files')).uploadFile(file, ...upload);
        await embed.waitForFunction(() => window.rigscope.state.summary && window.rigscope.renderer.engine.texturesLoaded,
          { timeout: 60000 });
      } else {
        await embed.goto(link, { waitUntil: 'load' });
      }
      await embed.waitForFunction(() => window.rigscope && window.rigscope.state.summary &&
        window.rigscope.state.firstFrameMs !== null, { timeout: 60000 });
      await embed.evaluate(() => window.rigscope.ready);
      await new Promise((r) => setTimeout(r, 500)); // textures (read after the first frame)
      const webPng = path.join(outDir, 'web_' + stem + '.png');
      let mask = null;
      if (colours === 'formulas') {
        const maskPng = path.join(outDir, 'mask_' + stem + '.png');
        const data = await embed.evaluate(() => { // drawn and read in one task: no frame in between
          window.rigscope.formulaMask();
          return document.querySelector('#view').toDataURL('image/png').split(',')[1];
        });
        fs.writeFileSync(maskPng, Buffer.from(data, 'base64'));
        mask = readPng(maskPng);
      }
      await embed.evaluate(() => window.rigscope.draw());
      fs.writeFileSync(webPng, Buffer.from(await embed.$eval('#view', (c) => c.toDataURL('image/png').split(',')[1]), 'base64'));
      await embed.close();
      const deskPng = path.join(outDir, 'desktop_' + stem + '.png');
      execFileSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24 -noreset', path.join(binDir, 'rigscope'), '--screenshot',
        deskPng, '--size', '1280x720', '--no-grid', '--no-labels', '--time', String(time), '--yaw', String(yaw),
        ...(lights ? ['--lights', lights] : []), file],
        { env: { ...process.env, QT3D_RENDERER: 'opengl' }, stdio: ['ignore', 'ignore', 'ignore'] });
      const web = readPng(webPng), desk = readPng(deskPng);
      const r = compare(web, desk, mask);
      check(r.iou >= 0.97, `${stem}: silhouette against rigscope --screenshot: IoU ${r.iou.toFixed(4)} (>= 0.97)`);
      if (mask) check(r.n > 10000, `${stem}: pixels drawn by a shader formula on the page: ${r.n}`);
      if (colours)
        check(r.meanDiff <= 8, `${stem}: colours where both draw${mask ? ' by the same formula' : ''}: mean ` +
          `difference ${r.meanDiff.toFixed(2)}/255 (<= 8)`);
      return { web, desk, mask };
    }
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`${counts.checks - counts.failures}/${counts.checks} checks passed`);
process.exit(counts.failures ? 1 : code);
