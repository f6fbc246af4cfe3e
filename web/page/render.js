// The page's WebGL2 renderer: the desktop's mesh program (render/glsl/mesh.vert + mesh.frag, bundled at build time
// into shaders.js and given an ES 3.00 prefix) with GPU skinning from a uniform-buffer bone palette.
// One draw per drawn sub-mesh; the palette of each is bound as a range of one buffer.
import { meshVertex, meshFragment, esPrefix, glsl } from './shaders.js';
import { EngineFormulas, uploadRgba } from './engine.js';

const kPalette = 512; // mat4 slots of the shared BonePalette block (render/shaders.h kMaxPalette)
const kBackground = [48 / 255, 52 / 255, 60 / 255]; // render/scene_view.h background
const kCheckerGrey = 0xa8 / 255; // render/texture_cache.cpp kCheckerRgba: the stand-in of a texture not found

const ATTRS = ['vertexPosition', 'vertexNormal', 'vertexTexCoord', 'vertexTangent', 'vertexBinormal', 'vertexColor',
  'boneWeight', 'boneIndex', 'vertexPosition2', 'vertexNormal2', 'w3dUv0', 'w3dUv1', 'w3dColor', 'vertexTexCoord1'];
// Constant values of attributes a sub-mesh does not have.
const DEFAULTS = { vertexNormal: [0, 0, 1, 0], vertexColor: [1, 1, 1, 1], boneWeight: [1, 0, 0, 0],
  vertexTangent: [1, 0, 0, 0], vertexBinormal: [0, 1, 0, 0], vertexTexCoord: [0, 0, 0, 0], w3dColor: [1, 1, 1, 1] };

