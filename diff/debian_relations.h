// Debian's package relations as dpkg judges them: versions compared as
// lib/dpkg/version.c compares them (epoch, then upstream version and revision by
// verrevcmp: '~' before anything, letters before other characters, digit runs as numbers),
// and one relation of Conflicts/Breaks/Replaces ("libt1 (<< 2.0)", "libt1:amd64") satisfied by a
// package of a name and version, or by one that Provides the name (deb-control(5),
// Policy 7.5).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

/// <0, 0 or >0 as dpkg --compare-versions orders `a` and `b`.
int CompareDebianVersions(std::string_view a, std::string_view b);

/// Whether the relation `relation` (one entry of a relation field, as written) is satisfied
/// by package `name` at `version` with `provides` (its Provides, as written). A versioned
/// relation is satisfied by a Provides only when it provides a version ("name (= v)").
bool RelationSatisfiedBy(std::string_view relation, std::string_view name, std::string_view version,
                         const std::vector<std::string>& provides);

}  // namespace rocm_audit
