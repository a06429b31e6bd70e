// add_library/add_executable(IMPORTED), set_target_properties, set_property(TARGET),
// get_target_property and the target_* commands: the imported targets a package defines,
// and the files their properties name (recorded as references when set).
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "audit/cmake/commands.h"
#include "audit/cmake/genex.h"
#include "audit/cmake/imported_location.h"
#include "audit/cmake/lists.h"

namespace rocm_audit {
namespace {

bool Names(const std::string& property, std::string_view prefix) {
  return property == prefix || (property.size() > prefix.size() + 1 && property.starts_with(prefix) &&
                                property[prefix.size()] == '_');
}

void StoreProperty(Interpreter& in, CMakeTarget& t, const std::string& name, const CMakeValue& value,
                   bool append) {
  // Appending to an unknown value, or an unknown value, leaves the property unknown.
  CMakeValue& slot = t.properties[name];
  if (!append || (slot.known && slot.text.empty()) || (slot.known && !value.known))
    slot = value;
  else if (slot.known)
    slot.text += ";" + value.text;
  t.set_at[name] = in.rec().UserSite();
}

// The installed files `value`, set as property `name` of `t`, names: recorded as references.
void ReferenceFiles(Interpreter& in, const CMakeTarget& t, const std::string& name, const CMakeValue& value) {
  // A target the consumer builds names no installed file: CMake checks the paths of imported
  // targets only, and a built one's usage requirements take $<BUILD_INTERFACE:...>.
  if (!t.imported) return;
  const bool location = Names(name, "IMPORTED_LOCATION") || Names(name, "IMPORTED_IMPLIB");
  const bool includes =
      name == "INTERFACE_INCLUDE_DIRECTORIES" || name == "INTERFACE_SYSTEM_INCLUDE_DIRECTORIES";
  const bool links = name == "INTERFACE_LINK_LIBRARIES";
  if (!location && !includes && !links) return;
  if (!value.known) {
    in.Skip(name,
            name + " of " + t.name + " is not known here (" + value.why + "); its files are not checked");
    return;
  }
  if (location) {
    in.Reference(value.text, name, t.name);
    return;
  }
  // $<TARGET_PROPERTY:t,p> of a target defined so far reads what is set on it now (a property
  // set by a later command is not seen: its condition reads false, and what it guards is not
  // checked).
  const TargetPropertyLookup lookup = [&in](std::string_view target, std::string_view property) {
    std::optional<std::string> out;
    if (const CMakeTarget* d = in.targets().Find(std::string(target))) {
      auto it = d->properties.find(std::string(property));
      if (it == d->properties.end()) return std::optional<std::string>("");
      if (it->second.known) out = it->second.text;
    }
    return out;
  };
  for (const std::string& item : InstallInterfaceItems(value.text, lookup)) {
    if (item.empty() || item[0] != '/') continue;  // targets, -l flags, relative names
    in.Reference(item, name, t.name);
  }
}

void SetProperty(Interpreter& in, CMakeTarget& t, const std::string& name, const CMakeValue& value,
                 bool append) {
  StoreProperty(in, t, name, value, append);
  ReferenceFiles(in, t, name, value);
}

// The property a target_* command sets on a target's consumers.
std::string UsageProperty(const std::string& command) {
  return command == "target_link_libraries"        ? "INTERFACE_LINK_LIBRARIES"
         : command == "target_include_directories" ? "INTERFACE_INCLUDE_DIRECTORIES"
                                                   : "INTERFACE_" + ToUpper(command.substr(7));
}

// The location CMake computes for get_target_property() of LOCATION, LOCATION_<CONFIG> or
// <CONFIG>_LOCATION (cmTargetPropertyComputer::GetLocation: any name ending in _LOCATION but
// IMPORTED_LOCATION) of an imported library or executable (MappedImportedLocation);
// <target>-NOTFOUND when none is mapped. Vc's config reads
// INTERFACE_LOCATION of Vc::Vc and checks that the file exists. nullopt: not such a property.
std::optional<CMakeValue> ComputedLocation(const CMakeTarget& t, const std::string& property) {
  static const std::set<std::string> kTypes{"STATIC", "SHARED", "MODULE", "UNKNOWN", "EXECUTABLE"};
  if (!t.imported || !kTypes.count(t.type)) return std::nullopt;
  std::string config;
  if (property == "LOCATION")
    config = "NOCONFIG";
  else if (property.starts_with("LOCATION_"))
    config = property.substr(9);
  else if (property.ends_with("_LOCATION") && property != "IMPORTED_LOCATION" &&
           !property.starts_with("XCODE_ATTRIBUTE_"))
    config = property.substr(0, property.size() - 9);
  else
    return std::nullopt;
  if (const CMakeValue* location = MappedImportedLocation(t, config)) return *location;
  return CMakeValue{t.name + "-NOTFOUND"};
}

}  // namespace

// add_library, add_executable: only IMPORTED and ALIAS targets are the package's own.
Flow AddTargetCommand(Interpreter& in, const std::string& n, const Args& a) {
  if (a.empty() || !a[0].value.known) return Flow::kNormal;
  bool imported = false, alias = false;
  std::string type = n == "add_executable" ? "EXECUTABLE" : n == "add_custom_target" ? "UTILITY" : "";
  for (size_t k = 1; k < a.size(); ++k) {
    const std::string& t = a[k].value.text;
    if (t == "IMPORTED") imported = true;
    if (t == "ALIAS") alias = true;
    if (n == "add_library" && (t == "SHARED" || t == "STATIC" || t == "MODULE" || t == "UNKNOWN" ||
                               t == "INTERFACE" || t == "OBJECT"))
      type = t;
  }
  // A target the consumer builds (KDE's add_custom_target(KF5Config_QCH)) exists from here on
  // for set_target_properties and if(TARGET); what it builds is not evaluated.
  if (!imported && !alias)
    in.Skip(n, n + "(" + a[0].value.text + ") builds a target in the consumer's project; not evaluated");
  if (in.targets().Find(a[0].value.text)) {
    in.Fail(n + " cannot create target \"" + a[0].value.text +
            "\" because another target with the same name already exists");
    return Flow::kNormal;
  }
  CMakeTarget target{a[0].value.text,     alias ? "ALIAS" : type,     imported, {}, {},
                     in.rec().UserSite(), in.policy_versions().back()};
  if (alias && a.size() >= 3) target.properties["ALIASED_TARGET"] = a[2].value;
  in.targets().Add(std::move(target));
  return Flow::kNormal;
}

Flow SetTargetPropertiesCommand(Interpreter& in, const std::string&, const Args& a) {
  size_t props = 0;
  while (props < a.size() && a[props].value.text != "PROPERTIES") ++props;
  for (size_t t = 0; t < props; ++t) {
    CMakeTarget* target = in.targets().Find(a[t].value.text);
    if (!target) {
      if (!in.dependency_seen()) in.Fail("set_target_properties: cannot find target " + a[t].value.text);
      continue;
    }
    // Every property first, then the files they name: an expression reads the target's
    // properties as CMake does at generate time, when the whole call has set them (Qt 6.8's
    // Targets files set _qt_module_has_private_headers after the include directories that test it).
    for (size_t k = props + 1; k + 1 < a.size(); k += 2)
      StoreProperty(in, *target, a[k].value.text, a[k + 1].value, false);
    for (size_t k = props + 1; k + 1 < a.size(); k += 2)
      ReferenceFiles(in, *target, a[k].value.text, a[k + 1].value);
  }
  return Flow::kNormal;
}

Flow SetPropertyCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.empty() || a[0].value.text != "TARGET")
    return Flow::kNormal;  // GLOBAL, DIRECTORY, SOURCE, ...: no target facts
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
  if (k + 1 >= a.size()) return Flow::kNormal;
  const std::string property = a[k + 1].value.text;
  std::vector<std::string> values;
  CMakeValue value;
  for (size_t v = k + 2; v < a.size(); ++v) {
    if (!a[v].value.known) value = a[v].value;
    values.push_back(a[v].value.text);
  }
  if (value.known) value.text = JoinList(values);
  for (const std::string& name : targets)
    if (CMakeTarget* target = in.targets().Find(name)) SetProperty(in, *target, property, value, append);
  return Flow::kNormal;
}

