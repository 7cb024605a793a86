#include "runtime/graph/spelling_index.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <unordered_map>

namespace gs {
namespace {

uint32_t Find(const SpellingIndex& index, std::string_view name) {
  return index.Find(name, SpellingIndex::Hash(name));
}

TEST(SpellingIndexTest, FindsWhatWasInsertedAndNothingElse) {
  SpellingIndex index;
  EXPECT_EQ(Find(index, "a.txt"), SpellingIndex::kNotFound);
  EXPECT_EQ(Find(index, ""), SpellingIndex::kNotFound);
  const std::string long_name(100, 'x');
  const std::string names[] = {"",
                               "a",
                               "ab",
                               "abc",
                               "a.txt",
                               "exactly8",
                               "nine_char",
                               std::string(24, 'y'),
                               std::string(25, 'y'),
                               long_name};
  uint32_t id = 0;
  for (const std::string& n : names)
    index.Insert(n, SpellingIndex::Hash(n), id++);
  id = 0;
  for (const std::string& n : names) EXPECT_EQ(Find(index, n), id++) << n;
  EXPECT_EQ(index.size(), 10u);
  // One byte off, at either end or in the middle, or one longer/shorter.
  for (std::string_view miss : {"b", "ac", "abd", "xbc", "a.tx", "a.txt ",
                                "exactly9", "nine_chaR", "nine_Xhar"}) {
    EXPECT_EQ(Find(index, miss), SpellingIndex::kNotFound) << miss;
  }
  std::string off = long_name;
  off[50] = 'z';
  EXPECT_EQ(Find(index, off), SpellingIndex::kNotFound);
  EXPECT_EQ(Find(index, std::string(24, 'z')), SpellingIndex::kNotFound);
}

// Many short names over a small alphabet (many near neighbours, shared
// prefixes and suffixes, growth past several doublings), inline and long,
// against a std::unordered_map.
TEST(SpellingIndexTest, AgreesWithAHashMapOnManyNames) {
  std::mt19937 rng(21);
  SpellingIndex index;
  std::unordered_map<std::string, uint32_t> model;
  auto random_name = [&] {
    std::string s(rng() % 40, ' ');
    for (char& c : s) c = "ab/._\0"[rng() % 6];
    return s;
  };
  for (int i = 0; i < 50'000; ++i) {
    std::string name = random_name();
    uint32_t found = Find(index, name);
    auto it = model.find(name);
    ASSERT_EQ(found, it == model.end() ? SpellingIndex::kNotFound : it->second)
        << "step " << i;
    if (it == model.end()) {
      uint32_t id = static_cast<uint32_t>(model.size());
      model.emplace(name, id);
      index.Insert(name, SpellingIndex::Hash(name), id);
    }
  }
  EXPECT_EQ(index.size(), model.size());
  for (const auto& [name, id] : model) ASSERT_EQ(Find(index, name), id);
}

TEST(SpellingIndexTest, HashDependsOnEveryByte) {
  const std::string base = "C_12_34.dat-and-a-longer-tail";
  for (size_t len = 0; len <= base.size(); ++len) {
    std::string s = base.substr(0, len);
    for (size_t i = 0; i < len; ++i) {
      std::string t = s;
      t[i] ^= 1;
      EXPECT_NE(SpellingIndex::Hash(s), SpellingIndex::Hash(t))
          << "length " << len << " byte " << i;
    }
  }
}

}  // namespace
}  // namespace gs
