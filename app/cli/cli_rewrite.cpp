// rigscope-cli rewrite (read each file, write it back unchanged, optionally compare) and rigscope-cli pack (MEG and
// BIG archives from a folder, or an archive with entries replaced) and edit (batch edits: textures renamed). Every
// write is safe (common/file_write.h): a temporary file in the output folder, flushed, read back by the format's
// reader, then renamed. Nothing is written outside the output folder, and nothing into an archive.
#include "commands.h"

#include "common/cp1252.h"
#include "common/file_read.h"
#include "common/file_write.h"
#include "edit/edits.h"
#include "vfs/archive.h"
#include "vfs/archive_writer.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace rs::cli {

namespace {

// The file name an input is written under in DIR: its last path component (an archive entry's or a game path's
// too), "" when there is none or it would leave DIR.
std::string outputName(const std::string& arg) {
    std::string n = arg;
    const size_t colon = n.rfind(':');
    if (isArchivePath(arg) && colon != std::string::npos) n = n.substr(colon + 1);
    std::replace(n.begin(), n.end(), '\\', '/');
    const size_t slash = n.rfind('/');
    if (slash != std::string::npos) n = n.substr(slash + 1);
    return safeRelativePath(n) == n ? n : std::string();
}

bool looksLikeArchiveFile(const std::string& path) {
    std::error_code ec;
    if (isArchivePath(path) || !fs::is_regular_file(path, ec)) return false;
    const std::vector<uint8_t> head = readFileHead(path, 16);
    return writableFormat(ByteSpan(head), path) == Format::Meg || writableFormat(ByteSpan(head), path) == Format::Big;
}

// Where the first difference lies: "chunk 0x700/0x704" or "field name table/name 3"; the file's end otherwise.
std::string describePlace(const SourceTree& tree, uint64_t offset) {
    if (offset >= tree.original().size) return "past the end of the input";
    const std::string p = tree.pathAt(offset);
    if (p.empty()) return "outside every chunk";
    return (p.compare(0, 2, "0x") == 0 ? "chunk " : "field ") + p;
}

const char* const kRewriteUsage = "rewrite needs FILE... -o DIR";

} // namespace

