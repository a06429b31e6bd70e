#include "audit/elf/archive_reader.h"

#include <llvm/BinaryFormat/Magic.h>
#include <llvm/Object/Archive.h>
#include <llvm/Support/Endian.h>
#include <llvm/Support/Error.h>

#include <algorithm>

#include "audit/elf/member_symbols.h"

namespace rocm_audit {
namespace {

struct Member {
  llvm::StringRef name;
  std::string_view data;   ///< empty with a null data() for a thin archive's member
  uint64_t header_offset;  ///< where its header starts in the archive
};

// Every member as llvm-ar walks them (llvm/lib/Object/Archive.cpp). Each error is the
// archive's: a long-name offset past the // table (llvm-ar and GNU ar: malformed archive)
// or a name the table does not end with "/\n" (llvm-ar: "not terminated"; GNU ar reads to
// the table's end), a header without its "`\n", a size that runs past the end. Skipping
// such a member would turn a lying archive into a smaller honest-looking one.
bool WalkMembers(std::string_view bytes, const std::function<void(const llvm::object::Archive&)>& opened,
                 const std::function<void(const Member&)>& member, std::string* error) {
  llvm::MemoryBufferRef ref(llvm::StringRef(bytes.data(), bytes.size()), "archive");
  auto archive = llvm::object::Archive::create(ref);
  if (!archive) {
    *error = llvm::toString(archive.takeError());
    return false;
  }
  if (opened) opened(**archive);
  // A thin archive's members are other files, named relative to wherever the archive was
  // made: LLVM would open them (from the working directory here). They are never read.
  const bool thin = (*archive)->isThin();
  llvm::Error err = llvm::Error::success();
  auto fail = [&](uint64_t at, llvm::Error cause) {
    // LLVM names the header's offset in some of its messages, not in all: said once.
    *error = llvm::toString(std::move(cause));
    if (error->find("at offset " + std::to_string(at)) == std::string::npos)
      *error = "member header at offset " + std::to_string(at) + ": " + *error;
    llvm::consumeError(std::move(err));
    return false;
  };
  for (const auto& child : (*archive)->children(err)) {
    const uint64_t at = child.getChildOffset();
    auto name = child.getName();
    if (!name) return fail(at, name.takeError());
    llvm::MemoryBufferRef buffer;
    if (!thin) {
      auto data = child.getMemoryBufferRef();
      if (!data) return fail(at, data.takeError());
      buffer = *data;
    }
    // LLVM checks a member's size against the archive only when it steps to the next one:
    // the last member's data may claim to run past the end.
    const char* start = buffer.getBufferStart();
    if (start &&
        (start < bytes.data() || buffer.getBufferSize() > size_t(bytes.data() + bytes.size() - start)))
      return fail(
          at, llvm::createStringError(llvm::Twine("member ") + *name + " runs past the end of the archive"));
    member({*name, start ? std::string_view(start, buffer.getBufferSize()) : std::string_view(), at});
  }
  if (err) {
    *error = llvm::toString(std::move(err));
    return false;
  }
  return true;
}

// The format a non-ELF member's first bytes name; never parsed further.
std::string FormatOf(std::string_view data) {
  using llvm::file_magic;
  switch (llvm::identify_magic(llvm::StringRef(data.data(), data.size()))) {
    case file_magic::bitcode: return "llvm-bitcode";
    case file_magic::wasm_object: return "wasm";
    case file_magic::offload_bundle:
    case file_magic::offload_bundle_compressed: return "offload-bundle";
    case file_magic::archive: return "ar-archive";
    case file_magic::goff_object: return "goff";
    case file_magic::xcoff_object_32:
    case file_magic::xcoff_object_64: return "xcoff";
    case file_magic::coff_object:
    case file_magic::coff_import_library:
    case file_magic::coff_cl_gl_object:
    case file_magic::pecoff_executable: return "coff";
    case file_magic::elf:
    case file_magic::elf_relocatable:
    case file_magic::elf_executable:
    case file_magic::elf_shared_object:
    case file_magic::elf_core: return "elf-unreadable-header";
    default: break;
  }
  if (data.starts_with("\xfe\xed\xfa") || data.starts_with("\xce\xfa\xed\xfe") ||
      data.starts_with("\xcf\xfa\xed\xfe") || data.starts_with("\xca\xfe\xba\xbe"))
    return "mach-o";
  return "other";
}

// The GNU symbol table ("/", 32-bit; "/SYM64/", 64-bit), big-endian: a count, that many
// member offsets, then the names. As bfd's do_slurp_coff_armap reads it, a count the table
// cannot hold is a malformed archive; ld follows each offset to a member header
// (_bfd_get_elt_at_filepos) and fails ("no more archived files", "malformed archive") where
// none starts. `headers` are the regular members' header offsets, ascending.
bool CheckGnuSymbolTable(llvm::StringRef table, bool sym64, const std::vector<uint64_t>& headers,
                         uint64_t archive_size, std::string* error) {
  const char* name = sym64 ? "/SYM64/" : "/";
  const size_t width = sym64 ? 8 : 4;
  auto read = [&](size_t at) {
    return sym64 ? llvm::support::endian::read64be(table.data() + at)
                 : llvm::support::endian::read32be(table.data() + at);
  };
  if (table.size() < width) {
    *error =
        std::string("symbol table ") + name + " of " + std::to_string(table.size()) + " bytes has no count";
    return false;
  }
  const uint64_t count = read(0);
  if (count > (table.size() - width) / width) {
    *error = std::string("symbol table ") + name + " claims " + std::to_string(count) + " entries; its " +
             std::to_string(table.size()) + " bytes hold " + std::to_string((table.size() - width) / width);
    return false;
  }
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t offset = read(width + i * width);
    if (std::binary_search(headers.begin(), headers.end(), offset)) continue;
    *error =
        std::string("symbol table ") + name + " entry " + std::to_string(i) + " names member offset " +
        std::to_string(offset) +
        (offset >= archive_size ? ", past the end of the archive (" + std::to_string(archive_size) + " bytes)"
                                : ", where no member header starts");
    return false;
  }
  return true;
}

}  // namespace

