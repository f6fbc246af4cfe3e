// The games' shader formulas on the page: a sub-mesh whose material the desktop draws by an .fx formula (Alamo .fx,
// BFME's NormalMapped.fx, C&C 3's Objects*.fx, Infantry/BasicW3D/Tree/DefaultW3D.fx and Tiberium.fx; DefaultW3D's
// second texture reads the sub-mesh's second UV set, vertexTexCoord1, as on the desktop) is drawn here by the same GLSL (render/glsl, bundled into
// shaders.js by web/build.mjs) with the same uniform values: the module computes them with the desktop's code
// (render/fx_uniforms.cpp, part.fx in the model JSON), and the view's uniforms (light rig, Alamo light set-up,
// faction colour, camera, time) are set as render/frame_graph.cpp sets them. Textures are the material's own, read
// through the module's resolver; their stand-ins are the desktop's (render/texture_cache.h).
// Used by render.js: engine.setModel(summary) after the renderer's own, engine.drawPart(part, frame) per part
// (false: the generic program draws it).
import { glsl, esPrefix } from './shaders.js';

// The attribute locations of render.js (ATTRS): the same vertex arrays serve both programs.
const ATTRS = ['vertexPosition', 'vertexNormal', 'vertexTexCoord', 'vertexTangent', 'vertexBinormal', 'vertexColor',
  'boneWeight', 'boneIndex', 'vertexPosition2', 'vertexNormal2', 'w3dUv0', 'w3dUv1', 'w3dColor', 'vertexTexCoord1'];

// render/texture_cache.h stand-ins (RGBA8): white, clear, flat normal, the placeholder grey and its half.
const kCheckerGrey = 0xa8;
const STAND_INS = { white: [255, 255, 255, 255], clear: [0, 0, 0, 0], flatNormal: [128, 128, 255, 255],
  checker: [kCheckerGrey, kCheckerGrey, kCheckerGrey, 255], checkerHalf: [kCheckerGrey >> 1, kCheckerGrey >> 1,
    kCheckerGrey >> 1, 255] };

// The part JSON's fx.states (render/fx_uniforms.cpp alamoStates, the desktop's too) drive blend, depth writes and
// culling. Not on the page yet: states that read a copy of the frame (MeshHeat) or draw each pixel once with the
// stencil (MeshOccludedUnit), and C&C 3's distortion shaders (the same frame copy): those sub-meshes take the
// generic program.
function notHere(fx) {
  return !!(fx.states && (fx.states.readsFrame || fx.states.stencilOnce));
}

// An RGBA8 texture from a decoded image {width, height, rgba}, sampled as the desktop samples every 2D texture
// (render/textures.cpp makeTexture: mipmapped, LinearMipMapNearest, linear magnification, repeat): models, the
// engine formulas' maps, dazzles and particles. Not trilinear: blending two mip levels changes the colour of edges
// and of cells in an atlas against the desktop's picture (web_browser_effects, the W3D emitters case).
export function uploadRgba(gl, image) {
  const tex = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, image.width, image.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, image.rgba);
  gl.generateMipmap(gl.TEXTURE_2D);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  return tex;
}

export class EngineFormulas {
  // renderer: render.js's Renderer (gl, ubo, lights, factionColor, eye, time). loadTexture(name): a promise of the
  // module's decoded texture ({width, height, rgba} or {error}); null: the stand-ins only.
  constructor(renderer, loadTexture = null) {
    this.r = renderer;
    this.loadTexture = loadTexture;
    this.programs = new Map();
    this.textures = new Map(); // file name -> WebGLTexture, or null (not found)
    this.cubes = new Map(); // ObjectsGenericEnvMap.fx cube map name -> WebGL cube texture, or null (not loaded)
    this.loadCube = null; // (name) => a promise of the module's cube ({size, faces: 6 RGBA8 arrays} or {error})
    this.standIns = {};
    this.alamo = null; // the module's Alamo light set-up (worker open: alamoLights)
    this.enabled = true;
  }

