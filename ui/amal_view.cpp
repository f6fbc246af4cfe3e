#include "amal_view.h"

#include "amal_stage_painter.h"

#include "amal/amal_env.h"
#include "common/bytes.h"

#include <QCheckBox>
#include <QFile>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPainterPath>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSplitter>
#include <QSyntaxHighlighter>
#include <QVBoxLayout>

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace rs::ui {

namespace {

// AMAL listing: the tokenizer reads only upper-case letters, digits and operators; lower case is comment.
class AmalHighlighter : public QSyntaxHighlighter {
  public:
    explicit AmalHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {
        keyword_.setForeground(QColor(0x1f, 0x4e, 0xb4));
        keyword_.setFontWeight(QFont::Bold);
        upper_.setForeground(QColor(0x1f, 0x4e, 0xb4));
        number_.setForeground(QColor(0x8a, 0x3f, 0x00));
        label_.setForeground(QColor(0x7a, 0x1f, 0x9a));
        label_.setFontWeight(QFont::Bold);
        comment_.setForeground(QColor(0x90, 0x90, 0x90));
        comment_.setFontItalic(true);
        error_.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        error_.setUnderlineColor(Qt::red);
        keywords_ = QRegularExpression(
            "\\b(Move|M|Anim|Let|L|Jump|J|If|I|Direct|D|eXit|X|For|F|To|T|Next|N|Pause|P|PLay|PL|End|E|Wait|W|"
            "AUtotest|AU)(?![a-z])");
    }
    void setErrorLine(int line) {
        errorLine_ = line;
        rehighlight();
    }

  protected:
    void highlightBlock(const QString& text) override {
        for (int i = 0; i < text.size(); ++i) {
            const QChar c = text[i];
            if (c.isLower() || c == ';' || c == '\'')
                setFormat(i, 1, comment_);
            else if (c.isUpper())
                setFormat(i, 1, upper_);
            else if (c.isDigit() || c == '$')
                setFormat(i, 1, number_);
        }
        for (auto it = keywords_.globalMatch(text); it.hasNext();) {
            auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), keyword_);
        }
        static const QRegularExpression label("\\b([A-Z][A-Za-z]*):");
        for (auto it = label.globalMatch(text); it.hasNext();) {
            auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), label_);
        }
        if (currentBlock().blockNumber() + 1 == errorLine_) {
            QTextCharFormat f = error_;
            setFormat(0, int(text.size()), f);
        }
    }

  private:
    QTextCharFormat keyword_, upper_, number_, label_, comment_, error_;
    QRegularExpression keywords_;
    int errorLine_ = -1;
};

} // namespace

AmalStage::AmalStage(QWidget* parent) : QWidget(parent) {
    setMinimumSize(240, 180);
    setAutoFillBackground(false);
}

void AmalStage::setTrack(const amal::Track& track) {
    track_ = track;
    tick_ = 0;
    update();
}

void AmalStage::setImages(std::shared_ptr<const amal::ImageBank> images) {
    images_ = std::move(images);
    imageCache_.clear();
    update();
}

void AmalStage::setTick(int t) {
    tick_ = std::max(0, t);
    update();
}

void AmalStage::paintEvent(QPaintEvent*) {
    QPainter p(this);
    AmalStageOptions o;
    o.tick = tick_;
    o.images = images_.get();
    o.imageCache = &imageCache_;
    o.font = font();
    o.labelRects = &labelRects_;
    paintAmalStage(p, QRectF(rect()), track_, o);
}