int cmdRewrite(std::vector<std::string> args) {
    GameMount gm;
    takeMountOptions(args, gm);
    std::string out;
    bool verify = false, checkOnly = false;
    std::vector<std::string> files;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-o") {
            if (i + 1 >= args.size()) throw UsageError{"-o needs a folder"};
            out = args[++i];
        } else if (a == "--verify") {
            verify = true;
        } else if (a == "--check-only") {
            checkOnly = verify = true;
        } else if (!a.empty() && a[0] == '-') {
            throw UsageError{"unknown option " + a};
        } else {
            files.push_back(a);
        }
    }
    if (files.empty() || out.empty()) throw UsageError{kRewriteUsage};
    std::error_code ec;
    if (!checkOnly) fs::create_directories(out, ec);
    if (!fs::is_directory(out, ec)) throw ParseError(out, {}, ParseError::kNoOffset, "output folder not found");
    std::set<std::string> names;
    std::vector<std::string> failed, differing;
    for (const std::string& file : files) {
        try {
            const std::string name = outputName(file);
            if (name.empty()) throw ParseError(file, {}, ParseError::kNoOffset, "no file name to write it under");
            if (!names.insert(name).second)
                throw ParseError(file, {}, ParseError::kNoOffset,
                                 "another input is also written as " + (fs::path(out) / name).string());
            const std::string dest = (fs::path(out) / name).string();
            if (!checkOnly && fs::exists(dest, ec) && !isArchivePath(file) && fs::exists(file, ec) &&
                fs::equivalent(dest, file, ec))
                throw ParseError(file, {}, ParseError::kNoOffset,
                                 "the output " + dest + " is the input itself; give another folder with -o");
            // Read: archives by the archive reader, everything else through the resolver (its reader, a W3D
            // hierarchy found beside it or in the mount).
            auto bytes = std::make_shared<std::vector<uint8_t>>();
            std::string label = file;
            Format format;
            ReadContext ctx;
            if (looksLikeArchiveFile(file)) {
                *bytes = readFile(file, kMaxInputBytes, "archive");
                format = writableFormat(ByteSpan(*bytes), file);
                readBack(format, ByteSpan(*bytes), {file, {}});
            } else {
                Input in = readInput(file, gm);
                label = in.label;
                format = writableFormat(ByteSpan(in.bytes), in.label);
                if (format == Format::Unknown)
                    throw ParseError(in.label, {}, ParseError::kNoOffset, "rigscope does not write this kind of file");
                parseInput(in, gm); // the reader accepts it
                *bytes = std::move(in.bytes);
            }
            const SourceTree tree = sourceTree(format, bytes, label);
            const std::vector<uint8_t> written = checkOnly ? std::vector<uint8_t>() : tree.write();
            if (!checkOnly)
                writeFileSafely(dest, ByteSpan(written), [&](ByteSpan back) {
                    if (format == Format::Meg || format == Format::Big) {
                        readBack(format, back, {dest, {}});
                        return;
                    }
                    OpenOptions o; // read as the input was (a W3D skin's hierarchy found around the input)
                    o.label = dest;
                    gm.res().read(back, file, o);
                });
            const size_t quirks = tree.quirks().size();
            std::cout << printable(label) << " -> " << printable(dest) << ": "
                      << (checkOnly ? std::string("checked") : std::to_string(written.size()) + " bytes written")
                      << (quirks ? ", " + std::to_string(quirks) + " quirks kept" : "");
            if (verify) {
                const std::vector<uint8_t> back = readFile(dest, kMaxInputBytes, "written");
                const auto diff = firstDifference(tree.original(), ByteSpan(back));
                if (diff) {
                    std::cout << "\n";
                    std::cerr << "rigscope-cli: " << printable(label) << ": " << printable(dest)
                              << " differs from the input at offset " << *diff << " ("
                              << printable(describePlace(tree, *diff)) << "); input " << tree.original().size
                              << " bytes, output " << back.size() << " bytes\n";
                    differing.push_back(label);
                    continue;
                }
                std::cout << ", identical to the input";
            }
            std::cout << "\n";
        } catch (const ParseError& e) {
            std::cerr << "rigscope-cli: " << e.what() << "\n";
            failed.push_back(file);
        } catch (const std::exception& e) {
            std::cerr << "rigscope-cli: " << printable(file) << ": " << e.what() << "\n";
            failed.push_back(file);
        }
    }
    if (differing.empty() && failed.empty()) return 0;
    std::string list;
    for (const std::string& f : differing)
        list += " " + printable(f);
    if (!differing.empty()) std::cerr << "rigscope-cli: differ from their input:" << list << "\n";
    list.clear();
    for (const std::string& f : failed)
        list += " " + printable(f);
    if (!failed.empty()) std::cerr << "rigscope-cli: not rewritten:" << list << "\n";
    return 1;
}

