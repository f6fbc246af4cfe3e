// fill_floor: what one full-window fragment pass costs on this OpenGL implementation, the floor under the particle
// composite (render/particles.cpp) and the anchor its figures are given against (docs/PERFORMANCE.md).
//
//   fill_floor [WIDTHxHEIGHT] [DRAWS]      (needs a display: xvfb-run -a fill_floor)
//
// An off-screen target like the window's (RGBA8 colour, D24S8 depth/stencil, depth test off) is covered by one quad
// per draw, blended with (One, OneMinusSrcAlpha) as the composite is, by each fragment shader below; the source is a
// window/6 RGBA8 texture (the low-resolution target at 1920x1080). Wall milliseconds per draw (glFinish after the
// batch; every rasterizer thread of llvmpipe works on it), median of 5 batches. One JSON object on stdout.
//   constant            a constant colour: rasterization, blending and the framebuffer's memory traffic
//   texel_fetch         one texelFetch per pixel (nearest: the cheapest read of the low-resolution target)
//   bilinear            texture() with linear filtering: the composite's shader
//   branch_not_taken    the constant shader behind `if (k != 0)` with k = 0 and two bilinear fetches in the other
//                       branch: llvmpipe runs both sides of a branch on a uniform, so this costs about what the
//                       fetches cost (why render/ compiles shader variants with #define instead of uniform switches)
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

const char* const kVertex = "#version 330 core\n"
                            "in vec2 corner; out vec2 uv;\n"
                            "void main() { uv = corner * 0.5 + 0.5; gl_Position = vec4(corner, 0.0, 1.0); }\n";

struct Variant {
    const char* name;
    const char* fragment;
};