AmalView::AmalView(QWidget* parent) : QWidget(parent) {
    list_ = new QListWidget(this);
    stage_ = new AmalStage(this);
    listing_ = new QPlainTextEdit(this);
    listing_->setReadOnly(true);
    listing_->setFont(QFont("Monospace"));
    new AmalHighlighter(listing_->document());
    env_ = new QPlainTextEdit(this); // one environment line per row; scrolls when long
    env_->setReadOnly(true);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    backward_ = new QCheckBox(tr("Play movement backwards"), this);
    inputEdit_ = new QLineEdit(this);
    inputEdit_->setPlaceholderText(tr("J1=8 XM=100 RA=1 X=160 Y=100"));
    inputEdit_->setToolTip(tr("Values for the functions that read the hardware (XM YM J0 J1 K1 K2 C SC BC V), "
                              "registers (R0-R9, RA-RZ) and the start position/image (X Y A)"));

    // The stage takes the room the 3D view had; the list, the inputs, the listing and the environment share
    // a column beside it.
    auto* side = new QSplitter(Qt::Vertical, this);
    auto* top = new QWidget(side);
    auto* tv = new QVBoxLayout(top);
    tv->setContentsMargins(0, 0, 0, 0);
    tv->addWidget(new QLabel(tr("Movements and programs"), top));
    tv->addWidget(list_, 1);
    tv->addWidget(backward_);
    tv->addWidget(new QLabel(tr("Inputs and registers:"), top));
    tv->addWidget(inputEdit_);
    auto* bottom = new QWidget(side);
    auto* bv = new QVBoxLayout(bottom);
    bv->setContentsMargins(0, 0, 0, 0);
    bv->addWidget(status_);
    bv->addWidget(listing_, 2);
    bv->addWidget(new QLabel(tr("Environment:"), bottom));
    bv->addWidget(env_, 1);
    side->addWidget(top);
    side->addWidget(bottom);
    side->setStretchFactor(0, 2);
    side->setStretchFactor(1, 3);
    side->setMinimumWidth(240);
    list_->setMinimumHeight(150); // about eight entries
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(stage_);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setCollapsible(0, false);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(list_, &QListWidget::currentRowChanged, this, &AmalView::selectEntry);
    connect(backward_, &QCheckBox::toggled, this, [this] { rebuildTrack(); });
    connect(inputEdit_, &QLineEdit::editingFinished, this, [this] { setInputs(inputEdit_->text()); });
}

bool AmalView::openFile(const QString& path) {
    error_.clear();
    file_.reset();
    bank_ = nullptr;
    entries_.clear();
    list_->clear();
    try {
        const std::vector<uint8_t> bytes = readFileBytes(path.toStdString());
        auto f = std::make_shared<amal::BankFile>(amal::readBankFile(ByteSpan(bytes), path.toStdString()));
        bank_ = &amal::requireAmalBank(*f);
        file_ = f;
    } catch (const std::exception& e) {
        error_ = QString::fromStdString(e.what());
        status_->setText(error_);
        track_ = amal::Track{};
        track_.error = e.what();
        stage_->setTrack(track_);
        listing_->clear();
        env_->clear();
        emit durationChanged(0, 0.0);
        return false;
    }
    for (const auto& m : bank_->movements) {
        if (!m.defined) continue;
        entries_.push_back({true, m.index});
        list_->addItem(
            QString("Movement %1  \"%2\"  (speed %3)").arg(m.index).arg(QString::fromStdString(m.name)).arg(m.speed));
    }
    for (const auto& p : bank_->programs) {
        if (p.text.empty()) continue;
        entries_.push_back({false, p.index});
        const std::string first = p.text.substr(0, p.text.find('~'));
        list_->addItem(QString("Program %1  %2").arg(p.index).arg(QString::fromStdString(first).left(32)));
    }
    // Object images: a sprite/icon bank in the same file, else in a sibling .abk.
    imageSource_.clear();
    std::shared_ptr<const amal::ImageBank> images;
    if (!file_->imageBanks.empty()) {
        images = std::make_shared<amal::ImageBank>(file_->imageBanks.front());
        imageSource_ = QFileInfo(path).fileName();
    } else {
        int tried = 0;
        for (const std::string& sib : resolver_->filesBeside(QFile::encodeName(path).toStdString(), ".abk")) {
            if (++tried > 32) break;
            try {
                std::vector<uint8_t> b;
                if (!resolver_->readBytes(sib, b, 8 << 20)) continue;
                amal::BankFile g = amal::readBankFile(ByteSpan(b), sib);
                if (g.imageBanks.empty()) continue;
                images = std::make_shared<amal::ImageBank>(std::move(g.imageBanks.front()));
                imageSource_ = QFileInfo(QFile::decodeName(QByteArray::fromStdString(sib))).fileName();
                break;
            } catch (const std::exception&) {
                continue;
            }
        }
    }
    stage_->setImages(images);
    env_->setPlainText(QString::fromStdString(bank_->environment).replace('~', QLatin1Char('\n')));
    QString other = QString::fromStdString(amal::describeOtherBanks(*file_));
    QString st = other.isEmpty() ? QString() : tr("Other banks: ") + other;
    if (!imageSource_.isEmpty()) st += (st.isEmpty() ? "" : "   ") + tr("Images from ") + imageSource_;
    status_->setText(st);
    if (!entries_.empty())
        list_->setCurrentRow(0);
    else
        selectEntry(-1);
    return true;
}

