// The web module's parse path in Node (the Node-targeted build: NODERAWFS, binary embedded).
//   node node_parse_test.mjs build-web/node/rigscope_web_node.js CORPUS_DIR [BIN_DIR]
// BIN_DIR: the desktop build's bin/ (rigscope-cli), the reference for the W3X, object and check results when given.
// Without the corpus: exit 77 (ctest SKIP) after the corpus-free checks, saying what is missing.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [modulePath, corpus, binDir] = process.argv.slice(2);
const cli = binDir && path.join(binDir, 'rigscope-cli');
const haveCli = cli && fs.existsSync(cli);
const require = createRequire(import.meta.url);
if (!modulePath || !fs.existsSync(modulePath)) {
  console.log(`SKIPPED: ${modulePath} is not built (tools/bootstrap.sh web builds build-web/)`);
  process.exit(77);
}
const createRigscope = require(path.resolve(modulePath));
const M = await createRigscope();

let failures = 0, checks = 0;
function check(cond, what) {
  ++checks;
  if (!cond) {
    ++failures;
    console.error('FAILED: ' + what);
  }
}

// Corpus-free: an Alamo chunk file whose first chunk claims more bytes than the file holds is refused with the
// file, the chunk path and the byte offset; a file holding nothing readable names the file.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rigscope-web-'));
const broken = path.join(tmp, 'BROKEN.ALO');
const b = Buffer.alloc(24);
b.writeUInt32LE(0x400, 0);        // mesh chunk
b.writeUInt32LE(0x80001000, 4);   // container flag + 4096 bytes: past the end
b.writeUInt32LE(0x401, 8);
b.writeUInt32LE(0x00000008, 12);
fs.writeFileSync(broken, b);
const e1 = JSON.parse(M.open(broken));
check(e1.error && e1.error.file === broken, 'broken file: error names the file: ' + JSON.stringify(e1));
check(e1.error && typeof e1.error.offset === 'number', 'broken file: error gives a byte offset: ' + JSON.stringify(e1));
check(e1.error && e1.error.text.includes(broken), 'broken file: text names the file');
const e2 = JSON.parse(M.open(path.join(tmp, 'ABSENT.ALO')));
check(e2.error && e2.error.text.includes('ABSENT.ALO'), 'absent file: error names it: ' + JSON.stringify(e2));
check(M.formats().includes('.alo') && M.formats().includes('.w3d'), 'format registry lists .alo and .w3d');

const models = corpus && path.join(corpus, 'alamo/Delta730+Imperial_Civil_War/Data/Art/Models');
if (!corpus || !fs.existsSync(models)) {
  console.log(`${checks - failures}/${checks} checks passed`);
  console.log(`SKIPPED: corpus checks: ${models || '(no corpus dir given)'} is absent`);
  process.exit(failures ? 1 : 77);
}

