#include "shaders.h"

namespace rs::render::shaders {

// Skinning: skinMode 0 = rigid (bones[rigidSlot]), 1 = up to four weighted palette slots,
// 2 = W3D dual bone (second influence uses vertexPosition2/vertexNormal2).
const char* const meshVertex = R"(#version 330 core
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec2 vertexTexCoord;
in vec3 vertexTangent;
in vec3 vertexBinormal;
in vec4 vertexColor;
in vec4 boneWeight;
in uvec4 boneIndex;
in vec3 vertexPosition2;
in vec3 vertexNormal2;

layout(std140) uniform BonePalette { mat4 bones[512]; };
uniform int skinMode;
uniform int rigidSlot;
uniform int hasVertexColor;
uniform mat4 viewProjectionMatrix;

out vec3 wPos;
out vec3 wNormal;
out vec3 wTangent;
out vec3 wBinormal;
out vec2 uv;
out vec4 vColor;
invariant gl_Position; // the depth pre-pass and the shading pass must produce the same depths

void main() {
    vec4 p;
    vec3 n, t, b;
    if (skinMode == 0) {
        mat4 m = bones[rigidSlot];
        p = m * vec4(vertexPosition, 1.0);
        mat3 r = mat3(m);
        n = r * vertexNormal; t = r * vertexTangent; b = r * vertexBinormal;
    } else if (skinMode == 2) {
        mat4 m0 = bones[boneIndex.x];
        mat4 m1 = bones[boneIndex.y];
        float w0 = boneWeight.x, w1 = boneWeight.y;
        p = w0 * (m0 * vec4(vertexPosition, 1.0)) + w1 * (m1 * vec4(vertexPosition2, 1.0));
        n = w0 * (mat3(m0) * vertexNormal) + w1 * (mat3(m1) * vertexNormal2);
        t = mat3(m0) * vertexTangent; b = mat3(m0) * vertexBinormal;
    } else {
        mat4 m = bones[boneIndex.x] * boneWeight.x;
        if (boneWeight.y > 0.0) m += bones[boneIndex.y] * boneWeight.y;
        if (boneWeight.z > 0.0) m += bones[boneIndex.z] * boneWeight.z;
        if (boneWeight.w > 0.0) m += bones[boneIndex.w] * boneWeight.w;
        p = m * vec4(vertexPosition, 1.0);
        mat3 r = mat3(m);
        n = r * vertexNormal; t = r * vertexTangent; b = r * vertexBinormal;
    }
    wPos = p.xyz / max(p.w, 1e-6);
    wNormal = n; wTangent = t; wBinormal = b;
    uv = vertexTexCoord;
    vColor = hasVertexColor != 0 ? vertexColor : vec4(1.0);
    gl_Position = viewProjectionMatrix * vec4(wPos, 1.0);
}
)";

// Compiled in variants (prepended defines): BUMP (normal map), SPECULAR (Blinn-Phong with a gloss mask),
// UNLIT (no lighting), NO_BASE_TEXTURE (the base texture has no image: baseColor stands for its one texel).
// Software GL runs both sides of every branch, so features are compile-time switches. The light loop runs
// LIGHT_LOOP times (default: rigLightCount, the slots in use; a uniform bound, the same for every fragment).
const char* const meshFragment = R"(
in vec3 wPos;
in vec3 wNormal;
in vec3 wTangent;
in vec3 wBinormal;
in vec2 uv;
in vec4 vColor;

uniform sampler2D baseTexture;
uniform vec4 baseColor;         // NO_BASE_TEXTURE: the stand-in texture's colour
uniform sampler2D normalTexture;
uniform int glossSource;        // 1 base alpha, 2 normal-map alpha
uniform int colorize;
uniform int factionColorParam;
uniform int blendMode;          // 0 opaque, 1 alpha, 2 additive
uniform vec4 diffuseColor;
uniform vec4 specularColor;
uniform vec4 emissiveColor;
uniform vec4 colorParam;
uniform float shininess;
uniform vec4 factionColor;
uniform vec3 eyePosition;
uniform vec4 lightPosition[4];  // w = 0: xyz = direction of travel; w = 1: position
uniform vec4 lightColor[4];     // a = 1 / range (0 = infinite)
uniform vec3 ambientColor;
uniform int rigLightCount;  // lights in use (not "lightCount": Qt3D sets that one to its own light count)
#ifndef LIGHT_LOOP
#define LIGHT_LOOP min(rigLightCount, 4)
#endif

