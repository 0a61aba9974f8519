//===- NpyTest.cpp - Reading and writing .npy ------------------*- C++ -*-===//

#include "TestUtil.h"

#include <cmath>
#include <unistd.h>

using namespace mlxrt_test;

namespace {

#include "NumpyFixtures.inc"

std::string fixture(const unsigned char *bytes, size_t n) {
  return std::string(reinterpret_cast<const char *>(bytes), n);
}

/// Bytes that exercise every byte of each element.
std::string pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i)
    s[i] = static_cast<char>(i * 37 + 11);
  return s;
}

TEST(Npy, RoundTripEveryDtype) {
  TempDir dir;
  for (int d = 0; d < MLXRT_DTYPE_COUNT; ++d) {
    auto dtype = static_cast<mlxrt_dtype>(d);
    for (std::vector<int64_t> dims :
         {std::vector<int64_t>{2, 3}, std::vector<int64_t>{},
          std::vector<int64_t>{5}, std::vector<int64_t>{0, 4},
          std::vector<int64_t>{1, 2, 1, 2, 1, 2, 1, 2}}) {
      SCOPED_TRACE(std::string(mlxrt_dtype_name(dtype)) + " rank " +
                   std::to_string(dims.size()));
      mlxrt_tensor t = tensorType(dtype, dims);
      std::string data = pattern(t.nbytes);
      if (dtype == MLXRT_DTYPE_BOOL)
        for (char &c : data)
          c = c & 1;
      t.data = &data[0];
      std::string path = dir.file("t.npy");
      mlxrt_error err;
      ASSERT_EQ(mlxrt_npy_save(path.c_str(), &t, &err), MLXRT_OK)
          << err.message;
      std::string file = readFile(path);
      EXPECT_EQ((file.size() - t.nbytes) % 64, 0u); // Data is aligned.

      ReadTensor r(path);
      ASSERT_EQ(r.status, MLXRT_OK) << r.message;
      EXPECT_TRUE(mlxrt_tensor_same_type(&r.t, &t));
      EXPECT_EQ(std::string(static_cast<char *>(r.t.data), r.t.nbytes), data);

      std::vector<unsigned char> dst;
      ASSERT_EQ(loadError(path, t, dst), "");
      EXPECT_EQ(std::string(reinterpret_cast<char *>(dst.data()), t.nbytes),
                data);
      EXPECT_EQ(dst[t.nbytes], 0xAB) << "wrote past the tensor";
    }
  }
  EXPECT_EQ(dir.list(), std::vector<std::string>{"t.npy"});
}