export class Renderer {
  constructor(canvas) {
    this.canvas = canvas;
    const gl = canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true, alpha: false });
    if (!gl) throw new Error('this browser has no WebGL2');
    this.gl = gl;
    this.programs = new Map();
    this.parts = [];
    this.align = gl.getParameter(gl.UNIFORM_BUFFER_OFFSET_ALIGNMENT);
    this.ubo = gl.createBuffer();
    this.textures = new Map();
    this.view = null;
    this.projection = null;
    this.eye = [0, 0, 1];
    this.factionColor = [40 / 255, 110 / 255, 1, 1];
    this.lights = null; // {position, color: Float32Array(16), count, ambient}
    this.frames = 0;
    this.time = 0; // the timeline's time (s): the formulas' Time
    this.engine = new EngineFormulas(this); // the games' .fx formulas (engine.js); the generic program otherwise
    this.sprites = null; // {dazzles: Float32Array (12 a dazzle), particles: Float32Array (17 a particle)}
    this.dazzleTexture = null; // the model's dazzle atlas (the first dazzle texture that resolves), or null
  }

  // Dazzles and particles from the module (rigscope_web.cpp dazzles(), particles()), drawn after the model.
  setSprites(dazzles, particles) {
    this.sprites = { dazzles, particles };
  }

  program(defines) {
    const key = defines.join(',');
    let p = this.programs.get(key);
    if (p) return p;
    const gl = this.gl;
    const head = esPrefix + defines.map((d) => `#define ${d}\n`).join('');
    const prog = linkProgram(gl, 'program', head, meshVertex, meshFragment, ATTRS);
    const block = gl.getUniformBlockIndex(prog, 'BonePalette');
    gl.uniformBlockBinding(prog, block, 0);
    const u = {};
    const n = gl.getProgramParameter(prog, gl.ACTIVE_UNIFORMS);
    for (let i = 0; i < n; ++i) {
      const info = gl.getActiveUniform(prog, i);
      u[info.name.replace(/\[0\]$/, '')] = gl.getUniformLocation(prog, info.name);
    }
    p = { prog, u };
    this.programs.set(key, p);
    return p;
  }

  // summary: the module's model JSON with buffers (worker.js open). Replaces what is drawn.
  setModel(summary) {
    const gl = this.gl;
    for (const part of this.parts) gl.deleteVertexArray(part.vao);
    this.parts = [];
    // Palette ranges: each part's slots at an offset aligned for bindBufferRange.
    let offset = 0;
    summary.parts.forEach((info, i) => {
      const d = summary.buffers[i];
      const vao = gl.createVertexArray();
      gl.bindVertexArray(vao);
      const put = (loc, data, size, integer) => {
        if (!data) {
          gl.disableVertexAttribArray(loc);
          const v = DEFAULTS[ATTRS[loc]] || [0, 0, 0, 0];
          if (integer) gl.vertexAttribI4ui(loc, 0, 0, 0, 0);
          else gl.vertexAttrib4f(loc, v[0], v[1], v[2], v[3]);
          return;
        }
        const b = gl.createBuffer();
        gl.bindBuffer(gl.ARRAY_BUFFER, b);
        gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
        gl.enableVertexAttribArray(loc);
        if (integer) gl.vertexAttribIPointer(loc, size, gl.UNSIGNED_SHORT, 0, 0);
        else gl.vertexAttribPointer(loc, size, gl.FLOAT, false, 0, 0);
      };
      put(0, d.positions, 3);
      put(1, d.normals, 3);
      put(2, d.uv0, 2);
      put(3, d.tangents, 3);
      put(4, d.binormals, 3);
      put(5, d.colors, 4);
      put(6, d.boneWeight, 4);
      put(7, d.boneIndex, 4, true);
      put(8, d.positions2, 3);
      put(9, d.normals2, 3);
      put(10, d.w3dUv0, 2); // W3D passes (render/fx_uniforms.h w3dVertexArrays)
      put(11, d.w3dUv1, 2);
      put(12, d.w3dColor, 4);
      put(13, d.uv1, 2); // the second UV set (DefaultW3D.fx's second texture, Grass.fx's clump centres)
      const ib = gl.createBuffer();
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ib);
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, d.indices, gl.STATIC_DRAW);
      gl.bindVertexArray(null);
      const bytes = info.paletteCount * 64;
      const part = { info, vao, count: d.indices.length, uboOffset: offset, dual: !!d.positions2,
        skinned: !!d.boneIndex, hasColor: !!d.colors, hasUv1: !!d.uv1, texture: null, visible: info.drawn, shownAtPose: true };
      offset += Math.ceil(Math.max(bytes, 64) / this.align) * this.align;
      this.parts.push(part);
    });
    // The bound range is the whole block (kPalette mat4): room after the last offset.
    this.uboBytes = offset + kPalette * 64;
    this.uboData = new Float32Array(this.uboBytes / 4);
    gl.bindBuffer(gl.UNIFORM_BUFFER, this.ubo);
    gl.bufferData(gl.UNIFORM_BUFFER, this.uboBytes, gl.DYNAMIC_DRAW);
    this.setPalettes(summary.palettes);
    this.engine.setModel(summary);
    this.loadDazzleTexture(summary);
    this.loadParticleTextures(summary);
  }

  // As the desktop's dazzle layer (render/dazzles.cpp): one texture for all of the model's dazzles, the first
  // dazzle texture the resolver finds (engine.loadTexture: the module's texture()); none: the round glow.
  async loadDazzleTexture(summary) {
    const gl = this.gl;
    if (this.dazzleTexture) gl.deleteTexture(this.dazzleTexture);
    this.dazzleTexture = null;
    this.dazzleTextureName = null;
    const generation = (this.dazzleGeneration = (this.dazzleGeneration || 0) + 1);
    if (!this.engine.loadTexture) return;
    for (const dz of summary.dazzles || []) {
      if (!dz.texture) continue;
      let t = null;
      try { t = await this.engine.loadTexture(dz.texture); } catch { t = null; }
      if (generation !== this.dazzleGeneration) return;
      if (!t || t.error || !t.rgba) continue;
      const tex = uploadRgba(gl, t);
      this.dazzleTexture = tex;
      this.dazzleTextureName = dz.texture;
      this.draw();
      return;
    }
  }

  setTexture(partIndex, tex) {
    this.parts[partIndex].texture = uploadRgba(this.gl, tex);
  }

  // palettes: the module's per-part palettes (mat4 slots at each part's paletteOffset).
  // shown: per part, whether the pose shows it (bone visibility); palettes as below.
  setPose(palettes, shown) {
    this.parts.forEach((p, i) => { p.shownAtPose = !shown || shown[i] !== 0; });
    this.setPalettes(palettes);
  }

  setPalettes(palettes) {
    for (const p of this.parts) {
      const src = palettes.subarray(p.info.paletteOffset * 16, (p.info.paletteOffset + p.info.paletteCount) * 16);
      this.uboData.set(src, p.uboOffset / 4);
    }
    const gl = this.gl;
    gl.bindBuffer(gl.UNIFORM_BUFFER, this.ubo);
    gl.bufferSubData(gl.UNIFORM_BUFFER, 0, this.uboData);
  }

  setCamera(cam, zoom = 1) {
    this.view = cam.view;
    this.projection = cam.projection.slice();
    this.projection[0] *= zoom;
    this.projection[5] *= zoom;
    this.eye = cam.eye;
  }

  draw() {
    const gl = this.gl;
    const w = this.canvas.width, h = this.canvas.height;
    gl.viewport(0, 0, w, h);
    gl.clearColor(kBackground[0], kBackground[1], kBackground[2], 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    ++this.frames;
    if (!this.view) return;
    const vp = mul(this.projection, this.view);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    // Opaque first, then alpha and additive without depth writes.
    this.engine.beginFrame();
    const order = [...this.parts.keys()].sort((a, b) => rank(this.parts[a]) - rank(this.parts[b]));
    for (const i of order) {
      const p = this.parts[i];
      if (!p.visible || !p.shownAtPose || p.count === 0) continue;
      gl.bindBufferRange(gl.UNIFORM_BUFFER, 0, this.ubo, p.uboOffset, kPalette * 64);
      if (this.engine.drawPart(p, { vp, view: this.view })) continue;
      const fam = p.info.family;
      // As render/mesh_materials.cpp builds the generic program: no texture fetch for a missing or unnamed base
      // texture (its stand-in's colour instead: the checker's grey for one named and not found, white for none).
      const g = p.info.generic;
      const placeholder = !p.texture && !!p.info.baseTexture;
      const defines = [];
      if (!p.texture) defines.push('NO_BASE_TEXTURE');
      if (p.info.unlit) defines.push('UNLIT');
      else if (g.glossSource !== 0) defines.push('SPECULAR');
      const { prog, u } = this.program(defines);
      gl.useProgram(prog);
      gl.bindBufferRange(gl.UNIFORM_BUFFER, 0, this.ubo, p.uboOffset, kPalette * 64);
      gl.uniformMatrix4fv(u.viewProjectionMatrix, false, vp);
      gl.uniform1i(u.skinMode, p.dual ? 2 : p.skinned ? 1 : 0);
      gl.uniform1i(u.rigidSlot, 0);
      gl.uniform1i(u.hasVertexColor, p.hasColor ? 1 : 0);
      const grey = kCheckerGrey;
      gl.uniform4f(u.baseColor, placeholder ? grey : 1, placeholder ? grey : 1, placeholder ? grey : 1, 1);
      gl.uniform1i(u.colorize, p.info.colorize && !placeholder ? 1 : 0);
      gl.uniform1i(u.factionColorParam, g.factionColorParam ? 1 : 0);
      gl.uniform1i(u.glossSource, g.glossSource);
      gl.uniform1i(u.blendMode, fam === 'alpha' ? 1 : fam === 'additive' ? 2 : 0);
      gl.uniform4fv(u.diffuseColor, g.diffuse);
      gl.uniform4fv(u.specularColor, g.specular);
      gl.uniform4fv(u.emissiveColor, g.emissive);
      gl.uniform4fv(u.colorParam, g.color);
      gl.uniform1f(u.shininess, g.shininess);
      gl.uniform4fv(u.factionColor, this.factionColor);
      gl.uniform3fv(u.eyePosition, this.eye);
      // The view's lights (render/lights.h viewLights, from the module) and ambient colour.
      const L = this.lights;
      if (L) {
        gl.uniform4fv(u.lightPosition, L.position);
        gl.uniform4fv(u.lightColor, L.color);
        gl.uniform3fv(u.ambientColor, L.ambient);
        gl.uniform1i(u.rigLightCount, L.count);
      }
      if (p.texture) {
        gl.activeTexture(gl.TEXTURE0);
        gl.bindTexture(gl.TEXTURE_2D, p.texture);
        gl.uniform1i(u.baseTexture, 0);
      }
      if (p.info.cull) gl.enable(gl.CULL_FACE);
      else gl.disable(gl.CULL_FACE);
      if (fam === 'opaque') {
        gl.disable(gl.BLEND);
        gl.depthMask(true);
      } else {
        gl.enable(gl.BLEND);
        gl.depthMask(false);
        if (fam === 'additive') gl.blendFunc(gl.ONE, gl.ONE);
        else gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      }
      gl.bindVertexArray(p.vao);
      gl.drawElements(gl.TRIANGLES, p.count, gl.UNSIGNED_INT, 0);
    }
    // W3D passes after the first, after every part's first (the desktop's layers w3dpass1..3).
    this.engine.drawLaterPasses({ vp, view: this.view });
    gl.depthFunc(gl.LEQUAL);
    gl.bindVertexArray(null);
    this.drawSprites(vp);
    gl.depthMask(true);
    gl.disable(gl.BLEND);
  }

  // Dazzles by the desktop's dazzle program with its atlas texture (drawDazzles), then particles by the desktop's
  // particle program (drawParticles).
  drawSprites(vp) {
    const S = this.sprites;
    if (!S) return;
    const gl = this.gl;
    gl.enable(gl.BLEND);
    gl.depthMask(false);
    gl.disable(gl.CULL_FACE);
    let n = 0;
    // Dazzles: the desktop's dazzle program (render/glsl/dazzle.*), added, depth tested and not written.
    gl.blendFunc(gl.ONE, gl.ONE);
    if (S.dazzles) n += this.drawDazzles(S.dazzles);
    if (S.particles) n += this.drawParticles(S.particles, vp);
    this.spritesDrawn = n;
    gl.depthFunc(gl.LEQUAL);
    gl.bindVertexArray(null);
  }

  // The emitters' colour textures (summary.emitters[].list[].texture) through the resolver (engine.loadTexture: the
  // module's texture()), each name once; one not found draws the soft round sprite, as the desktop
  // (render/particles.cpp: HAS_TEXTURE 0 where the texture cache gives its checker).
  async loadParticleTextures(summary) {
    const gl = this.gl;
    for (const t of (this.particleTextures || new Map()).values()) if (t) gl.deleteTexture(t);
    this.particleTextures = new Map();
    this.emitterSlots = [];
    for (const sys of summary.emitters || []) for (const em of sys.list || []) this.emitterSlots.push(em);
    const generation = (this.particleGeneration = (this.particleGeneration || 0) + 1);
    this.particleTexturesLoaded = false;
    const names = [...new Set(this.emitterSlots.filter((e) => e.kind >= 0 && e.texture).map((e) => e.texture))];
    for (const name of names) {
      let t = null;
      if (this.engine.loadTexture) {
        try { t = await this.engine.loadTexture(name); } catch { t = null; }
      }
      if (generation !== this.particleGeneration) return;
      if (!t || t.error || !t.rgba) {
        this.particleTextures.set(name, null);
        continue;
      }
      const tex = uploadRgba(gl, t);
      this.particleTextures.set(name, tex);
    }
    this.particleTexturesLoaded = true;
    if (names.length) this.draw();
  }

  // The particles (kParticleFloats = 17 floats each from the module's particles(): the desktop's instance layout,
  // then the emitter's slot) drawn as the desktop's particle layer draws them (render/particles.cpp, the shared
  // render/glsl/particle.*): one instanced draw per emitter, the program variant of its blend kind, texture and
  // orientation (BLEND_KIND, HAS_TEXTURE, ORIENT; LOW_PASS 0: the page has no low-resolution target, so every
  // particle is drawn at full size), the emitter's blend and depth states, alpha-blended particles farthest first.
  drawParticles(data, vp) {
    const gl = this.gl;
    const slots = this.emitterSlots || [];
    const F = 17;
    const groups = new Map();
    for (let i = 0; i + F <= data.length; i += F) {
      const k = data[i + 16];
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(i);
    }
    if (!this.particleQuad) this.particleQuad = makeParticleQuad(gl);
    const { vao, buffer } = this.particleQuad;
    const eye = this.eye;
    // Opaque emitters first (the desktop's opaque layer), then the others in their order.
    const order = [...groups.keys()].sort((a, b) => ((slots[a] || {}).kind === 0 ? 0 : 1) - ((slots[b] || {}).kind === 0 ? 0 : 1) || a - b);
    let n = 0;
    gl.bindVertexArray(vao);
    for (const slot of order) {
      const em = slots[slot];
      if (!em || em.kind < 0) continue;
      const idx = groups.get(slot);
      if (em.kind === 2) {
        const d2 = (i) => (data[i] - eye[0]) ** 2 + (data[i + 1] - eye[1]) ** 2 + (data[i + 2] - eye[2]) ** 2;
        idx.sort((a, b) => d2(b) - d2(a));
      }
      const inst = new Float32Array(idx.length * 16);
      idx.forEach((i, k) => inst.set(data.subarray(i, i + 16), k * 16));
      const tex = em.texture && this.particleTextures ? this.particleTextures.get(em.texture) || null : null;
      const { prog, u } = this.particleProgram(em.kind, !!tex, em.orient);
      gl.useProgram(prog);
      gl.uniformMatrix4fv(u.viewMatrix, false, this.view);
      gl.uniformMatrix4fv(u.projectionMatrix, false, this.projection);
      gl.uniformMatrix4fv(u.viewProjectionMatrix, false, vp);
      gl.uniform2f(u.viewportSize, this.canvas.width, this.canvas.height);
      gl.uniform3fv(u.eyePosition, eye);
      gl.uniform1f(u.tailSize, em.tail || 0);
      gl.uniform1f(u.lowResMinPixels, 3.4e38);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, tex);
      gl.uniform1i(u.particleTexture, 0);
      gl.depthFunc(em.noDepthTest ? gl.ALWAYS : gl.LEQUAL);
      gl.depthMask(em.kind === 0);
      if (em.kind === 0) gl.disable(gl.BLEND);
      else {
        gl.enable(gl.BLEND);
        if (em.kind === 1) gl.blendFunc(gl.ONE, gl.ONE);
        else if (em.kind === 2) gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
        else gl.blendFunc(gl.DST_COLOR, gl.ZERO);
      }
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, inst, gl.STREAM_DRAW);
      gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, idx.length);
      n += idx.length;
    }
    gl.depthMask(false);
    gl.enable(gl.BLEND);
    this.particlesDrawn = n;
    return n;
  }

  // The desktop's particle program variant (render/particles.cpp particleSource: BLEND_KIND, LOW_PASS, HAS_TEXTURE,
  // ORIENT always defined), compiled once.
  particleProgram(kind, texture, orient) {
    const key = `particle ${kind} ${texture ? 1 : 0} ${orient}`;
    let p = this.programs.get(key);
    if (p) return p;
    const gl = this.gl;
    const head = esPrefix + `#define BLEND_KIND ${kind}\n#define LOW_PASS 0\n#define HAS_TEXTURE ${texture ? 1 : 0}\n` +
      `#define ORIENT ${orient}\n`;
    const prog = linkProgram(gl, 'particle program', head, glsl['particle.vert'], glsl['particle.frag'],
      ['corner', 'particleCenter', 'particleColor', 'particleRect', 'particleSpin']);
    const u = {};
    for (const name of ['viewMatrix', 'projectionMatrix', 'viewProjectionMatrix', 'viewportSize', 'eyePosition',
      'tailSize', 'lowResMinPixels', 'particleTexture']) u[name] = gl.getUniformLocation(prog, name);
    p = { prog, u };
    this.programs.set(key, p);
    return p;
  }
}

