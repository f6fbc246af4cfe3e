// The web viewer's page: opening files (picker, drag and drop, folders, archives, ?open=URL links), the clip
// controls, the bone tree and materials list, errors, screenshots. The core runs in worker.js; drawing in render.js.
// For tests, window.rigscope exposes the state (summary, error, bone world matrices, frames drawn).
import { Renderer } from './render.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const embed = params.get('embed') === '1';
if (embed) document.body.classList.add('embed');

// --- worker calls --------------------------------------------------------------------------------------------------
const worker = new Worker('worker.js');
let nextId = 1;
const pending = new Map();
worker.onmessage = (ev) => {
  const { id, ok, result, error } = ev.data;
  const p = pending.get(id);
  pending.delete(id);
  if (ok) p.resolve(result);
  else p.reject(new Error(error));
};
function call(op, ...args) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, op, args });
  });
}

// --- state ---------------------------------------------------------------------------------------------------------
const canvas = $('view');
const renderer = new Renderer(canvas);
renderer.engine.loadTexture = (name) => call('texture', name); // the .fx formulas' textures (engine.js)
renderer.engine.loadCube = (name) => call('cube', name); // ObjectsGenericEnvMap.fx's cube maps (engine.js)
const state = {
  summary: null,      // the shown model (kept when a later open fails)
  error: null,        // the last error shown
  world: null,        // bone world matrices at the shown time (Float32Array, 16 per bone)
  clip: -1,
  time: Number(params.get('time') || 0),
  playing: false,
  speed: 1,
  loop: 0,
  yaw: Number(params.get('yaw') ?? 35),
  pitch: Number(params.get('pitch') ?? 20),
  zoom: 1,
  opening: 0,
  firstFrameMs: null,
  faction: [40 / 255, 110 / 255, 1], // render/scene_view.h's default faction colour
  modelLights: true,
  proxies: true,
  objects: null,     // the mount's object list (objectList)
  states: null,      // the chosen object's states
  findings: null,    // the last mod check
};
let dropClock = 0;

