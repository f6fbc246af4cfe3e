#include "edit_panels.h"

#include "bone_tree_dock.h"
#include "edit_session.h"
#include "main_window.h"
#include "timeline_dock.h"

#include "common/cp1252.h"
#include "edit/edits.h"
#include "formats/formats.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>

namespace rs::ui {

namespace {
std::string enc(const QString& s) { return QFile::encodeName(s).toStdString(); }
QString dec(const std::string& s) { return QFile::decodeName(QByteArray::fromStdString(s)); }
QString gameName(const QByteArray& cp1252) { return QString::fromStdString(cp1252ToUtf8(cp1252.toStdString())); }

// One file's part of `op` for the edit session: the format's edit, or a bone rename in an object definition
// (`model`: the renamed bone's model).
EditSession::FileEdit fileEdit(const QString& file, const EditOp& op, const std::string& model) {
    const std::string path = enc(file);
    return {file,
            [op, path, model](Format f, SourceTree& t) { return edit::applyToTree(path, f, t, op, model, true); }};
}

// An edit refused before it reaches a file: applyEdit reports `why` (and changes nothing).
std::vector<EditSession::FileEdit> refused(const QString& file, const QString& why) {
    const std::string w = why.toStdString();
    return {{file, [w](Format, SourceTree&) -> std::vector<TextEdit> { throw EditError(w); }}};
}

QString notCp1252(const QString& text) {
    return QObject::tr("%1 has characters the game's files cannot hold (they store names in Windows-1252)").arg(text);
}
} // namespace

void connectClipEdits(MainWindow* w);

void connectPanelEdits(MainWindow* w) {
    connectClipEdits(w);
    BoneTreeDock* bones = w->boneTree();
    QObject::connect(bones, &BoneTreeDock::boneRenameRequested, w, [w](const QByteArray& from, const QString& to) {
        const QString doc = w->edits()->documentPath();
        const QString title = QObject::tr("rename bone %1 → %2").arg(gameName(from), to);
        std::string toBytes;
        if (doc.isEmpty() || !utf8ToCp1252(to.toStdString(), toBytes)) {
            w->applyEdit(title, refused(doc, notCp1252(to))); // an empty document: says why nothing can be edited
            return;
        }
        EditOp op;
        op.kind = EditOp::Kind::RenameBone;
        op.name = from.toStdString();
        op.value = toBytes;
        const std::string model = enc(doc);
        // The document, the files that name the bone as read (clips beside the model, object definitions of the
        // mounted folders), and the files earlier edits already changed (a clip renamed before names the bone by
        // its new name only in the session).
        QStringList files{doc};
        try {
            for (const std::string& c : edit::boneCompanions(w->resolver().get(), model, op.name))
                if (!files.contains(dec(c))) files << dec(c);
        } catch (const std::exception& e) {
            w->applyEdit(title, refused(doc, QString::fromStdString(e.what())));
            return;
        }
        for (const QString& f : w->edits()->files())
            if (!files.contains(f)) files << f;
        std::vector<EditSession::FileEdit> edits;
        for (const QString& f : files)
            edits.push_back(fileEdit(f, op, model));
        w->applyEdit(title, edits);
    });
    QObject::connect(bones, &BoneTreeDock::editRequested, w, [w](const EditOp& op) {
        std::string value;
        EditOp o = op;
        const QString doc = w->edits()->documentPath();
        if (!utf8ToCp1252(op.value, value)) {
            w->applyEdit(QObject::tr("edit"), refused(doc, notCp1252(QString::fromStdString(op.value))));
            return;
        }
        o.value = value;
        w->applyEdit(QString::fromStdString(cp1252ToUtf8(describeEdit(o))), {fileEdit(doc, o, enc(doc))});
    });
}

void connectClipEdits(MainWindow* w) {
    QObject::connect(w->timeline(), &TimelineDock::clipEditRequested, w, [w](const EditOp& op) {
        const QString file = w->clipFile();
        const QString title = QString::fromStdString(cp1252ToUtf8(describeEdit(op)));
        std::string value;
        if (!utf8ToCp1252(op.value, value)) {
            w->applyEdit(title, refused(file, notCp1252(QString::fromStdString(op.value))));
            return;
        }
        EditOp o = op;
        o.value = value;
        if (file.isEmpty()) {
            w->applyEdit(title, refused(file, QObject::tr("no clip is shown")));
            return;
        }
        w->applyEdit(QStringLiteral("%1 (%2)").arg(title, QFileInfo(file.section(QLatin1Char(':'), -1)).fileName()),
                     {fileEdit(file, o, enc(file))});
    });
}

bool confirmSavingOthers(QWidget* parent, EditSession* session, const QStringList& files) {
    QStringList others;
    for (const QString& f : files)
        if (f != session->documentPath()) others << f;
    if (others.isEmpty()) return true;
    if (session->othersPrompt()) return session->othersPrompt()(others);
    QStringList names;
    for (const QString& f : others)
        names << QDir::toNativeSeparators(f);
    const QString doc = session->documentPath().isEmpty()
                            ? QString()
                            : QObject::tr("%1 and these files ").arg(QDir::toNativeSeparators(session->documentPath()));
    return QMessageBox::question(parent, QObject::tr("Save the files the edits changed"),
                                 QObject::tr("The edits also changed %n other file(s) (a bone rename changes the clips "
                                             "and object definitions that name the bone). Save %1together?\n\n%2",
                                             nullptr, int(others.size()))
                                     .arg(doc.isEmpty() ? QString() : doc, names.join(QLatin1Char('\n'))),
                                 QMessageBox::Save | QMessageBox::Cancel, QMessageBox::Save) == QMessageBox::Save;
}

} // namespace rs::ui