TEST(Npy, WritesNumpysHeader) {
  TempDir dir;
  std::vector<int32_t> v = {1, 2, 3};
  mlxrt_tensor t = tensorType(MLXRT_DTYPE_INT32, {3});
  t.data = v.data();
  ASSERT_EQ(mlxrt_npy_save(dir.file("a.npy").c_str(), &t, nullptr), MLXRT_OK);
  std::string file = readFile(dir.file("a.npy"));
  std::string dict =
      "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }";
  ASSERT_EQ(file.size(), 128u + 12u);
  EXPECT_EQ(file.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  EXPECT_EQ(file.substr(10, 118),
            dict + std::string(118 - dict.size() - 1, ' ') + "\n");
  EXPECT_EQ(file.substr(128), bytesOf(v));

  mlxrt_tensor s = tensorType(MLXRT_DTYPE_BOOL, {});
  unsigned char one = 1;
  s.data = &one;
  ASSERT_EQ(mlxrt_npy_save(dir.file("s.npy").c_str(), &s, nullptr), MLXRT_OK);
  EXPECT_EQ(readFile(dir.file("s.npy")).substr(10, 56),
            "{'descr': '|b1', 'fortran_order': False, 'shape': (), } ");
}

TEST(Npy, RoundTripBfloat16) {
  TempDir dir;
  std::vector<uint16_t> bits = {0x3f80, 0xc049, 0x7f80, 0x0001, 0x8000};
  mlxrt_tensor t = tensorType(MLXRT_DTYPE_BFLOAT16, {5});
  t.data = bits.data();
  std::string path = dir.file("b.npy");
  ASSERT_EQ(mlxrt_npy_save(path.c_str(), &t, nullptr), MLXRT_OK);
  // On disk as mx.save writes bfloat16: descr '<V2', the raw bits.
  std::string file = readFile(path);
  EXPECT_EQ(file.substr(10, 57),
            "{'descr': '<V2', 'fortran_order': False, 'shape': (5,), }");
  EXPECT_EQ(file.substr(file.size() - 10), bytesOf(bits));
  ReadTensor r(path);
  ASSERT_EQ(r.status, MLXRT_OK) << r.message;
  EXPECT_EQ(r.t.dtype, MLXRT_DTYPE_BFLOAT16);
  EXPECT_EQ(r.values<uint16_t>(), bits);
  std::vector<unsigned char> dst;
  ASSERT_EQ(loadError(path, t, dst), "");
  EXPECT_EQ(std::memcmp(dst.data(), bits.data(), 10), 0);
  // numpy's own spelling of a 2-byte void, '|V2', too.
  path = dir.write("v.npy", npyFile(npyDict("|V2", "(5,)"), bytesOf(bits)));
  ASSERT_EQ(loadError(path, t, dst), "");
  EXPECT_EQ(std::memcmp(dst.data(), bits.data(), 10), 0);
  // bfloat16 data is not float32, nor the other way round.
  EXPECT_EQ(loadError(path, tensorType(MLXRT_DTYPE_FLOAT32, {5}), dst),
            "expected float32 [5], got bfloat16 [5] in " + path);
  EXPECT_EQ(loadError(path, tensorType(MLXRT_DTYPE_FLOAT16, {5}), dst),
            "expected float16 [5], got bfloat16 [5] in " + path);
}

TEST(Npy, Bfloat16WrittenByMlx) {
  TempDir dir;
  // mx.save(mx.array([1.5, -2, 3.140625], mx.bfloat16)).
  std::string path =
      dir.write("b.npy", fixture(MlxBfloat16, sizeof(MlxBfloat16)));
  EXPECT_TRUE(contains(readFile(path), "'descr': '<V2'"));
  ReadTensor r(path);
  ASSERT_EQ(r.status, MLXRT_OK) << r.message;
  EXPECT_EQ(r.t.dtype, MLXRT_DTYPE_BFLOAT16);
  EXPECT_EQ(r.values<uint16_t>(),
            (std::vector<uint16_t>{0x3fc0, 0xc000, 0x4049}));
  // A transposed bfloat16 view, (3, 2) in Fortran order.
  ReadTensor t(dir.write(
      "t.npy", fixture(MlxBfloat16Transposed, sizeof(MlxBfloat16Transposed))));
  ASSERT_EQ(t.status, MLXRT_OK) << t.message;
  std::vector<float> values;
  for (uint16_t b : t.values<uint16_t>())
    values.push_back(mlxrt_bfloat16_to_float(b));
  EXPECT_EQ(values, (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST(Npy, Float32ConvertsToBfloat16WithRounding) {
  TempDir dir;
  // More than one conversion chunk (4096 values) with a tail.
  std::vector<float> values(10000);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>(i) * 1.001f - 5000.0f;
  values[7] = 1.00390625f; // Tie: 0x3f808000 rounds down to even.
  values[8] = 1.01171875f; // Tie: 0x3f818000 rounds up to even.
  std::string path =
      dir.write("f.npy", npyFile(npyDict("<f4", "(10000,)"), bytesOf(values)));
  mlxrt_tensor t = tensorType(MLXRT_DTYPE_BFLOAT16, {10000});
  std::vector<unsigned char> dst;
  ASSERT_EQ(loadError(path, t, dst), "");
  const uint16_t *bf = reinterpret_cast<const uint16_t *>(dst.data());
  for (size_t i = 0; i < values.size(); ++i)
    ASSERT_EQ(bf[i], mlxrt_float_to_bfloat16(values[i])) << i;
  EXPECT_EQ(bf[7], 0x3f80);
  EXPECT_EQ(bf[8], 0x3f82);
  EXPECT_EQ(dst[t.nbytes], 0xAB);
  // float16 is not converted: numpy has it natively.
  mlxrt_tensor h = tensorType(MLXRT_DTYPE_FLOAT16, {10000});
  EXPECT_EQ(loadError(path, h, dst),
            "expected float16 [10000], got float32 [10000] in " + path);
}

TEST(Npy, HeaderVersions) {
  TempDir dir;
  std::vector<int16_t> v = {-1, 2, -3, 4};
  std::string data = bytesOf(v);
  for (int major : {1, 2, 3}) {
    for (bool pad : {true, false}) {
      SCOPED_TRACE("version " + std::to_string(major) +
                   (pad ? "" : " unpadded"));
      std::string path = dir.write(
          "v.npy", npyFile(npyDict("<i2", "(2, 2)"), data, major, pad));
      ReadTensor r(path);
      ASSERT_EQ(r.status, MLXRT_OK) << r.message;
      EXPECT_EQ(r.t.dtype, MLXRT_DTYPE_INT16);
      EXPECT_EQ(r.t.rank, 2);
      EXPECT_EQ(r.values<int16_t>(), v);
    }
  }
}

TEST(Npy, HeaderSpellings) {
  TempDir dir;
  std::vector<uint8_t> v = {1, 2, 3, 4, 5, 6};
  const char *dicts[] = {
      "{'shape': (2, 3), 'fortran_order': False, 'descr': '|u1'}",
      "{\"descr\": \"<u1\", \"fortran_order\": False, \"shape\": (2,3)}",
      "{'descr':'|u1','fortran_order':False,'shape':(2L, 3L),}",
      "{ 'descr' : '|u1' , 'fortran_order' : False , 'shape' : ( 2 , 3 , ) }",
  };
  for (const char *dict : dicts) {
    SCOPED_TRACE(dict);
    std::string path = dir.write("h.npy", npyFile(dict, bytesOf(v)));
    ReadTensor r(path);
    ASSERT_EQ(r.status, MLXRT_OK) << r.message;
    EXPECT_EQ(r.t.dtype, MLXRT_DTYPE_UINT8);
    ASSERT_EQ(r.t.rank, 2);
    EXPECT_EQ(r.t.dims[1], 3);
  }
}

TEST(Npy, DescrsMapToDtypes) {
  TempDir dir;
  struct {
    const char *descr;
    mlxrt_dtype dtype;
  } cases[] = {
      {"<f2", MLXRT_DTYPE_FLOAT16}, {"<f4", MLXRT_DTYPE_FLOAT32},
      {"<f8", MLXRT_DTYPE_FLOAT64}, {"|i1", MLXRT_DTYPE_INT8},
      {"<i1", MLXRT_DTYPE_INT8},    {"<i2", MLXRT_DTYPE_INT16},
      {"<i4", MLXRT_DTYPE_INT32},   {"<i8", MLXRT_DTYPE_INT64},
      {"|u1", MLXRT_DTYPE_UINT8},   {"<u1", MLXRT_DTYPE_UINT8},
      {"<u2", MLXRT_DTYPE_UINT16},  {"<u4", MLXRT_DTYPE_UINT32},
      {"<u8", MLXRT_DTYPE_UINT64},  {"|b1", MLXRT_DTYPE_BOOL},
  };
  for (auto &c : cases) {
    SCOPED_TRACE(c.descr);
    size_t size = mlxrt_dtype_size(c.dtype);
    std::string path = dir.write("d.npy", npyFile(npyDict(c.descr, "(2,)"),
                                                  std::string(2 * size, '\1')));
    ReadTensor r(path);
    ASSERT_EQ(r.status, MLXRT_OK) << r.message;
    EXPECT_EQ(r.t.dtype, c.dtype);
  }
}

TEST(Npy, BoolsAreNormalized) {
  TempDir dir;
  std::string path = dir.write(
      "b.npy", npyFile(npyDict("|b1", "(4,)"), std::string("\0\1\2\xff", 4)));
  ReadTensor r(path);
  ASSERT_EQ(r.status, MLXRT_OK) << r.message;
  EXPECT_EQ(r.values<uint8_t>(), (std::vector<uint8_t>{0, 1, 1, 1}));
}

TEST(Npy, FilesWrittenByNumpy) {
  TempDir dir;
  ReadTensor h(dir.write("h.npy", fixture(NumpyFloat16, sizeof(NumpyFloat16))));
  ASSERT_EQ(h.status, MLXRT_OK) << h.message;
  EXPECT_EQ(h.t.dtype, MLXRT_DTYPE_FLOAT16);
  std::vector<uint16_t> hv = h.values<uint16_t>();
  ASSERT_EQ(hv.size(), 4u);
  EXPECT_EQ(mlxrt_float16_to_float(hv[0]), 1.0f);
  EXPECT_EQ(mlxrt_float16_to_float(hv[1]), -0.5f);
  EXPECT_EQ(mlxrt_float16_to_float(hv[2]), 65504.0f);
  EXPECT_EQ(mlxrt_float16_to_float(hv[3]), std::ldexp(1.0f, -24));

  ReadTensor b(dir.write("b.npy", fixture(NumpyBool, sizeof(NumpyBool))));
  ASSERT_EQ(b.status, MLXRT_OK) << b.message;
  EXPECT_EQ(b.t.dtype, MLXRT_DTYPE_BOOL);
  EXPECT_EQ(b.values<uint8_t>(), (std::vector<uint8_t>{1, 0, 0, 1}));

  ReadTensor u(dir.write("u.npy", fixture(NumpyUint64, sizeof(NumpyUint64))));
  ASSERT_EQ(u.status, MLXRT_OK) << u.message;
  EXPECT_EQ(u.values<uint64_t>(), (std::vector<uint64_t>{0, UINT64_MAX}));

  ReadTensor s(dir.write("s.npy", fixture(NumpyScalar, sizeof(NumpyScalar))));
  ASSERT_EQ(s.status, MLXRT_OK) << s.message;
  EXPECT_EQ(s.t.rank, 0);
  EXPECT_EQ(s.values<double>(), std::vector<double>{2.25});
}

TEST(Npy, FortranOrderIsReorderedToCOrder) {
  TempDir dir;
  // np.asfortranarray(np.arange(6).reshape(2, 3)): on disk 0 3 1 4 2 5.
  std::string path =
      dir.write("f.npy", fixture(NumpyFortran, sizeof(NumpyFortran)));
  ReadTensor r(path);
  ASSERT_EQ(r.status, MLXRT_OK) << r.message;
  ASSERT_EQ(r.t.rank, 2);
  EXPECT_EQ(r.t.dims[0], 2);
  EXPECT_EQ(r.t.dims[1], 3);
  EXPECT_EQ(r.values<float>(), (std::vector<float>{0, 1, 2, 3, 4, 5}));
  std::vector<unsigned char> dst;
  ASSERT_EQ(loadError(path, tensorType(MLXRT_DTYPE_FLOAT32, {2, 3}), dst), "");
  EXPECT_EQ(std::memcmp(dst.data(), r.t.data, 24), 0);
  EXPECT_EQ(dst[24], 0xAB);
  // Through the float32 -> bfloat16 conversion too.
  ASSERT_EQ(loadError(path, tensorType(MLXRT_DTYPE_BFLOAT16, {2, 3}), dst), "");
  const uint16_t *bf = reinterpret_cast<const uint16_t *>(dst.data());
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(mlxrt_bfloat16_to_float(bf[i]), static_cast<float>(i));

  // Hand-made: rank 8, and shapes where both orders agree (only one
  // dimension longer than 1, or no elements), which need no copy.
  std::vector<int16_t> v(256);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<int16_t>(i);
  path = dir.write("g.npy", npyFile(npyDict("<i2", "(2, 2, 2, 2, 2, 2, 2, 2)",
                                            /*fortran=*/true),
                                    bytesOf(v)));
  ReadTensor g(path);
  ASSERT_EQ(g.status, MLXRT_OK) << g.message;
  std::vector<int16_t> got = g.values<int16_t>();
  ASSERT_EQ(got.size(), 256u);
  for (unsigned c = 0; c < 256; ++c) {
    // The C-order index's bits, reversed, are the Fortran-order index.
    unsigned f = 0;
    for (int b = 0; b < 8; ++b)
      f |= ((c >> b) & 1u) << (7 - b);
    ASSERT_EQ(got[c], static_cast<int16_t>(f)) << c;
  }
  struct {
    const char *shape;
    size_t bytes;
  } same[] = {{"(1, 4, 1)", 8}, {"(4, 1)", 8}, {"(0, 3)", 0}, {"(3, 0, 2)", 0}};
  for (auto &c : same) {
    SCOPED_TRACE(c.shape);
    std::string data = pattern(c.bytes);
    path = dir.write("s.npy", npyFile(npyDict("<i2", c.shape, true), data));
    ReadTensor s(path);
    ASSERT_EQ(s.status, MLXRT_OK) << s.message;
    EXPECT_EQ(std::string(static_cast<char *>(s.t.data), s.t.nbytes), data);
  }
}

TEST(Npy, FilesWrittenByMlx) {
  TempDir dir;
  // mx.save writes 1-D and 0-D arrays with 'fortran_order': True.
  ReadTensor v(dir.write("v.npy", fixture(MlxSave1d, sizeof(MlxSave1d))));
  ASSERT_EQ(v.status, MLXRT_OK) << v.message;
  EXPECT_EQ(v.values<float>(), (std::vector<float>{1.5f, -2, 3}));
  ReadTensor s(dir.write("s.npy", fixture(MlxSave0d, sizeof(MlxSave0d))));
  ASSERT_EQ(s.status, MLXRT_OK) << s.message;
  EXPECT_EQ(s.t.rank, 0);
  EXPECT_EQ(s.values<float>(), std::vector<float>{2.25f});
  // A transposed view: (3, 2) in Fortran order, the bytes of the original.
  ReadTensor t(dir.write(
      "t.npy", fixture(MlxSaveTransposed, sizeof(MlxSaveTransposed))));
  ASSERT_EQ(t.status, MLXRT_OK) << t.message;
  ASSERT_EQ(t.t.rank, 2);
  EXPECT_EQ(t.t.dims[0], 3);
  EXPECT_EQ(t.values<int32_t>(), (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
}

TEST(Npy, TruncatedFiles) {
  TempDir dir;
  std::vector<float> v = {1, 2, 3};
  std::string good = npyFile(npyDict("<f4", "(3,)"), bytesOf(v));
  ASSERT_EQ(good.size(), 128u + 12u);
  std::string p = dir.file("t.npy");

  dir.write("t.npy", good.substr(0, 7));
  EXPECT_EQ(readError(p), p + ": truncated: expected 8 bytes of npy preamble "
                              "at byte offset 0, but the data ends after 7");
  dir.write("t.npy", good.substr(0, 9));
  EXPECT_EQ(readError(p), p + ": truncated: expected 2 bytes of npy header "
                              "length at byte offset 8, but the data ends "
                              "after 1");
  dir.write("t.npy", good.substr(0, 40));
  EXPECT_EQ(readError(p), p + ": truncated: expected 118 bytes of npy header "
                              "at byte offset 10, but the data ends after 30");
  dir.write("t.npy", good.substr(0, 136));
  EXPECT_EQ(readError(p), p + ": truncated: expected 12 bytes of array data "
                              "at byte offset 128, but the data ends after 8");
  // The same through the float32 -> bfloat16 path.
  std::vector<unsigned char> dst;
  EXPECT_EQ(loadError(p, tensorType(MLXRT_DTYPE_BFLOAT16, {3}), dst),
            p + ": truncated: expected 12 bytes of array data at byte offset "
                "128, but the data ends after 8");
  dir.write("t.npy", good.substr(0, 128));
  EXPECT_EQ(readError(p), p + ": truncated: expected 12 bytes of array data "
                              "at byte offset 128, but the data ends after 0");
}

TEST(Npy, CorruptPreambles) {
  TempDir dir;
  std::vector<float> v = {1, 2, 3};
  std::string good = npyFile(npyDict("<f4", "(3,)"), bytesOf(v));
  std::string p = dir.file("c.npy");

  dir.write("c.npy", "\x93NUMPX" + good.substr(6));
  EXPECT_EQ(readError(p),
            p + ": not an .npy file (no \\x93NUMPY magic at byte 0)");
  dir.write("c.npy", "");
  EXPECT_EQ(readError(p), p + ": empty file (0 bytes)");
  std::string v4 = good;
  v4[6] = 4;
  dir.write("c.npy", v4);
  EXPECT_EQ(readError(p), p + ": unsupported npy format version 4.0 "
                              "(supported: 1.0, 2.0, 3.0)");
  std::string v11 = good;
  v11[7] = 1;
  dir.write("c.npy", v11);
  EXPECT_EQ(readError(p), p + ": unsupported npy format version 1.1 "
                              "(supported: 1.0, 2.0, 3.0)");
  std::string huge = npyFile(npyDict("<f4", "(3,)"), bytesOf(v), 2);
  huge[11] = 0x7f;
  dir.write("c.npy", huge);
  EXPECT_EQ(readError(p), p + ": corrupt npy header length 2130706548 at "
                              "byte offset 8");
}

TEST(Npy, MalformedHeaders) {
  TempDir dir;
  std::string p = dir.file("m.npy");
  std::string data(12, '\0');
  struct {
    std::string dict;
    std::string message;
  } cases[] = {
      {"'descr': '<f4'}",
       "malformed npy header at byte offset 10: expected '{'"},
      {"{'descr' '<f4'}",
       "malformed npy header at byte offset 19: expected ':' after a key"},
      {"{descr: '<f4'}",
       "malformed npy header at byte offset 11: expected a quoted string"},
      {"{'descr': '<f4", "malformed npy header at byte offset 63: expected a "
                         "closing quote"},
      {"{'de\\scr': '<f4'}", "malformed npy header at byte offset 14: "
                             "expected a string without escapes"},
      // A NUL would have cut the descr to '<f4' when compared.
      {std::string("{'descr': '<f4\0junk', 'fortran_order': False, "
                   "'shape': (3,)}",
                   61),
       "malformed npy header at byte offset 24: expected a string without "
       "control characters"},
      {"{'descr': '<f4\x7f', 'fortran_order': False, 'shape': (3,)}",
       "malformed npy header at byte offset 24: expected a string without "
       "control characters"},
      {"{'descr': '\r<f4', 'fortran_order': False, 'shape': (3,)}",
       "malformed npy header at byte offset 21: expected a string without "
       "control characters"},
      {"{'sha\tpe': (3,)}", "malformed npy header at byte offset 15: "
                            "expected a string without control characters"},
      {npyDict("<f4" + std::string(40, 'x'), "(3,)"),
       "unsupported npy dtype '<f4" + std::string(28, 'x') +
           "' (supported: bool, int8-64, uint8-64, float16, bfloat16 as "
           "'<V2', float32, float64, complex64)"},
      {"{'descr': '<f4', 'fortran_order': false, 'shape': (3,)}",
       "malformed npy header at byte offset 44: expected True or False"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [3]}",
       "malformed npy header at byte offset 60: expected a shape tuple '('"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (3 4)}",
       "malformed npy header at byte offset 63: expected ',' or ')' in the "
       "shape"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-3,)}",
       "malformed npy header at byte offset 61: expected a non-negative "
       "integer or ')'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': "
       "(99999999999999999999,)}",
       "malformed npy header at byte offset 61: expected a dimension that "
       "fits in 64 bits"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,) 'x'}",
       "malformed npy header at byte offset 65: expected ',' or '}'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,)} junk",
       "malformed npy header at byte offset 66: expected only padding after "
       "'}'"},
      {"{'descr': '<f4', 'shape': (3,)}",
       "malformed npy header: missing key 'fortran_order'"},
      {"{'fortran_order': False, 'shape': (3,)}",
       "malformed npy header: missing key 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False}",
       "malformed npy header: missing key 'shape'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}",
       "malformed npy header: unexpected key 'x'"},
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,)}",
       "structured arrays are not supported"},
      {npyDict("<c16", "(3,)"),
       "unsupported npy dtype '<c16' (supported: bool, int8-64, uint8-64, "
       "float16, bfloat16 as '<V2', float32, float64, complex64)"},
      {npyDict("O", "(3,)"),
       "unsupported npy dtype 'O' (supported: bool, int8-64, uint8-64, "
       "float16, bfloat16 as '<V2', float32, float64, complex64)"},
      {npyDict("<V4", "(3,)"),
       "unsupported npy dtype '<V4' (supported: bool, int8-64, uint8-64, "
       "float16, bfloat16 as '<V2', float32, float64, complex64)"},
      {npyDict(">f4", "(3,)"),
       "big-endian data ('>f4') is not supported; save it little-endian, "
       "e.g. with arr.astype(arr.dtype.newbyteorder('<'))"},
      {npyDict("<f4", "(1, 1, 1, 1, 1, 1, 1, 1, 3)"),
       "arrays of more than 8 dimensions are not supported"},
      {npyDict("<f4", "(4611686018427387904, 4)"),
       "tensor of float32 is too large (byte count overflows)"},
  };
  for (auto &c : cases) {
    SCOPED_TRACE(c.dict);
    dir.write("m.npy", npyFile(c.dict, data));
    EXPECT_EQ(readError(p), p + ": " + c.message);
  }
}