out vec4 fragColor;

void main() {
#ifdef NO_BASE_TEXTURE
    vec4 base = baseColor;
#else
    vec4 base = texture(baseTexture, uv);
#endif
    vec3 surface = mix(base.rgb, mix(base.rgb, factionColor.rgb * base.rgb, base.a), float(colorize));
    vec4 cparam = mix(colorParam, vec4(factionColor.rgb, colorParam.a), float(factionColorParam));
    surface *= diffuseColor.rgb * vColor.rgb;
#ifdef UNLIT
    vec3 color = surface * cparam.rgb + emissiveColor.rgb;
#else
    vec3 N = normalize(wNormal);
    N = gl_FrontFacing ? N : -N;
    float glossMask = glossSource == 1 ? base.a : 1.0;
#ifdef BUMP
    vec4 nm = texture(normalTexture, uv);
    vec3 tn = nm.xyz * 2.0 - 1.0;
    vec3 T = normalize(wTangent - N * dot(N, wTangent));
    vec3 B = normalize(wBinormal);
    N = normalize(T * tn.x + B * tn.y + N * tn.z);
    glossMask = glossSource == 2 ? nm.a : glossMask;
#endif
    vec3 diffuse = ambientColor;
#ifdef SPECULAR
    vec3 V = normalize(eyePosition - wPos);
    vec3 spec = vec3(0.0);
#endif
    for (int i = 0; i < LIGHT_LOOP; ++i) {
        vec3 d = lightPosition[i].xyz - wPos * lightPosition[i].w;
        float dist = length(d);
        vec3 L = lightPosition[i].w == 0.0 ? -d / max(dist, 1e-6) : d / max(dist, 1e-6);
        float att = clamp(1.0 - dist * lightColor[i].a, 0.0, 1.0);
        float ndl = max(dot(N, L), 0.0) * att;
        diffuse += lightColor[i].rgb * ndl;
#ifdef SPECULAR
        if (i == 0) { // highlights from the key light only (the game's shaders light specular from the sun)
            vec3 H = normalize(L + V);
            spec = lightColor[0].rgb * (pow(max(dot(N, H), 0.0), max(shininess, 1.0)) * att * step(1e-6, ndl));
        }
#endif
    }
    vec3 color = surface * diffuse + emissiveColor.rgb;
#ifdef SPECULAR
    color += spec * specularColor.rgb * glossMask;
#endif
    color *= cparam.rgb;
#endif
    float alpha = blendMode == 1 ? base.a * diffuseColor.a * cparam.a * vColor.a : 1.0;
    fragColor = vec4(color, alpha);
}
)";

// Depth pre-pass of opaque meshes (with meshVertex): depth only, no colour.
const char* const depthFragment = R"(#version 330 core
void main() {}
)";

// Wireframe pass: triangle edges as lines, slightly pulled towards the viewer.
const char* const wireGeometry = R"(#version 330 core
layout(triangles) in;
layout(line_strip, max_vertices = 4) out;
void main() {
    for (int i = 0; i < 4; ++i) {
        vec4 p = gl_in[i % 3].gl_Position;
        p.z -= 0.0005 * p.w;
        gl_Position = p;
        EmitVertex();
    }
    EndPrimitive();
}
)";

const char* const wireFragment = R"(#version 330 core
out vec4 fragColor;
void main() { fragColor = vec4(0.1, 1.0, 0.4, 1.0); }
)";