function showError(err) {
  state.error = err;
  const box = $('error');
  if (!err) {
    box.hidden = true;
    return;
  }
  // As the desktop's dialog: the file, the chunk path and the byte offset (the core's message holds them).
  // Files mounted from the user's disk are named by their path as given (the worker's /in/N/ folder left out).
  box.textContent = (err.text || String(err)).replace(/\/in\/\d+\//g, '');
  box.hidden = false;
}
function status(text) {
  $('status').textContent = text;
}

// --- opening -------------------------------------------------------------------------------------------------------
const modelExt = /\.(alo|w3d|bwm|w3x)$/i;
const archiveExt = /\.(meg|big)$/i;

// files: [{path, file}] (path relative, '/' separated). Mounts them in the worker (read on demand) and opens the
// model among them: the one named `prefer`, else the first model file; a folder or archive alone lists its models.
async function openFiles(files, prefer) {
  if (!files.length) return;
  dropClock = performance.now();
  const dir = await call('addFiles', files);
  const archives = files.filter((f) => archiveExt.test(f.path));
  const models = files.filter((f) => modelExt.test(f.path)).sort((a, b) => a.path.localeCompare(b.path));
  const folder = files.some((f) => f.path.includes('/'));
  if (archives.length === 1 && files.length === 1) {
    const r = await call('mount', 'single:' + dir + '/' + archives[0].path);
    if (r.error) return showError(r.error);
    return listAssets(await call('assets'), dir);
  }
  if (folder) {
    const top = files[0].path.split('/')[0];
    const r = await call('mount', dir + '/' + top);
    if (!r.error) status(`Mounted ${top}: ${r.files} files`);
    if (!prefer && models.length > 1) {
      listAssets(models.map((m) => dir + '/' + m.path), '');
    }
  }
  const pick = (prefer && files.find((f) => f.path === prefer)) || models.find((m) => /\.(alo|w3d|bwm)$/i.test(m.path)) ||
    models[0];
  if (!pick) {
    if (!folder) showError({ text: files.map((f) => f.path).join(', ') + ': no model among the files given' });
    return;
  }
  return openPath(dir + '/' + pick.path);
}

function listAssets(paths, dir) {
  const sel = $('assets');
  sel.innerHTML = '';
  for (const p of paths) {
    const o = document.createElement('option');
    o.value = p;
    o.textContent = p.replace(/^\/in\/\d+\//, '');
    sel.appendChild(o);
  }
  sel.hidden = paths.length === 0;
  status(`${paths.length} models`);
}
$('assets').onchange = (e) => openPath(e.target.value);

async function openPath(path) {
  return showModel(() => call('open', path), path);
}

// Shows what `read` gives (a model summary with buffers from the worker: open or openState); on an error the shown
// model stays and the error is shown.
async function showModel(read, path) {
  const token = ++state.opening;
  const t0 = dropClock || performance.now();
  const s = await read();
  if (token !== state.opening) return;
  if (s.error) {
    showError(s.error); // the shown model stays
    status('Could not open ' + path.replace(/^\/in\/\d+\//, ''));
    return;
  }
  showError(null);
  state.summary = s;
  document.body.classList.add('shown'); // the drop hint is for an empty view
  state.world = s.world;
  renderer.setModel(s);
  renderer.lights = s.lights;
  state.clip = s.initialClip;
  fillClips(s);
  fillBones(s);
  fillMaterials(s);
  fillNotes(s);
  fillLevels(s);
  await setClip(state.clip);
  await frameAndPose();
  renderer.draw();
  state.firstFrameMs = performance.now() - t0;
  dropClock = 0;
  status(`${path.replace(/^\/in\/\d+\//, '')}: ${s.bones.length} bones, ${s.parts.length} sub-meshes, ` +
    `${s.clips.length} clips; read in ${s.parseMs.toFixed(1)} ms, first frame after ${state.firstFrameMs.toFixed(0)} ms`);
  loadTextures(s);
}

async function loadTextures(s) {
  state.texturesLoaded = false;
  const names = [...new Set(s.parts.map((p) => p.baseTexture).filter((n) => n))];
  for (const name of names) {
    const t = await call('texture', name);
    if (state.summary !== s) return;
    if (t.error) continue;
    s.parts.forEach((p, i) => { if (p.baseTexture === name) renderer.setTexture(i, t); });
    renderer.draw();
  }
  state.texturesLoaded = true;
}

// --- clips and time ------------------------------------------------------------------------------------------------
function fillClips(s) {
  const sel = $('clip');
  sel.innerHTML = '<option value="-1">(bind pose)</option>';
  s.clips.forEach((c, i) => {
    const o = document.createElement('option');
    o.value = i;
    o.textContent = `${c.name} (${c.frames} f)` + (c.fits ? '' : ' — does not fit');
    o.disabled = !c.fits;
    sel.appendChild(o);
  });
  sel.value = String(state.clip);
}
async function setClip(i) {
  state.clip = i;
  await call('setClip', i);
  const c = state.summary && state.summary.clips[i];
  $('scrub').max = c ? String(c.duration) : '0';
}
$('clip').onchange = async (e) => {
  await setClip(Number(e.target.value));
  state.time = 0;
  await poseAt(0);
};
async function poseAt(t) {
  state.time = t;
  renderer.time = clipTime(t);
  const r = await call('pose', t, state.loop, t, state.faction, renderer.view || null);
  state.world = r.world;
  renderer.setPose(r.palettes, r.shown);
  renderer.lights = r.lights;
  renderer.setSprites(r.dazzles, r.particles);
  renderer.setPrimitives(r.primitives);
  state.sprites = { dazzles: r.dazzles.length / 12, particles: r.particles.length / 17 };
  $('scrub').value = String(clipTime(t));
  $('time').textContent = clipTime(t).toFixed(2) + ' s';
}
function clipTime(t) {
  const c = state.summary && state.summary.clips[state.clip];
  if (!c || !(c.duration > 0)) return 0;
  if (state.loop === 1) return Math.min(Math.max(t, 0), c.duration);
  if (state.loop === 2) {
    const m = t % (2 * c.duration);
    return m <= c.duration ? m : 2 * c.duration - m;
  }
  return t % c.duration;
}
$('scrub').oninput = (e) => poseAt(Number(e.target.value)).then(() => renderer.draw());
$('speed').onchange = (e) => { state.speed = Number(e.target.value); };
$('loop').onchange = (e) => { state.loop = Number(e.target.value); };
$('play').onclick = () => {
  state.playing = !state.playing;
  $('play').textContent = state.playing ? '❚❚' : '▶';
};
document.addEventListener('keydown', (e) => { if (e.key === ' ' && e.target === document.body) $('play').click(); });

let last = performance.now();
let busy = false;
async function tick(now) {
  const dt = (now - last) / 1000;
  last = now;
  if (state.playing && state.summary && !busy) {
    busy = true;
    try {
      await poseAt(state.time + dt * state.speed);
      renderer.draw();
    } catch (e) {
      // A failed pose stops playback with the reason; it must not leave `busy` set (no frame would follow).
      state.playing = false;
      $('play').textContent = '▶';
      showError({ text: String((e && e.message) || e) });
    } finally {
      busy = false;
    }
  }
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

// --- camera --------------------------------------------------------------------------------------------------------
function resize() {
  if (embed || !params.has('width')) {
    const r = canvas.getBoundingClientRect();
    const dpr = embed ? 1 : window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(r.width * dpr));
    canvas.height = Math.max(1, Math.round(r.height * dpr));
  }
}
// Framed as the desktop frames a model with its clip (render/scene_view.cpp: setClip and the framing come before
// the time is set): the drawn vertices at the clip's start, then posed at the shown time.
async function frameAndPose() {
  const t = state.time;
  if (t !== 0) await poseAt(0);
  await updateCamera();
  if (t !== 0) await poseAt(t);
}
async function updateCamera() {
  if (!state.summary) return;
  // The embed page frames as the desktop's --screenshot does: the particle systems nearby too.
  const cam = await call('camera', state.yaw, state.pitch, canvas.width / canvas.height, embed);
  if (cam) renderer.setCamera(cam, state.zoom);
  // Camera-aligned W3D spheres and rings face the new camera.
  if (cam && (state.summary.primitives || []).length)
    renderer.setPrimitives(await call('primitives', state.time, cam.view));
}
window.addEventListener('resize', async () => {
  resize();
  await updateCamera();
  renderer.draw();
});
let drag = null;
canvas.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY }; canvas.setPointerCapture(e.pointerId); });
canvas.addEventListener('pointerup', () => { drag = null; });
canvas.addEventListener('pointermove', async (e) => {
  if (!drag) return;
  const zUp = state.summary && state.summary.zUp;
  state.yaw += (zUp ? 1 : -1) * (e.clientX - drag.x) * 0.4;
  state.pitch = Math.max(-89, Math.min(89, state.pitch + (e.clientY - drag.y) * 0.4));
  drag = { x: e.clientX, y: e.clientY };
  await updateCamera();
  renderer.draw();
});
canvas.addEventListener('wheel', (e) => {
  e.preventDefault();
  state.zoom *= Math.pow(1.1, -e.deltaY / 100);
  updateCamera().then(() => renderer.draw());
}, { passive: false });

// --- panels --------------------------------------------------------------------------------------------------------
function fillBones(s) {
  const root = document.createElement('ul');
  const items = s.bones.map((b, i) => {
    const li = document.createElement('li');
    li.className = 'bone';
    li.textContent = b.name;
    li.dataset.index = i;
    return li;
  });
  s.bones.forEach((b, i) => {
    if (b.parent < 0) return root.appendChild(items[i]);
    const parent = items[b.parent];
    let ul = parent.querySelector(':scope > ul');
    if (!ul) parent.appendChild((ul = document.createElement('ul')));
    ul.appendChild(items[i]);
  });
  $('bones').replaceChildren(root);
}
function fillMaterials(s) {
  const t = document.createElement('table');
  s.parts.forEach((p, i) => {
    const tr = t.insertRow();
    const cb = document.createElement('input');
    cb.type = 'checkbox';
    cb.checked = p.drawn;
    // Unchecked: not drawn; checked: drawn where the pose shows it (a part not drawn by default can be shown).
    cb.title = 'Draw this sub-mesh';
    cb.onchange = () => {
      renderer.parts[i].visible = cb.checked;
      if (cb.checked && !p.drawn) renderer.parts[i].shownAtPose = true;
      renderer.draw();
    };
    tr.insertCell().appendChild(cb);
    const tex = p.baseTexture ? ` · ${p.baseTexture}` : '';
    const owner = p.owner ? `[${s.attached[p.owner - 1].label}] ` : '';
    tr.insertCell().textContent = `${owner}${p.meshName} #${p.sub}: ${p.shader || '(no shader)'} → ${p.drawnBy} (${p.fidelity})` +
      `${tex} · ${p.triangles} triangles` + (p.drawn ? '' : ' · not drawn by default');
    tr.title = p.note || '';
  });
  $('materials').replaceChildren(t);
}
function fillNotes(s) {
  const ul = $('notes');
  const proxies = s.proxies.map((p) => `proxy ${p.name}: ${p.found}` + (p.hidden ? ' (hidden)' : ''));
  ul.replaceChildren(...[...s.warnings, ...s.missing, ...proxies].map((w) =>
    Object.assign(document.createElement('li'), { textContent: w })));
}

// --- LOD/ALT, faction colour, lights, proxies (the desktop's View options) ------------------------------------------
function fillLevels(s) {
  const fill = (sel, levels, value, best) => {
    sel.innerHTML = '';
    if (best) sel.appendChild(Object.assign(document.createElement('option'), { value: '-1', textContent: best }));
    for (const l of levels) sel.appendChild(Object.assign(document.createElement('option'), { value: String(l), textContent: String(l) }));
    if (!levels.length && !best) sel.appendChild(Object.assign(document.createElement('option'), { value: '0', textContent: '0' }));
    sel.value = String(value);
    sel.disabled = levels.length < (best ? 1 : 2);
  };
  fill($('lod'), s.lodLevels, s.lod, 'best');
  fill($('alt'), s.altLevels, s.alt, null);
}
async function setLevels(lod, alt) {
  if (!state.summary) return;
  const r = await call('setLodAlt', lod, alt);
  if (r.error) return showError(r.error);
  Object.assign(state.summary, { lod: r.lod, alt: r.alt });
  r.drawn.forEach((d, i) => { state.summary.parts[i].drawn = d; renderer.parts[i].visible = d; });
  fillMaterials(state.summary);
  renderer.setPose(r.palettes, r.shown);
  await poseAt(state.time);
  renderer.draw();
}
$('lod').onchange = () => setLevels(Number($('lod').value), Number($('alt').value));
$('alt').onchange = () => setLevels(Number($('lod').value), Number($('alt').value));
function hexColor(hex) {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
}
async function setFaction(hex) {
  state.faction = hexColor(hex);
  renderer.factionColor = [...state.faction, 1];
  if (state.summary) await poseAt(state.time); // dazzles take it too
  renderer.draw();
}
$('faction').oninput = (e) => setFaction(e.target.value);
async function setViewOptions() {
  state.modelLights = $('lights').value === 'model';
  state.proxies = $('proxies').checked;
  await call('setViewOptions', state.modelLights, state.proxies);
  if (state.summary) await poseAt(state.time);
  renderer.draw();
}
$('lights').onchange = setViewOptions;
// The Alamo light preset (Land, Space): the module computes the rig as the desktop does (render/lights.h).
async function setLightPreset(preset) {
  renderer.engine.alamo = await call('setLightPreset', preset);
  $('preset').value = String(renderer.engine.alamo.preset);
  renderer.draw();
}
$('preset').onchange = () => setLightPreset(Number($('preset').value));
$('proxies').onchange = setViewOptions;

// --- Objects list and states (core/objects), mod check (core/check) ----------------------------------------------
async function listObjects() {
  const r = await call('objectList');
  if (r.error) return showError(r.error);
  state.objects = r;
  $('object-filter').hidden = false;
  $('objects').hidden = false;
  fillObjects();
  const notes = [...r.errors, ...r.filesMissing.map((f) => f + ': listed, not found')];
  $('object-notes').replaceChildren(...notes.map((t) => Object.assign(document.createElement('li'), { textContent: t })));
  status(`${r.objects.length} objects (${r.family})`);
}
function fillObjects() {
  const f = $('object-filter').value.toLowerCase();
  const sel = $('objects');
  sel.replaceChildren(...state.objects.objects.filter((o) => !f || o.name.toLowerCase().includes(f)).slice(0, 2000)
    .map((o) => Object.assign(document.createElement('option'), { value: o.name,
      textContent: o.name + (o.type ? ` · ${o.type}` : '') + (o.side ? ` · ${o.side}` : '') })));
}
async function chooseObject(name) {
  const r = await call('objectStates', name);
  if (r.error) return showError(r.error);
  state.states = r;
  const sel = $('states');
  sel.replaceChildren(...r.states.map((st, i) => Object.assign(document.createElement('option'), { value: String(i),
    textContent: st.label + (st.model ? '' : ' (no model)') })));
  sel.hidden = false;
  await openState(0);
}
async function openState(i) {
  const st = state.states.states[i];
  $('states').value = String(i);
  $('object-notes').replaceChildren(...st.missing.map((t) => Object.assign(document.createElement('li'), { textContent: t })));
  await showModel(() => call('openState', i), `${state.states.object}: ${st.label}`);
}
$('list-objects').onclick = listObjects;
$('object-filter').oninput = fillObjects;
$('objects').onchange = (e) => chooseObject(e.target.value);
$('states').onchange = (e) => openState(Number(e.target.value));

async function runCheck() {
  status('Checking…');
  const r = await call('check');
  if (r.error) return showError(r.error);
  state.findings = r;
  $('check-summary').textContent = `${r.files} files: ${r.counts.error} errors, ${r.counts.warning} warnings, ` +
    `${r.counts.info} notes (${r.seconds.toFixed(1)} s)`;
  const t = document.createElement('table');
  for (const f of r.findings.slice(0, 5000)) {
    const tr = t.insertRow();
    tr.className = f.level;
    tr.insertCell().textContent = f.level;
    tr.insertCell().textContent = `${(f.key || f.file).replace(/^\/in\/\d+\//, '')}${f.where ? ' · ' + f.where : ''}: ${f.message}`;
    tr.title = f.id;
  }
  $('findings').replaceChildren(t);
  status(`Check: ${r.findings.length} findings`);
}
$('run-check').onclick = runCheck;

// --- screenshot ----------------------------------------------------------------------------------------------------
$('shot').onclick = () => {
  renderer.draw();
  canvas.toBlob((b) => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(b);
    const name = state.summary ? state.summary.path.split(/[/:]/).pop().replace(/\.[^.]*$/, '') : 'rigscope';
    a.download = name + '.png';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }, 'image/png');
};

