//===- SafetensorsTest.cpp - Reading .safetensors files --------*- C++ -*-===//

#include "TestUtil.h"

using namespace mlxrt_test;

namespace {

#include "NumpyFixtures.inc"

/// A file with w: F32 [2, 3] at [0, 24) and b: I64 [2] at [24, 40).
std::string twoTensors(std::vector<float> &w, std::vector<int64_t> &b) {
  w = {1, 2, 3, 4, 5, 6};
  b = {-7, 8};
  std::string json =
      R"({"__metadata__":{"format":"pt","nested":{"a":[1,2.5e3,null,true]}},)"
      R"("w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},)"
      R"( "b" : { "shape" : [ 2 ] , "data_offsets" : [ 24 , 40 ] ,)"
      R"( "dtype" : "I64" } }      )";
  return safetensorsFile(json, bytesOf(w) + bytesOf(b));
}

TEST(Safetensors, ReadsTensorsByName) {
  TempDir dir;
  std::vector<float> w;
  std::vector<int64_t> b;
  std::string path = dir.write("m.safetensors", twoTensors(w, b));
  ReadTensor rw(path + ":w");
  ASSERT_EQ(rw.status, MLXRT_OK) << rw.message;
  EXPECT_EQ(rw.t.dtype, MLXRT_DTYPE_FLOAT32);
  EXPECT_EQ(rw.t.rank, 2);
  EXPECT_EQ(rw.values<float>(), w);
  ReadTensor rb(path, "b");
  ASSERT_EQ(rb.status, MLXRT_OK) << rb.message;
  EXPECT_EQ(rb.values<int64_t>(), b);
  // Recognized by content, whatever the name.
  std::string bin = dir.write("weights.bin", twoTensors(w, b));
  ReadTensor rbin(bin, "w");
  EXPECT_EQ(rbin.status, MLXRT_OK) << rbin.message;
}

TEST(Safetensors, EveryDtype) {
  TempDir dir;
  struct {
    const char *name;
    mlxrt_dtype dtype;
  } cases[] = {
      {"BOOL", MLXRT_DTYPE_BOOL},     {"U8", MLXRT_DTYPE_UINT8},
      {"U16", MLXRT_DTYPE_UINT16},    {"U32", MLXRT_DTYPE_UINT32},
      {"U64", MLXRT_DTYPE_UINT64},    {"I8", MLXRT_DTYPE_INT8},
      {"I16", MLXRT_DTYPE_INT16},     {"I32", MLXRT_DTYPE_INT32},
      {"I64", MLXRT_DTYPE_INT64},     {"F16", MLXRT_DTYPE_FLOAT16},
      {"BF16", MLXRT_DTYPE_BFLOAT16}, {"F32", MLXRT_DTYPE_FLOAT32},
      {"F64", MLXRT_DTYPE_FLOAT64},
  };
  for (auto &c : cases) {
    SCOPED_TRACE(c.name);
    size_t n = 3 * mlxrt_dtype_size(c.dtype);
    std::string data(n, '\1');
    std::string json = std::string("{\"t\":{\"dtype\":\"") + c.name +
                       "\",\"shape\":[3],\"data_offsets\":[0," +
                       std::to_string(n) + "]}}";
    std::string path = dir.write("d.safetensors", safetensorsFile(json, data));
    ReadTensor r(path + ":t");
    ASSERT_EQ(r.status, MLXRT_OK) << r.message;
    EXPECT_EQ(r.t.dtype, c.dtype);
    EXPECT_EQ(r.t.nbytes, n);
    // And loaded into a buffer of the expected type.
    std::vector<unsigned char> dst;
    EXPECT_EQ(loadError(path + ":t", tensorType(c.dtype, {3}), dst), "");
    EXPECT_EQ(dst[n], 0xAB);
  }
}