void AmalView::setProgramTicks(int ticks) {
    programTicks_ = std::max(1, ticks);
    rebuildTrack();
}

bool AmalView::setInputs(const QString& text) {
    amal::SimOptions o;
    std::string why;
    if (!amal::parseInputs(o, text.toStdString(), &why)) {
        status_->setText(tr("Inputs: ") + QString::fromStdString(why));
        return false;
    }
    if (inputEdit_->text() != text) inputEdit_->setText(text);
    inputs_ = o;
    rebuildTrack();
    return true;
}

int AmalView::durationTicks() const {
    if (track_.points.empty()) return 0;
    return track_.endTick >= 0 ? track_.endTick : int(track_.points.size()) - 1;
}

void AmalView::selectEntry(int row) {
    (void)row;
    rebuildTrack();
}

void AmalView::rebuildTrack() {
    const int row = list_->currentRow();
    if (!bank_ || row < 0 || row >= int(entries_.size())) {
        track_ = amal::Track{};
        stage_->setTrack(track_);
        listing_->clear();
        emit durationChanged(0, 0.0);
        return;
    }
    const Entry e = entries_[size_t(row)];
    backward_->setEnabled(e.movement);
    if (e.movement) {
        track_ = amal::movementTrack(*bank_, e.index, backward_->isChecked(), inputs_.x, inputs_.y);
    } else {
        amal::SimOptions o = inputs_;
        o.ticks = programTicks_;
        // No start values typed: the object the environment gives this channel (program n runs on channel n,
        // as in the AMAL editor's test), with its position and image until the program changes them.
        if (inputEdit_->text().trimmed().isEmpty()) {
            const auto objects = amal::environmentObjects(bank_->environment);
            if (auto it = objects.find(e.index); it != objects.end()) {
                o.x = int16_t(it->second.x);
                o.y = int16_t(it->second.y);
                o.a = int16_t(it->second.image);
            }
        }
        track_ = amal::programTrack(*bank_, e.index, o);
    }
    stage_->setTrack(track_);
    showListing();
    emit durationChanged(durationTicks(), durationSeconds());
}

void AmalView::showListing() {
    const int row = list_->currentRow();
    if (!bank_ || row < 0 || row >= int(entries_.size())) return;
    const Entry e = entries_[size_t(row)];
    auto* hl = listing_->document()->findChild<QSyntaxHighlighter*>();
    if (e.movement) {
        const amal::Movement* m = bank_->movement(e.index);
        listing_->setPlainText(m ? QString("PLay %1   ; \"%2\", speed %3, %4 X steps, %5 Y steps, %6 ticks")
                                       .arg(e.index)
                                       .arg(QString::fromStdString(m->name))
                                       .arg(m->speed)
                                       .arg(amal::streamSteps(m->xSteps))
                                       .arg(amal::streamSteps(m->ySteps))
                                       .arg(track_.endTick)
                                 : QString());
        if (auto* h = static_cast<AmalHighlighter*>(hl)) h->setErrorLine(-1);
        return;
    }
    const amal::Program* p = bank_->program(e.index);
    listing_->setPlainText(p ? QString::fromLatin1(p->text.data(), int(p->text.size())).replace('~', '\n') : QString());
    if (auto* h = static_cast<AmalHighlighter*>(hl))
        h->setErrorLine(track_.compileError.code == amal::AmalErrorCode::None ? -1 : track_.compileError.line);
    if (!track_.error.empty()) status_->setText(QString::fromStdString(track_.error));
}

void AmalView::setTick(int t) {
    stage_->setTick(t);
    emit tickChanged(stage_->tick());
}

void AmalView::setTime(double seconds) { setTick(int(std::lround(std::max(0.0, seconds) * 50.0))); }

} // namespace rs::ui
