#include "edit_session.h"

#include "common/error.h"
#include "common/file_read.h"
#include "common/file_write.h"
#include "edit/edits.h"
#include "formats/formats.h"
#include "vfs/archive.h"
#include "vfs/mount.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QUndoCommand>
#include <QUndoStack>

#include <sys/stat.h>
#include <unistd.h>

namespace rs::ui {

namespace {
std::string enc(const QString& s) { return QFile::encodeName(s).toStdString(); }
QString dec(const std::string& s) { return QFile::decodeName(QByteArray::fromStdString(s)); }

// The file on disk that holds `path` as the resolver opens it: the file itself, or the archive holding the entry.
QString diskFileOf(const Resolver& resolver, const QString& path) {
    if (QFileInfo(path).isFile()) return path;
    try {
        const Resolver::Place p = resolver.placeOf(enc(path));
        if (!p.diskPath.empty()) return dec(p.diskPath);
        if (!p.table) return QString();
        const vfs::Hit* h = p.table->find(p.key);
        if (!h) return QString();
        const vfs::Entry& e = p.table->entry(*h);
        if (!e.diskPath.empty()) return dec(e.diskPath);
        return dec(p.table->mountOf(*h).source->label());
    } catch (const std::exception&) {
        return QString();
    }
}

// `rel` (folders separated by '/' or '\') under `root`, each existing folder matched in any case (mods mix
// "Data/Art" and "DATA/ART"), the rest as written.
QString underFolder(const QString& root, const QString& rel) {
    QString at = root;
    const QStringList parts =
        QString(rel).replace(QLatin1Char('\\'), QLatin1Char('/')).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (int i = 0; i < parts.size(); ++i) {
        QString name = parts[i];
        const QDir dir(at);
        const QStringList have = dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
        for (const QString& h : have)
            if (h.compare(name, Qt::CaseInsensitive) == 0) {
                name = h;
                break;
            }
        at = dir.filePath(name);
    }
    return at;
}

QString kb(qint64 n) { return QLocale().formattedDataSize(n); }
} // namespace

FileStamp stampOf(const QString& diskPath) {
    FileStamp s;
    struct stat st;
    if (diskPath.isEmpty() || ::stat(QFile::encodeName(diskPath).constData(), &st) != 0 || !S_ISREG(st.st_mode))
        return s;
    s.size = qint64(st.st_size);
    s.mtimeNs = qint64(st.st_mtim.tv_sec) * 1000000000 + qint64(st.st_mtim.tv_nsec);
    return s;
}

QString diskFileHolding(const Resolver& resolver, const QString& path) { return diskFileOf(resolver, path); }

// One undoable step: each file's tree before and after it.
class EditSession::Step : public QUndoCommand {
  public:
    struct Part {
        File* file;
        SourceTree before, after;
        quint64 beforeRevision, afterRevision;
    };
    Step(EditSession* s, const QString& text, std::vector<Part> parts)
        : QUndoCommand(text), session_(s), parts_(std::move(parts)) {}
    void redo() override { set(true); }
    void undo() override { set(false); }

