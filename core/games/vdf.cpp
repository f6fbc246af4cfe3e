#include "games/vdf.h"

#include "common/error.h"

#include <cctype>

namespace rs::games {

namespace {

bool sameNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

// An iterative parser (no recursion: the depth budget bounds an explicit stack).
class Parser {
  public:
    Parser(std::string_view text, const std::string& file) : s_(text), file_(file) {
        if (s_.size() >= 3 && uint8_t(s_[0]) == 0xEF && uint8_t(s_[1]) == 0xBB && uint8_t(s_[2]) == 0xBF) advance(3);
    }

    VdfNode run() {
        VdfNode root;
        root.block = true;
        std::vector<VdfNode*> stack{&root};
        for (;;) {
            skipSpace();
            if (pos_ >= s_.size()) break;
            const int line = line_, col = col_;
            if (s_[pos_] == '}') {
                if (stack.size() == 1) fail(line, col, "'}' without a matching '{'");
                advance(1);
                stack.pop_back();
                continue;
            }
            if (s_[pos_] == '{') fail(line, col, "'{' where a key was expected");
            VdfNode node;
            node.key = token();
            node.line = line;
            node.column = col;
            skipSpace();
            if (pos_ >= s_.size()) fail(line, col, "key \"" + node.key + "\" has no value (end of file)");
            if (++pairs_ > kMaxVdfPairs)
                fail(line, col, "more than " + std::to_string(kMaxVdfPairs) + " pairs (kMaxVdfPairs)");
            if (s_[pos_] == '{') {
                advance(1);
                if (stack.size() > kMaxVdfDepth)
                    fail(line, col, "blocks nested deeper than " + std::to_string(kMaxVdfDepth) + " (kMaxVdfDepth)");
                node.block = true;
                stack.back()->children.push_back(std::move(node));
                stack.push_back(&stack.back()->children.back());
            } else if (s_[pos_] == '}') {
                fail(line_, col_, "key \"" + node.key + "\" has no value");
            } else {
                node.value = token();
                stack.back()->children.push_back(std::move(node));
            }
        }
        if (stack.size() > 1)
            fail(stack.back()->line, stack.back()->column,
                 "block \"" + stack.back()->key + "\" is not closed before the end of the file");
        return root;
    }

  private:
    [[noreturn]] void fail(int line, int col, const std::string& what) const {
        throw ParseError(file_, {}, ParseError::kNoOffset,
                         "line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + what);
    }
    void advance(size_t n) {
        for (size_t i = 0; i < n && pos_ < s_.size(); ++i, ++pos_) {
            if (s_[pos_] == '\n') {
                ++line_;
                col_ = 1;
            } else {
                ++col_;
            }
        }
    }
    void skipSpace() {
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                advance(1);
            } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
                while (pos_ < s_.size() && s_[pos_] != '\n')
                    advance(1);
            } else {
                break;
            }
        }
    }
    std::string token() {
        std::string out;
        const int line = line_, col = col_;
        if (s_[pos_] == '"') {
            advance(1);
            for (;;) {
                if (pos_ >= s_.size()) fail(line, col, "string not closed before the end of the file");
                const char c = s_[pos_];
                if (c == '"') {
                    advance(1);
                    break;
                }
                if (c == '\\' && pos_ + 1 < s_.size()) {
                    const char e = s_[pos_ + 1];
                    out += e == 'n' ? '\n' : e == 't' ? '\t' : e; // \" \\ and any other escaped byte as itself
                    advance(2);
                    continue;
                }
                out += c;
                advance(1);
            }
            return out;
        }
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '"' || c == '{' || c == '}') break;
            out += c;
            advance(1);
        }
        return out;
    }

    std::string_view s_;
    const std::string& file_;
    size_t pos_ = 0, pairs_ = 0;
    int line_ = 1, col_ = 1;
};

} // namespace

const VdfNode* VdfNode::find(std::string_view k) const {
    for (const VdfNode& c : children)
        if (sameNoCase(c.key, k)) return &c;
    return nullptr;
}

std::string VdfNode::get(std::string_view k, std::string fallback) const {
    const VdfNode* n = find(k);
    return n && !n->block ? n->value : fallback;
}

VdfNode parseVdf(std::string_view text, const std::string& file) {
    if (text.size() > kMaxVdfBytes)
        throw ParseError(file, {}, ParseError::kNoOffset,
                         std::to_string(text.size()) + " bytes, more than a VDF file may hold (" +
                             std::to_string(kMaxVdfBytes) + ", kMaxVdfBytes)");
    return Parser(text, file).run();
}

} // namespace rs::games