int cmdPack(std::vector<std::string> args) {
    std::string out, from, folder, prefix;
    char separator = '\\';
    int megVersion = 0;
    bool big4 = false;
    std::vector<std::pair<std::string, std::string>> replace;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto next = [&](const char* what) {
            if (i + 1 >= args.size()) throw UsageError{std::string(what) + " needs a value"};
            return args[++i];
        };
        if (a == "-o") {
            out = next("-o");
        } else if (a == "--from") {
            from = next("--from");
        } else if (a == "--meg-version") {
            const std::string v = next("--meg-version");
            if (v != "1" && v != "2" && v != "3") throw UsageError{"--meg-version must be 1, 2 or 3"};
            megVersion = v[0] - '0';
        } else if (a == "--separator") {
            const std::string v = next("--separator");
            if (v != "/" && v != "\\") throw UsageError{"--separator must be / or \\"};
            separator = v[0];
        } else if (a == "--prefix") {
            prefix = next("--prefix");
        } else if (a == "--big4") {
            big4 = true;
        } else if (a == "--replace") {
            const std::string r = next("--replace");
            const size_t eq = r.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == r.size())
                throw UsageError{"--replace needs GAMEPATH=FILE, got " + r};
            replace.emplace_back(r.substr(0, eq), r.substr(eq + 1));
        } else if (!a.empty() && a[0] == '-') {
            throw UsageError{"unknown option " + a};
        } else if (folder.empty()) {
            folder = a;
        } else {
            throw UsageError{"more than one folder given"};
        }
    }
    if (out.empty()) throw UsageError{"pack needs -o OUT.meg or -o OUT.big"};
    if (from.empty() == folder.empty()) throw UsageError{"pack needs a DIR or --from ARCHIVE (one of them)"};
    if (!replace.empty() && from.empty()) throw UsageError{"--replace needs --from ARCHIVE"};
    if (!from.empty() && (!prefix.empty() || separator != '\\'))
        throw UsageError{"--prefix and --separator name the files of a DIR; --from keeps the archive's names"};
    std::string ext = fs::path(out).extension().string();
    for (char& c : ext)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    std::error_code ec;
    std::vector<uint8_t> bytes;
    if (!from.empty()) {
        if (fs::exists(out, ec) && fs::equivalent(out, from, ec))
            throw ParseError(out, {}, ParseError::kNoOffset,
                             "the output is the archive itself; rigscope never writes into an archive");
        const std::vector<uint8_t> archive = readFile(from, kMaxInputBytes, "archive");
        const auto src = vfs::openArchiveCopy(ByteSpan(archive), from);
        const bool isBig = src->kind() == "bigf" || src->kind() == "big4";
        if ((ext == ".meg" && isBig) || (ext == ".big" && !isBig))
            throw UsageError{"--from " + from + " is a " + (isBig ? "BIG" : "MEG") + " archive; " + out +
                             " names the other kind"};
        if (megVersion && (isBig || "meg" + std::to_string(megVersion) != src->kind()))
            throw UsageError{"--meg-version " + std::to_string(megVersion) + " differs from the archive's " +
                             src->kind() + " (extract it and pack the folder to change the version)"};
        std::map<std::string, std::vector<uint8_t>> repl;
        for (const auto& [game, file] : replace)
            repl[game] = readFile(file, kMaxInputBytes, "replacement");
        bytes = vfs::repackArchive(ByteSpan(archive), from, repl);
        writeFileSafely(out, ByteSpan(bytes), [&](ByteSpan back) {
            const auto a = vfs::openArchiveCopy(back, out);
            for (const auto& [game, data] : repl) {
                const vfs::Entry* e = a->find(game);
                const vfs::EntryBytes b = e ? a->read(*e) : vfs::EntryBytes{};
                if (!e || b.span.size != data.size() ||
                    (data.size() && std::memcmp(b.span.data, data.data(), data.size()) != 0))
                    throw ParseError(out, {}, ParseError::kNoOffset, "entry " + game + " does not read back as given");
            }
        });
        std::cout << printable(out) << ": " << repl.size() << " entries replaced or added, " << bytes.size()
                  << " bytes\n";
        return 0;
    }
    if (ext != ".meg" && ext != ".big") throw UsageError{"-o must name a .meg or .big file"};
    if (ext == ".big" && megVersion) throw UsageError{"--meg-version is for .meg output"};
    if (!fs::is_directory(folder, ec)) throw ParseError(folder, {}, ParseError::kNoOffset, "folder not found");
    const fs::path root = fs::canonical(folder, ec);
    const fs::path outAbs = fs::weakly_canonical(out, ec);
    std::vector<vfs::WriteEntry> entries;
    for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (ec) throw ParseError(folder, {}, ParseError::kNoOffset, "cannot list: " + ec.message());
        if (it->is_symlink(ec) || !it->is_regular_file(ec)) continue; // links are not followed
        if (fs::equivalent(it->path(), outAbs, ec)) continue;
        std::string name = prefix + it->path().lexically_relative(root).generic_string();
        std::replace(name.begin(), name.end(), separator == '/' ? '\\' : '/', separator);
        if (ext == ".meg")
            for (char& c : name)
                if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
        entries.push_back({name, readFile(it->path().string(), kMaxInputBytes, "file")});
    }
    if (ext == ".meg") {
        vfs::sortForMeg(entries);
        bytes = vfs::writeMeg(megVersion ? megVersion : 1, entries);
    } else {
        vfs::sortForBig(entries);
        bytes = vfs::writeBig(entries, big4 ? "BIG4" : "BIGF");
    }
    writeFileSafely(out, ByteSpan(bytes), [&](ByteSpan back) {
        const auto a = vfs::openArchiveCopy(back, out);
        if (a->entries().size() != entries.size())
            throw ParseError(out, {}, ParseError::kNoOffset, "the archive read back holds a different entry count");
    });
    std::cout << printable(out) << ": " << entries.size() << " entries, " << bytes.size() << " bytes\n";
    return 0;
}

} // namespace rs::cli

