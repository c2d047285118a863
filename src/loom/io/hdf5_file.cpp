#include "loom/io/hdf5_file.hpp"

#include <hdf5.h>

#include <fmt/format.h>

#include <numeric>

#include "loom/core/error.hpp"

namespace loom::io {
namespace {

// HDF5 prints its own error stack by default; loom reports errors itself.
struct SilenceHdf5 {
  SilenceHdf5() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }
};
const SilenceHdf5 silence_hdf5;

hid_t check(hid_t id, const std::string& what, const std::filesystem::path& path) {
  if (id < 0) throw Error(fmt::format("HDF5: {} failed in {}", what, path.string()));
  return id;
}
void check_status(herr_t status, const std::string& what, const std::filesystem::path& path) {
  if (status < 0) throw Error(fmt::format("HDF5: {} failed in {}", what, path.string()));
}

struct Handle {  // closes an HDF5 id with the matching function
  hid_t id;
  herr_t (*close)(hid_t);
  ~Handle() {
    if (id >= 0) close(id);
  }
};

std::size_t product(const std::vector<std::size_t>& dims) {
  return std::accumulate(dims.begin(), dims.end(), std::size_t{1}, std::multiplies<>());
}

}  // namespace

Hdf5Writer::Hdf5Writer(std::filesystem::path path) : file_(std::move(path)) {
  id_ = check(H5Fcreate(file_.tmp().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "create", file_.tmp());
}

Hdf5Writer::~Hdf5Writer() { close(); }

void Hdf5Writer::close() {
  if (id_ >= 0) H5Fclose(static_cast<hid_t>(id_));
  id_ = -1;
}

namespace {
// A new dataset of `dims` (intermediate groups made as needed).
Handle create_dataset(hid_t file, const std::filesystem::path& path, const std::string& name,
                      const std::vector<std::size_t>& dims, hid_t file_type) {
  std::vector<hsize_t> shape(dims.begin(), dims.end());
  Handle space{
      check(H5Screate_simple(static_cast<int>(shape.size()), shape.data(), nullptr), "dataspace " + name, path),
      H5Sclose};
  Handle links{H5Pcreate(H5P_LINK_CREATE), H5Pclose};
  H5Pset_create_intermediate_group(links.id, 1);
  return Handle{check(H5Dcreate2(file, name.c_str(), file_type, space.id, links.id, H5P_DEFAULT, H5P_DEFAULT),
                      "create dataset " + name, path),
                H5Dclose};
}
}  // namespace

void Hdf5Writer::write_raw(const std::string& name, const void* data, std::size_t size,
                           const std::vector<std::size_t>& dims, std::int64_t memory_type, std::int64_t file_type) {
  LOOM_REQUIRE(id_ >= 0, "Hdf5Writer: write after commit");
  LOOM_REQUIRE(product(dims) == size,
               fmt::format("Hdf5Writer: dataset {} has {} values but its shape holds {}", name, size, product(dims)));
  Handle set = create_dataset(static_cast<hid_t>(id_), file_.tmp(), name, dims, static_cast<hid_t>(file_type));
  if (size > 0)
    check_status(H5Dwrite(set.id, static_cast<hid_t>(memory_type), H5S_ALL, H5S_ALL, H5P_DEFAULT, data),
                 "write " + name, file_.tmp());
}

void Hdf5Writer::create_double(const std::string& name, const std::vector<std::size_t>& dims) {
  LOOM_REQUIRE(id_ >= 0, "Hdf5Writer: write after commit");
  create_dataset(static_cast<hid_t>(id_), file_.tmp(), name, dims, H5T_IEEE_F64LE);
}

void Hdf5Writer::write_block(const std::string& name, const std::vector<std::size_t>& start,
                             const std::vector<std::size_t>& count, std::span<const double> data) {
  LOOM_REQUIRE(id_ >= 0, "Hdf5Writer: write after commit");
  LOOM_REQUIRE(
      product(count) == data.size() && start.size() == count.size(),
      fmt::format("Hdf5Writer::write_block: {} values for a block of {} in {}", data.size(), product(count), name));
  if (data.empty()) return;
  Handle set{check(H5Dopen2(static_cast<hid_t>(id_), name.c_str(), H5P_DEFAULT), "open dataset " + name, file_.tmp()),
             H5Dclose};
  Handle file_space{H5Dget_space(set.id), H5Sclose};
  const std::vector<hsize_t> first(start.begin(), start.end()), size(count.begin(), count.end());
  check_status(H5Sselect_hyperslab(file_space.id, H5S_SELECT_SET, first.data(), nullptr, size.data(), nullptr),
               "select a block of " + name, file_.tmp());
  const hsize_t values = data.size();
  Handle memory_space{H5Screate_simple(1, &values, nullptr), H5Sclose};
  check_status(H5Dwrite(set.id, H5T_NATIVE_DOUBLE, memory_space.id, file_space.id, H5P_DEFAULT, data.data()),
               "write a block of " + name, file_.tmp());
}

void Hdf5Writer::write(const std::string& name, std::span<const double> d, const std::vector<std::size_t>& dims) {
  write_raw(name, d.data(), d.size(), dims, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE);
}
void Hdf5Writer::write(const std::string& name, std::span<const float> d, const std::vector<std::size_t>& dims) {
  write_raw(name, d.data(), d.size(), dims, H5T_NATIVE_FLOAT, H5T_IEEE_F32LE);
}
void Hdf5Writer::write(const std::string& name, std::span<const std::int64_t> d,
                       const std::vector<std::size_t>& dims) {
  write_raw(name, d.data(), d.size(), dims, H5T_NATIVE_INT64, H5T_STD_I64LE);
}
void Hdf5Writer::write(const std::string& name, std::span<const std::int32_t> d,
                       const std::vector<std::size_t>& dims) {
  write_raw(name, d.data(), d.size(), dims, H5T_NATIVE_INT32, H5T_STD_I32LE);
}

namespace {
void write_attribute(hid_t file, const std::filesystem::path& path, const std::string& object,
                     const std::string& name, hid_t type, const void* value) {
  Handle obj{check(H5Oopen(file, object.c_str(), H5P_DEFAULT), "open " + object, path), H5Oclose};
  Handle space{H5Screate(H5S_SCALAR), H5Sclose};
  if (H5Aexists(obj.id, name.c_str()) > 0) H5Adelete(obj.id, name.c_str());
  Handle attr{check(H5Acreate2(obj.id, name.c_str(), type, space.id, H5P_DEFAULT, H5P_DEFAULT),
                    "create attribute " + name, path),
              H5Aclose};
  check_status(H5Awrite(attr.id, type, value), "write attribute " + name, path);
}
}  // namespace

void Hdf5Writer::attribute(const std::string& object, const std::string& name, double value) {
  write_attribute(static_cast<hid_t>(id_), file_.tmp(), object, name, H5T_NATIVE_DOUBLE, &value);
}
void Hdf5Writer::attribute(const std::string& object, const std::string& name, std::int64_t value) {
  write_attribute(static_cast<hid_t>(id_), file_.tmp(), object, name, H5T_NATIVE_INT64, &value);
}
void Hdf5Writer::attribute(const std::string& object, const std::string& name, const std::string& value) {
  Handle type{H5Tcopy(H5T_C_S1), H5Tclose};
  H5Tset_size(type.id, std::max<std::size_t>(value.size(), 1));
  H5Tset_strpad(type.id, H5T_STR_NULLPAD);
  std::string padded = value.empty() ? std::string(1, '\0') : value;
  write_attribute(static_cast<hid_t>(id_), file_.tmp(), object, name, type.id, padded.data());
}

void Hdf5Writer::commit() {
  LOOM_REQUIRE(id_ >= 0, "Hdf5Writer: commit twice");
  check_status(H5Fflush(static_cast<hid_t>(id_), H5F_SCOPE_GLOBAL), "flush", file_.tmp());
  check_status(H5Fclose(static_cast<hid_t>(id_)), "close", file_.tmp());
  id_ = -1;
  file_.commit();
}

Hdf5Reader::Hdf5Reader(const std::filesystem::path& path) : path_(path) {
  if (std::filesystem::is_directory(path)) throw UsageError(fmt::format("\"{}\": a folder, not a file", path.string()));
  if (!std::filesystem::is_regular_file(path)) throw UsageError(fmt::format("\"{}\": no such file", path.string()));
  id_ = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id_ < 0) throw UsageError(fmt::format("\"{}\": not an HDF5 file", path.string()));
}