TEST(Npy, TrailingDataIsAnError) {
  TempDir dir;
  std::string path = dir.write(
      "x.npy", npyFile(npyDict("<f4", "(2,)"), std::string(12, '\0')));
  EXPECT_EQ(readError(path),
            path + ": unexpected data after the array at byte offset 136 (the "
                   "header's shape does not match the data)");
}

TEST(Npy, MismatchMessages) {
  TempDir dir;
  std::string path = dir.write("a.npy", npyFile(npyDict("<f4", "(8, 63)"),
                                                std::string(8 * 63 * 4, '\0')));
  std::vector<unsigned char> dst;
  EXPECT_EQ(loadError(path, tensorType(MLXRT_DTYPE_FLOAT32, {8, 64}), dst),
            "expected float32 [8, 64], got float32 [8, 63] in " + path);
  EXPECT_EQ(loadError(path, tensorType(MLXRT_DTYPE_INT32, {8, 63}), dst),
            "expected int32 [8, 63], got float32 [8, 63] in " + path);
  EXPECT_EQ(loadError(path, tensorType(MLXRT_DTYPE_BFLOAT16, {8, 64}), dst),
            "expected bfloat16 [8, 64] (or float32 data), got float32 [8, 63] "
            "in " +
                path);
  EXPECT_EQ(loadError(path, tensorType(MLXRT_DTYPE_FLOAT32, {}), dst),
            "expected float32 scalar, got float32 [8, 63] in " + path);
  EXPECT_EQ(dst[0], 0xAB) << "a mismatch must not touch the destination";
}

