// The page's WebGL2 renderer: the desktop's mesh program (render/glsl/mesh.vert + mesh.frag, bundled at build time
// into shaders.js and given an ES 3.00 prefix) with GPU skinning from a uniform-buffer bone palette.
// One draw per drawn sub-mesh; the palette of each is bound as a range of one buffer.
import { meshVertex, meshFragment, esPrefix, glsl, lowResRules as lowRes } from './shaders.js';
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

  program(defines, fragment = meshFragment) {
    const key = defines.join(',') + (fragment === meshFragment ? '' : ' ' + fragment.length);
    let p = this.programs.get(key);
    if (p) return p;
    const gl = this.gl;
    const head = esPrefix + defines.map((d) => `#define ${d}\n`).join('');
    const prog = linkProgram(gl, 'program', head, meshVertex, fragment, ATTRS);
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
  // orientation (BLEND_KIND, HAS_TEXTURE, ORIENT), the emitter's blend and depth states, alpha-blended particles
  // farthest first. Large additive and alpha particles go to the low-resolution target as on the desktop
  // (lowResPlan, drawParticlesLow, compositeLowRes): the full-size pass (LOW_PASS 0) skips them by the same
  // threshold.
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
    const eye = this.eye;
    // Opaque emitters first (the desktop's opaque layer), then the others in their order.
    const order = [...groups.keys()].sort((a, b) => ((slots[a] || {}).kind === 0 ? 0 : 1) - ((slots[b] || {}).kind === 0 ? 0 : 1) || a - b);
    for (const slot of order) {
      const em = slots[slot];
      if (em && em.kind === 2) {
        const d2 = (i) => (data[i] - eye[0]) ** 2 + (data[i + 1] - eye[1]) ** 2 + (data[i + 2] - eye[2]) ** 2;
        groups.get(slot).sort((a, b) => d2(b) - d2(a));
      }
    }
    const low = this.lowResPlan(data, groups, slots);
    this.lowResUsed = !!low;
    if (low) this.drawParticlesLow(data, groups, order, slots, low, vp);
    let n = 0;
    gl.bindVertexArray(this.particleQuad.vao);
    for (const slot of order) {
      const em = slots[slot];
      if (!em || em.kind < 0) continue;
      gl.depthFunc(em.noDepthTest ? gl.ALWAYS : gl.LEQUAL);
      gl.depthMask(em.kind === 0);
      if (em.kind === 0) gl.disable(gl.BLEND);
      else {
        gl.enable(gl.BLEND);
        if (em.kind === 1) gl.blendFunc(gl.ONE, gl.ONE);
        else if (em.kind === 2) gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
        else gl.blendFunc(gl.DST_COLOR, gl.ZERO);
      }
      // Opaque, modulate and line emitters have no low-resolution pass: their threshold stays out of reach.
      n += this.drawEmitter(data, groups.get(slot), em, vp, false, low && lowResCapable(em) ? low.threshold : 3.4e38);
    }
    if (low) this.compositeLowRes(low);
    gl.depthMask(false);
    gl.enable(gl.BLEND);
    this.particlesDrawn = n;
    return n;
  }

  // One emitter's instances (idx: offsets into data) by its program variant (lowPass: LOW_PASS 1) with its texture,
  // the view's uniforms and the low-resolution threshold; blend and depth states are the caller's. The viewport size
  // is the window's in both passes, as the desktop's shared uniform. Returns the instances drawn.
  drawEmitter(data, idx, em, vp, lowPass, threshold) {
    const gl = this.gl;
    const { buffer } = this.particleQuad;
    const inst = new Float32Array(idx.length * 16);
    idx.forEach((i, k) => inst.set(data.subarray(i, i + 16), k * 16));
    const tex = em.texture && this.particleTextures ? this.particleTextures.get(em.texture) || null : null;
    const { prog, u } = this.particleProgram(em.kind, !!tex, em.orient, lowPass);
    gl.useProgram(prog);
    gl.uniformMatrix4fv(u.viewMatrix, false, this.view);
    gl.uniformMatrix4fv(u.projectionMatrix, false, this.projection);
    gl.uniformMatrix4fv(u.viewProjectionMatrix, false, vp);
    gl.uniform2f(u.viewportSize, this.canvas.width, this.canvas.height);
    gl.uniform3fv(u.eyePosition, this.eye);
    gl.uniform1f(u.tailSize, em.tail || 0);
    gl.uniform1f(u.lowResMinPixels, threshold);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.uniform1i(u.particleTexture, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, inst, gl.STREAM_DRAW);
    gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, idx.length);
    return idx.length;
  }

  // Whether this frame uses the low-resolution target, by the desktop's rules (render/scene_view.cpp and
  // render/particles.cpp Particles::upload) with its numbers (render/low_res_rules.h, shaders.js's lowResRules): the
  // threshold is a sixth of the view's height, at most 90 pixels; the target is used when an additive or alpha
  // particle (not a line) is at least that tall on screen (size * P[1][1] * height / 2 / depth, the vertex shader's
  // formula); its divisor is FrameGraph::baseLowResDivisor's, doubled (at most 16) while the large particles cover
  // more than 32 windows (back under 16 to undo). null when not used.
  lowResPlan(data, groups, slots) {
    const W = this.canvas.width, H = this.canvas.height;
    const threshold = Math.min(H * lowRes.minFraction, lowRes.maxMinPixels);
    const V = this.view, P = this.projection;
    let used = false, fill = 0;
    for (const [slot, idx] of groups) {
      const em = slots[slot];
      if (!em || !lowResCapable(em)) continue;
      for (const i of idx) {
        const depth = -(V[2] * data[i] + V[6] * data[i + 1] + V[10] * data[i + 2] + V[14]);
        const perDepth = 1 / Math.max(depth, 1e-3);
        const pixels = data[i + 3] * P[5] * 0.5 * H * perDepth;
        if (pixels >= threshold * 0.98) {
          used = used || pixels >= threshold;
          const w = Math.abs(data[i + 3]) * P[0] * 0.5 * W * perDepth;
          fill += Math.min(w * Math.abs(pixels), W * H) / (W * H);
        }
      }
    }
    if (!used) return null;
    if (fill > lowRes.coarserFill) this.lowResCoarse = true;
    else if (fill < lowRes.coarserFill / 2) this.lowResCoarse = false;
    const divisor = Math.min(lowRes.maxDivisor, baseLowResDivisor(W, H) * (this.lowResCoarse ? 2 : 1));
    return { threshold, divisor, width: Math.max(1, Math.ceil(W / divisor)), height: Math.max(1, Math.ceil(H / divisor)) };
  }

  // The low-resolution target as the desktop fills it (render/frame_graph.h): colour (RGBA8, linear, clamped) and
  // depth at the window's size / divisor, cleared to transparent black; the opaque parts' depth (the desktop's
  // "lowdepth" passes: the mesh program's vertex stage with render/glsl/depth.frag, depth LESS, no colour); then the
  // large additive and alpha particles (LOW_PASS 1: premultiplied, blended ONE, ONE for additive and ONE,
  // ONE_MINUS_SRC_ALPHA for alpha), depth tested there, not written. Leaves the window's framebuffer bound.
  drawParticlesLow(data, groups, order, slots, low, vp) {
    const gl = this.gl;
    let t = this.lowTarget;
    if (!t || t.width !== low.width || t.height !== low.height) {
      if (t) {
        gl.deleteFramebuffer(t.fbo);
        gl.deleteTexture(t.color);
        gl.deleteRenderbuffer(t.depth);
      }
      t = { width: low.width, height: low.height, fbo: gl.createFramebuffer(), color: gl.createTexture(),
        depth: gl.createRenderbuffer() };
      gl.bindTexture(gl.TEXTURE_2D, t.color);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, t.width, t.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      for (const [k, v] of [[gl.TEXTURE_MIN_FILTER, gl.LINEAR], [gl.TEXTURE_MAG_FILTER, gl.LINEAR],
        [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE], [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE]]) gl.texParameteri(gl.TEXTURE_2D, k, v);
      gl.bindRenderbuffer(gl.RENDERBUFFER, t.depth);
      gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT32F, t.width, t.height);
      gl.bindFramebuffer(gl.FRAMEBUFFER, t.fbo);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, t.color, 0);
      gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, t.depth);
      this.lowTarget = t;
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, t.fbo);
    gl.viewport(0, 0, t.width, t.height);
    gl.clearColor(0, 0, 0, 0);
    gl.depthMask(true);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.disable(gl.BLEND);
    gl.colorMask(false, false, false, false);
    gl.depthFunc(gl.LESS);
    const { prog, u } = this.program([], glsl['depth.frag']);
    gl.useProgram(prog);
    gl.uniformMatrix4fv(u.viewProjectionMatrix, false, vp);
    for (const p of this.parts) {
      if (!p.visible || !p.shownAtPose || p.count === 0 || p.info.family !== 'opaque') continue;
      gl.bindBufferRange(gl.UNIFORM_BUFFER, 0, this.ubo, p.uboOffset, kPalette * 64);
      if (u.skinMode) gl.uniform1i(u.skinMode, p.dual ? 2 : p.skinned ? 1 : 0);
      if (u.rigidSlot) gl.uniform1i(u.rigidSlot, 0);
      if (p.info.cull) gl.enable(gl.CULL_FACE);
      else gl.disable(gl.CULL_FACE);
      gl.bindVertexArray(p.vao);
      gl.drawElements(gl.TRIANGLES, p.count, gl.UNSIGNED_INT, 0);
    }
    gl.colorMask(true, true, true, true);
    gl.disable(gl.CULL_FACE);
    gl.depthMask(false);
    gl.enable(gl.BLEND);
    gl.bindVertexArray(this.particleQuad.vao);
    for (const slot of order) {
      const em = slots[slot];
      if (!em || !lowResCapable(em)) continue;
      gl.depthFunc(em.noDepthTest ? gl.ALWAYS : gl.LEQUAL);
      gl.blendFunc(gl.ONE, em.kind === 1 ? gl.ONE : gl.ONE_MINUS_SRC_ALPHA);
      this.drawEmitter(data, groups.get(slot), em, vp, true, low.threshold);
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
  }

  // The low-resolution target blended over the window after the full-size particles (the desktop's "composite" pass:
  // render/glsl/particle_composite.*, premultiplied: ONE, ONE_MINUS_SRC_ALPHA, depth test off), as one rectangle over
  // the whole window: the desktop covers only the tiles its large particles touch, and elsewhere the target is
  // transparent, so the pixels are the same.
  compositeLowRes() {
    const gl = this.gl;
    if (!this.compositeQuad) {
      const prog = linkProgram(gl, 'low-resolution composite', esPrefix, glsl['particle_composite.vert'],
        glsl['particle_composite.frag'], ['corner', 'tileRect']);
      this.compositeQuad = { prog, lowResColor: gl.getUniformLocation(prog, 'lowResColor'), ...makeInstancedQuad(gl, 1) };
      gl.bindBuffer(gl.ARRAY_BUFFER, this.compositeQuad.buffer);
      gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, 1]), gl.STATIC_DRAW);
    }
    const c = this.compositeQuad;
    gl.useProgram(c.prog);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.lowTarget.color);
    gl.uniform1i(c.lowResColor, 0);
    gl.disable(gl.DEPTH_TEST);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.bindVertexArray(c.vao);
    gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, 1);
    gl.enable(gl.DEPTH_TEST);
  }

  // The desktop's particle program variant (render/particles.cpp particleSource: BLEND_KIND, LOW_PASS, HAS_TEXTURE,
  // ORIENT always defined), compiled once.
  particleProgram(kind, texture, orient, lowPass = false) {
    const key = `particle ${kind} ${texture ? 1 : 0} ${orient} ${lowPass ? 1 : 0}`;
    let p = this.programs.get(key);
    if (p) return p;
    const gl = this.gl;
    const head = esPrefix + `#define BLEND_KIND ${kind}\n#define LOW_PASS ${lowPass ? 1 : 0}\n#define HAS_TEXTURE ${texture ? 1 : 0}\n` +
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

// FrameGraph::baseLowResDivisor: 4 up to 1280x720, then the smallest whose target holds at most the budget (the
// numbers: render/low_res_rules.h).
function baseLowResDivisor(width, height) {
  let d = lowRes.divisor;
  const w = Math.max(1, width), h = Math.max(1, height);
  while (d < lowRes.maxDivisor / 2 && Math.ceil(w / d) * Math.ceil(h / d) > lowRes.budgetPixels) ++d;
  return d;
}

// Particles::build's lowResCapable: additive and alpha emitters, not W3D lines (whose effect has no low pass).
function lowResCapable(em) {
  return (em.kind === 1 || em.kind === 2) && em.orient !== 3;
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