namespace rs::cli {

namespace {

struct EditTarget {
    std::string arg;  // what readInput opens
    std::string dest; // the output path under -o DIR ("" with --in-place)
};

// "OPTION VALUE": the value, or a usage error naming the option.
std::string optionValue(const std::vector<std::string>& args, size_t& i, const char* what) {
    if (i + 1 >= args.size()) throw UsageError{args[i] + " needs " + what};
    return args[++i];
}

} // namespace

int cmdEdit(std::vector<std::string> args) {
    GameMount gm;
    takeMountOptions(args, gm);
    std::string out;
    bool dryRun = false, inPlace = false;
    std::vector<EditOp> ops;
    std::vector<std::string> inputs;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        try {
            if (a == "-o") {
                out = optionValue(args, i, "a folder");
            } else if (a == "--dry-run") {
                dryRun = true;
            } else if (a == "--in-place") {
                inPlace = true;
            } else if (a == "--rename-texture") {
                ops.push_back(edit::parseRenameArg(EditOp::Kind::RenameTexture, optionValue(args, i, "OLD=NEW")));
            } else if (a == "--rename-bone") {
                ops.push_back(edit::parseRenameArg(EditOp::Kind::RenameBone, optionValue(args, i, "OLD=NEW")));
            } else if (a == "--shader") {
                EditOp op = edit::parseRenameArg(EditOp::Kind::SetShader, optionValue(args, i, "OLD=NEW"));
                if (op.name == "*") op.name.clear(); // --shader '*=NEW': every sub-mesh
                ops.push_back(op);
            } else if (a == "--set") {
                ops.push_back(edit::parseSetArg(optionValue(args, i, "TARGET.PARAM=VALUE")));
            } else if (a == "--patch") {
                const std::string file = optionValue(args, i, "a JSON file");
                const std::vector<uint8_t> bytes = readFile(file, 16u << 20, "patch");
                const edit::Patch patch = edit::parsePatch(std::string(bytes.begin(), bytes.end()), file);
                ops.insert(ops.end(), patch.ops.begin(), patch.ops.end());
                for (const std::string& f : patch.files) // relative to the patch's folder
                    inputs.push_back(fs::path(f).is_absolute() || fs::path(file).parent_path().empty()
                                         ? f
                                         : (fs::path(file).parent_path() / f).string());
            } else if (!a.empty() && a[0] == '-') {
                throw UsageError{"unknown option " + a};
            } else {
                inputs.push_back(a);
            }
        } catch (const EditError& e) {
            throw UsageError{a + " " + e.what()};
        }
    }
    if (inputs.empty()) throw UsageError{"edit needs FILE, GLOB or DIR"};
    if (ops.empty())
        throw UsageError{"edit needs an edit (--rename-texture, --set, --shader, --rename-bone or --patch)"};
    if (!dryRun && inPlace == !out.empty())
        throw UsageError{"edit needs -o DIR or --in-place (one of them), or --dry-run"};
    // The files: globs expanded here (a quoted glob works), a folder's regular files of the formats rigscope
    // writes (kept at their path under it), a file or archive entry or game path by its name.
    std::vector<EditTarget> targets;
    std::error_code ec;
    std::vector<std::string> expanded;
    for (const std::string& in : inputs) {
        if (isArchivePath(in) || fs::exists(in, ec) || in.find_first_of("*?[") == std::string::npos) {
            expanded.push_back(in);
            continue;
        }
        const std::vector<std::string> hits = edit::expandGlob(in);
        if (hits.empty()) throw ParseError(in, {}, ParseError::kNoOffset, "no file matches this pattern");
        expanded.insert(expanded.end(), hits.begin(), hits.end());
    }
    for (const std::string& in : expanded) {
        if (!isArchivePath(in) && fs::is_directory(in, ec)) {
            for (auto it = fs::recursive_directory_iterator(in, ec); it != fs::recursive_directory_iterator();
                 it.increment(ec)) {
                if (ec || it->is_symlink(ec) || !it->is_regular_file(ec)) continue;
                const std::vector<uint8_t> head = readFileHead(it->path().string(), 64);
                const Format f = writableFormat(ByteSpan(head), it->path().string());
                if (f == Format::Unknown || f == Format::Meg || f == Format::Big) continue;
                const std::string rel = it->path().lexically_relative(in).generic_string();
                targets.push_back({it->path().string(), out.empty() ? "" : (fs::path(out) / rel).string()});
            }
            continue;
        }
        std::string rel = outputName(in);
        if (!fs::exists(in, ec)) { // an archive entry or a game path: at its game path under DIR
            std::string name = in.substr(isArchivePath(in) ? in.rfind(':') + 1 : 0);
            rel = safeRelativePath(name);
        }
        if (rel.empty()) throw ParseError(in, {}, ParseError::kNoOffset, "no file name to write it under");
        targets.push_back({in, out.empty() ? "" : (fs::path(out) / rel).string()});
    }
    std::sort(targets.begin(), targets.end(), [](const EditTarget& a, const EditTarget& b) { return a.arg < b.arg; });
    targets.erase(std::unique(targets.begin(), targets.end(),
                              [](const EditTarget& a, const EditTarget& b) { return a.arg == b.arg; }),
                  targets.end());
    size_t changedFiles = 0, changes = 0;
    std::vector<std::string> failed;
    std::set<std::string> written; // files written (a companion of two inputs once)
    for (const EditTarget& t : targets) {
        try {
            Input in = readInput(t.arg, gm);
            const Format format = writableFormat(ByteSpan(in.bytes), in.label);
            if (format == Format::Unknown || format == Format::Meg || format == Format::Big)
                throw ParseError(in.label, {}, ParseError::kNoOffset, "rigscope does not edit this kind of file");
            parseInput(in, gm); // the reader accepts it
            edit::EditSet set(&gm.res());
            set.add(t.arg, std::make_shared<const std::vector<uint8_t>>(std::move(in.bytes))).label = in.label;
            std::vector<edit::Change> all;
            for (const EditOp& op : ops) {
                try {
                    const edit::Step step = set.apply(t.arg, op, !dryRun);
                    all.insert(all.end(), step.changes.begin(), step.changes.end());
                } catch (const EditError& e) {
                    std::string why = e.what(); // "<file>: what": the file is named once
                    if (why.compare(0, t.arg.size() + 2, t.arg + ": ") == 0) why = why.substr(t.arg.size() + 2);
                    throw ParseError(in.label, {}, ParseError::kNoOffset, cp1252ToUtf8(describeEdit(op)) + ": " + why);
                }
            }
            for (const edit::Change& c : all) {
                const edit::EditFile* f = set.find(c.file);
                std::cout << printable(f ? f->label : c.file) << ": " << c.path << " at offset " << c.offset << ": "
                          << c.what << " " << c.before << " -> " << c.after << "\n";
            }
            if (all.empty()) {
                std::cout << printable(in.label) << ": no change\n";
                continue;
            }
            ++changedFiles;
            changes += all.size();
            if (dryRun) continue;
            for (edit::EditFile& f : set.files()) {
                if (!f.dirty()) continue;
                const bool main = f.path == t.arg;
                std::string dest = main ? t.dest : (out.empty() ? "" : (fs::path(out) / outputName(f.path)).string());
                if (inPlace) {
                    if (isArchivePath(f.path) || !fs::exists(f.path, ec))
                        throw ParseError(f.label, {}, ParseError::kNoOffset,
                                         "--in-place writes files on disk only; an archive entry is never written "
                                         "into its archive (give -o DIR)");
                    dest = f.path;
                }
                if (dest.empty() || (!main && outputName(f.path).empty()))
                    throw ParseError(f.label, {}, ParseError::kNoOffset, "no file name to write it under");
                if (!written.insert(dest).second) continue;
                fs::create_directories(fs::path(dest).parent_path(), ec);
                const std::vector<uint8_t> bytes = f.written();
                writeFileSafely(dest, ByteSpan(bytes), [&](ByteSpan back) {
                    if (f.text) return;
                    OpenOptions o;
                    o.label = dest;
                    gm.res().read(back, f.path, o);
                });
                size_t n = 0;
                for (const edit::Change& c : all)
                    n += c.file == f.path;
                std::cout << printable(f.label) << " -> " << printable(dest) << ": " << n
                          << (n == 1 ? " change" : " changes") << " written\n";
            }
        } catch (const ParseError& e) {
            std::cerr << "rigscope-cli: " << e.what() << "\n";
            failed.push_back(t.arg);
        } catch (const std::exception& e) {
            std::cerr << "rigscope-cli: " << printable(t.arg) << ": " << e.what() << "\n";
            failed.push_back(t.arg);
        }
    }
    std::cout << changes << (changes == 1 ? " change" : " changes") << " in " << changedFiles << " of "
              << targets.size() << " files" << (dryRun ? " (dry run: nothing written)" : "") << "\n";
    if (failed.empty()) return 0;
    std::string list;
    for (const std::string& f : failed)
        list += " " + printable(f);
    std::cerr << "rigscope-cli: not edited:" << list << "\n";
    return 1;
}

} // namespace rs::cli