// get_target_property(<var> <target> <property>), get_property(<var> TARGET <target> PROPERTY <property>).
Flow GetTargetPropertyCommand(Interpreter& in, const std::string& n, const Args& a) {
  if (a.size() < 3) return Flow::kNormal;
  const std::string var = a[0].value.text;
  const std::string target_name = n == "get_target_property" ? a[1].value.text : a[2].value.text;
  const std::string property = n == "get_target_property" ? a[2].value.text : a.back().value.text;
  CMakeTarget* target = in.targets().Find(target_name);
  if (!target) {
    in.Set(var, in.dependency_seen()
                    ? CMakeValue::Unknown("a property of " + target_name + ", a target of a dependency")
                    : CMakeValue{var + "-NOTFOUND"});
    return Flow::kNormal;
  }
  if (std::optional<CMakeValue> location = ComputedLocation(*target, property)) {
    in.Set(var, *location);
    return Flow::kNormal;
  }
  auto it = target->properties.find(property);
  in.Set(var, it == target->properties.end() ? CMakeValue{var + "-NOTFOUND"} : it->second);
  return Flow::kNormal;
}

// get_property: of a target, as get_target_property; of anything else, unknown here.
Flow GetPropertyCommand(Interpreter& in, const std::string& n, const Args& a) {
  const bool of_target = a.size() >= 2 && a[1].value.text == "TARGET";
  if (of_target && a.size() >= 5) return GetTargetPropertyCommand(in, n, a);
  if (!of_target) return UnknownResultCommand(in, n, a);
  return in.NotEvaluated(n);
}

// target_link_libraries, target_include_directories, target_compile_definitions, ...: what
// they give the target's consumers (INTERFACE, PUBLIC) sets its INTERFACE_* property.
Flow TargetUsageCommand(Interpreter& in, const std::string& n, const Args& a) {
  if (a.empty()) return Flow::kNormal;
  CMakeTarget* target = in.targets().Find(a[0].value.text);
  if (!target) return Flow::kNormal;
  std::string property = UsageProperty(n);
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
    if (interface) SetProperty(in, *target, property, a[k].value, true);
  }
  return Flow::kNormal;
}

}  // namespace rocm_audit
