#include "audit/elf/archive_reader.h"

#include <llvm/Object/Archive.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include "audit/support/llvm_expected.h"

namespace rocm_audit {
namespace {

bool ForEachLlvmMember(std::string_view bytes,
                       const std::function<void(llvm::StringRef, llvm::MemoryBufferRef)>& member,
                       std::string* error) {
  llvm::MemoryBufferRef ref(llvm::StringRef(bytes.data(), bytes.size()), "archive");
  auto archive = llvm::object::Archive::create(ref);
  if (!archive) {
    *error = llvm::toString(archive.takeError());
    return false;
  }
  // A thin archive's members are other files, named relative to wherever the archive was
  // made: LLVM would open them (from the working directory here). They are never read.
  bool thin = (*archive)->isThin();
  llvm::Error err = llvm::Error::success();
  for (const auto& child : (*archive)->children(err)) {
    auto name = child.getName();
    if (!Take(name)) continue;
    if (thin) {
      member(*name, llvm::MemoryBufferRef());
      continue;
    }
    auto buffer = child.getMemoryBufferRef();
    if (!Take(buffer)) continue;
    // LLVM checks a member's size against the archive only when it steps to the next one:
    // the last member's data may claim to run past the end.
    if (buffer->getBufferStart() < bytes.data() ||
        buffer->getBufferSize() > size_t(bytes.data() + bytes.size() - buffer->getBufferStart())) {
      *error = "member " + name->str() + " runs past the end of the archive";
      llvm::consumeError(std::move(err));
      return false;
    }
    member(*name, *buffer);
  }
  if (err) {
    *error = llvm::toString(std::move(err));
    return false;
  }
  return true;
}

}  // namespace

bool ForEachArchiveMember(std::string_view bytes,
                          const std::function<void(std::string_view name, std::string_view data)>& visit,
                          std::string* error) {
  return ForEachLlvmMember(
      bytes,
      [&](llvm::StringRef name, llvm::MemoryBufferRef buffer) {
        if (!buffer.getBufferStart()) return;  // a thin archive's member: not read
        visit(std::string_view(name.data(), name.size()),
              std::string_view(buffer.getBufferStart(), buffer.getBufferSize()));
      },
      error);
}

bool ValidateArchive(std::string_view bytes, size_t* members, std::string* error) {
  *members = 0;
  return ForEachLlvmMember(bytes, [&](llvm::StringRef, llvm::MemoryBufferRef) { ++*members; }, error);
}

bool ForEachArchiveDefinition(std::string_view bytes,
                              const std::function<void(std::string_view, std::string_view)>& visit,
                              std::string* error) {
  return ForEachLlvmMember(
      bytes,
      [&](llvm::StringRef name, llvm::MemoryBufferRef buffer) {
        if (!buffer.getBufferStart()) return;  // a thin archive's member: not read
        auto object = llvm::object::ObjectFile::createObjectFile(buffer);
        if (!Take(object)) return;  // not an object file (e.g. a text member): nothing to index
        for (const auto& sym : (*object)->symbols()) {
          // A symbol table that fails once is corrupt as a whole (its range comes from a
          // hostile sh_size and can claim billions of entries): stop reading this member.
          auto flags = sym.getFlags();
          if (!Take(flags)) return;
          if (!(*flags & llvm::object::BasicSymbolRef::SF_Global) ||
              (*flags & llvm::object::BasicSymbolRef::SF_Undefined))
            continue;
          auto sym_name = sym.getName();
          if (!Take(sym_name)) return;
          visit(std::string_view(sym_name->data(), sym_name->size()),
                std::string_view(name.data(), name.size()));
        }
      },
      error);
}

}  // namespace rocm_audit