// The particle quad: corners (-1,-1) .. (1,1) as a strip, and one instance buffer of the desktop's layout (16 floats:
// particleCenter, particleColor, particleRect, particleSpin).
function makeParticleQuad(gl) {
  return makeInstancedQuad(gl, 4);
}

// A unit quad's corners (-1,-1) .. (1,1) as a strip at attribute 0, and one instance buffer of `vec4s` vec4
// attributes (1 .. vec4s, one per instance), as the desktop's particle and dazzle layers lay them out.
function makeInstancedQuad(gl, vec4s) {
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  const corners = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, corners);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  const buffer = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  for (let k = 0; k < vec4s; ++k) {
    gl.enableVertexAttribArray(1 + k);
    gl.vertexAttribPointer(1 + k, 4, gl.FLOAT, false, 16 * vec4s, 16 * k);
    gl.vertexAttribDivisor(1 + k, 1);
  }
  gl.bindVertexArray(null);
  return { vao, buffer };
}

// The shared dazzle program: one instanced draw, instances (dazzleCenter, dazzleColor, dazzleRect) from the
// module's dazzles() (12 floats each, render/dazzle_rules.h dazzleRect for the atlas cell).
Renderer.prototype.drawDazzles = function drawDazzles(data) {
  const gl = this.gl;
  if (!this.dazzleProgram) this.dazzleProgram = makeDazzleProgram(gl);
  const { prog, u, vao, buffer } = this.dazzleProgram;
  const out = [];
  for (let i = 0; i + 12 <= data.length; i += 12) if (data[i + 7] > 0 && data[i + 3] > 0) out.push(...data.subarray(i, i + 12));
  if (!out.length) return 0;
  gl.useProgram(prog);
  gl.uniformMatrix4fv(u.viewMatrix, false, this.view);
  gl.uniformMatrix4fv(u.projectionMatrix, false, this.projection);
  gl.uniform1i(u.hasTexture, this.dazzleTexture ? 1 : 0);
  gl.uniform1i(u.textureFlip, 1); // atlas rects in the file's convention, as the desktop
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, this.dazzleTexture);
  gl.uniform1i(u.dazzleTexture, 0);
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(out), gl.STREAM_DRAW);
  gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, out.length / 12);
  this.dazzlesDrawn = out.length / 12;
  return out.length / 12;
};

