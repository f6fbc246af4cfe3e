// The page's worker: runs the WebAssembly core (rigscope_web.js) and reads the user's files on demand.
// Files are mounted with Emscripten's WORKERFS: each File stays a File (nothing is copied), and the core's reads
// become FileReaderSync reads of the slices it asks for (an archive's index, one entry, one model).
// Protocol: {id, op, args} -> {id, ok, result | error}; typed arrays in results are transferred.
/* global importScripts, createRigscope */
importScripts('rigscope_web.js');

let M = null;
let mounts = 0;
const ready = createRigscope().then((m) => {
  M = m;
  M.FS.mkdir('/in');
});

function copy(a) {
  return a ? a.slice() : null; // out of the wasm heap (views into it move when it grows)
}

const ops = {
  formats: () => JSON.parse(M.formats()),
  // files: [{path: 'Folder/Sub/NAME.ALO', file: File}] -> the folder they were mounted under ('/in/N').
  addFiles: (files) => {
    const dir = '/in/' + mounts++;
    M.FS.mkdir(dir);
    M.FS.mount(M.FS.filesystems.WORKERFS, { blobs: files.map((f) => ({ name: f.path, data: f.file })) }, dir);
    return dir;
  },
  mount: (lines) => JSON.parse(M.mount(lines)),
  assets: () => JSON.parse(M.assets()),
  open: (path) => shown(() => M.open(path)),
  // The Objects list of the mount, an object's states, a state shown as a model, the mod check (core/objects,
  // core/check; absent from a build without pugixml).
  objectList: () => (M.objectList ? JSON.parse(M.objectList()) : { error: { text: 'this build has no object database' } }),
  objectStates: (name) => JSON.parse(M.objectStates(name)),
  openState: (i) => shown(() => M.openState(i)),
  check: () => (M.check ? JSON.parse(M.check()) : { error: { text: 'this build has no mod check' } }),
  setLodAlt: (lod, alt) => {
    const r = JSON.parse(M.setLodAlt(lod, alt));
    return Object.assign(r, { palettes: copy(M.palettes()), shown: copy(M.shown()) });
  },
  setViewOptions: (modelLights, proxies) => M.setViewOptions(modelLights, proxies),
  setLightPreset: (preset) => { lightPreset = preset === 1 ? 1 : 0; return alamoNow(); },
  addClip: (path) => JSON.parse(M.addClip(path)),
  setClip: (i) => M.setClip(i),
  // t: clip time; st: seconds since the model was shown (particles); fc: faction colour [r, g, b] 0..1.
  // view: the camera's world-to-view matrix (16 floats) for camera-aligned W3D spheres and rings, or null.
  pose: (t, loop, st, fc, view) => {
    M.pose(t, loop);
    return { palettes: copy(M.palettes()), world: copy(M.world()), shown: copy(M.shown()), lights: lightsNow(),
      dazzles: copy(M.dazzles(t, fc[0], fc[1], fc[2])), particles: copy(M.particles(st)),
      primitives: copy(M.primitives(st, Array.from(view || new Float32Array(16)))) };
  },
  // The W3D spheres and rings again for a new camera (camera-aligned ones face it), at effect time st.
  primitives: (st, view) => copy(M.primitives(st, Array.from(view))),
  camera: (yaw, pitch, aspect, withParticles) => {
    const c = M.camera(yaw, pitch, aspect, !!withParticles);
    return c && { view: copy(c.view), projection: copy(c.projection), eye: c.eye, distance: c.distance };
  },
  exportGlb: (fc) => M.exportGlb(fc[0], fc[1], fc[2]),
  // A texture's RGBA rows bottom row first, as the desktop uploads them (render/textures.cpp: core's uv0 puts the
  // image top at v = 1; the module's rows run top to bottom and texImage2D puts its first row at v = 0).
  // A cube map's six faces as stored (row 0 first: cube faces take it at t = 0 on both APIs, core/texture/dds_cube.h).
  cube: (name) => M.cube(name),
  texture: (name) => {
    const t = M.texture(name);
    if (t.rgba) {
      const src = t.rgba, row = t.width * 4, out = new Uint8Array(src.length);
      for (let y = 0; y < t.height; ++y) out.set(src.subarray(y * row, (y + 1) * row), (t.height - 1 - y) * row);
      t.rgba = out;
    }
    return t;
  },
};

// A model summary with its sub-meshes' buffers and first pose (open, openState); {error} as the module gives it.
function shown(read) {
  const t0 = performance.now();
  const s = JSON.parse(read());
  const parseMs = performance.now() - t0;
  if (s.error) return s;
  s.parseMs = parseMs;
  s.buffers = s.parts.map((p, i) => {
    const d = M.subMesh(i);
    const o = {};
    for (const k of Object.keys(d)) o[k] = copy(d[k]);
    return o;
  });
  s.palettes = copy(M.palettes());
  s.world = copy(M.world());
  s.shown = copy(M.shown());
  s.lights = lightsNow();
  s.alamoLights = alamoNow(); // the Alamo light set-up (engine.js)
  return s;
}

// The Alamo light set-up of the preset chosen (0 Land, 1 Space; render/lights.h alamoLightRig, as the desktop).
let lightPreset = 0;
function alamoNow() {
  const a = M.alamoLights(lightPreset);
  return { preset: lightPreset, sunToward: a.sunToward, sunDiffuse: a.sunDiffuse, sunSpecular: a.sunSpecular,
    sphAll: copy(a.sphAll), sphFill: copy(a.sphFill), alamoLights: copy(a.alamoLights) };
}

function lightsNow() {
  const l = M.lights();
  return { position: copy(l.position), color: copy(l.color), count: l.count, ambient: l.ambient };
}

function transfers(v, out = []) {
  if (!v || typeof v !== 'object') return out;
  if (ArrayBuffer.isView(v)) out.push(v.buffer);
  else for (const k of Object.keys(v)) transfers(v[k], out);
  return out;
}

self.onmessage = async (ev) => {
  const { id, op, args } = ev.data;
  try {
    await ready;
    const result = ops[op](...args);
    self.postMessage({ id, ok: true, result }, transfers(result));
  } catch (e) {
    self.postMessage({ id, ok: false, error: String((e && e.message) || e) });
  }
};
