// Rewrite throughput (issue 39): MB/s of writing unmodified documents back through their source trees, against
// memcpy of the same bytes in the same run (goal: at least half of memcpy), and of the steps around it.
//   rewrite_bench [FILE|DIR]...     default: the corpus's alamo, w3d and games folders
// Prints one line per step: MB/s over every file the readers accept, and the ratio to memcpy. Not a test.
// Then "save requested -> written" for the largest model with one material parameter edited through the edit API
// (core/edit/edits.h): the edited write, and the whole safe save (write, temporary file, flush, read back by the
// reader, rename), each against memcpy of the same bytes in the same run.
#include "common/file_read.h"
#include "common/file_write.h"
#include "common/source_tree.h"
#include "edit/edits.h"
#include "formats/formats.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace rs;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Input {
    std::string path;
    Format format;
    std::shared_ptr<const std::vector<uint8_t>> bytes;
    SourceTree tree;
};

void collect(const std::string& p, std::vector<std::string>& out) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
        for (const auto& e : fs::recursive_directory_iterator(p, ec))
            if (e.is_regular_file()) out.push_back(e.path().string());
    } else {
        out.push_back(p);
    }
}

// Seconds per pass of fn over every input: passes repeated until 0.3 s have gone by (at least 3).
double timePerPass(const std::function<void()>& fn) {
    fn(); // warm-up
    int passes = 0;
    const auto t0 = Clock::now();
    double s = 0;
    do {
        fn();
        ++passes;
        s = std::chrono::duration<double>(Clock::now() - t0).count();
    } while (s < 0.3 || passes < 3);
    return s / passes;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i)
        collect(argv[i], paths);
    if (paths.empty()) {
        const char* env = std::getenv("RIGSCOPE_CORPUS");
        const std::string root = env && *env ? env : RIGSCOPE_CORPUS_DIR;
        for (const char* sub : {"alamo", "w3d", "games"})
            collect(root + "/" + sub, paths);
    }
    std::vector<Input> in;
    uint64_t total = 0;
    for (const std::string& p : paths) {
        try {
            auto b = std::make_shared<const std::vector<uint8_t>>(readFile(p, kMaxInputBytes));
            const Format f = writableFormat(ByteSpan(*b), p);
            if (f == Format::Unknown || f == Format::Meg || f == Format::Big) continue;
            readBack(f, ByteSpan(*b), {p, {}}); // the reader accepts it
            in.push_back({p, f, b, sourceTree(f, b, p)});
            total += b->size();
        } catch (const ParseError&) {
        }
    }
    if (in.empty()) {
        std::fprintf(stderr, "rewrite_bench: no input the readers accept (give files, or set RIGSCOPE_CORPUS)\n");
        return 1;
    }
    const double mb = double(total) / 1e6;
    // memcpy of each file into one buffer of the largest file's size (as a write fills one output at a time).
    size_t largest = 0;
    for (const Input& i : in)
        largest = std::max(largest, i.bytes->size());
    std::vector<uint8_t> dst(largest);
    size_t sink = 0;
    const double tMemcpy = timePerPass([&] {
        for (const Input& i : in) {
            std::memcpy(dst.data(), i.bytes->data(), i.bytes->size());
            sink += dst[i.bytes->size() - 1];
        }
    });
    const double tCopy = timePerPass([&] {
        for (const Input& i : in) {
            std::vector<uint8_t> v(*i.bytes);
            sink += v.back();
        }
    });
    const double tWrite = timePerPass([&] {
        for (const Input& i : in)
            sink += i.tree.write().size();
    });
    const double tTree = timePerPass([&] {
        for (const Input& i : in)
            sink += sourceTree(i.format, i.bytes, i.path).roots().size();
    });
    const double tEvery = timePerPass([&] {
        for (const Input& i : in)
            sink += i.tree.writeEveryNode().size();
    });
    const double tRead = timePerPass([&] {
        for (const Input& i : in)
            sink += readBack(i.format, ByteSpan(*i.bytes), {i.path, {}}).warnings.size();
    });
    std::printf("rewrite_bench: %zu files, %.1f MB (sink %zu)\n", in.size(), mb, sink % 10);
    auto line = [&](const char* what, double t) {
        std::printf("  %-46s %9.1f MB/s  %5.2f x memcpy\n", what, mb / t, tMemcpy / t);
    };
    line("memcpy of the same bytes", tMemcpy);
    line("copy into a new vector (allocate + copy)", tCopy);
    line("write, unmodified document (SourceTree::write)", tWrite);
    line("build the source tree (sourceTree)", tTree);
    line("tree + write (the rewrite without the reader)", tTree + tWrite);
    line("write every node (the proof path)", tEvery);
    line("the format's reader (readBack)", tRead);
    line("rewrite: reader + tree + write", tRead + tTree + tWrite);

    // Save after one edit: the largest model that has a float parameter, the parameter set through EditSet.
    const Input* big = nullptr;
    EditOp op;
    op.kind = EditOp::Kind::SetParam;
    for (const Input& i : in) {
        if (!(i.format == Format::AlamoModel || i.format == Format::W3d) ||
            (big && i.bytes->size() <= big->bytes->size()))
            continue;
        const Document d = readBack(i.format, ByteSpan(*i.bytes), {i.path, {}});
        if (!d.model) continue;
        bool found = false;
        for (const Mesh& m : d.model->meshes)
            for (size_t k = 0; k < m.subMeshes.size() && !found; ++k)
                for (const MaterialParam& p : m.subMeshes[k].material.params)
                    if (p.type == ParamType::Float && i.format == Format::AlamoModel) {
                        op.target = m.name + "#" + std::to_string(k);
                        op.name = p.name;
                        op.value = std::to_string(p.value.x + 0.5f);
                        found = true;
                        break;
                    }
        if (found) big = &i;
    }
    if (!big) {
        std::printf("  (no model with a float parameter: no save timing)\n");
        return 0;
    }
    edit::EditSet set;
    set.add(big->path, big->bytes);
    set.apply(big->path, op);
    const edit::EditFile& f = *set.find(big->path);
    const double bigMb = double(big->bytes->size()) / 1e6;
    const double tOneMemcpy = timePerPass([&] {
        std::memcpy(dst.data(), big->bytes->data(), big->bytes->size());
        sink += dst[big->bytes->size() - 1];
    });
    const double tEdited = timePerPass([&] { sink += f.written().size(); });
    const std::string dest =
        (fs::temp_directory_path() / "rigscope_rewrite_bench_save").string() + fs::path(big->path).extension().string();
    const double tSave = timePerPass([&] {
        const std::vector<uint8_t> bytes = f.written();
        writeFileSafely(dest, ByteSpan(bytes), [&](ByteSpan back) { readBack(big->format, back, {dest, {}}); });
    });
    std::error_code ec;
    fs::remove(dest, ec);
    std::printf("save after one edit: %s, %.2f MB, %s\n", big->path.c_str(), bigMb, describeEdit(op).c_str());
    auto one = [&](const char* what, double t) {
        std::printf("  %-46s %9.3f ms  %7.1f x memcpy time\n", what, t * 1e3, t / tOneMemcpy);
    };
    one("memcpy of the same bytes", tOneMemcpy);
    one("write of the edited document", tEdited);
    one("save requested -> written (safe write + reader)", tSave);
    return 0;
}