TEST(Safetensors, Bfloat16DirectAndFromFloat32) {
  TempDir dir;
  std::vector<uint16_t> bits = {0x3f80, 0x4049, 0xff80};
  std::vector<float> f = {1.0f, 1.00390625f, -2.5f};
  std::string json =
      R"({"h":{"dtype":"BF16","shape":[3],"data_offsets":[0,6]},)"
      R"("f":{"dtype":"F32","shape":[3],"data_offsets":[6,18]}})";
  std::string path = dir.write(
      "m.safetensors", safetensorsFile(json, bytesOf(bits) + bytesOf(f)));
  mlxrt_tensor bf = tensorType(MLXRT_DTYPE_BFLOAT16, {3});
  std::vector<unsigned char> dst;
  ASSERT_EQ(loadError(path + ":h", bf, dst), "");
  EXPECT_EQ(std::memcmp(dst.data(), bits.data(), 6), 0);
  ASSERT_EQ(loadError(path + ":f", bf, dst), "");
  const uint16_t *b = reinterpret_cast<const uint16_t *>(dst.data());
  EXPECT_EQ(b[0], 0x3f80);
  EXPECT_EQ(b[1], 0x3f80); // A tie, rounded to even.
  EXPECT_EQ(b[2], 0xc020);
  EXPECT_EQ(loadError(path + ":h", tensorType(MLXRT_DTYPE_FLOAT32, {3}), dst),
            "expected float32 [3], got bfloat16 [3] in " + path + ":h");
}

TEST(Safetensors, ScalarsEmptyTensorsAndEscapedNames) {
  TempDir dir;
  double d = 0.125;
  std::string json =
      "{\"s\":{\"dtype\":\"F64\",\"shape\":[],\"data_offsets\":[0,8]},"
      "\"e\":{\"dtype\":\"F32\",\"shape\":[0,3],\"data_offsets\":[8,8]},"
      "\"q\\\"\\u00e9\\/\\ud83d\\ude00\\n\":{\"dtype\":\"U8\",\"shape\":[1],"
      "\"data_offsets\":[8,9],\"extra\":{\"k\":[]}}}";
  std::string path =
      dir.write("m.safetensors",
                safetensorsFile(json, bytesOf(std::vector<double>{d}) + "Z"));
  ReadTensor s(path + ":s");
  ASSERT_EQ(s.status, MLXRT_OK) << s.message;
  EXPECT_EQ(s.t.rank, 0);
  EXPECT_EQ(s.values<double>(), std::vector<double>{d});
  ReadTensor e(path + ":e");
  ASSERT_EQ(e.status, MLXRT_OK) << e.message;
  EXPECT_EQ(e.t.nbytes, 0u);
  ReadTensor q(path, "q\"\xc3\xa9/\xf0\x9f\x98\x80\n");
  ASSERT_EQ(q.status, MLXRT_OK) << q.message;
  EXPECT_EQ(q.values<uint8_t>(), std::vector<uint8_t>{'Z'});
}

TEST(Safetensors, MissingTensor) {
  TempDir dir;
  std::vector<float> w;
  std::vector<int64_t> b;
  std::string path = dir.write("m.safetensors", twoTensors(w, b));
  EXPECT_EQ(readError(path + ":x"),
            path + ": no tensor 'x' (the file holds 'w', 'b')");
  dir.write("e.safetensors", safetensorsFile("{}", ""));
  EXPECT_EQ(readError(dir.file("e.safetensors:x")),
            dir.file("e.safetensors") + ": no tensor 'x' (the file holds no "
                                        "tensors)");
  EXPECT_EQ(readError(path),
            path + ": an archive needs an entry name (" + path + ":NAME)");
}