TEST(Npy, FileErrors) {
  TempDir dir;
  std::string missing = dir.file("missing.npy");
  EXPECT_EQ(readError(missing),
            "cannot open '" + missing + "': No such file or directory");
  EXPECT_EQ(readError(dir.path()),
            "cannot read '" + dir.path() + "': Is a directory");
  EXPECT_EQ(readError(""), "empty file name");
  std::string other = dir.write("notes.txt", "hello, world");
  EXPECT_EQ(readError(other), other + ": unrecognized file format (expected "
                                      ".npy, .npz or .safetensors)");
  // A .npy named like an archive cannot take an entry.
  std::string npz =
      dir.write("a.npz", npyFile(npyDict("<f4", "(1,)"), std::string(4, '\0')));
  EXPECT_EQ(readError(npz + ":x"),
            npz + " is an .npy file, which holds one array; it has no entry "
                  "'x'");
  EXPECT_EQ(readError(npz), "");
  // A ':' in another path is part of the path.
  std::string colon = dir.write(
      "a:b.npy", npyFile(npyDict("<f4", "(1,)"), std::string(4, '\0')));
  EXPECT_EQ(readError(colon), "");
}

TEST(Npy, SaveIsAtomic) {
  TempDir dir;
  std::vector<float> v = {1, 2};
  mlxrt_tensor t = tensorType(MLXRT_DTYPE_FLOAT32, {2});
  t.data = v.data();
  std::string bad = dir.file("no/such/dir/out.npy");
  mlxrt_error err;
  ASSERT_EQ(mlxrt_npy_save(bad.c_str(), &t, &err), MLXRT_ERROR_IO);
  EXPECT_EQ(std::string(err.message),
            "cannot create a temporary file beside '" + bad +
                "': No such file or directory");
  // Writing over an existing file replaces it and leaves no temporary.
  std::string path = dir.write("out.npy", "old contents");
  ASSERT_EQ(mlxrt_npy_save(path.c_str(), &t, &err), MLXRT_OK) << err.message;
  EXPECT_EQ(dir.list(), std::vector<std::string>{"out.npy"});
  ReadTensor r(path);
  EXPECT_EQ(r.values<float>(), v);
  // A name too long for a suffix: a short temporary in the same directory.
  std::string longName = dir.file(std::string(251, 'n') + ".npy");
  ASSERT_EQ(mlxrt_npy_save(longName.c_str(), &t, &err), MLXRT_OK)
      << err.message;
  EXPECT_EQ(dir.list(), (std::vector<std::string>{
                            std::string(251, 'n') + ".npy", "out.npy"}));
  // /dev/full: the failure is reported, and /dev/full is not replaced.
  if (access("/dev/full", W_OK) == 0) {
    EXPECT_EQ(mlxrt_npy_save("/dev/full", &t, &err), MLXRT_ERROR_IO);
    EXPECT_EQ(std::string(err.message),
              "cannot write '/dev/full': No space left on device");
  }
}

TEST(Npy, WriteErrorsAreReported) {
  // /dev/full fails every write with ENOSPC.
  FILE *f = fopen("/dev/full", "wb");
  if (!f)
    GTEST_SKIP() << "no /dev/full";
  std::vector<float> v(100000, 1.0f);
  mlxrt_tensor t = tensorType(MLXRT_DTYPE_FLOAT32, {100000});
  t.data = v.data();
  mlxrt_error err;
  mlxrt_status st = mlxrt_npy_write(f, "out.npy", &t, &err);
  if (st == MLXRT_OK) // Buffered: the failure may only show at fclose.
    EXPECT_NE(fclose(f), 0);
  else {
    fclose(f);
    EXPECT_EQ(std::string(err.message),
              "cannot write 'out.npy': No space left on device");
  }
}

} // namespace