const Variant kVariants[] = {
    {"constant", "void main() { c = vec4(0.2, 0.1, 0.05, 0.3); }\n"},
    {"texel_fetch", "void main() { c = texelFetch(t, ivec2(gl_FragCoord.xy) / 6, 0); }\n"},
    {"bilinear", "void main() { c = texture(t, uv); }\n"},
    {"branch_not_taken", "void main() { if (k != 0) c = texture(t, uv) * texture(t, uv.yx);\n"
                         "              else c = vec4(0.2, 0.1, 0.05, 0.3); }\n"},
};

} // namespace

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    int width = 1920, height = 1080, draws = 60;
    if (argc > 1 && std::sscanf(argv[1], "%dx%d", &width, &height) != 2) {
        std::fprintf(stderr, "usage: fill_floor [WIDTHxHEIGHT] [DRAWS]\n");
        return 2;
    }
    if (argc > 2) draws = std::max(1, std::atoi(argv[2]));
    width = std::clamp(width, 16, 8192);
    height = std::clamp(height, 16, 8192);

    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    QOpenGLContext context;
    context.setFormat(format);
    QOffscreenSurface surface;
    surface.setFormat(format);
    surface.create();
    if (!context.create() || !context.makeCurrent(&surface)) {
        std::fprintf(stderr, "fill_floor: no OpenGL 3.3 context\n");
        return 1;
    }
    QOpenGLExtraFunctions* gl = context.extraFunctions();

    // The source: the low-resolution target's size at this window (divisor 6), some premultiplied colour.
    const int sw = (width + 5) / 6, sh = (height + 5) / 6;
    std::vector<unsigned> texels(size_t(sw) * size_t(sh));
    for (size_t i = 0; i < texels.size(); ++i)
        texels[i] = 0x60302010u + unsigned(i * 2654435761u >> 24);
    GLuint textures[2];
    gl->glGenTextures(2, textures);
    gl->glBindTexture(GL_TEXTURE_2D, textures[0]);
    gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, sw, sh, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    // The target: what a window has.
    gl->glBindTexture(GL_TEXTURE_2D, textures[1]);
    gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    GLuint fbo = 0, depth = 0;
    gl->glGenFramebuffers(1, &fbo);
    gl->glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, textures[1], 0);
    gl->glGenRenderbuffers(1, &depth);
    gl->glBindRenderbuffer(GL_RENDERBUFFER, depth);
    gl->glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, width, height);
    gl->glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth);
    if (gl->glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        std::fprintf(stderr, "fill_floor: framebuffer incomplete\n");
        return 1;
    }
    const float quad[] = {-1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1};
    GLuint vao = 0, vbo = 0;
    gl->glGenVertexArrays(1, &vao);
    gl->glBindVertexArray(vao);
    gl->glGenBuffers(1, &vbo);
    gl->glBindBuffer(GL_ARRAY_BUFFER, vbo);
    gl->glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    gl->glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    gl->glEnableVertexAttribArray(0);
    gl->glActiveTexture(GL_TEXTURE0);
    gl->glBindTexture(GL_TEXTURE_2D, textures[0]);
    gl->glViewport(0, 0, width, height);
    gl->glDisable(GL_DEPTH_TEST);
    gl->glEnable(GL_BLEND);
    gl->glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);

    std::string json = "{\"renderer\": \"" + std::string(reinterpret_cast<const char*>(gl->glGetString(GL_RENDERER))) +
                       "\", \"size\": \"" + std::to_string(width) + "x" + std::to_string(height) +
                       "\", \"draws_per_batch\": " + std::to_string(draws) + ", \"ms_per_draw\": {";
    double constantMs = 0.0;
    std::string ratios;
    for (const Variant& v : kVariants) {
        const std::string fs = std::string("#version 330 core\nin vec2 uv; uniform sampler2D t; uniform int k;\n"
                                           "out vec4 c;\n") +
                               v.fragment;
        GLuint prog = gl->glCreateProgram();
        for (auto [type, src] :
             {std::pair<GLenum, const char*>{GL_VERTEX_SHADER, kVertex}, {GL_FRAGMENT_SHADER, fs.c_str()}}) {
            GLuint s = gl->glCreateShader(type);
            gl->glShaderSource(s, 1, &src, nullptr);
            gl->glCompileShader(s);
            gl->glAttachShader(prog, s);
            gl->glDeleteShader(s);
        }
        gl->glBindAttribLocation(prog, 0, "corner");
        gl->glLinkProgram(prog);
        GLint linked = 0;
        gl->glGetProgramiv(prog, GL_LINK_STATUS, &linked);
        if (!linked) {
            char log[2048] = {};
            gl->glGetProgramInfoLog(prog, sizeof log, nullptr, log);
            std::fprintf(stderr, "fill_floor: %s: %s\n", v.name, log);
            return 1;
        }
        gl->glUseProgram(prog);
        gl->glUniform1i(gl->glGetUniformLocation(prog, "t"), 0);
        gl->glUniform1i(gl->glGetUniformLocation(prog, "k"), 0);
        for (int i = 0; i < 5; ++i) // compiles the variant, warms the caches
            gl->glDrawArrays(GL_TRIANGLES, 0, 6);
        gl->glFinish();
        std::vector<double> batches;
        for (int b = 0; b < 5; ++b) {
            QElapsedTimer clock;
            clock.start();
            for (int i = 0; i < draws; ++i) {
                gl->glDrawArrays(GL_TRIANGLES, 0, 6);
                gl->glFlush();
            }
            gl->glFinish();
            batches.push_back(double(clock.nsecsElapsed()) / 1e6 / draws);
        }
        std::sort(batches.begin(), batches.end());
        const double ms = batches[batches.size() / 2];
        if (constantMs == 0.0) constantMs = ms;
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s\"%s\": %.3f", &v == kVariants ? "" : ", ", v.name, ms);
        json += buf;
        std::snprintf(buf, sizeof buf, "%s\"%s\": %.2f", &v == kVariants ? "" : ", ", v.name, ms / constantMs);
        ratios += buf;
        gl->glDeleteProgram(prog);
    }
    json += "}, \"ratio_to_constant\": {" + ratios + "}}";
    std::printf("%s\n", json.c_str());
    return 0;
}