// A skinned Alamo model with companion clips found beside it by the resolver.
const trooper = path.join(models, 'EI_STORMTROOPER.ALO');
const s = JSON.parse(M.open(trooper));
check(!s.error, 'stormtrooper opens: ' + JSON.stringify(s.error));
if (!s.error) {
  check(s.format === 'alo' && s.zUp === true, 'format alo, Z up');
  check(s.bones.length > 10, 'skeleton read: ' + s.bones.length + ' bones');
  check(s.bones.every((bn, i) => bn.parent < i), 'bones ordered parent first');
  check(s.clips.length >= 4 && s.clips.some(c => /IDLE/i.test(c.name)), 'companion clips found: ' +
        s.clips.map(c => c.name).join(','));
  check(s.initialClip >= 0 && /IDLE/i.test(s.clips[s.initialClip].name), 'starts on the idle clip');
  let tris = 0;
  s.parts.forEach((p, i) => {
    const d = M.subMesh(i);
    check(d.positions.length === p.vertices * 3, `part ${i}: ${p.vertices} positions`);
    check(d.indices.length === p.triangles * 3, `part ${i}: ${p.triangles} triangles`);
    check(d.indices.every(k => k < p.vertices), `part ${i}: indices within the vertices`);
    if (p.skinned) check(d.boneIndex && d.boneIndex.every(k => k < p.paletteCount), `part ${i}: bone slots < palette`);
    tris += p.triangles;
  });
  check(tris > 100, 'triangles: ' + tris);
  check(s.parts.some(p => p.drawnBy.length > 0), 'each part names what draws it');
  // The .fx formulas' bindings (render/fx_uniforms.cpp, the values the desktop binds): every part drawn by an Alamo
  // implementation carries the alamo program, its one define, the material's constants and its texture slots.
  const alamoParts = s.parts.filter(p => p.fx && p.fx.program === 'alamo');
  check(alamoParts.length > 0 && alamoParts.every(p => p.fx.defines.length === 1 &&
    p.fx.uniforms.some(u => u.name === 'mDiffuse' && u.value.length === 4) &&
    p.fx.textures.some(t => t.uniform === 'baseTexture' && t.base)), `Alamo parts carry their .fx binding (${alamoParts.length})`);
  check(s.parts.every(p => p.fx === null || typeof p.fx === 'object'), 'fx: a binding or null');
  // The render states come with the binding (render/fx_uniforms.cpp alamoStates, the table the desktop uses too):
  // the .fx techniques' AlphaBlendEnable/SrcBlend/DestBlend, ZWriteEnable and CullMode.
  const expectStates = { ALPHA: ['alpha', false, false], ALPHA_GLOSS: ['alpha', false, false],
    ADDITIVE: ['additive', false, false], SHIELD: ['additive', false, true], NEBULA: ['additive', false, true],
    GRASS: ['alpha', false, true], SKYDOME: ['none', false, false], BUMP_COLORIZE: ['none', true, false],
    GLOSS: ['none', true, false], GLOSS_COLORIZE: ['none', true, false], DEFAULT: ['none', true, false] };
  const statesSeen = alamoParts.filter(p => expectStates[p.fx.defines[0]]);
  check(statesSeen.length > 0 && statesSeen.every(p => {
    const [blend, depthWrite, twoSided] = expectStates[p.fx.defines[0]];
    const st = p.fx.states;
    return st && st.blend === blend && st.depthWrite === depthWrite && st.twoSided === twoSided &&
      st.depthTest === 'lequal' && !st.stencilOnce && !st.readsFrame;
  }), `Alamo parts carry their render states (${statesSeen.map(p => p.fx.defines[0]).join(' ')})`);
  check(s.parts.every(p => !p.fx || p.fx.program === 'alamo' ||
    (p.fx.states.blend === 'none' && p.fx.states.depthWrite && !p.fx.states.twoSided)),
    'SAGE .fx parts: the default states');
  const a = M.alamoLights(0);
  check(a.sphAll.length === 48 && a.sphFill.length === 48 && a.alamoLights.length === 28 &&
    Math.abs(Math.hypot(...a.sunToward) - 1) < 1e-5, 'Alamo light set-up: SH matrices, fixed-function lights, unit sun');
  // The Space preset (render/lights.h): the same sun direction, a brighter sun, dimmer fills and ambient.
  const sp = M.alamoLights(1), sum = (v, from, n) => Array.from(v).slice(from, from + n).reduce((x, y) => x + y, 0);
  check(sp.sunToward.every((v, k) => Math.abs(v - a.sunToward[k]) < 1e-6) &&
    sum(sp.sunDiffuse, 0, 3) > sum(a.sunDiffuse, 0, 3) && sum(sp.alamoLights, 16, 8) < sum(a.alamoLights, 16, 8),
    'Alamo light presets: Space has a brighter sun and dimmer fills than Land');
  // Pose: the bind pose is evaluated at open; a clip moves some bone; palette sizes follow the parts.
  const bind = Float32Array.from(M.world());
  check(bind.length === s.bones.length * 16, 'world(): 16 floats per bone');
  check(M.setClip(s.initialClip), 'idle clip binds');
  const clip = s.clips[s.initialClip];
  M.pose(clip.duration * 0.5, 0);
  const mid = M.world();
  let moved = 0;
  for (let i = 0; i < mid.length; ++i) moved = Math.max(moved, Math.abs(mid[i] - bind[i]));
  check(moved > 1e-4, 'mid-clip pose differs from the bind pose: ' + moved);
  const last = s.parts[s.parts.length - 1];
  check(M.palettes().length >= (last.paletteOffset + last.paletteCount) * 16, 'palettes hold every part');
  // glTF download of what is shown (export/ compiled in): a GLB whose header gives its own length, with the bones.
  const glb = M.exportGlb(40 / 255, 110 / 255, 1);
  check(!glb.error && glb.bytes && Buffer.from(glb.bytes.subarray(0, 4)).toString('latin1') === 'glTF',
    'exportGlb: a GLB ' + (glb.error || ''));
  if (glb.bytes) {
    const hdr = Buffer.from(glb.bytes.buffer, glb.bytes.byteOffset, glb.bytes.length);
    check(hdr.readUInt32LE(8) === glb.bytes.length, 'exportGlb: its header length is its size');
    const json = JSON.parse(hdr.toString('utf8', 20, 20 + hdr.readUInt32LE(12)));
    check(json.nodes.some((n) => n.name === s.bones[s.bones.length - 1].name) && json.animations.length === s.clips.length,
      `exportGlb: bones as nodes, ${s.clips.length} clips as animations`);
  }
  // A broken file afterwards: refused, and the shown model is still there (pose and parts answer).
  const again = JSON.parse(M.open(broken));
  check(again.error, 'broken file refused after a good one');
  check(M.world().length === s.bones.length * 16, 'previous model kept after a broken file');
  check(M.subMesh(0) !== null, 'previous parts kept after a broken file');
}