// --- glTF download (the desktop's exporter, in the worker) -------------------------------------------------------------
$('gltf').onclick = async () => {
  if (!state.summary) return;
  const r = await call('exportGlb', state.faction);
  if (r.error) return showError({ text: r.error });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([r.bytes], { type: 'model/gltf-binary' }));
  a.download = state.summary.path.split(/[/:]/).pop().replace(/\.[^.]*$/, '') + '.glb';
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  state.lastDownload = { name: a.download, bytes: r.bytes.length };
  if (r.warnings.length) status(`glTF written; ${r.warnings.length} warnings: ${r.warnings.join('; ')}`);
};

// --- pickers, drag and drop ----------------------------------------------------------------------------------------
$('pick-files').onchange = (e) => openFiles([...e.target.files].map((f) => ({ path: f.name, file: f })));
$('pick-folder').onchange = (e) =>
  openFiles([...e.target.files].map((f) => ({ path: f.webkitRelativePath || f.name, file: f })));
if (window.showDirectoryPicker) {
  $('pick-dir').hidden = false;
  $('pick-folder-label').hidden = true;
  $('pick-dir').onclick = async () => {
    const h = await window.showDirectoryPicker();
    const files = [];
    await walkHandle(h, h.name, files);
    openFiles(files);
  };
}
async function walkHandle(h, prefix, out) {
  for await (const [name, child] of h.entries()) {
    if (child.kind === 'directory') await walkHandle(child, prefix + '/' + name, out);
    else out.push({ path: prefix + '/' + name, file: await child.getFile() });
  }
}
function entryFiles(entry, prefix, out) {
  return new Promise((resolve) => {
    if (entry.isFile) {
      entry.file((f) => { out.push({ path: prefix + entry.name, file: f }); resolve(); }, () => resolve());
      return;
    }
    const reader = entry.createReader();
    const all = [];
    const more = () => reader.readEntries(async (batch) => {
      if (batch.length) {
        all.push(...batch);
        return more();
      }
      for (const c of all) await entryFiles(c, prefix + entry.name + '/', out);
      resolve();
    }, () => resolve());
    more();
  });
}
const wrap = $('view-wrap');
wrap.addEventListener('dragover', (e) => { e.preventDefault(); wrap.classList.add('dragging'); });
wrap.addEventListener('dragleave', () => wrap.classList.remove('dragging'));
wrap.addEventListener('drop', async (e) => {
  e.preventDefault();
  wrap.classList.remove('dragging');
  const files = [];
  const entries = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter((x) => x);
  if (entries.length) for (const en of entries) await entryFiles(en, '', files);
  else for (const f of e.dataTransfer.files) files.push({ path: f.name, file: f });
  openFiles(files);
});

