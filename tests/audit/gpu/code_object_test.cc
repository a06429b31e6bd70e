// AMDGPU code objects: kernels counted from the metadata note under every PT_NOTE alignment
// LLVM accepts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <llvm/Object/ELF.h>

#include <set>
#include <sstream>

#include "audit/gpu/code_object.h"
#include "audit/gpu/device_code.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

TEST_F(GpuTree, NoteSegmentAlignmentZeroStillCountsKernels) {
  std::string co = ReadAll(P("co/kernel_gfx90a.co"));
  auto elf = cantFail(llvm::object::ELFFile<llvm::object::ELF64LE>::create(co));
  const auto& h = elf.getHeader();
  size_t note_phdr = SIZE_MAX;
  for (size_t i = 0; i < h.e_phnum; ++i)
    if (cantFail(elf.program_headers())[i].p_type == llvm::ELF::PT_NOTE) note_phdr = i;
  ASSERT_NE(note_phdr, SIZE_MAX);
  const size_t align_at = h.e_phoff + note_phdr * sizeof(llvm::ELF::Elf64_Phdr) + 48;  // p_align
  for (uint8_t align : {0, 1, 3}) {
    std::string patched = co;
    memset(patched.data() + align_at, 0, 8);
    patched[align_at] = char(align);
    CodeObjectInfo info;
    std::string error;
    bool ok = InspectCodeObject(patched, patched.size(), &info, &error);
    if (align == 3) {
      EXPECT_FALSE(ok);  // LLVM refuses alignments other than 0, 1, 4, 8: a broken note segment
      EXPECT_THAT(error, HasSubstr("note"));
    } else {
      ASSERT_TRUE(ok) << error;
      EXPECT_EQ(info.kernels, 1u) << "p_align " << int(align);
    }
  }
}

}  // namespace
}  // namespace rocm_audit::testing