// Lines attached to palette slots: skeleton (localPosition = 0), markers, grid (identity slot).
const char* const lineVertex = R"(#version 330 core
in vec3 vertexPosition;
in vec4 vertexColor;
in uvec2 lineBone;               // x = palette slot, y = bone id for highlighting (0xFFFF none)
layout(std140) uniform BonePalette { mat4 bones[512]; };
uniform mat4 viewProjectionMatrix;
uniform int highlightBone;
out vec4 vColor;
void main() {
    vec4 p = bones[lineBone.x] * vec4(vertexPosition, 1.0);
    vColor = (highlightBone >= 0 && int(lineBone.y) == highlightBone) ? vec4(1.0, 0.9, 0.1, 1.0) : vertexColor;
    gl_Position = viewProjectionMatrix * p;
}
)";

const char* const lineFragment = R"(#version 330 core
in vec4 vColor;
out vec4 fragColor;
void main() { fragColor = vColor; }
)";

// One instanced draw for every dazzle: per instance centre/radius, colour (already blink-scaled),
// atlas cell rect. Sprites face the camera.
const char* const dazzleVertex = R"(#version 330 core
in vec2 corner;                  // (-1,-1) .. (1,1)
in vec4 dazzleCenter;            // xyz world, w radius
in vec4 dazzleColor;
in vec4 dazzleRect;              // u0, v0, u1, v1
uniform mat4 viewMatrix;
uniform mat4 projectionMatrix;
out vec2 uv;
out vec2 cornerPos;
out vec4 vColor;
void main() {
    cornerPos = corner;
    vec4 c = viewMatrix * vec4(dazzleCenter.xyz, 1.0);
    c.xy += corner * dazzleCenter.w;
    vec2 t = corner * 0.5 + 0.5;
    uv = vec2(mix(dazzleRect.x, dazzleRect.z, t.x), mix(dazzleRect.y, dazzleRect.w, t.y));
    vColor = dazzleColor;
    gl_Position = projectionMatrix * c;
}
)";

const char* const dazzleFragment = R"(#version 330 core
in vec2 uv;
in vec2 cornerPos;
in vec4 vColor;
uniform sampler2D dazzleTexture;
uniform int hasTexture;
uniform int textureFlip;
out vec4 fragColor;
void main() {
    vec4 tex;
    if (hasTexture != 0) {
        tex = texture(dazzleTexture, textureFlip != 0 ? vec2(uv.x, 1.0 - uv.y) : uv);
    } else {
        float g = clamp(1.0 - length(cornerPos), 0.0, 1.0);
        tex = vec4(vec3(g * g), g);
    }
    fragColor = vec4(tex.rgb * vColor.rgb * vColor.a, 1.0);
}
)";

// Screen-aligned text labels (proxy and marker names) of constant pixel size, one instanced draw.
const char* const labelVertex = R"(#version 330 core
in vec2 corner;                  // (0,0) .. (1,1)
in vec4 labelAnchor;             // xyz world, w = 1 shown / 0 hidden
in vec4 labelSize;               // xy = size in pixels, zw = pixel offset of the lower-left corner
in vec4 labelRect;               // u0, v0, u1, v1 (v0 = bottom)
uniform mat4 viewProjectionMatrix;
uniform vec2 viewportSize;
out vec2 uv;
void main() {
    vec4 c = viewProjectionMatrix * vec4(labelAnchor.xyz, 1.0);
    vec2 px = (corner * labelSize.xy + labelSize.zw) * labelAnchor.w;
    c.xy += px * 2.0 / max(viewportSize, vec2(1.0)) * c.w;
    uv = vec2(mix(labelRect.x, labelRect.z, corner.x), mix(labelRect.y, labelRect.w, corner.y));
    gl_Position = c;
}
)";

const char* const labelFragment = R"(#version 330 core
in vec2 uv;
uniform sampler2D labelTexture;
out vec4 fragColor;
void main() {
    vec4 t = texture(labelTexture, uv);
    if (t.a < 0.02) discard;
    fragColor = t;
}
)";

} // namespace rs::render::shaders
