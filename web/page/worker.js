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
  open: (path) => {
    const t0 = performance.now();
    const s = JSON.parse(M.open(path));
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
    const a = M.alamoLights(); // the Alamo light set-up (engine.js)
    s.alamoLights = { sunToward: a.sunToward, sunDiffuse: a.sunDiffuse, sunSpecular: a.sunSpecular,
      sphAll: copy(a.sphAll), sphFill: copy(a.sphFill), alamoLights: copy(a.alamoLights) };
    return s;
  },
  addClip: (path) => JSON.parse(M.addClip(path)),
  setClip: (i) => M.setClip(i),
  pose: (t, loop) => {
    M.pose(t, loop);
    return { palettes: copy(M.palettes()), world: copy(M.world()), shown: copy(M.shown()), lights: lightsNow() };
  },
  camera: (yaw, pitch, aspect) => {
    const c = M.camera(yaw, pitch, aspect);
    return c && { view: copy(c.view), projection: copy(c.projection), eye: c.eye, distance: c.distance };
  },
  exportGlb: () => M.exportGlb(),
  texture: (name) => {
    const t = M.texture(name);
    if (t.rgba) t.rgba = copy(t.rgba);
    return t;
  },
};

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
