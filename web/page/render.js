// The page's WebGL2 renderer: the desktop's mesh program (render/glsl/mesh.vert + mesh.frag, bundled at build time
// into shaders.js and given an ES 3.00 prefix) with GPU skinning from a uniform-buffer bone palette.
// One draw per drawn sub-mesh; the palette of each is bound as a range of one buffer.
import { meshVertex, meshFragment, esPrefix, glsl } from './shaders.js';
import { EngineFormulas } from './engine.js';

const kPalette = 512; // mat4 slots of the shared BonePalette block (render/shaders.h kMaxPalette)
const kBackground = [48 / 255, 52 / 255, 60 / 255]; // render/scene_view.h background
const kCheckerGrey = 0xa8 / 255; // render/texture_cache.cpp kCheckerRgba: the stand-in of a texture not found

const ATTRS = ['vertexPosition', 'vertexNormal', 'vertexTexCoord', 'vertexTangent', 'vertexBinormal', 'vertexColor',
  'boneWeight', 'boneIndex', 'vertexPosition2', 'vertexNormal2', 'w3dUv0', 'w3dUv1', 'w3dColor'];
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
    this.sprites = null; // {dazzles: Float32Array (12 a dazzle), particles: Float32Array (9 a particle)}
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
    const compile = (type, src) => {
      const s = gl.createShader(type);
      gl.shaderSource(s, src);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error('shader: ' + gl.getShaderInfoLog(s));
      return s;
    };
    const prog = gl.createProgram();
    gl.attachShader(prog, compile(gl.VERTEX_SHADER, head + meshVertex));
    gl.attachShader(prog, compile(gl.FRAGMENT_SHADER, head + meshFragment));
    ATTRS.forEach((a, i) => gl.bindAttribLocation(prog, i, a));
    gl.linkProgram(prog);
    if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error('program: ' + gl.getProgramInfoLog(prog));
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
      const ib = gl.createBuffer();
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ib);
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, d.indices, gl.STATIC_DRAW);
      gl.bindVertexArray(null);
      const bytes = info.paletteCount * 64;
      const part = { info, vao, count: d.indices.length, uboOffset: offset, dual: !!d.positions2,
        skinned: !!d.boneIndex, hasColor: !!d.colors, texture: null, visible: info.drawn, shownAtPose: true };
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
      const tex = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, tex);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, t.width, t.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, t.rgba);
      gl.generateMipmap(gl.TEXTURE_2D);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
      this.dazzleTexture = tex;
      this.dazzleTextureName = dz.texture;
      this.draw();
      return;
    }
  }

  setTexture(partIndex, tex) {
    const gl = this.gl;
    const t = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, tex.width, tex.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, tex.rgba);
    gl.generateMipmap(gl.TEXTURE_2D);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    this.parts[partIndex].texture = t;
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

  // Camera-facing quads, one instance each: dazzles by the desktop's dazzle program with its atlas texture
  // (drawDazzles), particles as round soft quads in their emitter's blend mode (additive, alpha, modulate, opaque;
  // their textures are not loaded yet: the sprite program below is not one of the desktop's shaders).
  drawSprites(vp) {
    const S = this.sprites;
    if (!S) return;
    const gl = this.gl;
    if (!this.spriteProgram) this.spriteProgram = makeSpriteProgram(gl);
    const { prog, u, vao, buffer } = this.spriteProgram;
    // Right and up of the view (rows of the view matrix's rotation).
    const v = this.view;
    const right = [v[0], v[4], v[8]], up = [v[1], v[5], v[9]];
    gl.useProgram(prog);
    gl.uniformMatrix4fv(u.viewProjection, false, vp);
    gl.uniform3fv(u.right, right);
    gl.uniform3fv(u.up, up);
    gl.bindVertexArray(vao);
    gl.enable(gl.BLEND);
    gl.depthMask(false);
    gl.disable(gl.CULL_FACE);
    const draw = (data, stride, halfSize, pick) => {
      // Instances of one blend mode: position xyz, half size, rgba (brightness folded in for dazzles).
      const out = [];
      for (let i = 0; i + stride <= data.length; i += stride) {
        const r = pick(data, i);
        if (r) out.push(data[i], data[i + 1], data[i + 2], data[i + 3] * halfSize, ...r);
      }
      if (!out.length) return 0;
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(out), gl.STREAM_DRAW);
      gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, out.length / 8);
      return out.length / 8;
    };
    let n = 0;
    // Dazzles: the desktop's dazzle program (render/glsl/dazzle.*), added, depth tested and not written.
    gl.blendFunc(gl.ONE, gl.ONE);
    if (S.dazzles) n += this.drawDazzles(S.dazzles);
    gl.useProgram(prog);
    gl.bindVertexArray(vao);
    // Particles: size is the full quad width.
    if (S.particles) {
      const modes = [[1, gl.ONE, gl.ONE], [2, gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA], [3, gl.DST_COLOR, gl.ZERO],
        [0, gl.ONE, gl.ZERO]];
      for (const [mode, src, dst] of modes) {
        gl.blendFunc(src, dst);
        n += draw(S.particles, 9, 0.5, (d, i) => {
          if (d[i + 8] !== mode) return null;
          // Additive particles add colour * alpha (particle_preview.h ParticleDraw).
          return mode === 1 ? [d[i + 4] * d[i + 7], d[i + 5] * d[i + 7], d[i + 6] * d[i + 7], 1]
            : [d[i + 4], d[i + 5], d[i + 6], d[i + 7]];
        });
      }
    }
    this.spritesDrawn = n;
    gl.bindVertexArray(null);
  }
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

