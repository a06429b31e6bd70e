// add_library/add_executable(IMPORTED), set_target_properties, set_property(TARGET),
// get_target_property and the target_* commands: the imported targets a package defines,
// and the files their properties name (recorded as references when set).
#include "audit/cmake/evaluator.h"
#include "audit/cmake/genex.h"
#include "audit/cmake/lists.h"

namespace rocm_audit {
namespace {

bool Names(const std::string& property, std::string_view prefix) {
  return property == prefix || (property.size() > prefix.size() + 1 && property.starts_with(prefix) &&
                                property[prefix.size()] == '_');
}

}  // namespace

void CMakeEvaluator::SetProperty(CMakeTarget& t, const std::string& name, const CMakeValue& value,
                                 bool append) {
  // Appending to an unknown value, or an unknown value, leaves the property unknown.
  CMakeValue& slot = t.properties[name];
  if (!append || (slot.known && slot.text.empty()) || (slot.known && !value.known))
    slot = value;
  else if (slot.known)
    slot.text += ";" + value.text;
  t.set_at[name] = UserSite();
  const bool location = Names(name, "IMPORTED_LOCATION") || Names(name, "IMPORTED_IMPLIB");
  const bool includes =
      name == "INTERFACE_INCLUDE_DIRECTORIES" || name == "INTERFACE_SYSTEM_INCLUDE_DIRECTORIES";
  const bool links = name == "INTERFACE_LINK_LIBRARIES";
  if (!location && !includes && !links) return;
  if (!value.known) {
    Skip(name, name + " of " + t.name + " is not known here (" + value.why + "); its files are not checked");
    return;
  }
  if (location) {
    Reference(value.text, name, t.name);
    return;
  }
  for (const std::string& item : InstallInterfaceItems(value.text)) {
    if (item.empty() || item[0] != '/') continue;  // targets, -l flags, relative names
    Reference(item, name, t.name);
  }
}

bool CMakeEvaluator::Targets(const std::string& n, const std::vector<Arg>& a) {
  if (n == "add_library" || n == "add_executable") {
    if (a.empty() || !a[0].value.known) return true;
    bool imported = false, alias = false;
    std::string type = n == "add_executable" ? "EXECUTABLE" : "";
    for (size_t k = 1; k < a.size(); ++k) {
      const std::string& t = a[k].value.text;
      if (t == "IMPORTED") imported = true;
      if (t == "ALIAS") alias = true;
      if (n == "add_library" && (t == "SHARED" || t == "STATIC" || t == "MODULE" || t == "UNKNOWN" ||
                                 t == "INTERFACE" || t == "OBJECT"))
        type = t;
    }
    if (!imported && !alias) {
      Skip(n, n + "(" + a[0].value.text + ") builds a target in the consumer's project; not evaluated");
      return true;
    }
    if (FindTarget(a[0].value.text)) {
      Fail(n + " cannot create target \"" + a[0].value.text +
           "\" because another target with the same name already exists");
      return true;
    }
    CMakeTarget target{a[0].value.text, alias ? "ALIAS" : type, imported, {}, {},
                       UserSite(),      policy_versions_.back()};
    if (alias && a.size() >= 3) target.properties["ALIASED_TARGET"] = a[2].value;
    state_.targets.push_back(std::move(target));
    return true;
  }
  if (n == "set_target_properties") {
    size_t props = 0;
    while (props < a.size() && a[props].value.text != "PROPERTIES") ++props;
    for (size_t t = 0; t < props; ++t) {
      CMakeTarget* target = FindTarget(a[t].value.text);
      if (!target) {
        if (!dependency_seen_) Fail("set_target_properties: cannot find target " + a[t].value.text);
        continue;
      }
      for (size_t k = props + 1; k + 1 < a.size(); k += 2)
        SetProperty(*target, a[k].value.text, a[k + 1].value, false);
    }
    return true;
  }
  if (n == "set_property") {
    if (a.empty() || a[0].value.text != "TARGET")
      return true;  // GLOBAL, DIRECTORY, SOURCE, ...: no target facts
    std::vector<std::string> targets;
    bool append = false;
    size_t k = 1;
    for (; k < a.size(); ++k) {
      const std::string& t = a[k].value.text;
      if (t == "APPEND" || t == "APPEND_STRING")
        append = true;
      else if (t == "PROPERTY")
        break;
      else
        targets.push_back(t);
    }
    if (k + 1 >= a.size()) return true;
    const std::string property = a[k + 1].value.text;
    std::vector<std::string> values;
    CMakeValue value;
    for (size_t v = k + 2; v < a.size(); ++v) {
      if (!a[v].value.known) value = a[v].value;
      values.push_back(a[v].value.text);
    }
    if (value.known) value.text = JoinList(values);
    for (const std::string& name : targets)
      if (CMakeTarget* target = FindTarget(name)) SetProperty(*target, property, value, append);
    return true;
  }
  if (n == "get_target_property" || (n == "get_property" && a.size() >= 5 && a[1].value.text == "TARGET")) {
    if (a.size() < 3) return true;
    const std::string var = a[0].value.text;
    const std::string target_name = n == "get_target_property" ? a[1].value.text : a[2].value.text;
    const std::string property = n == "get_target_property" ? a[2].value.text : a.back().value.text;
    CMakeTarget* target = FindTarget(target_name);
    if (!target) {
      Set(var, dependency_seen_
                   ? CMakeValue::Unknown("a property of " + target_name + ", a target of a dependency")
                   : CMakeValue{var + "-NOTFOUND"});
      return true;
    }
    auto it = target->properties.find(property);
    Set(var, it == target->properties.end() ? CMakeValue{var + "-NOTFOUND"} : it->second);
    return true;
  }
  if (n == "target_link_libraries" || n == "target_include_directories" ||
      n == "target_compile_definitions" || n == "target_compile_options" || n == "target_compile_features" ||
      n == "target_link_options" || n == "target_link_directories" || n == "target_sources" ||
      n == "target_precompile_headers") {
    if (a.empty()) return true;
    CMakeTarget* target = FindTarget(a[0].value.text);
    if (!target) return true;
    std::string property = n == "target_link_libraries"        ? "INTERFACE_LINK_LIBRARIES"
                           : n == "target_include_directories" ? "INTERFACE_INCLUDE_DIRECTORIES"
                                                               : "INTERFACE_" + ToUpper(n.substr(7));
    bool interface = n == "target_link_libraries";  // the plain signature is public
    for (size_t k = 1; k < a.size(); ++k) {
      const std::string& t = a[k].value.text;
      if (!a[k].quoted && (t == "INTERFACE" || t == "PUBLIC")) {
        interface = true;
        continue;
      }
      if (!a[k].quoted && (t == "PRIVATE" || t == "LINK_PRIVATE")) {
        interface = false;
        continue;
      }
      if (!a[k].quoted && (t == "SYSTEM" || t == "BEFORE" || t == "AFTER" || t == "LINK_PUBLIC" ||
                           t == "LINK_INTERFACE_LIBRARIES")) {
        if (t == "SYSTEM" && n == "target_include_directories")
          property = "INTERFACE_SYSTEM_INCLUDE_DIRECTORIES";
        continue;
      }
      if (interface) SetProperty(*target, property, a[k].value, true);
    }
    return true;
  }
  return false;
}

}  // namespace rocm_audit
