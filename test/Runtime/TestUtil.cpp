//===- TestUtil.cpp - Helpers for the mlxrt unit tests ---------*- C++ -*-===//

#include "TestUtil.h"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace mlxrt_test {

TempDir::TempDir() {
  const char *base = getenv("TMPDIR");
  std::string pattern =
      std::string(base && *base ? base : "/tmp") + "/mlxrt-test-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    ADD_FAILURE() << "mkdtemp failed for " << pattern;
  Path = buf.data();
}

TempDir::~TempDir() {
  for (const std::string &name : list())
    unlink(file(name).c_str());
  rmdir(Path.c_str());
}

std::string TempDir::write(const std::string &name,
                           const std::string &bytes) const {
  std::string p = file(name);
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  EXPECT_TRUE(out.good()) << "cannot write " << p;
  return p;
}

std::vector<std::string> TempDir::list() const {
  std::vector<std::string> names;
  if (DIR *d = opendir(Path.c_str())) {
    while (struct dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..")
        names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string npyDict(const std::string &descr, const std::string &shape,
                    bool fortran) {
  return "{'descr': '" + descr +
         "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + shape + ", }";
}

std::string npyFile(const std::string &dict, const std::string &data, int major,
                    bool pad) {
  size_t prefix = major == 1 ? 10 : 12;
  std::string header = dict;
  if (pad) {
    header += ' ';
    while ((prefix + header.size() + 1) % 64)
      header += ' ';
    header += '\n';
  }
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  uint32_t len = static_cast<uint32_t>(header.size());
  for (size_t i = 0; i < prefix - 8; ++i)
    out += static_cast<char>((len >> (8 * i)) & 0xff);
  return out + header + data;
}

namespace {
void put16(std::string &s, uint32_t v) {
  s += static_cast<char>(v & 0xff);
  s += static_cast<char>((v >> 8) & 0xff);
}
void put32(std::string &s, uint32_t v) {
  put16(s, v & 0xffff);
  put16(s, v >> 16);
}
void put64(std::string &s, uint64_t v) {
  put32(s, static_cast<uint32_t>(v));
  put32(s, static_cast<uint32_t>(v >> 32));
}

std::string rawDeflate(const std::string &data) {
  z_stream z{};
  deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8,
               Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()), '\0');
  z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef *>(&out[0]);
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}
} // namespace

std::string zipFile(const std::vector<ZipEntry> &entries, bool zip64) {
  std::string out, central;
  for (const ZipEntry &e : entries) {
    std::string payload = e.deflate ? rawDeflate(e.data) : e.data;
    payload = payload.substr(0, e.cut);
    uint32_t crc = static_cast<uint32_t>(
        crc32(0, reinterpret_cast<const Bytef *>(e.data.data()),
              static_cast<uInt>(e.data.size())));
    uint64_t offset = out.size();
    uint32_t small = zip64 ? 0xffffffffu : 0;
    std::string extra;
    if (zip64) {
      put16(extra, 1);
      put16(extra, 24);
      put64(extra, e.data.size());
      put64(extra, payload.size());
      put64(extra, offset);
    }
    // Local header: sizes like numpy, which defers them to the zip64 extra.
    put32(out, 0x04034b50);
    put16(out, zip64 ? 45 : 20);
    put16(out, 0);
    put16(out, e.deflate ? 8 : 0);
    put32(out, 0); // time, date
    put32(out, crc);
    put32(out, zip64 ? small : static_cast<uint32_t>(payload.size()));
    put32(out, zip64 ? small : static_cast<uint32_t>(e.data.size()));
    put16(out, static_cast<uint32_t>(e.name.size()));
    put16(out, zip64 ? 20 : 0);
    out += e.name;
    if (zip64) {
      put16(out, 1);
      put16(out, 16);
      put64(out, e.data.size());
      put64(out, payload.size());
    }
    out += payload;

    put32(central, 0x02014b50);
    put16(central, zip64 ? 45 : 20);
    put16(central, zip64 ? 45 : 20);
    put16(central, 0);
    put16(central, e.deflate ? 8 : 0);
    put32(central, 0);
    put32(central, crc);
    put32(central, zip64 ? small : static_cast<uint32_t>(payload.size()));
    put32(central, zip64 ? small : static_cast<uint32_t>(e.data.size()));
    put16(central, static_cast<uint32_t>(e.name.size()));
    put16(central, static_cast<uint32_t>(extra.size()));
    put16(central, 0); // comment
    put16(central, 0); // disk
    put16(central, 0); // internal attributes
    put32(central, 0); // external attributes
    put32(central, zip64 ? small : static_cast<uint32_t>(offset));
    central += e.name + extra;
  }
  uint64_t dirOffset = out.size();
  out += central;
  if (zip64) {
    uint64_t recOffset = out.size();
    put32(out, 0x06064b50);
    put64(out, 44);
    put16(out, 45);
    put16(out, 45);
    put32(out, 0);
    put32(out, 0);
    put64(out, entries.size());
    put64(out, entries.size());
    put64(out, central.size());
    put64(out, dirOffset);
    put32(out, 0x07064b50);
    put32(out, 0);
    put64(out, recOffset);
    put32(out, 1);
  }
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, zip64 ? 0xffff : static_cast<uint32_t>(entries.size()));
  put16(out, zip64 ? 0xffff : static_cast<uint32_t>(entries.size()));
  put32(out, zip64 ? 0xffffffffu : static_cast<uint32_t>(central.size()));
  put32(out, zip64 ? 0xffffffffu : static_cast<uint32_t>(dirOffset));
  put16(out, 0);
  return out;
}

uint32_t getLE(const std::string &s, size_t at, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = v << 8 | static_cast<unsigned char>(s.at(at + i));
  return v;
}

void setLE(std::string &s, size_t at, int bytes, uint64_t value) {
  for (int i = 0; i < bytes; ++i)
    s.at(at + i) = static_cast<char>((value >> (8 * i)) & 0xff);
}

std::string safetensorsFile(const std::string &json, const std::string &data) {
  std::string out;
  put64(out, json.size());
  return out + json + data;
}

mlxrt_tensor tensorType(mlxrt_dtype dtype, std::vector<int64_t> dims) {
  mlxrt_tensor t;
  mlxrt_error err;
  EXPECT_EQ(mlxrt_tensor_init(&t, dtype, static_cast<int>(dims.size()),
                              dims.data(), &err),
            MLXRT_OK)
      << err.message;
  return t;
}

std::string readError(const std::string &spec, const char *entry) {
  ReadTensor r(spec, entry);
  return r.status == MLXRT_OK ? "" : r.message;
}

std::string loadError(const std::string &spec, const mlxrt_tensor &type,
                      std::vector<unsigned char> &dst, const char *entry) {
  dst.assign(type.nbytes + 1, 0xAB);
  mlxrt_error err;
  if (mlxrt_load_tensor(spec.c_str(), entry, &type, dst.data(), &err) ==
      MLXRT_OK)
    return "";
  return err.message;
}

ReadTensor::ReadTensor(const std::string &spec, const char *entry) {
  mlxrt_error err;
  status = mlxrt_read_tensor(spec.c_str(), entry, &t, &err);
  if (status != MLXRT_OK)
    message = err.message;
}

} // namespace mlxrt_test