Hdf5Reader::~Hdf5Reader() {
  if (id_ >= 0) H5Fclose(static_cast<hid_t>(id_));
}

bool Hdf5Reader::has(const std::string& name) const {
  // Walk the path one link at a time: H5Lexists fails on a missing intermediate group.
  std::string partial;
  std::size_t start = name.front() == '/' ? 1 : 0;
  while (start <= name.size()) {
    const std::size_t end = std::min(name.find('/', start), name.size());
    partial += "/" + name.substr(start, end - start);
    if (H5Lexists(static_cast<hid_t>(id_), partial.c_str(), H5P_DEFAULT) <= 0) return false;
    start = end + 1;
  }
  return true;
}

bool Hdf5Reader::has_attribute(const std::string& object, const std::string& name) const {
  return H5Aexists_by_name(static_cast<hid_t>(id_), object.c_str(), name.c_str(), H5P_DEFAULT) > 0;
}

std::vector<std::size_t> Hdf5Reader::dims(const std::string& name) const {
  Handle set{check(H5Dopen2(static_cast<hid_t>(id_), name.c_str(), H5P_DEFAULT), "open dataset " + name, path_),
             H5Dclose};
  Handle space{H5Dget_space(set.id), H5Sclose};
  const int rank = H5Sget_simple_extent_ndims(space.id);
  std::vector<hsize_t> d(static_cast<std::size_t>(std::max(rank, 0)));
  H5Sget_simple_extent_dims(space.id, d.data(), nullptr);
  return {d.begin(), d.end()};
}

