#include "loom/spectral/tensor.hpp"

#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"

namespace loom::spectral {

namespace {
struct KindEntry {
  TensorKind kind;
  std::string_view name;
  TensorShape shape;
};
constexpr KindEntry kinds[] = {
    {TensorKind::scalar, "scalar", {0, {1, 1, 1}, false}}, {TensorKind::a, "a", {1, {4, 1, 1}, false}},
    {TensorKind::aa, "aa", {2, {4, 4, 1}, true}},          {TensorKind::ab, "ab", {2, {4, 4, 1}, false}},
    {TensorKind::abb, "abb", {3, {4, 4, 4}, true}},        {TensorKind::iaa, "iaa", {3, {3, 4, 4}, true}},
    {TensorKind::i, "i", {1, {3, 1, 1}, false}},           {TensorKind::ij, "ij", {2, {3, 3, 1}, false}},
    {TensorKind::ii, "ii", {2, {3, 3, 1}, true}},
};
}  // namespace

TensorShape shape_of(TensorKind kind) {
  for (const auto& e : kinds)
    if (e.kind == kind) return e.shape;
  throw Error("shape_of: unknown tensor kind");
}

std::string_view to_string(TensorKind kind) {
  for (const auto& e : kinds)
    if (e.kind == kind) return e.name;
  return "?";
}

TensorKind parse_tensor_kind(std::string_view text, std::string_view key) {
  for (const auto& e : kinds)
    if (e.name == text) return e.kind;
  throw UsageError(
      io::invalid_value_message(key, std::string(text), "one of scalar, a, aa, ab, abb, iaa, i, ij, ii"));
}

}  // namespace loom::spectral