// Compiles `head` + each stage's source and links them with `attribs` bound to locations 0, 1, ...; throws naming
// `what` and the GL log when a stage or the link fails.
function linkProgram(gl, what, head, vertex, fragment, attribs) {
  const compile = (type, src) => {
    const sh = gl.createShader(type);
    gl.shaderSource(sh, head + src);
    gl.compileShader(sh);
    if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) throw new Error(what + ' shader: ' + gl.getShaderInfoLog(sh));
    return sh;
  };
  const prog = gl.createProgram();
  gl.attachShader(prog, compile(gl.VERTEX_SHADER, vertex));
  gl.attachShader(prog, compile(gl.FRAGMENT_SHADER, fragment));
  attribs.forEach((a, i) => gl.bindAttribLocation(prog, i, a));
  gl.linkProgram(prog);
  if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error(what + ': ' + gl.getProgramInfoLog(prog));
  return prog;
}

function makeDazzleProgram(gl) {
  const prog = linkProgram(gl, 'dazzle program', esPrefix, glsl['dazzle.vert'], glsl['dazzle.frag'],
    ['corner', 'dazzleCenter', 'dazzleColor', 'dazzleRect']);
  const u = {};
  for (const n of ['viewMatrix', 'projectionMatrix', 'hasTexture', 'textureFlip', 'dazzleTexture']) u[n] = gl.getUniformLocation(prog, n);
  const { vao, buffer } = makeInstancedQuad(gl, 3);
  return { prog, u, vao, buffer };
}

function rank(p) {
  return p.info.family === 'opaque' ? 0 : p.info.family === 'alpha' ? 1 : 2;
}

function normalize(v) {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}

// Column-major 4x4 product a * b.
export function mul(a, b) {
  const o = new Float32Array(16);
  for (let c = 0; c < 4; ++c)
    for (let r = 0; r < 4; ++r) {
      let s = 0;
      for (let k = 0; k < 4; ++k) s += a[k * 4 + r] * b[c * 4 + k];
      o[c * 4 + r] = s;
    }
  return o;
}
