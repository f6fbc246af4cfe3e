// DefaultW3D.fx's second texture reads the mesh's second UV set (TEXCOORD1), on a W3X written here as text: a 2x2
// quad whose second <TexCoords> list mirrors u (1 - u), Texture_0 and Texture_1 each split into a left (u < 0.5)
// and a right colour. The pixels are compared with DefaultW3D.fxh's technique Default, pass P0, evaluated here (the
// formula as render/glsl/w3x_basic.vert states it) with ColorAmbient, ColorDiffuse and ColorSpecular 0 so that no
// light term is left:
//   COLOR0 = saturate(ColorEmissive * VC / 2) (VC white: no vertex colours), COLOR1 = 0;
//   colour = COLOR0 * Texture_0(uv0); SecondaryTextureBlendMode 0: colour.rgb *= Texture_1(uv1); then doubled.
// Where the second UV set were ignored (TEXCOORD1 = the first set) each half would multiply the same halves of the
// two textures; here it multiplies opposite halves. The web page's check of the same file is in
// web/tests/browser_test.mjs ("DefaultW3D's second UV set").
#include "render_harness.h"

#include "resolve/resolver.h"
#include "texture/texture_writer.h"

#include <QFile>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace rs::test;

namespace {

const QColor kBg(20, 24, 30);
using V3 = glm::vec3;

// An 8x8 32-bit TGA by the project's writer: columns x < 4 (u < 0.5) `left`, the others `right`.
void halvesTga(const QString& path, V3 left, V3 right) {
    rs::Image img;
    img.width = 8;
    img.height = 8;
    img.hasAlpha = true;
    img.rgba.resize(8 * 8 * 4);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const V3 c = x < 4 ? left : right;
            for (int k = 0; k < 3; ++k)
                img.rgba[size_t(y * 8 + x) * 4 + size_t(k)] = uint8_t(std::lround(c[k] * 255.0f));
            img.rgba[size_t(y * 8 + x) * 4 + 3] = 255;
        }
    const std::vector<uint8_t> b = rs::writeTga(img, rs::TgaKind::TrueColour32, false, true);
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(b.data()), qint64(b.size()));
}

// The quad in the XZ plane facing -Y, corners then the centre; uv0 u along +X, uv1 u mirrored.
std::string quadW3x(int secondaryMode, V3 emissive) {
    const float xs[5] = {-1, 1, 1, -1, 0}, zs[5] = {1, 1, -1, -1, 0};
    std::string v, n, t0, t1;
    for (int i = 0; i < 5; ++i) {
        const float u = (xs[i] + 1.0f) / 2.0f, w = (1.0f - zs[i]) / 2.0f;
        v += "<V X=\"" + std::to_string(xs[i]) + "\" Y=\"0\" Z=\"" + std::to_string(zs[i]) + "\"/>";
        n += "<N X=\"0\" Y=\"-1\" Z=\"0\"/>";
        t0 += "<T X=\"" + std::to_string(u) + "\" Y=\"" + std::to_string(w) + "\"/>";
        t1 += "<T X=\"" + std::to_string(1.0f - u) + "\" Y=\"" + std::to_string(w) + "\"/>";
    }
    std::string tris;
    for (const auto& [a, b] : {std::pair{0, 1}, {1, 2}, {2, 3}, {3, 0}})
        tris += "<T><V>" + std::to_string(a) + "</V><V>" + std::to_string(b) +
                "</V><V>4</V><Nrm X=\"0\" Y=\"-1\" Z=\"0\"/><Dist>0</Dist></T>";
    auto f4 = [](const char* name, float a, float b, float c) {
        return std::string("<Float Name=\"") + name + "\"><Value>" + std::to_string(a) + "</Value><Value>" +
               std::to_string(b) + "</Value><Value>" + std::to_string(c) + "</Value><Value>1</Value></Float>";
    };
    return "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<AssetDeclaration xmlns=\"uri:ea.com:eala:asset\">\n"
           "<W3DMesh id=\"UVQUAD\" GeometryType=\"Normal\">\n"
           "<BoundingBox><Min X=\"-1\" Y=\"0\" Z=\"-1\"/><Max X=\"1\" Y=\"0\" Z=\"1\"/></BoundingBox>\n"
           "<Vertices>" +
           v + "</Vertices>\n<Normals>" + n + "</Normals>\n<TexCoords>" + t0 + "</TexCoords>\n<TexCoords>" + t1 +
           "</TexCoords>\n<Triangles>" + tris +
           "</Triangles>\n"
           "<FXShader ShaderName=\"DefaultW3D.fx\" TechniqueIndex=\"0\"><Constants>" +
           f4("ColorAmbient", 0, 0, 0) + f4("ColorDiffuse", 0, 0, 0) + f4("ColorSpecular", 0, 0, 0) +
           f4("ColorEmissive", emissive.x, emissive.y, emissive.z) +
           "<Texture Name=\"Texture_0\"><Value>UvFirst</Value></Texture>"
           "<Texture Name=\"Texture_1\"><Value>UvSecond</Value></Texture>"
           "<Int Name=\"NumTextures\"><Value>2</Value></Int>"
           "<Int Name=\"SecondaryTextureBlendMode\"><Value>" +
           std::to_string(secondaryMode) +
           "</Value></Int>"
           "<Bool Name=\"CullingEnable\"><Value>false</Value></Bool>"
           "</Constants></FXShader>\n</W3DMesh>\n"
           "<Texture id=\"UvFirst\" File=\"uv_first.tga\"/>\n<Texture id=\"UvSecond\" File=\"uv_second.tga\"/>\n"
           "</AssetDeclaration>\n";
}

