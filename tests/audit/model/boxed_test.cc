// Boxed: optional's interface with the value on the heap; a copy is a deep copy.
#include "audit/model/boxed.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "audit/model/file_facts.h"

namespace rocm_audit::testing {
namespace {

TEST(Boxed, BehavesAsAnOptionalWhoseCopiesAreIndependent) {
  Boxed<std::vector<std::string>> a;
  EXPECT_FALSE(a);
  EXPECT_FALSE(a.has_value());
  a = std::vector<std::string>{"x"};
  ASSERT_TRUE(a);
  Boxed<std::vector<std::string>> b = a;
  b->push_back("y");
  EXPECT_EQ(a->size(), 1u);
  EXPECT_EQ(b->size(), 2u);
  a = b;
  EXPECT_EQ(*a, *b);
  EXPECT_NE(&*a, &*b);
  Boxed<std::vector<std::string>> c = std::move(a);
  EXPECT_EQ(c->size(), 2u);
  c.emplace(3, "z");
  EXPECT_EQ((*c)[2], "z");
  c = std::nullopt;
  EXPECT_FALSE(c);
  b.reset();
  EXPECT_FALSE(b.has_value());
  // What a report holds per file before its parts: no absent part takes room. Inline: the
  // path, the kind, a pointer per part, the archive's member count and the report budget.
  EXPECT_LE(sizeof(FileFacts), 2 * sizeof(std::string) + 8 * sizeof(void*) + 16 + sizeof(uint64_t));
}

}  // namespace
}  // namespace rocm_audit::testing