  private:
    void set(bool after) {
        QStringList changed;
        for (Part& p : parts_) {
            p.file->tree = after ? p.after : p.before;
            p.file->revision = after ? p.afterRevision : p.beforeRevision;
            changed << p.file->path;
        }
        emit session_->filesChanged(changed);
        emit session_->modifiedChanged();
    }
    EditSession* session_;
    std::vector<Part> parts_;
};

EditSession::EditSession(QObject* parent) : QObject(parent), stack_(new QUndoStack(this)) {}

EditSession::~EditSession() {
    stack_->blockSignals(true);
    stack_->clear(); // the steps point at files_
}

void EditSession::setResolver(std::shared_ptr<const Resolver> resolver) { resolver_ = std::move(resolver); }

void EditSession::reset(const QString& path, FileStamp stampAtRead) {
    const bool wasModified = isModified();
    stack_->clear();
    files_.clear();
    lastChanges_.clear();
    document_ = path;
    documentStamp_ = stampAtRead;
    if (wasModified) emit modifiedChanged();
}

EditSession::File* EditSession::find(const QString& path) {
    for (auto& f : files_)
        if (f->path == path) return f.get();
    return nullptr;
}

const EditSession::File* EditSession::find(const QString& path) const {
    return const_cast<EditSession*>(this)->find(path);
}

EditSession::File& EditSession::load(const QString& path) {
    if (File* f = find(path)) return *f;
    if (!resolver_) throw ParseError(enc(path), {}, ParseError::kNoOffset, "nothing to read it with");
    const QString disk = diskFileOf(*resolver_, path);
    const FileStamp before = stampOf(disk);
    // The document is edited as it was shown: read again only while the file holding it is as it was then.
    if (path == document_ && documentStamp_.size >= 0 && before != documentStamp_)
        throw ParseError(enc(path), {}, ParseError::kNoOffset,
                         tr("%1 changed on disk since it was opened; reload it (File → Reload) before editing")
                             .arg(disk)
                             .toStdString());
    auto bytes = std::make_shared<std::vector<uint8_t>>();
    // An object definition (XML/INI that a bone rename changes) is text: no format's size cap applies.
    const bool text = edit::isObjectDefinition(enc(path));
    if (!(text ? resolver_->readBytes(enc(path), *bytes, uint64_t(64) << 20)
               : resolver_->readAssetBytes(enc(path), *bytes)))
        throw ParseError(enc(path), {}, ParseError::kNoOffset,
                         text ? "not found (or larger than 64 MiB)" : "not found");
    auto f = std::make_unique<File>();
    f->path = path;
    f->text = text;
    f->tree = edit::editableTree(enc(path), std::shared_ptr<const std::vector<uint8_t>>(std::move(bytes)), &f->format);
    f->revision = f->savedRevision = nextRevision_++;
    f->stamp = path == document_ && documentStamp_.size >= 0 ? documentStamp_ : before;
    f->diskPath = QFileInfo(path).isFile() ? path : QString();
    files_.push_back(std::move(f));
    return *files_.back();
}

bool EditSession::apply(const QString& text, const std::vector<FileEdit>& edits, QString* error) {
    std::vector<Step::Part> parts;
    std::vector<std::pair<QString, std::vector<TextEdit>>> changes;
    const size_t hadFiles = files_.size();
    try {
        for (const FileEdit& e : edits) {
            File& f = load(e.file);
            SourceTree after = f.tree;
            std::vector<TextEdit> c = e.edit(f.format, after);
            if (c.empty()) continue;
            (void)after.write(); // a size field the edit overflows refuses it here, before anything changes
            changes.emplace_back(f.path, std::move(c));
            parts.push_back({&f, f.tree, std::move(after), f.revision, nextRevision_++});
        }
    } catch (const std::exception& ex) {
        // Trees read for this edit alone are dropped again (nothing refers to them).
        while (files_.size() > hadFiles)
            files_.pop_back();
        if (error) *error = QString::fromStdString(ex.what());
        return false;
    }
    if (parts.empty()) {
        if (error) *error = tr("nothing to change");
        return false;
    }
    lastChanges_ = std::move(changes);
    stack_->push(new Step(this, text, std::move(parts))); // runs redo(): the trees change, filesChanged
    return true;
}

QStringList EditSession::files() const {
    QStringList out;
    for (const auto& f : files_)
        out << f->path;
    return out;
}

std::vector<uint8_t> EditSession::bytes(const QString& file) const {
    const File* f = find(file);
    return f ? f->tree.write() : std::vector<uint8_t>();
}

bool EditSession::isModified(const QString& file) const {
    const File* f = find(file);
    return f && f->revision != f->savedRevision;
}

QStringList EditSession::modifiedFiles() const {
    QStringList out;
    for (const auto& f : files_)
        if (f->revision != f->savedRevision) out << f->path;
    return out;
}

QString EditSession::firstModFolder() const {
    if (!resolver_ || !resolver_->mounted()) return QString();
    for (const vfs::Mount& m : resolver_->mounted()->mounts()) {
        if (m.role != "mod loose") continue;
        const auto* folder = dynamic_cast<const vfs::Folder*>(m.source.get());
        if (!folder) continue;
        const QString root = dec(folder->root());
        if (QFileInfo(root).isDir() && ::access(QFile::encodeName(root).constData(), W_OK) == 0) return root;
    }
    return QString();
}

QString EditSession::saveTarget(const QString& file, QString* why) const {
    const File* f = find(file);
    if (f && !f->diskPath.isEmpty()) return f->diskPath;
    if (QFileInfo(file).isFile()) return file;
    // Inside an archive (named "<archive>:<entry>" or by a game path whose winner is an archive entry): at its
    // game path in the mod folder, as a loose file (the games prefer loose files to archives).
    QString gamePath, holder;
    try {
        const Resolver::Place p = resolver_ ? resolver_->placeOf(enc(file)) : Resolver::Place{};
        const vfs::Hit* h = p.table ? p.table->find(p.key) : nullptr;
        if (h) {
            const vfs::Entry& e = p.table->entry(*h);
            if (!e.diskPath.empty()) return dec(e.diskPath);
            gamePath = dec(e.name);
            holder = dec(p.table->mountOf(*h).source->label());
        }
    } catch (const std::exception&) {
    }
    if (gamePath.isEmpty()) {
        if (why) *why = tr("%1 is not a file rigscope can find again to save it; use Save As…").arg(file);
        return QString();
    }
    const QString mod = firstModFolder();
    if (mod.isEmpty()) {
        if (why)
            *why = tr("%1 is inside the archive %2, and rigscope never writes into an archive. Mount a writable mod "
                      "folder (File → Open game or mod folder…) to save it there as a loose file at its game path "
                      "%3, or use Save As….")
                       .arg(file, holder, QString(gamePath).replace(QLatin1Char('\\'), QLatin1Char('/')));
        return QString();
    }
    return underFolder(mod, gamePath);
}

EditSession::SaveResult EditSession::save(const QString& file, const QString& destIn) {
    SaveResult r;
    File* f = find(file);
    if (!f) {
        r.message = tr("%1 has no edits to save").arg(file);
        return r;
    }
    QString why;
    r.dest = destIn.isEmpty() ? saveTarget(file, &why) : QFileInfo(destIn).absoluteFilePath();
    if (r.dest.isEmpty()) {
        r.message = why;
        return r;
    }
    const bool samePlace = !f->diskPath.isEmpty() && QFileInfo(r.dest) == QFileInfo(f->diskPath);
    const FileStamp now = stampOf(r.dest);
    if (samePlace && f->stamp.size >= 0 && now != f->stamp) {
        r.message =
            tr("%1 changed on disk since rigscope read it (%2 then, %3 now%4). Nothing was written and your "
               "edits are kept: use Save As… to write them elsewhere, or Reload to see the other change.")
                .arg(QDir::toNativeSeparators(r.dest), kb(f->stamp.size), now.size < 0 ? tr("missing") : kb(now.size),
                     now.size == f->stamp.size && now.size >= 0 ? tr(", modified since") : QString());
        return r;
    }
    if (!samePlace && f->diskPath.isEmpty() && destIn.isEmpty() && now.size >= 0) {
        // An archive entry's loose copy would replace a loose file someone else put there.
        r.message = tr("%1 already exists: the mod has a loose copy of %2 there. Nothing was written; open that file "
                       "to edit it, or use Save As… to replace it.")
                        .arg(QDir::toNativeSeparators(r.dest), file);
        return r;
    }
    const std::vector<uint8_t> out = f->tree.write();
    try {
        // The folders of a game path that the mod does not have yet.
        const QString folder = QFileInfo(r.dest).absolutePath();
        if (!QFileInfo(folder).isDir() && !QDir().mkpath(folder)) {
            QString blocker = folder;
            while (!blocker.isEmpty() && !QFileInfo::exists(blocker))
                blocker = QFileInfo(blocker).absolutePath();
            throw ParseError(
                enc(r.dest), {}, ParseError::kNoOffset,
                tr("cannot create the folder %1 (%2 is %3)")
                    .arg(folder, blocker, QFileInfo(blocker).isDir() ? tr("not writable") : tr("a file, not a folder"))
                    .toStdString());
        }
        // The first save of a file in this session keeps what was there as NAME.bak (written safely too).
        if (keepBackups_ && now.size >= 0 && !backedUp_.contains(r.dest)) {
            std::vector<uint8_t> old;
            try {
                old = readFile(enc(r.dest), uint64_t(now.size) + 1, "file");
            } catch (const ParseError& e) {
                throw ParseError(enc(r.dest), {}, ParseError::kNoOffset,
                                 "cannot read it to keep a .bak copy: " + e.message());
            }
            r.backup = r.dest + QStringLiteral(".bak");
            writeFileSafely(enc(r.backup), ByteSpan(old));
        }
        const Format format = f->format;
        const std::string checkAs = enc(file), label = enc(r.dest);
        auto resolver = resolver_;
        const bool text = f->text;
        writeFileSafely(label, ByteSpan(out), [&](ByteSpan back) {
            if (text) return; // an object definition: its bytes read back are checked; no model reader applies
            OpenOptions o;    // read as the document was (a W3D skin's hierarchy found around it)
            o.label = label;
            o.companionClips = false;
            if (resolver)
                resolver->read(back, checkAs, o);
            else
                readBack(format, back, {label, {}});
        });
    } catch (const std::exception& e) {
        r.backup.clear();
        r.message = tr("%1 was not saved; nothing was changed on disk and your edits are kept.\n\n%2")
                        .arg(QDir::toNativeSeparators(r.dest), QString::fromStdString(e.what()));
        return r;
    }
    backedUp_.insert(r.dest);
    const bool moved = f->diskPath.isEmpty() || !samePlace;
    if (moved) {
        if (document_ == f->path) document_ = r.dest;
        f->path = r.dest;
        f->diskPath = r.dest;
    }
    f->stamp = stampOf(r.dest);
    f->savedRevision = f->revision;
    r.ok = true;
    r.message = destIn.isEmpty() && moved
                    ? tr("Saved %1 as a loose file at its game path: %2 (the archive is unchanged)")
                          .arg(file, QDir::toNativeSeparators(r.dest))
                    : tr("Saved %1").arg(QDir::toNativeSeparators(r.dest));
    if (!r.backup.isEmpty()) r.message += tr("; the previous file is kept as %1").arg(QFileInfo(r.backup).fileName());
    emit modifiedChanged();
    return r;
}

} // namespace rs::ui