bool ForEachArchiveMember(std::string_view bytes,
                          const std::function<void(std::string_view name, std::string_view data)>& visit,
                          std::string* error) {
  return WalkMembers(
      bytes, nullptr,
      [&](const Member& m) {
        if (m.data.data()) visit(std::string_view(m.name.data(), m.name.size()), m.data);
      },
      error);
}

bool ValidateArchive(std::string_view bytes, ArchiveSummary* summary, std::string* error) {
  *summary = {};
  llvm::StringRef table;
  bool sym64 = false, gnu = false;
  std::vector<uint64_t> headers;
  bool walked = WalkMembers(
      bytes,
      [&](const llvm::object::Archive& a) {
        table = a.getSymbolTable();
        gnu = a.kind() == llvm::object::Archive::K_GNU || a.kind() == llvm::object::Archive::K_GNU64;
        sym64 = a.kind() == llvm::object::Archive::K_GNU64;
      },
      [&](const Member& m) {
        ++summary->members;
        headers.push_back(m.header_offset);
        if (!m.data.data() || IsReadableElf(m.data)) return;
        ++summary->non_elf;
        if (summary->named.size() < kMaxNonElfNamed)
          summary->named.push_back({m.name.str(), FormatOf(m.data)});
      },
      error);
  if (!walked) return false;
  return !gnu || table.empty() || CheckGnuSymbolTable(table, sym64, headers, bytes.size(), error);
}

bool ForEachArchiveDefinition(std::string_view bytes,
                              const std::function<void(std::string_view, std::string_view)>& visit,
                              std::string* error) {
  return WalkMembers(
      bytes, nullptr,
      [&](const Member& m) {
        // Only ELF reaches a reader: see the header. A member whose table lies ends its own
        // symbols; the archive was judged when it was read.
        if (!m.data.data() || !IsReadableElf(m.data)) return;
        std::string_view member(m.name.data(), m.name.size());
        std::string ignored;
        (void)ForEachElfMemberDefinition(
            m.data, [&](std::string_view symbol) { visit(symbol, member); }, &ignored);
      },
      error);
}

}  // namespace rocm_audit