TEST(Safetensors, MalformedJson) {
  TempDir dir;
  std::string p = dir.file("m.safetensors");
  const std::string t = R"({"dtype":"F32","shape":[1],"data_offsets":[0,4]})";
  struct {
    std::string json;
    std::string message;
  } cases[] = {
      {"[]", "byte offset 8: expected '{' at the start of the header"},
      {"{\"w\" " + t + "}", "byte offset 13: expected ':'"},
      {"{\"w\":" + t + ",}", "byte offset 62: expected a string"},
      {"{\"w\":" + t, "byte offset 61: expected ',' or '}'"},
      {"{\"w\":" + t + "} x", "byte offset 63: expected the end of the header "
                              "after '}'"},
      {"{\"w", "byte offset 11: expected a closing '\"'"},
      {"{\"w\\x\":" + t + "}",
       "byte offset 11: expected a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r "
       "\\t \\uXXXX)"},
      {"{\"w\\u12G4\":" + t + "}",
       "byte offset 11: expected 4 hex digits after \\u"},
      {"{\"w\\udc00\":" + t + "}",
       "byte offset 11: expected a high surrogate before a low one"},
      {"{\"w\\ud800x\":" + t + "}",
       "byte offset 11: expected a low surrogate \\uDC00-\\uDFFF"},
      {"{\"w\x01\":" + t + "}",
       "byte offset 11: expected no control characters in a string"},
      {"{\"w\":[]}", "byte offset 13: expected '{' (a tensor's description)"},
      {R"({"w":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}})",
       "byte offset 37: expected a non-negative integer"},
      {R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})",
       "byte offset 37: expected a non-negative integer"},
      {R"({"w":{"dtype":"F32","shape":[1e2],"data_offsets":[0,4]}})",
       "byte offset 37: expected a non-negative integer"},
      {R"({"w":{"dtype":"F32","shape":[99999999999999999999],"data_offsets":[0,4]}})",
       "byte offset 37: expected an integer that fits in 64 bits"},
      {R"({"w":{"dtype":"F32","shape":[1 2],"data_offsets":[0,4]}})",
       "byte offset 39: expected ',' or ']'"},
      {R"({"w":{"dtype":"F32","shape":{},"data_offsets":[0,4]}})",
       "byte offset 36: expected '['"},
      {R"({"w":{"dtype":F32,"shape":[1],"data_offsets":[0,4]}})",
       "byte offset 22: expected a string"},
      {R"({"__metadata__":{"a":[01]},"w":{}})",
       "byte offset 31: expected ',' or ']'"},
      {R"({"__metadata__":{"a":tru},"w":{}})",
       "byte offset 29: expected a value"},
      {R"({"__metadata__":{"a":1.},"w":{}})",
       "byte offset 31: expected digits after '.'"},
      {R"({"__metadata__":{"a":1e},"w":{}})",
       "byte offset 31: expected digits in the exponent"},
      {"{\"__metadata__\":" + std::string(100, '[') + std::string(100, ']') +
           "}",
       "byte offset 88: expected less nesting"},
  };
  for (auto &c : cases) {
    SCOPED_TRACE(c.json);
    dir.write("m.safetensors", safetensorsFile(c.json, std::string(4, '\0')));
    EXPECT_EQ(readError(p + ":w"),
              p + ": malformed safetensors header at " + c.message);
  }
}