  standIn(kind) {
    const gl = this.r.gl;
    if (this.standIns[kind]) return this.standIns[kind];
    const t = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(STAND_INS[kind]));
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    this.standIns[kind] = t;
    return t;
  }

  program(name, defines) {
    const key = name + ':' + defines.join(',');
    let p = this.programs.get(key);
    if (p) return p;
    const gl = this.r.gl;
    const head = esPrefix + defines.map((d) => `#define ${d}\n`).join('');
    const compile = (type, src) => {
      const s = gl.createShader(type);
      gl.shaderSource(s, src);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS))
        throw new Error(`shader ${name} (${defines.join(' ')}): ` + gl.getShaderInfoLog(s));
      return s;
    };
    const prog = gl.createProgram();
    gl.attachShader(prog, compile(gl.VERTEX_SHADER, head + glsl[name + '.vert']));
    gl.attachShader(prog, compile(gl.FRAGMENT_SHADER, head + glsl[name + '.frag']));
    ATTRS.forEach((a, i) => gl.bindAttribLocation(prog, i, a));
    gl.linkProgram(prog);
    if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error('program: ' + gl.getProgramInfoLog(prog));
    gl.uniformBlockBinding(prog, gl.getUniformBlockIndex(prog, 'BonePalette'), 0);
    const u = {}, samplers = [];
    const n = gl.getProgramParameter(prog, gl.ACTIVE_UNIFORMS);
    for (let i = 0; i < n; ++i) {
      const info = gl.getActiveUniform(prog, i);
      if (gl.getActiveUniforms(prog, [i], gl.UNIFORM_BLOCK_INDEX)[0] !== -1) continue;
      const base = info.name.replace(/\[0\]$/, '');
      u[base] = gl.getUniformLocation(prog, info.name);
      if (info.type === gl.SAMPLER_2D) samplers.push(base);
    }
    p = { prog, u, samplers };
    this.programs.set(key, p);
    return p;
  }

  // After the renderer's setModel: the textures the formulas name and the W3D passes use, read once per model.
  // A new model reads its textures again (another folder may hold another image under the same name).
  setModel(summary) {
    this.alamo = summary.alamoLights || this.alamo;
    const gl = this.r.gl;
    for (const t of this.textures.values()) if (t) gl.deleteTexture(t);
    this.textures.clear();
    for (const t of this.cubes.values()) if (t) gl.deleteTexture(t);
    this.cubes.clear();
    this.texturesLoaded = false;
    if (!this.loadTexture) return;
    const names = new Set(), cubes = new Set();
    for (const part of summary.parts) {
      if (part.fx && part.fx.envCube) cubes.add(part.fx.envCube);
      for (const t of (part.fx && part.fx.textures) || [])
        if (t.texture) names.add(t.texture);
      for (const pass of part.w3d || []) // ww3d2 passes: each stage's texture
        for (const t of pass.textures) if (t) names.add(t);
    }
    const generation = (this.generation = (this.generation || 0) + 1);
    (async () => {
      for (const name of names) {
        let tex = null;
        try {
          const t = await this.loadTexture(name);
          if (generation !== this.generation) return; // a newer model took over
          if (t && !t.error && t.rgba) {
            tex = uploadRgba(gl, t);
          }
        } catch { tex = null; }
        this.textures.set(name, tex);
        this.r.draw();
      }
      for (const name of cubes) {
        let tex = null;
        try {
          const c = this.loadCube ? await this.loadCube(name) : null;
          if (generation !== this.generation) return;
          if (c && !c.error && c.faces && c.faces.length === 6) tex = uploadCube(gl, c);
        } catch { tex = null; }
        this.cubes.set(name, tex);
        this.r.draw();
      }
      this.texturesLoaded = true;
    })();
  }

  // For tests: the frame as a mask, white where the visible surface is a part this module draws by its formula and
  // black where the generic program draws (the shared mesh program, unlit, the colour its emissive term). Which
  // pixels the engine formulas reach, to compare them with the desktop's.
  drawMask() {
    const r = this.r, gl = r.gl;
    gl.viewport(0, 0, r.canvas.width, r.canvas.height);
    gl.clearColor(0, 0, 0, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    if (!r.view) return;
    const vp = mulMat(r.projection, r.view);
    const { prog, u } = this.program('mesh', ['UNLIT', 'NO_BASE_TEXTURE']);
    gl.useProgram(prog);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.disable(gl.BLEND);
    gl.depthMask(true);
    gl.disable(gl.CULL_FACE);
    gl.uniformMatrix4fv(u.viewProjectionMatrix, false, vp);
    gl.uniform4f(u.baseColor, 0, 0, 0, 1);
    for (const n of ['diffuseColor', 'colorParam']) gl.uniform4f(u[n], 1, 1, 1, 1);
    for (const n of ['colorize', 'factionColorParam', 'blendMode', 'hasVertexColor', 'rigidSlot']) gl.uniform1i(u[n], 0);
    for (const p of r.parts) {
      if (!p.visible || !p.shownAtPose || p.count === 0) continue;
      const fx = p.info.fx;
      const formula = this.enabled && ((fx && !(notHere(fx) || (fx.program === 'alamo' && p.dual))) ||
                                       !!(p.info.w3d && p.info.w3d.length));
      gl.bindBufferRange(gl.UNIFORM_BUFFER, 0, r.ubo, p.uboOffset, 512 * 64);
      gl.uniform1i(u.skinMode, p.dual ? 2 : p.skinned ? 1 : 0);
      gl.uniform4f(u.emissiveColor, formula ? 1 : 0, formula ? 1 : 0, formula ? 1 : 0, 1);
      gl.bindVertexArray(p.vao);
      gl.drawElements(gl.TRIANGLES, p.count, gl.UNSIGNED_INT, 0);
    }
    gl.bindVertexArray(null);
  }

  // Starts a frame: no W3D passes waiting.
  beginFrame() {
    this.later = [];
  }

  // The view's uniforms every formula program reads (those it declares).
  setView(u, p, frame) {
    const gl = this.r.gl;
    const set = (name, f) => { if (u[name] !== undefined && u[name] !== null) f(u[name]); };
    set('viewProjectionMatrix', (l) => gl.uniformMatrix4fv(l, false, frame.vp));
    set('viewMatrix', (l) => gl.uniformMatrix4fv(l, false, frame.view));
    set('projectionMatrix', (l) => gl.uniformMatrix4fv(l, false, this.r.projection));
    set('eyePosition', (l) => gl.uniform3fv(l, this.r.eye));
    set('skinMode', (l) => gl.uniform1i(l, p.dual ? 2 : p.skinned ? 1 : 0));
    set('rigidSlot', (l) => gl.uniform1i(l, 0));
    set('alamoTime', (l) => gl.uniform1f(l, this.r.time || 0));
    const L = this.r.lights;
    if (L) {
      set('lightPosition', (l) => gl.uniform4fv(l, L.position));
      set('lightColor', (l) => gl.uniform4fv(l, L.color));
      set('ambientColor', (l) => gl.uniform3fv(l, L.ambient));
      set('rigLightCount', (l) => gl.uniform1i(l, L.count));
    }
    return set;
  }

  // One ww3d2 pass of part p (p.info.w3d[i], render/fx_uniforms.h w3dPassBindings: the desktop's values) by the
  // W3D program (render/glsl/w3d.*) with the pass's blend and depth states and the part's culling.
  drawW3dPass(p, i, frame) {
    const gl = this.r.gl;
    const pass = p.info.w3d[i];
    const { prog, u } = this.program('w3d', pass.defines);
    gl.useProgram(prog);
    gl.bindBufferRange(gl.UNIFORM_BUFFER, 0, this.r.ubo, p.uboOffset, 512 * 64);
    const set = this.setView(u, p, frame);
    const U = pass.uniforms;
    for (const n of ['wLighting', 'wHasColor', 'wDiffuseFromColor', 'wAmbientFromColor'])
      set(n, (l) => gl.uniform1i(l, U[n]));
    set('wColorScale', (l) => gl.uniform4fv(l, U.wColorScale));
    set('wDiffuse', (l) => gl.uniform4fv(l, U.wDiffuse));
    for (const n of ['wAmbient', 'wSpecular', 'wEmissive']) set(n, (l) => gl.uniform3fv(l, U[n]));
    set('wShininess', (l) => gl.uniform1f(l, U.wShininess));
    set('wMapper', (l) => gl.uniform1iv(l, U.wMapper));
    set('wUvSel', (l) => gl.uniform1iv(l, U.wUvSel));
    for (const n of ['wMapA', 'wMapB', 'wMapC']) set(n, (l) => gl.uniform4fv(l, U[n]));
    // Stage textures: white when none is named, the placeholder grey when named and not found (the desktop's
    // TextureCache), the image once read.
    pass.textures.forEach((name, st) => {
      let tex = this.standIn('white');
      if (name) {
        const got = this.textures.get(name);
        tex = got || this.standIn(got === null ? 'checker' : 'white');
      }
      gl.activeTexture(gl.TEXTURE0 + st);
      gl.bindTexture(gl.TEXTURE_2D, tex);
      set(st === 0 ? 'stage0Texture' : 'stage1Texture', (l) => gl.uniform1i(l, st));
    });
    const S = pass.states;
    if (S.blend) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl[S.src], gl[S.dst]);
    } else {
      gl.disable(gl.BLEND);
    }
    gl.depthFunc(gl[S.depthFunc]);
    gl.depthMask(S.depthWrite);
    if (p.info.cull) gl.enable(gl.CULL_FACE);
    else gl.disable(gl.CULL_FACE);
    gl.bindVertexArray(p.vao);
    gl.drawElements(gl.TRIANGLES, p.count, gl.UNSIGNED_INT, 0);
    gl.depthFunc(gl.LEQUAL);
  }

  // The W3D passes after the first of the parts drawn this frame, pass 1 of all, then 2, then 3.
  drawLaterPasses(frame) {
    for (let i = 1; i < 4; ++i)
      for (const p of this.later || []) if (i < p.info.w3d.length) this.drawW3dPass(p, i, frame);
    this.later = [];
  }

  // Draws part by its .fx formula or its ww3d2 passes (the first now, the others in drawLaterPasses); false when
  // the generic program should draw it. frame: {vp, view}.
  drawPart(p, frame) {
    if (this.enabled && p.info.w3d && p.info.w3d.length) {
      this.drawW3dPass(p, 0, frame);
      if (p.info.w3d.length > 1) (this.later || (this.later = [])).push(p);
      return true;
    }
    const fx = p.info.fx;
    if (!this.enabled || !fx) return false;
    const alamo = fx.program === 'alamo';
    if (notHere(fx) || (alamo && p.dual)) return false; // dual-bone skins: generic (desktop)
    const gl = this.r.gl;
    // ObjectsGenericEnvMap.fx: its cube once loaded (ENV_CUBE), the ambient stand-in otherwise (the desktop's
    // render/w3d_fx_materials.cpp).
    const cube = fx.envCube ? this.cubes.get(fx.envCube) || null : null;
    const { prog, u, samplers } = this.program(fx.program, cube ? [...fx.defines, 'ENV_CUBE'] : fx.defines);
    gl.useProgram(prog);
    const set = (name, f) => { if (u[name] !== undefined && u[name] !== null) f(u[name]); };
    set('viewProjectionMatrix', (l) => gl.uniformMatrix4fv(l, false, frame.vp));
    set('viewMatrix', (l) => gl.uniformMatrix4fv(l, false, frame.view));
    set('eyePosition', (l) => gl.uniform3fv(l, this.r.eye));
    set('skinMode', (l) => gl.uniform1i(l, p.dual ? 2 : p.skinned ? 1 : 0));
    set('rigidSlot', (l) => gl.uniform1i(l, 0));
    set('hasVertexColor', (l) => gl.uniform1i(l, p.hasColor ? 1 : 0));
    // DefaultW3D.fx: TEXCOORD1 is the second UV set where the sub-mesh has one (render/mesh_materials.cpp).
    set('hasTexCoord1', (l) => gl.uniform1i(l, p.hasUv1 && fx.defines.includes('DEFAULT_W3D') ? 1 : 0));
    set('factionColor', (l) => gl.uniform4fv(l, this.r.factionColor));
    set('alamoTime', (l) => gl.uniform1f(l, this.r.time || 0));
    set('viewportSize', (l) => gl.uniform2f(l, this.r.canvas.width, this.r.canvas.height));
    const L = this.r.lights;
    if (L) {
      set('lightPosition', (l) => gl.uniform4fv(l, L.position));
      set('lightColor', (l) => gl.uniform4fv(l, L.color));
      set('ambientColor', (l) => gl.uniform3fv(l, L.ambient));
      set('rigLightCount', (l) => gl.uniform1i(l, L.count));
    }
    const A = this.alamo;
    if (A) {
      set('sunToward', (l) => gl.uniform3fv(l, A.sunToward));
      set('sunDiffuse', (l) => gl.uniform3fv(l, A.sunDiffuse));
      set('sunSpecular', (l) => gl.uniform3fv(l, A.sunSpecular));
      set('sphAll', (l) => gl.uniform4fv(l, A.sphAll));
      set('sphFill', (l) => gl.uniform4fv(l, A.sphFill));
      set('alamoLights', (l) => gl.uniform4fv(l, A.alamoLights));
    }
    // The material's values, as the desktop binds them (render/mesh_materials.cpp bindFx).
    for (const v of fx.uniforms) {
      const f = [null, gl.uniform1fv, gl.uniform2fv, gl.uniform3fv, gl.uniform4fv][v.value.length];
      set(v.name, (l) => f.call(gl, l, v.value));
    }
    let missingBase = false, unit = 0;
    const bound = new Set();
    for (const t of fx.textures) {
      let tex = this.standIn(t.none);
      if (t.texture) {
        const got = this.textures.get(t.texture);
        if (got) tex = got;
        else if (got === null) { // named and not found
          tex = this.standIn(t.base && fx.doublesBase ? 'checkerHalf' : t.missing);
          if (t.base) missingBase = true;
        }
      }
      if (u[t.uniform] === undefined || u[t.uniform] === null) continue;
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(gl.TEXTURE_2D, tex);
      gl.uniform1i(u[t.uniform], unit++);
      bound.add(t.uniform);
    }
    for (const s of samplers) { // samplers no slot names (sceneCopy): a clear texture
      if (bound.has(s)) continue;
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(gl.TEXTURE_2D, this.standIn('clear'));
      gl.uniform1i(u[s], unit++);
    }
    if (cube && u.obEnvironmentCube) {
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(gl.TEXTURE_CUBE_MAP, cube);
      gl.uniform1i(u.obEnvironmentCube, unit++);
    }
    if (alamo) set('mMaskScale', (l) => gl.uniform1f(l, missingBase ? 0 : 1));
    // Render states (fx.states; depthTest GREATER only comes with stencilOnce, not drawn here).
    const st = fx.states || { blend: 'none', depthWrite: true, twoSided: false };
    if (p.info.cull && !st.twoSided) gl.enable(gl.CULL_FACE);
    else gl.disable(gl.CULL_FACE);
    if (st.blend !== 'none') {
      gl.enable(gl.BLEND);
      if (st.blend === 'additive') gl.blendFunc(gl.ONE, gl.ONE);
      else if (st.blend === 'multiply') gl.blendFunc(gl.DST_COLOR, gl.ZERO);
      else gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    } else {
      gl.disable(gl.BLEND);
    }
    gl.depthMask(st.depthWrite);
    gl.bindVertexArray(p.vao);
    gl.drawElements(gl.TRIANGLES, p.count, gl.UNSIGNED_INT, 0);
    return true;
  }
}

// A cube texture of the module's cube() faces (+X, -X, +Y, -Y, +Z, -Z, each row 0 first) as the desktop makes it
// (render/textures.cpp makeCubeTexture): RGBA8, each face uploaded as stored, linear, no mipmaps, clamped.
function uploadCube(gl, c) {
  const t = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_CUBE_MAP, t);
  for (let f = 0; f < 6; ++f)
    gl.texImage2D(gl.TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, gl.RGBA8, c.size, c.size, 0, gl.RGBA, gl.UNSIGNED_BYTE, c.faces[f]);
  gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  for (const w of [gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T, gl.TEXTURE_WRAP_R])
    gl.texParameteri(gl.TEXTURE_CUBE_MAP, w, gl.CLAMP_TO_EDGE);
  return t;
}

// Column-major 4x4 product a * b.
function mulMat(a, b) {
  const o = new Float32Array(16);
  for (let c = 0; c < 4; ++c)
    for (let r = 0; r < 4; ++r) {
      let v = 0;
      for (let k = 0; k < 4; ++k) v += a[k * 4 + r] * b[c * 4 + k];
      o[c * 4 + r] = v;
    }
  return o;
}