V3 q8(V3 c) { return glm::round(glm::clamp(c, 0.0f, 1.0f) * 255.0f) / 255.0f; }

// DefaultW3D.fxh's pass P0 with no light term (the header's formula), SecondaryTextureBlendMode 0 or 1.
V3 defaultW3d(V3 emissive, V3 tex0, V3 tex1, int secondaryMode) {
    V3 c = glm::clamp(emissive * V3(1.0f) / 2.0f, 0.0f, 1.0f); // COLOR0, VC white
    c *= q8(tex0);
    c *= q8(tex1);
    if (secondaryMode == 1) c += c;
    return glm::clamp(c * 2.0f, 0.0f, 1.0f);
}

void checkPixel(const QColor& got, V3 want, const std::string& what) {
    const V3 w = want * 255.0f;
    INFO(what << ": got " << got.red() << "," << got.green() << "," << got.blue() << " want " << w.x << "," << w.y
              << "," << w.z);
    CHECK(std::abs(got.red() - w.x) <= 4.0f);
    CHECK(std::abs(got.green() - w.y) <= 4.0f);
    CHECK(std::abs(got.blue() - w.z) <= 4.0f);
}

} // namespace

TEST_CASE("DefaultW3D.fx: the second texture reads the second UV set of a W3X mesh", "[render][w3x][fx]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const V3 first0(0.9f, 0.9f, 0.5f), first1(0.5f, 0.9f, 0.9f);   // Texture_0: left, right
    const V3 second0(1.0f, 0.3f, 0.3f), second1(0.3f, 0.3f, 1.0f); // Texture_1: left, right
    halvesTga(dir.filePath("uv_first.tga"), first0, first1);
    halvesTga(dir.filePath("uv_second.tga"), second0, second1);
    const V3 emissive(0.8f);
    for (int mode : {0, 1}) {
        const QString file = dir.filePath(QStringLiteral("uvquad%1.w3x").arg(mode));
        {
            const std::string text = quadW3x(mode, mode == 0 ? emissive : emissive * 0.5f);
            QFile f(file);
            REQUIRE(f.open(QIODevice::WriteOnly));
            f.write(text.data(), qint64(text.size()));
        }
        rs::Document doc = rs::Resolver().read(file.toStdString());
        REQUIRE(doc.model);
        REQUIRE(doc.model->meshes.size() == 1);
        const rs::SubMesh& sm = doc.model->meshes[0].subMeshes.at(0);
        REQUIRE(sm.uv1.size() == sm.uv0.size());
        REQUIRE(sm.uv1[0].x != sm.uv0[0].x);

        rs::render::ViewOptions o;
        o.grid = false;
        o.dazzles = false;
        o.labels = false;
        o.background = kBg;
        auto& v = view();
        v.setOptions(o);
        v.setModel(doc.model, file);
        v.setCameraAngles(180.0f, 0.0f); // the camera on -Y: screen left is -X, where uv0's u < 0.5
        const QImage img = grab();
        REQUIRE(!img.isNull());
        const QRect box = foreground(img, kBg, 2);
        REQUIRE(box.width() > 40);
        REQUIRE(box.height() > 40);
        auto at = [&](float u) {
            return img.pixelColor(box.left() + int(u * float(box.width() - 1) + 0.5f), box.center().y());
        };
        const V3 e = mode == 0 ? emissive : emissive * 0.5f;
        // Left half: uv0 u < 0.5 (Texture_0's left), uv1 mirrored (Texture_1's right); the right half the reverse.
        const V3 left = defaultW3d(e, first0, second1, mode), right = defaultW3d(e, first1, second0, mode);
        const V3 sameSetLeft = defaultW3d(e, first0, second0, mode); // what TEXCOORD1 = the first set would give
        REQUIRE(glm::length(left - sameSetLeft) > 0.3f);
        INFO("mode " << mode);
        checkPixel(at(0.25f), left, "left half: Texture_0 left, Texture_1 right (mirrored second UV set)");
        checkPixel(at(0.75f), right, "right half: Texture_0 right, Texture_1 left");
    }
}
