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