// An archive entry: "<archive>:<entry>" through the resolver's archive table (MEG v2 with two files).
const meg = path.join(corpus, 'archives/AlamoEngine-Tools+PetroglyphTools/PG.StarWarsGame.Files.MEG/' +
                      'PG.StarWarsGame.Files.MEG.Test/Resources/Files/v2_2_files_data.meg');
if (fs.existsSync(meg)) {
  const m = JSON.parse(M.mount(meg));
  check(m.ok === true || m.error, 'mount answers');
}

// W3D skin + skeleton + clips in separate files, through the same resolver.
const w3dDir = path.join(corpus, 'games/SymoniusGit+TROWMod');
if (fs.existsSync(w3dDir)) {
  const skn = [];
  (function walk(d) {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/_SKN\.W3D$/i.test(e.name)) skn.push(p);
    }
  })(w3dDir);
  skn.sort();
  if (skn.length) {
    const w = JSON.parse(M.open(skn[0]));
    check(!w.error, 'W3D skin opens: ' + skn[0] + ' ' + JSON.stringify(w.error));
    if (!w.error) check(w.bones.length > 1 && w.parts.length > 0, 'W3D skin has its hierarchy and meshes');
  }
}

// W3X (pugixml compiled from Debian's source package): the SAGE SDK's skin with its skeleton, as the CLI reads it.
const w3x = path.join(corpus, 'w3x/JenkinsTR+KanesWrath-MODSDK-2020/_CnC3_SDK/Art/EU/EULorWar_SKN.W3X');
if (fs.existsSync(w3x)) {
  const r = JSON.parse(M.open(w3x));
  check(!r.error, 'W3X opens: ' + JSON.stringify(r.error));
  if (!r.error) {
    check(r.format === 'w3x' && r.bones.length > 1 && r.parts.length > 0, `W3X: ${r.bones.length} bones, ${r.parts.length} parts`);
    if (haveCli) {
      const ref = JSON.parse(execFileSync(cli, ['info', '--json', w3x], { encoding: 'utf8' }));
      check(ref.bones.length === r.bones.length && ref.bones.every((b, i) => b.name === r.bones[i].name),
        `W3X: the bones rigscope-cli info reads (${ref.bones.length})`);
      check(ref.meshes.length === r.meshes.length, `W3X: the meshes rigscope-cli info reads (${ref.meshes.length})`);
    }
  }
  // A W3X file cut in the middle of its XML: refused naming the file and the line.
  const cut = path.join(tmp, 'CUT_SKN.W3X');
  const text = fs.readFileSync(w3x);
  fs.writeFileSync(cut, text.subarray(0, Math.floor(text.length / 2)));
  const c = JSON.parse(M.open(cut));
  check(c.error && c.error.text.includes('CUT_SKN.W3X'), 'cut W3X refused naming the file: ' + JSON.stringify(c.error));
}

// LOD/ALT (core selectLodAlt) on a model with ALT levels: the chosen level's meshes, as rigscope-cli export --alt.
const factory = path.join(models, 'EB_LIGHTFACTORY.ALO');
if (fs.existsSync(factory)) {
  const f = JSON.parse(M.open(factory));
  check(!f.error && f.altLevels.length >= 3, 'factory: ALT levels ' + JSON.stringify(f.altLevels));
  const r = JSON.parse(M.setLodAlt(-1, 2));
  const drawn = new Set(f.parts.filter((p, i) => r.drawn[i] && p.owner === 0).map((p) => p.meshName));
  check(r.alt === 2 && [...drawn].some((n) => /_ALT2$/i.test(n)) && ![...drawn].some((n) => /_ALT[013]$/i.test(n)),
    'ALT 2: only ALT 2 meshes of the levelled ones: ' + [...drawn].join(','));
  if (haveCli) {
    const out = path.join(tmp, 'alt2.glb');
    execFileSync(cli, ['export', factory, '--alt', '2', '-o', out], { stdio: 'ignore' });
    const g = fs.readFileSync(out);
    const names = new Set(JSON.parse(g.toString('utf8', 20, 20 + g.readUInt32LE(12))).meshes.map((m) => m.name));
    check([...drawn].every((n) => names.has(n)), 'ALT 2: every drawn mesh is one rigscope-cli export --alt 2 writes');
  }
  // Proxies with an ALT level follow it (render/proxy_parts.cpp proxyShown): p_blink_white_ALT0 shows at ALT 0 only.
  check(f.proxies.length > 0 && f.proxies.every((p) => typeof p.found === 'string'), 'factory: proxies listed with what they are');
}

