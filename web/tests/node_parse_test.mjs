// The web module's parse path in Node (the Node-targeted build: NODERAWFS, binary embedded).
//   node node_parse_test.mjs build-web/node/rigscope_web_node.js CORPUS_DIR
// Without the corpus: exit 77 (ctest SKIP) after the corpus-free checks, saying what is missing.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [modulePath, corpus] = process.argv.slice(2);
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
  const a = M.alamoLights();
  check(a.sphAll.length === 48 && a.sphFill.length === 48 && a.alamoLights.length === 28 &&
    Math.abs(Math.hypot(...a.sunToward) - 1) < 1e-5, 'Alamo light set-up: SH matrices, fixed-function lights, unit sun');
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
  const glb = M.exportGlb();
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

// W3X: recognised and refused by name in this build (no pugixml for WebAssembly), not misread as another format.
const w3x = path.join(corpus, 'w3x/JenkinsTR+KanesWrath-MODSDK-2020/_CnC3_SDK/Art/EU/EULorWar_SKN.W3X');
if (fs.existsSync(w3x)) {
  const r = JSON.parse(M.open(w3x));
  check(r.error && r.error.file === w3x && /W3X/.test(r.error.message), 'W3X refused with its reason: ' + JSON.stringify(r.error));
}

console.log(`${checks - failures}/${checks} checks passed`);
process.exit(failures ? 1 : 0);
