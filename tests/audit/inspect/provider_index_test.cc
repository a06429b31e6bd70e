#include "audit/inspect/provider_index.h"

#include <gtest/gtest.h>

#include "tests/support/core_audit.h"
#include "tests/support/gpu_fixtures.h"

namespace rocm_audit::testing {
namespace {

// The first symbol the object's own hash table finds defined: what ld.so could bind to.
std::string SomeDefinition(const ElfModel& model) {
  for (uint32_t i = 1; i < model.symbol_count(); ++i) {
    std::string name(model.NameOf(model.SymbolAt(i)));
    bool found = false;
    if (!name.empty()) model.ForEachDefinition(name, [&](uint32_t) { found = true; });
    if (found) return name;
  }
  return "";
}

// A kernel's name is its host stub's (HIP mangles both alike), so a GPU code object defines
// names host libraries leave undefined. ld.so never loads a GPU code object: it is no
// provider of a host symbol, while a host library that defines one is.
TEST(ProviderIndex, AGpuCodeObjectDefinesNoHostSymbol) {
  ObjectStore store;
  std::vector<Boxed<InspectedFile>> files;
  files.push_back(InspectOne(GpuTreePath("co/kernel_gfx906.co"), store));
  files.push_back(InspectOne(GpuTreePath("lib/libamdhip64.so.6"), store));
  ASSERT_TRUE(files[0]->model() && files[1]->model());
  const std::string kernel = SomeDefinition(*files[0]->model());
  const std::string host = SomeDefinition(*files[1]->model());
  ASSERT_FALSE(kernel.empty()) << "the code object defines a symbol its hash table finds";
  ASSERT_FALSE(host.empty());

  std::vector<Boxed<LoadFacts>> loads(files.size());
  loads[1].emplace().binding.undefined = {{kernel, ""}, {host, ""}};
  SymbolIndex index = BuildProviderIndex(files, loads, LoaderConfig{});
  EXPECT_TRUE(index.Providers(kernel).empty()) << index.Providers(kernel).front().file;
  ASSERT_EQ(index.Providers(host).size(), 1u);
  EXPECT_EQ(index.Providers(host).front().file, GpuTreePath("lib/libamdhip64.so.6"));

  files[0].reset();  // an empty slot (a file dropped after its checks) is passed over
  SymbolIndex rebuilt = BuildProviderIndex(files, loads, LoaderConfig{});
  ASSERT_EQ(rebuilt.Providers(host).size(), 1u);
  EXPECT_EQ(rebuilt.Providers(host).front().file, GpuTreePath("lib/libamdhip64.so.6"));
}

}  // namespace
}  // namespace rocm_audit::testing