void Hdf5Reader::read_raw(const std::string& name, void* out, std::size_t size, std::int64_t memory_type) const {
  Handle set{check(H5Dopen2(static_cast<hid_t>(id_), name.c_str(), H5P_DEFAULT), "open dataset " + name, path_),
             H5Dclose};
  if (size > 0)
    check_status(H5Dread(set.id, static_cast<hid_t>(memory_type), H5S_ALL, H5S_ALL, H5P_DEFAULT, out), "read " + name,
                 path_);
}

std::vector<double> Hdf5Reader::read_double(const std::string& name) const {
  std::vector<double> v(product(dims(name)));
  read_raw(name, v.data(), v.size(), H5T_NATIVE_DOUBLE);
  return v;
}
std::vector<double> Hdf5Reader::read_double_block(const std::string& name, const std::vector<std::size_t>& start,
                                                  const std::vector<std::size_t>& count) const {
  std::vector<double> v(product(count));
  if (v.empty()) return v;
  Handle set{check(H5Dopen2(static_cast<hid_t>(id_), name.c_str(), H5P_DEFAULT), "open dataset " + name, path_),
             H5Dclose};
  Handle file_space{H5Dget_space(set.id), H5Sclose};
  const std::vector<hsize_t> first(start.begin(), start.end()), size(count.begin(), count.end());
  LOOM_REQUIRE(int(first.size()) == H5Sget_simple_extent_ndims(file_space.id) && size.size() == first.size(),
               "Hdf5Reader::read_double_block: start and count need the dataset's rank");
  check_status(H5Sselect_hyperslab(file_space.id, H5S_SELECT_SET, first.data(), nullptr, size.data(), nullptr),
               "select a block of " + name, path_);
  const hsize_t values = v.size();
  Handle memory_space{H5Screate_simple(1, &values, nullptr), H5Sclose};
  check_status(H5Dread(set.id, H5T_NATIVE_DOUBLE, memory_space.id, file_space.id, H5P_DEFAULT, v.data()),
               "read a block of " + name, path_);
  return v;
}

std::vector<float> Hdf5Reader::read_float(const std::string& name) const {
  std::vector<float> v(product(dims(name)));
  read_raw(name, v.data(), v.size(), H5T_NATIVE_FLOAT);
  return v;
}
std::vector<std::int64_t> Hdf5Reader::read_int64(const std::string& name) const {
  std::vector<std::int64_t> v(product(dims(name)));
  read_raw(name, v.data(), v.size(), H5T_NATIVE_INT64);
  return v;
}
std::vector<std::int32_t> Hdf5Reader::read_int32(const std::string& name) const {
  std::vector<std::int32_t> v(product(dims(name)));
  read_raw(name, v.data(), v.size(), H5T_NATIVE_INT32);
  return v;
}

namespace {
Handle open_attribute(hid_t file, const std::filesystem::path& path, const std::string& object,
                      const std::string& name) {
  Handle obj{check(H5Oopen(file, object.c_str(), H5P_DEFAULT), "open " + object, path), H5Oclose};
  return Handle{check(H5Aopen(obj.id, name.c_str(), H5P_DEFAULT), "open attribute " + name, path), H5Aclose};
}
}  // namespace

double Hdf5Reader::attribute_double(const std::string& object, const std::string& name) const {
  Handle attr = open_attribute(static_cast<hid_t>(id_), path_, object, name);
  double v = 0;
  check_status(H5Aread(attr.id, H5T_NATIVE_DOUBLE, &v), "read attribute " + name, path_);
  return v;
}
std::int64_t Hdf5Reader::attribute_int64(const std::string& object, const std::string& name) const {
  Handle attr = open_attribute(static_cast<hid_t>(id_), path_, object, name);
  std::int64_t v = 0;
  check_status(H5Aread(attr.id, H5T_NATIVE_INT64, &v), "read attribute " + name, path_);
  return v;
}
std::string Hdf5Reader::attribute_string(const std::string& object, const std::string& name) const {
  Handle attr = open_attribute(static_cast<hid_t>(id_), path_, object, name);
  Handle type{H5Aget_type(attr.id), H5Tclose};
  std::string v(H5Tget_size(type.id), '\0');
  check_status(H5Aread(attr.id, type.id, v.data()), "read attribute " + name, path_);
  v.resize(v.find('\0') == std::string::npos ? v.size() : v.find('\0'));
  return v;
}

}  // namespace loom::io
