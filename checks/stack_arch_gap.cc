// stack-arch-gap: a GPU target that some device-code libraries of a load closure serve and
// one does not; on that GPU the calls into it fail at run time. Reported once, on the
// library that lacks the target (where it can be fixed), with every audited file whose
// closure it breaks. A target nobody in a closure serves is missing-arch's job.
#include <algorithm>
#include <map>

#include "audit/fs/path.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Warning: on that GPU the calls into this library fail while the rest of the stack works; but that the
    // stack targets the GPU is inferred from the other libraries, not asked for (with --require-arch it is
    // missing-arch, an error). lintian, auditwheel: none.
    {
        .id = "stack-arch-gap",
        .severity = Severity::kWarning,
        .title = "a GPU target that the other device-code libraries of a load closure serve and this one "
                 "does not",
        .fix = "rebuild the lagging library for the target, or drop it from the others' GPU_TARGETS",
        .key_fields = "arch",
        .explanation = "In one load closure (a program or library and everything ld.so loads with it) "
                       "several libraries carry GPU device code, and this one lacks a target that the "
                       "others serve. The stack was evidently built for that GPU, yet on it every call into "
                       "this library fails at run time for lack of a code object for the device "
                       "(hipErrorNoBinaryForGpu, hipErrorSharedObjectInitFailed or an invalid device "
                       "function), while the rest of the stack works, which makes the failure look like a "
                       "bug in the caller. The finding is reported once per library and target, on the "
                       "library that lacks it, with the libraries that serve the target and the audited "
                       "files whose closure it breaks. It usually comes from one component built with an "
                       "older or shorter GPU_TARGETS list than the others, or a prebuilt library mixed into "
                       "a locally built stack. Rebuild the lagging library with the target, or drop the "
                       "target from the others if it is not meant to be supported; a target no library of "
                       "the closure serves is missing-arch's business.",
        .example = "/opt/rocm-6.2.0/lib/librocsolver.so.0.2.60200\n"
                   "  warning[stack-arch-gap]: librocsolver.so.0.2.60200 has no device code for gfx1100, "
                   "which librocblas.so.4.2.60200, librocsparse.so.1.0.60200 serve in the same process; on "
                   "a gfx1100 the GPU calls into librocsolver.so.0.2.60200 fail at run time in 2 audited "
                   "files (libhipsolver.so.0.2.60200, librocsolver.so.0.2.60200)\n"
                   "    fix: rebuild librocsolver.so.0.2.60200 with gfx1100 in GPU_TARGETS, or drop gfx1100 "
                   "from librocblas.so.4.2.60200, librocsparse.so.1.0.60200",
        .cause_fields = "",
        .cause = "{files} lacks {arch*}, which other libraries of its process serve",
        .fields = "arch:string lacking:[path] serving:[path] consumers:[path] library:path",
    },
};

struct Gap {
  std::string library;                 ///< the lacking library, as audited (else as the loader found it)
  std::vector<std::string> serving;    ///< the same, first seen first
  std::vector<std::string> consumers;  ///< audited files whose closure has the gap
};

void AddOnce(std::vector<std::string>* list, const std::string& item) {
  if (std::find(list->begin(), list->end(), item) == list->end()) list->push_back(item);
}

std::string Names(const std::vector<std::string>& paths, size_t most = 4) {
  std::string out;
  for (size_t i = 0; i < paths.size() && i < most; ++i)
    out += (out.empty() ? "" : ", ") + std::string(BaseName(paths[i]));
  if (paths.size() > most) out += " and " + std::to_string(paths.size() - most) + " more";
  return out;
}

void Run(const TreeInput& in, FindingSink& sink) {
  // A library reached as /lib/x/librocblas.so.4 and as migraphx/lib/../../librocblas.so.4 is
  // one file: the gap is keyed by its real path and shown at its audited path, if any.
  std::map<std::string, std::string> audited;  // real path -> walk path
  // (Libraries of a closure are host ELF files: their slots are kept.)
  for (const Boxed<InspectedFile>& f : in.files)
    if (f) audited.emplace(f->walked.real_path, f->walked.path);
  // (lacking library's real path, target) -> the gap, in a stable order.
  std::map<std::pair<std::string, std::string>, Gap> gaps;
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::string, TargetId> targets;
  for (size_t i = 0; i < in.files.size(); ++i) {
    if (!in.loads[i]) continue;
    const DeviceStack& stack = in.loads[i]->device_stack;
    if (stack.libraries.size() < 2) continue;
    for (const TargetSpread& t : stack.targets) {
      if (t.lacking.empty() || t.serving.empty()) continue;
      // A library shown where the audit found it, else as the loader did.
      auto shown = [&](size_t lib) {
        auto a = audited.find(stack.library_paths[lib]);
        return a != audited.end() ? a->second : NormalizePath(stack.libraries[lib]);
      };
      for (size_t lacking : t.lacking) {
        std::pair<std::string, std::string> key{stack.library_paths[lacking], t.target.str()};
        auto [it, fresh] = gaps.try_emplace(key, Gap{shown(lacking), {}, {}});
        if (fresh) order.push_back(key);
        for (size_t s : t.serving) AddOnce(&it->second.serving, shown(s));
        AddOnce(&it->second.consumers, in.files[i]->walked.path);
        targets.emplace(key.second, t.target);
      }
    }
  }
  for (const auto& key : order) {
    const Gap& gap = gaps[key];
    const TargetId& target = targets.at(key.second);
    std::string self(BaseName(gap.library));
    Finding f = MakeFinding(kRules[0], gap.library);
    f.SetMessage(
        self + " has no device code for " + key.second + ", which " + Names(gap.serving) +
        (gap.serving.size() == 1 ? " serves" : " serve") + " in the same process; on a " + target.processor +
        " the GPU calls into " + self + " fail at run time in " + std::to_string(gap.consumers.size()) +
        (gap.consumers.size() == 1 ? " audited file" : " audited files") + " (" + Names(gap.consumers) + ")");
    f.SetHint("rebuild " + self + " with " + key.second + " in GPU_TARGETS, or drop " + key.second +
              " from " + Names(gap.serving));
    f.fields["arch"] = key.second;
    f.fields["lacking"] = std::vector<std::string>{gap.library};
    f.fields["serving"] = gap.serving;
    f.fields["consumers"] = gap.consumers;
    f.fields["library"] = gap.library;  // `lacking` as a string: it is always one library
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kStackArchGapCheck{"stack_arch_gap", kRules, TreeCheck{Run}, kNeedsDeviceCode};

}  // namespace rocm_audit