function makeDazzleProgram(gl) {
  const compile = (type, src) => {
    const sh = gl.createShader(type);
    gl.shaderSource(sh, esPrefix + src);
    gl.compileShader(sh);
    if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) throw new Error('dazzle shader: ' + gl.getShaderInfoLog(sh));
    return sh;
  };
  const prog = gl.createProgram();
  gl.attachShader(prog, compile(gl.VERTEX_SHADER, glsl['dazzle.vert']));
  gl.attachShader(prog, compile(gl.FRAGMENT_SHADER, glsl['dazzle.frag']));
  ['corner', 'dazzleCenter', 'dazzleColor', 'dazzleRect'].forEach((a, i) => gl.bindAttribLocation(prog, i, a));
  gl.linkProgram(prog);
  if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error('dazzle program: ' + gl.getProgramInfoLog(prog));
  const u = {};
  for (const n of ['viewMatrix', 'projectionMatrix', 'hasTexture', 'textureFlip', 'dazzleTexture']) u[n] = gl.getUniformLocation(prog, n);
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  const corners = gl.createBuffer(); // the quad's corners, (-1,-1) .. (1,1) as a strip
  gl.bindBuffer(gl.ARRAY_BUFFER, corners);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  const buffer = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  for (let k = 0; k < 3; ++k) {
    gl.enableVertexAttribArray(1 + k);
    gl.vertexAttribPointer(1 + k, 4, gl.FLOAT, false, 48, 16 * k);
    gl.vertexAttribDivisor(1 + k, 1);
  }
  gl.bindVertexArray(null);
  return { prog, u, vao, buffer };
}

function makeSpriteProgram(gl) {
  const vs = `#version 300 es
layout(location = 0) in vec4 instance; // xyz, half size
layout(location = 1) in vec4 color;
uniform mat4 viewProjection;
uniform vec3 right, up;
out vec2 corner;
out vec4 tint;
void main() {
  corner = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;
  tint = color;
  vec3 p = instance.xyz + (right * corner.x + up * corner.y) * instance.w;
  gl_Position = viewProjection * vec4(p, 1.0);
}`;
  const fs = `#version 300 es
precision mediump float;
in vec2 corner;
in vec4 tint;
out vec4 fragColor;
void main() {
  float k = clamp(1.0 - dot(corner, corner), 0.0, 1.0);
  fragColor = vec4(tint.rgb * k, tint.a * k);
}`;
  const compile = (type, src) => {
    const sh = gl.createShader(type);
    gl.shaderSource(sh, src);
    gl.compileShader(sh);
    if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) throw new Error('sprite shader: ' + gl.getShaderInfoLog(sh));
    return sh;
  };
  const prog = gl.createProgram();
  gl.attachShader(prog, compile(gl.VERTEX_SHADER, vs));
  gl.attachShader(prog, compile(gl.FRAGMENT_SHADER, fs));
  gl.linkProgram(prog);
  if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error('sprite program: ' + gl.getProgramInfoLog(prog));
  const u = { viewProjection: gl.getUniformLocation(prog, 'viewProjection'), right: gl.getUniformLocation(prog, 'right'),
    up: gl.getUniformLocation(prog, 'up') };
  const vao = gl.createVertexArray();
  const buffer = gl.createBuffer();
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 4, gl.FLOAT, false, 32, 0);
  gl.vertexAttribDivisor(0, 1);
  gl.enableVertexAttribArray(1);
  gl.vertexAttribPointer(1, 4, gl.FLOAT, false, 32, 16);
  gl.vertexAttribDivisor(1, 1);
  gl.bindVertexArray(null);
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