// --- links: ?open=URL&clip=URL&time=S&yaw=DEG&lights=space&embed=1 -------------------------------------------------
async function fetchFile(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  const name = decodeURIComponent(new URL(url, location.href).pathname.split('/').pop());
  return { path: name, file: new File([await r.blob()], name) };
}
async function openLinks() {
  if (params.get('lights') === 'space') await setLightPreset(1); // &lights=land|space: the Alamo light preset
  const open = params.get('open');
  if (!open) return;
  try {
    const files = [await fetchFile(open)];
    const clip = params.get('clip');
    if (clip) files.push(await fetchFile(clip));
    await openFiles(files, files[0].path);
    if (clip && state.summary) {
      const dir = state.summary.path.slice(0, state.summary.path.lastIndexOf('/'));
      const r = await call('addClip', dir + '/' + files[1].path);
      if (r.error) showError(r.error);
      else {
        state.summary.clips.push(...r.clips);
        fillClips(state.summary);
        await setClip(r.first);
        $('clip').value = String(r.first);
        await frameAndPose();
        renderer.draw();
      }
    }
  } catch (e) {
    showError({ text: String(e.message || e) });
  }
}

resize();
renderer.draw();
const ready = openLinks();

// --- test hooks ----------------------------------------------------------------------------------------------------
window.rigscope = {
  ready,
  state,
  call,
  openFiles,
  async setTime(t) { await poseAt(t); renderer.draw(); },
  async setClipIndex(i) { await setClip(i); $('clip').value = String(i); },
  boneWorld: () => (state.world ? Array.from(state.world) : null),
  frames: () => renderer.frames,
  listObjects,
  chooseObject,
  openState,
  runCheck,
  setLevels,
  setFaction,
  setViewOptions,
  setLightPreset,
  renderer,
  draw: () => renderer.draw(),
  formulaMask: () => renderer.engine.drawMask(), // white where a game's shader formula draws (engine.js)
};
