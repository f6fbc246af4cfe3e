// Edits of the files rigscope writes (read, edit, write: docs/ARCHITECTURE.md, docs/EDITING.md): the one API that
// the viewer's edits (Edit -> Undo/Redo, Save) and `rigscope-cli edit` use.
//
// An EditSet holds every file an edit touches, each as its original bytes and its source tree. `apply` runs one
// EditOp (common/edit_op.h) on a file through the format registry's `applyEdit` (each format maps the semantic
// value to the nodes it came from and sets their payloads) and, for a bone rename, on the companion files that
// name the bone (`boneCompanions`). It returns a Step: every node changed in every file, with the payload before
// and after, so that `undo` restores the replaced bytes exactly and `redo` sets them again. A dry run
// (apply = false) returns the same changes and changes nothing. Writing a file (`written`) re-emits only its
// edited nodes and their ancestors' size fields; every other byte is the original's.
#pragma once

#include "common/edit_op.h"
#include "common/format_id.h"
#include "common/source_tree.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rs {
class Resolver;
}

namespace rs::edit {

// One node an edit changed (or would change).
struct Change {
    std::string file;          // the EditFile's key (its path)
    std::string path;          // the node's path ("0x400/0x10100/0x10101", "material 0/diffuse", "line 12")
    uint64_t offset = 0;       // the node's offset in the file as read
    std::string what;          // "shader", "texture", "Diffuse", "bone name", "visible", ...
    std::string before, after; // the values as text (UTF-8)
    // Undo/redo: the node (child indices from the tree's roots) and its payload before and after (nullopt:
    // the bytes as read). Empty for a dry run.
    std::vector<uint32_t> node;
    std::optional<std::vector<uint8_t>> payloadBefore, payloadAfter;
    std::vector<SourceNode> childrenBefore; // the node's children as read (payloadBefore nullopt)
};

// What one apply did: its operation and every change in every file, in order.
struct Step {
    EditOp op;
    std::vector<Change> changes;
    std::vector<std::string> files() const; // the files it changed, each once, in order
};

// One file open for editing.
struct EditFile {
    std::string path;  // the key: where it was read from (disk path, archive path, game path)
    std::string label; // the name for messages
    Format format = Format::Unknown;
    std::shared_ptr<const std::vector<uint8_t>> bytes; // as read
    SourceTree tree;
    // Object XML/INI (text files edited as text): lines are the nodes; tree holds one Raw node per line.
    bool text = false;
    // Whether it differs from the bytes read (any node replaced and not undone).
    bool dirty() const;
    // The bytes to save: the original with the edited nodes re-emitted.
    std::vector<uint8_t> written() const;
};

class EditSet {
  public:
    // The resolver that finds companion files (clips beside a model, object XML/INI of the mounted folders) and
    // reads files by path; null: only the files added by hand, read from disk.
    explicit EditSet(const Resolver* resolver = nullptr) : resolver_(resolver) {}

    // Adds a file from its bytes (the key `path`); the format from the registry (writableFormat). Throws
    // ParseError naming the file when rigscope does not edit that kind of file. Returns the file (already there:
    // the one held, unchanged).
    EditFile& add(const std::string& path, std::shared_ptr<const std::vector<uint8_t>> bytes);
    // Reads `path` through the resolver (or from disk) and adds it; ParseError naming the file on failure.
    EditFile& open(const std::string& path);
    EditFile* find(const std::string& path);
    std::vector<EditFile>& files() { return files_; }
    const std::vector<EditFile>& files() const { return files_; }

    // Runs op on the file `path` (added or opened first); a RenameBone also on every companion file that names
    // the bone (boneCompanions, opened as needed). apply = false: the changes it would make, nothing changed.
    // Throws EditError when the operation cannot be made (no such material/parameter/bone, a value that does not
    // parse or fit); nothing is changed then.
    Step apply(const std::string& path, const EditOp& op, bool apply = true);
    // Restores the payloads a step replaced (its changes last to first), or sets them again.
    void undo(const Step& step);
    void redo(const Step& step);
    // Files with unsaved changes.
    std::vector<std::string> dirtyFiles() const;

  private:
    const Resolver* resolver_;
    std::vector<EditFile> files_;
};

// The files besides `path` that a rename of bone `bone` in it changes: Alamo clips beside the model
// (Resolver::companionClips) whose bone list names it; object XML (EaW) and INI (SAGE) files of the mounted
// folders where an object that uses the model names the bone (attachment bones, ParticleSysBone, ...). Sorted.
std::vector<std::string> boneCompanions(const Resolver* resolver, const std::string& path, const std::string& bone);

// One file of an edit outside an EditSet (the viewer's edit session keeps its own trees): whether `path` is an
// object definition (EaW .xml, SAGE .ini) that a bone rename edits as text; the tree an EditSet keeps for it (one
// node per line for a definition, with *format Unknown; the registry's source tree otherwise, ParseError naming
// the file when rigscope does not edit its kind); and one file's part of `op` as EditSet::apply runs it (`model`:
// the path of the model whose bone is renamed, which a definition must name). EditError as applyEdit.
bool isObjectDefinition(const std::string& path);
SourceTree editableTree(const std::string& path, std::shared_ptr<const std::vector<uint8_t>> bytes, Format* format);
std::vector<TextEdit> applyToTree(const std::string& path, Format format, SourceTree& tree, const EditOp& op,
                                  const std::string& model, bool apply);

// The operations of `--set TARGET.PARAM=VALUE` (TARGET may be empty: ".PARAM=VALUE" sets every material's),
// `--shader OLD=NEW`, `--rename-texture OLD=NEW`, `--rename-bone OLD=NEW`. Throws EditError naming the argument.
EditOp parseSetArg(const std::string& arg);
EditOp parseRenameArg(EditOp::Kind kind, const std::string& arg);

// A patch file (docs/EDITING.md): {"edits": [{"op": "set", "target": ..., "param": ..., "value": ...}, ...],
// optionally "files": [...]}. Throws EditError "<label>:<line>:<column>: ..." on malformed JSON or an unknown
// field, op or value type.
struct Patch {
    std::vector<std::string> files; // globs or paths, relative to the patch's folder when not absolute
    std::vector<EditOp> ops;
};
Patch parsePatch(const std::string& text, const std::string& label);

// Paths matching a glob (*, ?, [..] in the file-name parts; ** for any folders), sorted; a path without glob
// characters is returned as is.
std::vector<std::string> expandGlob(const std::string& pattern);

} // namespace rs::edit
