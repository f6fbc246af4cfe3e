// What an edit of a source tree must give (issue 39 tests: tests/core/save, tests/core/edit): computed from the
// original tree alone, independently of SourceTree::write.
#pragma once

#include "common/source_tree.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <vector>

namespace rs::test {

inline uint32_t expectLe32(const std::vector<uint8_t>& b, size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
inline void expectPut32(std::vector<uint8_t>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

// The file an edit must give, computed from the original tree alone: each edited node's payload spliced in, and
// the size field of every chunk and mini-chunk that holds it grown by the change (flag bits kept).
inline std::vector<uint8_t> expectedAfter(const std::vector<uint8_t>& orig, const SourceTree& tree,
                                          const std::vector<std::pair<uint64_t, std::vector<uint8_t>>>& edits) {
    // edits: the edited node's begin offset and its new payload.
    std::vector<uint8_t> want = orig;
    std::vector<const SourceNode*> edited;
    std::function<const SourceNode*(const std::vector<SourceNode>&, uint64_t)> nodeAt =
        [&](const std::vector<SourceNode>& ns, uint64_t at) -> const SourceNode* {
        for (const SourceNode& n : ns) {
            if (n.begin == at && (n.children.empty() || n.kind != SourceNode::Kind::Field)) return &n;
            if (at >= n.begin && at < n.end) return nodeAt(n.children, at);
        }
        return nullptr;
    };
    std::function<void(const std::vector<SourceNode>&, uint64_t, int64_t)> grow = [&](const std::vector<SourceNode>& ns,
                                                                                      uint64_t at, int64_t delta) {
        for (const SourceNode& n : ns) {
            if (at < n.payloadBegin() || at >= n.end || n.begin == at) continue;
            // From `want`: several edits under one ancestor add up.
            if (n.kind == SourceNode::Kind::Chunk)
                expectPut32(want, n.begin + 4, uint32_t(int64_t(expectLe32(want, n.begin + 4)) + delta));
            else if (n.kind == SourceNode::Kind::Mini)
                want[n.begin + 1] = uint8_t(want[n.begin + 1] + delta);
            grow(n.children, at, delta);
        }
    };
    std::vector<std::pair<uint64_t, std::vector<uint8_t>>> sorted = edits;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    // Size fields first (they lie before their payloads, and an edit never moves an ancestor's header).
    for (const auto& [at, payload] : sorted) {
        const SourceNode* n = nodeAt(tree.roots(), at);
        REQUIRE(n);
        const int64_t delta = int64_t(payload.size()) - int64_t(n->end - n->payloadBegin());
        grow(tree.roots(), at, delta);
        if (n->kind == SourceNode::Kind::Mini) want[n->begin + 1] = uint8_t(payload.size());
        if (n->kind == SourceNode::Kind::Chunk)
            expectPut32(want, n->begin + 4, uint32_t(payload.size() + n->sizeDelta) | n->sizeFlags);
    }
    for (const auto& [at, payload] : sorted) { // back to front: earlier offsets stay valid
        const SourceNode* n = nodeAt(tree.roots(), at);
        want.erase(want.begin() + long(n->payloadBegin()), want.begin() + long(n->end));
        want.insert(want.begin() + long(n->payloadBegin()), payload.begin(), payload.end());
    }
    return want;
}

} // namespace rs::test
