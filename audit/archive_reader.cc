#include "audit/archive_reader.h"

#include <llvm/Object/Archive.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

namespace rocm_audit {
namespace {

bool ReadMemberSymbols(const llvm::object::Archive& archive,
                       const std::function<void(std::string_view, std::string_view)>& visit,
                       std::string* error) {
  llvm::Error err = llvm::Error::success();
  for (const auto& child : archive.children(err)) {
    auto name = child.getName();
    auto buffer = child.getMemoryBufferRef();
    if (!name || !buffer) {
      if (!name) llvm::consumeError(name.takeError());
      if (!buffer) llvm::consumeError(buffer.takeError());
      continue;
    }
    auto object = llvm::object::ObjectFile::createObjectFile(*buffer);
    if (!object) {  // not an object file (e.g. a text member): nothing to index
      llvm::consumeError(object.takeError());
      continue;
    }
    for (const auto& sym : (*object)->symbols()) {
      auto flags = sym.getFlags();
      if (!flags) {
        llvm::consumeError(flags.takeError());
        continue;
      }
      if (!(*flags & llvm::object::BasicSymbolRef::SF_Global) ||
          (*flags & llvm::object::BasicSymbolRef::SF_Undefined))
        continue;
      auto sym_name = sym.getName();
      if (!sym_name) {
        llvm::consumeError(sym_name.takeError());
        continue;
      }
      visit(std::string_view(sym_name->data(), sym_name->size()),
            std::string_view(name->data(), name->size()));
    }
  }
  if (err) {
    *error = llvm::toString(std::move(err));
    return false;
  }
  return true;
}

}  // namespace

bool ForEachArchiveDefinition(
    std::string_view bytes,
    const std::function<void(std::string_view, std::string_view)>& visit, std::string* error) {
  llvm::MemoryBufferRef ref(llvm::StringRef(bytes.data(), bytes.size()), "archive");
  auto archive = llvm::object::Archive::create(ref);
  if (!archive) {
    *error = llvm::toString(archive.takeError());
    return false;
  }
  if (!(*archive)->hasSymbolTable()) return ReadMemberSymbols(**archive, visit, error);
  for (const auto& sym : (*archive)->symbols()) {
    auto member = sym.getMember();
    if (!member) {
      *error = llvm::toString(member.takeError());
      return false;
    }
    auto member_name = member->getName();
    if (!member_name) {
      *error = llvm::toString(member_name.takeError());
      return false;
    }
    llvm::StringRef name = sym.getName();
    visit(std::string_view(name.data(), name.size()),
          std::string_view(member_name->data(), member_name->size()));
  }
  return true;
}

}  // namespace rocm_audit