TEST(Safetensors, BadTensorDescriptions) {
  TempDir dir;
  std::string p = dir.file("m.safetensors");
  struct {
    std::string json;
    std::string message;
  } cases[] = {
      {R"({"w":{"shape":[1],"data_offsets":[0,4]}})",
       "tensor 'w' has no 'dtype'"},
      {R"({"w":{"dtype":"F32","data_offsets":[0,4]}})",
       "tensor 'w' has no 'shape'"},
      {R"({"w":{"dtype":"F32","shape":[1]}})",
       "tensor 'w' has no 'data_offsets'"},
      {R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4,8]}})",
       "tensor 'w': data_offsets must hold 2 numbers"},
      {R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
       R"("w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
       "tensor 'w' appears twice"},
      // Another tensor's description is checked too.
      {R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"v":{}})",
       "tensor 'v' has no 'dtype'"},
      {R"({"w":{"dtype":"F8_E4M3","shape":[4],"data_offsets":[0,4]}})",
       "tensor 'w' has dtype 'F8_E4M3', which is not supported"},
      {R"({"w":{"dtype":"F32","shape":[1,1,1,1,1,1,1,1,1],"data_offsets":[0,4]}})",
       "tensor 'w' has more than 8 dimensions"},
      {R"({"w":{"dtype":"F32","shape":[9223372036854775808],"data_offsets":[0,4]}})",
       "tensor 'w' has a dimension that is too large"},
      {R"({"w":{"dtype":"F32","shape":[4611686018427387904, 2],"data_offsets":[0,4]}})",
       "tensor 'w': tensor of float32 is too large (byte count overflows)"},
      {R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,8]}})",
       "tensor 'w': data_offsets [0, 8] lie outside the 4 bytes of data "
       "(truncated file?)"},
      {R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}})",
       "tensor 'w': data_offsets [4, 0] end before they begin"},
      {R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[18446744073709551615,4]}})",
       "tensor 'w': data_offsets [18446744073709551615, 4] end before they "
       "begin"},
      {R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,18446744073709551615]}})",
       "tensor 'w': data_offsets [0, 18446744073709551615] lie outside the 4 "
       "bytes of data (truncated file?)"},
      {R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})",
       "tensor 'w': data_offsets [0, 4] span 4 bytes, but float32 [2] takes 8"},
  };
  for (auto &c : cases) {
    SCOPED_TRACE(c.json);
    dir.write("m.safetensors", safetensorsFile(c.json, std::string(4, '\0')));
    EXPECT_EQ(readError(p + ":w"), p + ": " + c.message);
  }
}

TEST(Safetensors, TruncatedFiles) {
  TempDir dir;
  std::string p = dir.file("t.safetensors");
  std::vector<float> w;
  std::vector<int64_t> b;
  std::string good = twoTensors(w, b);
  dir.write("t.safetensors", good.substr(0, 5));
  EXPECT_EQ(readError(p + ":w"),
            p + ": truncated: expected 8 bytes of safetensors header length at "
                "byte offset 0, but the data ends after 5");
  dir.write("t.safetensors", good.substr(0, 60));
  EXPECT_EQ(readError(p + ":w"),
            p + ": truncated or not a safetensors file: header length " +
                std::to_string(getLE(good, 0, 4)) +
                " (at byte offset 0) exceeds the 52 bytes that follow");
  // The data section is cut: b's offsets now lie beyond it, which makes
  // the whole file unreadable, w included.
  dir.write("t.safetensors", good.substr(0, good.size() - 1));
  for (const char *t : {":b", ":w", ":x"})
    EXPECT_EQ(readError(p + t),
              p + ": tensor 'b': data_offsets [24, 40] lie outside the 39 "
                  "bytes of data (truncated file?)");
  std::string huge = good;
  setLE(huge, 0, 8, uint64_t(1) << 40);
  dir.write("t.safetensors", huge);
  EXPECT_TRUE(contains(readError(p + ":w"), "exceeds the"));
  dir.write("t.safetensors", safetensorsFile("", ""));
  EXPECT_EQ(readError(p + ":w"),
            p + ": malformed safetensors header at byte offset 8: expected '{' "
                "at the start of the header");
}