// Proxies' particle systems: the stormtrooper's P_GLight_Red at its bone, core's simulation against
// rigscope-cli particles at the same time, moved by the proxy bone's world matrix.
{
  const t = JSON.parse(M.open(trooper));
  const em = t.emitters || [];
  check(em.length === 1 && /P_GLight_Red/i.test(em[0].label), 'stormtrooper: its proxy particle system: ' + JSON.stringify(em));
  if (em.length === 1) {
    // The proxy's bone is hidden at the bind pose (as the desktop, particles show only while their bone is visible):
    // the first clip frame that shows it.
    const time = 0.5;
    let p = new Float32Array(0), where = '';
    for (let c = 0; c < t.clips.length && !p.length; ++c) {
      M.setClip(c);
      for (let k = 0; k < 20 && !p.length; ++k) {
        M.pose(t.clips[c].duration * k / 20, 0);
        p = Float32Array.from(M.particles(time));
        where = `${t.clips[c].name} at ${(t.clips[c].duration * k / 20).toFixed(2)} s`;
      }
    }
    check(p.length > 0, 'particles drawn where the proxy bone is visible: ' + where);
    const w = M.world().slice(em[0].bone * 16, em[0].bone * 16 + 16);
    const F = 17; // floats a particle (rigscope_web.cpp kParticleFloats: the desktop's instance layout + emitter slot)
    if (haveCli) {
      const ref = JSON.parse(execFileSync(cli, ['particles', '--json', path.join(models, 'P_GLight_Red.ALO'), '--time', String(time)],
        { encoding: 'utf8' }));
      check(p.length === ref.particles.length * F, `particles: ${p.length / F} drawn, rigscope-cli ${ref.particles.length}`);
      let worst = 0;
      ref.particles.forEach((q, i) => {
        const [x, y, z] = q.position;
        const wx = w[0] * x + w[4] * y + w[8] * z + w[12], wy = w[1] * x + w[5] * y + w[9] * z + w[13],
          wz = w[2] * x + w[6] * y + w[10] * z + w[14];
        worst = Math.max(worst, Math.abs(wx - p[i * F]), Math.abs(wy - p[i * F + 1]), Math.abs(wz - p[i * F + 2]),
          Math.abs(q.size - p[i * F + 3]));
      });
      check(worst < 1e-3, `particles at the proxy bone: positions and sizes within 1e-3 of rigscope-cli's (worst ${worst})`);
    } else check(p.length > 0, 'particles at 0.5 s: ' + p.length / F);
  }
}

// The Objects list, an object's states and the mod check of a mod folder mounted as the page mounts it.
const icw = path.join(corpus, 'games/Delta730+Imperial_Civil_War');
if (fs.existsSync(icw)) {
  const m = JSON.parse(M.mount(icw));
  check(m.ok, 'mod folder mounts');
  const o = JSON.parse(M.objectList());
  check(!o.error && o.family === 'alamo' && o.objects.length > 10, `objects: ${o.objects ? o.objects.length : o.error.text}`);
  if (haveCli && !o.error) {
    const ref = JSON.parse(execFileSync(cli, ['objects', '--game', icw, '--json'], { encoding: 'utf8' }));
    check(ref.objects.length === o.objects.length && ref.objects.every((x, i) => x.name === o.objects[i].name),
      `objects: the ${ref.objects.length} rigscope-cli objects lists, in its order`);
  }
  if (!o.error) {
    let shown = null;
    for (const x of o.objects.slice(0, 60)) {
      const st = JSON.parse(M.objectStates(x.name));
      if (st.error || !st.states.length || !st.states[0].model) continue;
      const r = JSON.parse(M.openState(0));
      if (!r.error) { shown = { name: x.name, key: st.states[0].model, r }; break; }
    }
    check(shown && shown.r.bones.length > 0, 'an object state shown as a model: ' + (shown && shown.name + ' ' + shown.key));
  }
  const c = JSON.parse(M.check());
  check(!c.error && c.files > 0, `check: ${c.files} files, ${c.findings ? c.findings.length : c.error.text} findings`);
  if (haveCli && !c.error) {
    let ref;
    try {
      ref = JSON.parse(execFileSync(cli, ['check', '--game', icw, '--json'], { encoding: 'utf8' }));
    } catch (e) {
      ref = JSON.parse(e.stdout); // exit 1: findings at the fail level
    }
    const key = (f) => [f.id, f.key, f.message].join('|');
    const a = c.findings.map(key).sort(), b = ref.findings.map(key).sort();
    check(a.length === b.length && a.every((x, i) => x === b[i]),
      `check: the same ${b.length} findings as rigscope-cli check (page ${a.length})`);
  }
}

console.log(`${checks - failures}/${checks} checks passed`);
process.exit(failures ? 1 : 0);
