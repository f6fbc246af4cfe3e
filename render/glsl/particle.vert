// A particle system's quads (render/particles.cpp), one instance per particle. Compiled per emitter kind with
// these defines: ORIENT 0 camera-facing, 1 world-oriented, 2 velocity-aligned kite (emitter 0x41), 3 a W3D line
// segment (particles/w3d_lines.h: head at particleCenter.xyz, width particleCenter.w, tail at head + particleSpin.yzw,
// particleSpin.x the tail colour: 0 the head's, 1 the head's with alpha 0, 2 black, 3 white); LOW_PASS 1 the
// pass into the low-resolution target; BLEND_KIND 0 opaque, 1 additive, 2 alpha, 3 modulate; HAS_TEXTURE 0 a soft
// round sprite. Each is a define rather than a uniform: llvmpipe runs both sides of a branch on a uniform.
in vec2 corner;                  // (-1,-1) .. (1,1)
in vec4 particleCenter;          // xyz world, w size
in vec4 particleColor;
in vec4 particleRect;            // u0, v0, w, h (v down from the image top)
in vec4 particleSpin;            // x = rotation, radians; yzw = velocity (kites)
uniform mat4 viewMatrix;
uniform mat4 projectionMatrix;
uniform mat4 viewProjectionMatrix;
uniform vec2 viewportSize;
uniform vec3 eyePosition;
uniform float tailSize;          // 0x42: how far the kite's rear corner reaches beyond the quad
uniform float lowResMinPixels;   // particles at least this tall on screen go to the low-resolution target
out vec2 uv;
out vec2 cornerPos;
out vec4 vColor;
void main() {
    // Size on screen, the same formula as Particles::update: the full-size pass skips large particles, the
    // low-resolution pass draws only them.
    vec4 eyePos = viewMatrix * vec4(particleCenter.xyz, 1.0);
    float pixels = particleCenter.w * projectionMatrix[1][1] * 0.5 * viewportSize.y / max(-eyePos.z, 1e-3);
    if ((pixels >= lowResMinPixels) != (LOW_PASS != 0)) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // outside the clip volume: nothing drawn
        uv = vec2(0.0);
        cornerPos = vec2(0.0);
        vColor = vec4(0.0);
        return;
    }
    cornerPos = corner;
    vec2 t = corner * 0.5 + 0.5;
    // Uploads put the image top at v = 1.
    uv = vec2(particleRect.x + t.x * particleRect.z, 1.0 - (particleRect.y + (1.0 - t.y) * particleRect.w));
    vColor = particleColor;
#if ORIENT == 2
    // The quad turned 135 degrees (a diamond), its corner (-1, 1) pulled out by tailSize / 2 on both axes so that it
    // trails behind along the velocity, in the plane through the velocity facing the camera.
    float speed = length(particleSpin.yzw);
    vec3 along = speed > 1e-6 ? particleSpin.yzw / speed : vec3(0.0, 0.0, 1.0);
    vec3 across = cross(along, eyePosition - particleCenter.xyz);
    if (length(across) < 1e-6) across = cross(along, abs(along.x) < 0.9 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0));
    across = normalize(across);
    float h = particleCenter.w * 0.5 + (corner.x < 0.0 && corner.y > 0.0 ? tailSize * 0.5 : 0.0);
    const float a = 2.35619449; // 3 pi / 4
    vec2 k = vec2(cos(a) * corner.x - sin(a) * corner.y, sin(a) * corner.x + cos(a) * corner.y) * h;
    gl_Position = viewProjectionMatrix * vec4(particleCenter.xyz + across * k.x + along * k.y, 1.0);
#elif ORIENT == 3
    // A ribbon from head (corner.x = -1) to tail (corner.x = 1), its width across, facing the camera.
    vec3 p = particleCenter.xyz + particleSpin.yzw * t.x;
    vec3 across = cross(particleSpin.yzw, eyePosition - p);
    if (length(across) < 1e-9) across = vec3(0.0); // head = tail, or seen end-on: nothing to draw
    else across = normalize(across);
    gl_Position = viewProjectionMatrix * vec4(p + across * (corner.y * particleCenter.w * 0.5), 1.0);
    uv = vec2(t.x, t.y); // the whole texture: u along, v across
    if (corner.x > 0.0) {
        int mode = int(particleSpin.x + 0.5);
        vColor = mode == 1 ? vec4(particleColor.rgb, 0.0)
               : mode == 2 ? vec4(0.0)
               : mode == 3 ? vec4(1.0)
               : particleColor;
    }
#else
    float c = cos(particleSpin.x), s = sin(particleSpin.x);
    vec2 q = vec2(c * corner.x - s * corner.y, s * corner.x + c * corner.y) * (particleCenter.w * 0.5);
#if ORIENT == 1
    gl_Position = viewProjectionMatrix * vec4(particleCenter.xyz + vec3(q, 0.0), 1.0);
#else
    eyePos.xy += q;
    gl_Position = projectionMatrix * eyePos;
#endif
#endif
}