TEST(Safetensors, TensorsMustTileTheData) {
  TempDir dir;
  std::string p = dir.file("m.safetensors");
  auto tensor = [](const char *name, int begin, int end) {
    return std::string("\"") + name + "\":{\"dtype\":\"U8\",\"shape\":[" +
           std::to_string(end - begin) + "],\"data_offsets\":[" +
           std::to_string(begin) + "," + std::to_string(end) + "]}";
  };
  struct {
    std::string json;
    size_t dataSize;
    std::string message; // "" if the file is good.
  } cases[] = {
      // Any order in the JSON; empty tensors anywhere between the others.
      {"{" + tensor("b", 4, 8) + "," + tensor("w", 0, 4) + "," +
           tensor("e", 4, 4) + "," + tensor("z", 8, 8) + "}",
       8, ""},
      // Aliased bytes: the same range twice, or partly.
      {"{" + tensor("w", 0, 8) + "," + tensor("v", 0, 8) + "}", 8,
       "the data of tensors 'w' [0, 8] and 'v' [0, 8] overlap"},
      {"{" + tensor("w", 0, 6) + "," + tensor("v", 4, 8) + "}", 8,
       "the data of tensors 'w' [0, 6] and 'v' [4, 8] overlap"},
      {"{" + tensor("w", 0, 8) + "," + tensor("e", 4, 4) + "}", 8,
       "the data of tensors 'w' [0, 8] and 'e' [4, 4] overlap"},
      // Holes, before, between and after the tensors.
      {"{" + tensor("w", 2, 8) + "}", 8,
       "no tensor holds bytes [0, 2) of the data (the next, 'w', starts at "
       "2); a safetensors file's tensors fill its data without gaps"},
      {"{" + tensor("w", 0, 3) + "," + tensor("v", 4, 8) + "}", 8,
       "no tensor holds bytes [3, 4) of the data (the next, 'v', starts at "
       "4); a safetensors file's tensors fill its data without gaps"},
      {"{" + tensor("w", 0, 4) + "}", 8,
       "4 bytes of data follow the last tensor's (the tensors end at 4 of "
       "8)"},
      {"{}", 8,
       "8 bytes of data follow the last tensor's (the tensors end at "
       "0 of 8)"},
      // Out of bounds, another tensor than the one read.
      {"{" + tensor("w", 0, 4) + "," + tensor("v", 4, 9) + "}", 8,
       "tensor 'v': data_offsets [4, 9] lie outside the 8 bytes of data "
       "(truncated file?)"},
  };
  for (auto &c : cases) {
    SCOPED_TRACE(c.json);
    dir.write("m.safetensors",
              safetensorsFile(c.json, std::string(c.dataSize, '\7')));
    std::string want = c.message.empty() ? "" : p + ": " + c.message;
    if (contains(c.json, "\"w\""))
      EXPECT_EQ(readError(p + ":w"), want);
    else
      EXPECT_EQ(readError(p + ":w"),
                want.empty() ? p + ": no tensor 'w' (the file holds no "
                                   "tensors)"
                             : want);
  }
}

TEST(Safetensors, FileWrittenByMlx) {
  // mx.save_safetensors: offsets in another order than the JSON's keys
  // (c, b, d, a), an empty tensor, a bfloat16 scalar, metadata.
  TempDir dir;
  std::string path =
      dir.write("m.safetensors",
                std::string(reinterpret_cast<const char *>(MlxSafetensors),
                            sizeof(MlxSafetensors)));
  ReadTensor a(path + ":a");
  ASSERT_EQ(a.status, MLXRT_OK) << a.message;
  EXPECT_EQ(a.values<float>(), (std::vector<float>{1.5f, -2, 3}));
  ReadTensor b(path + ":b");
  ASSERT_EQ(b.status, MLXRT_OK) << b.message;
  EXPECT_EQ(b.t.nbytes, 0u);
  ReadTensor c(path + ":c");
  ASSERT_EQ(c.status, MLXRT_OK) << c.message;
  EXPECT_EQ(c.t.dtype, MLXRT_DTYPE_BFLOAT16);
  EXPECT_EQ(c.values<uint16_t>(), std::vector<uint16_t>{0x4000});
  ReadTensor d(path + ":d");
  ASSERT_EQ(d.status, MLXRT_OK) << d.message;
  EXPECT_EQ(d.values<int8_t>(), (std::vector<int8_t>{0, 1, 2, 3, 4}));
}

TEST(Safetensors, MismatchNamesTheTensor) {
  TempDir dir;
  std::vector<float> w;
  std::vector<int64_t> b;
  std::string path = dir.write("m.safetensors", twoTensors(w, b));
  std::vector<unsigned char> dst;
  EXPECT_EQ(
      loadError(path + ":w", tensorType(MLXRT_DTYPE_FLOAT32, {3, 2}), dst),
      "expected float32 [3, 2], got float32 [2, 3] in " + path + ":w");
  EXPECT_EQ(loadError(path, tensorType(MLXRT_DTYPE_INT64, {2}), dst, "b"), "");
}

} // namespace
