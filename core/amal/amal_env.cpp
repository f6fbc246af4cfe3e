#include "amal/amal_env.h"

#include "common/text_util.h"
#include <cctype>
#include <optional>
#include <vector>

namespace rs::amal {

namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Comma-separated decimal integers (optional sign); nullopt when an item is anything else.
std::optional<std::vector<int>> integers(const std::string& text) {
    std::vector<int> out;
    size_t i = 0;
    while (i <= text.size()) {
        const size_t comma = text.find(',', i);
        const std::string item = trim(text.substr(i, comma == std::string::npos ? std::string::npos : comma - i));
        if (item.empty() || item.size() > 7) return std::nullopt;
        size_t k = (item[0] == '-' || item[0] == '+') ? 1 : 0;
        if (k == item.size()) return std::nullopt;
        for (size_t j = k; j < item.size(); ++j)
            if (!std::isdigit(static_cast<unsigned char>(item[j]))) return std::nullopt;
        out.push_back(std::stoi(item));
        if (comma == std::string::npos) break;
        i = comma + 1;
    }
    return out;
}

// "keyword rest" when the statement starts with keyword followed by a space.
std::optional<std::string> after(const std::string& statement, const std::string& keyword) {
    if (statement.size() <= keyword.size() || statement.compare(0, keyword.size(), keyword) != 0) return std::nullopt;
    if (!std::isspace(static_cast<unsigned char>(statement[keyword.size()]))) return std::nullopt;
    return statement.substr(keyword.size() + 1);
}

} // namespace

std::map<int, EnvObject> environmentObjects(const std::string& environment) {
    std::map<std::pair<bool, int>, EnvObject> objects; // (bob, number) -> where it was put
    std::map<int, std::pair<bool, int>> channels;      // channel -> (bob, number)
    std::string statement;
    auto handle = [&](std::string st) {
        st = lower(trim(st));
        if (st.empty() || st[0] == '\'') return;
        for (const bool bob : {false, true}) {
            if (auto rest = after(st, bob ? "bob" : "sprite")) {
                const auto v = integers(*rest);
                if (!v || v->size() != 4) return; // "Sprite Off", expressions: not an object placement
                EnvObject o;
                o.bob = bob;
                o.number = (*v)[0];
                o.x = (*v)[1];
                o.y = (*v)[2];
                o.image = (*v)[3];
                objects[{bob, o.number}] = o;
                return;
            }
            if (auto rest = after(st, bob ? "channel to bob" : "channel to sprite")) {
                const auto v = integers(*rest);
                if (v && v->size() == 2) channels[(*v)[0]] = {bob, (*v)[1]};
                return;
            }
        }
    };
    for (const char c : environment) {
        if (c == '~' || c == ':') {
            handle(statement);
            statement.clear();
        } else {
            statement += c;
        }
    }
    handle(statement);
    std::map<int, EnvObject> out;
    for (const auto& [channel, object] : channels) {
        auto it = objects.find(object);
        EnvObject o = it != objects.end() ? it->second : EnvObject{object.first, object.second, 0, 0, 0};
        out[channel] = o;
    }
    return out;
}

} // namespace rs::amal
