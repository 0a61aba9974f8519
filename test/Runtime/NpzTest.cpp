//===- NpzTest.cpp - Reading entries of .npz archives ----------*- C++ -*-===//

#include "TestUtil.h"

using namespace mlxrt_test;

namespace {

#include "NumpyFixtures.inc"

std::string fixture(const unsigned char *bytes, size_t n) {
  return std::string(reinterpret_cast<const char *>(bytes), n);
}

std::string npy(const std::vector<float> &v) {
  return npyFile(npyDict("<f4", "(" + std::to_string(v.size()) + ",)"),
                 bytesOf(v));
}

/// Offset of the central directory of a (non-zip64) archive.
size_t centralOffset(const std::string &zip) {
  return getLE(zip, zip.size() - 22 + 16, 4);
}

TEST(Npz, StoredAndDeflatedEntries) {
  TempDir dir;
  std::vector<float> x = {1, 2, 3}, y = {-4, 5};
  for (bool zip64 : {false, true}) {
    for (bool deflate : {false, true}) {
      SCOPED_TRACE(std::string(deflate ? "deflated" : "stored") +
                   (zip64 ? ", zip64" : ""));
      std::string path = dir.write(
          "a.npz",
          zipFile({{"x.npy", npy(x), deflate}, {"y.npy", npy(y), deflate}},
                  zip64));
      ReadTensor rx(path + ":x");
      ASSERT_EQ(rx.status, MLXRT_OK) << rx.message;
      EXPECT_EQ(rx.values<float>(), x);
      ReadTensor ry(path + ":y.npy");
      ASSERT_EQ(ry.status, MLXRT_OK) << ry.message;
      EXPECT_EQ(ry.values<float>(), y);
      // Without ":ENTRY", the default entry (the input's name) is read.
      ReadTensor rd(path, "y");
      ASSERT_EQ(rd.status, MLXRT_OK) << rd.message;
      EXPECT_EQ(rd.values<float>(), y);
      // An explicit entry wins over the default.
      ReadTensor re(path + ":x", "y");
      EXPECT_EQ(re.values<float>(), x);
    }
  }
}

TEST(Npz, ArchivesWrittenByNumpy) {
  TempDir dir;
  for (bool compressed : {false, true}) {
    SCOPED_TRACE(compressed ? "savez_compressed" : "savez");
    std::string bytes =
        compressed ? fixture(NumpySavezCompressed, sizeof(NumpySavezCompressed))
                   : fixture(NumpySavez, sizeof(NumpySavez));
    std::string path = dir.write("np.npz", bytes);
    ReadTensor x(path + ":x");
    ASSERT_EQ(x.status, MLXRT_OK) << x.message;
    EXPECT_EQ(x.values<float>(), (std::vector<float>{1.5f, -2, 3}));
    ReadTensor n(path, "n");
    ASSERT_EQ(n.status, MLXRT_OK) << n.message;
    EXPECT_EQ(n.t.dtype, MLXRT_DTYPE_INT64);
    EXPECT_EQ(n.t.rank, 2);
    EXPECT_EQ(n.values<int64_t>(), (std::vector<int64_t>{1, 2, 3, 4}));
  }
}

TEST(Npz, FortranOrderEntriesOfEveryDtype) {
  TempDir dir;
  // np.savez(_compressed) of np.asfortranarray(np.arange(24).reshape(2, 3,
  // 4).astype(dtype)) for every dtype (bool: arange % 3 == 0).
  struct {
    const char *name;
    mlxrt_dtype dtype;
  } dtypes[] = {
      {"bool", MLXRT_DTYPE_BOOL},       {"uint8", MLXRT_DTYPE_UINT8},
      {"uint16", MLXRT_DTYPE_UINT16},   {"uint32", MLXRT_DTYPE_UINT32},
      {"uint64", MLXRT_DTYPE_UINT64},   {"int8", MLXRT_DTYPE_INT8},
      {"int16", MLXRT_DTYPE_INT16},     {"int32", MLXRT_DTYPE_INT32},
      {"int64", MLXRT_DTYPE_INT64},     {"float16", MLXRT_DTYPE_FLOAT16},
      {"float32", MLXRT_DTYPE_FLOAT32}, {"float64", MLXRT_DTYPE_FLOAT64},
  };
  std::string files[] = {
      dir.write("f.npz", fixture(NumpyFortranNpz, sizeof(NumpyFortranNpz))),
      dir.write("c.npz", fixture(NumpyFortranNpzCompressed,
                                 sizeof(NumpyFortranNpzCompressed)))};
  for (const std::string &file : files) {
    for (auto &d : dtypes) {
      SCOPED_TRACE(file + ":" + d.name);
      ReadTensor r(file + ":" + d.name);
      ASSERT_EQ(r.status, MLXRT_OK) << r.message;
      mlxrt_tensor want = tensorType(d.dtype, {2, 3, 4});
      EXPECT_TRUE(mlxrt_tensor_same_type(&r.t, &want));
      const unsigned char *p = static_cast<const unsigned char *>(r.t.data);
      size_t size = mlxrt_dtype_size(d.dtype);
      for (int i = 0; i < 24; ++i) {
        double value = 0;
        const unsigned char *e = p + i * size;
        switch (d.dtype) {
        case MLXRT_DTYPE_BOOL:
          value = *e;
          break;
        case MLXRT_DTYPE_FLOAT16: {
          uint16_t h;
          std::memcpy(&h, e, 2);
          value = mlxrt_float16_to_float(h);
          break;
        }
        case MLXRT_DTYPE_FLOAT32: {
          float f;
          std::memcpy(&f, e, 4);
          value = f;
          break;
        }
        case MLXRT_DTYPE_FLOAT64:
          std::memcpy(&value, e, 8);
          break;
        default: { // Small non-negative integers: the low bytes suffice.
          uint64_t u = 0;
          std::memcpy(&u, e, size);
          value = static_cast<double>(u);
          break;
        }
        }
        double want = d.dtype == MLXRT_DTYPE_BOOL ? (i % 3 == 0) : i;
        ASSERT_EQ(value, want) << "element " << i;
      }
    }
  }
}

TEST(Npz, ArchivesWrittenByMlx) {
  // mx.savez(_compressed): 1-D, 0-D and transposed entries, all marked
  // 'fortran_order': True.
  TempDir dir;
  std::string files[] = {
      dir.write("m.npz", fixture(MlxSavez, sizeof(MlxSavez))),
      dir.write("c.npz",
                fixture(MlxSavezCompressed, sizeof(MlxSavezCompressed)))};
  for (const std::string &file : files) {
    SCOPED_TRACE(file);
    ReadTensor v(file + ":v");
    ASSERT_EQ(v.status, MLXRT_OK) << v.message;
    EXPECT_EQ(v.values<int32_t>(), (std::vector<int32_t>{1, 2, 3}));
    ReadTensor s(file + ":s");
    ASSERT_EQ(s.status, MLXRT_OK) << s.message;
    EXPECT_EQ(s.t.rank, 0);
    EXPECT_EQ(s.values<int32_t>(), std::vector<int32_t>{7});
    ReadTensor t(file + ":t");
    ASSERT_EQ(t.status, MLXRT_OK) << t.message;
    EXPECT_EQ(t.values<int32_t>(), (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
  }
}

TEST(Npz, LargeDeflatedEntry) {
  // Several 64 KiB input chunks and an output split across reads.
  TempDir dir;
  std::vector<float> v(300000);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>((i * 2654435761u) % 1000003) * 0.5f;
  std::string path = dir.write("big.npz", zipFile({{"v.npy", npy(v), true}}));
  ReadTensor r(path + ":v");
  ASSERT_EQ(r.status, MLXRT_OK) << r.message;
  EXPECT_EQ(r.values<float>(), v);
  // And converted to bfloat16 on the way.
  std::vector<unsigned char> dst;
  mlxrt_tensor bf = tensorType(MLXRT_DTYPE_BFLOAT16, {300000});
  ASSERT_EQ(loadError(path + ":v", bf, dst), "");
  const uint16_t *b = reinterpret_cast<const uint16_t *>(dst.data());
  for (size_t i = 0; i < v.size(); i += 997)
    ASSERT_EQ(b[i], mlxrt_float_to_bfloat16(v[i])) << i;
}

TEST(Npz, ExactNameWinsOverNpySuffix) {
  TempDir dir;
  std::string path =
      dir.write("a.npz", zipFile({{"w.npy", npy({1})}, {"w", npy({2})}}));
  ReadTensor r(path + ":w");
  EXPECT_EQ(r.values<float>(), std::vector<float>{2});
  ReadTensor s(path + ":w.npy");
  EXPECT_EQ(s.values<float>(), std::vector<float>{1});
}

TEST(Npz, DuplicateEntriesAreRefused) {
  // numpy reads the last of two entries of one name: the archive is
  // ambiguous, whichever is asked for, with or without ".npy".
  TempDir dir;
  std::string path = dir.write("d.npz", zipFile({{"x.npy", npy({1})},
                                                 {"y.npy", npy({2})},
                                                 {"x.npy", npy({3}), true},
                                                 {"z", npy({4})},
                                                 {"z", npy({5})},
                                                 {"z", npy({6})}}));
  for (const char *x : {":x", ":x.npy"})
    EXPECT_EQ(readError(path + x),
              path + ": entry 'x.npy' appears 2 times in the archive, which "
                     "is ambiguous (numpy reads the last one)");
  EXPECT_EQ(readError(path, "x"),
            path + ": entry 'x.npy' appears 2 times in the archive, which is "
                   "ambiguous (numpy reads the last one)");
  EXPECT_EQ(readError(path + ":z"),
            path + ": entry 'z' appears 3 times in the archive, which is "
                   "ambiguous (numpy reads the last one)");
  // The other entries stay readable.
  ReadTensor y(path + ":y");
  ASSERT_EQ(y.status, MLXRT_OK) << y.message;
  EXPECT_EQ(y.values<float>(), std::vector<float>{2});
}

TEST(Npz, LocalHeaderMustNameTheEntry) {
  // The central directory says "x.npy", the local header at its offset
  // another name: the directory points at the wrong data.
  TempDir dir;
  std::string zip = zipFile({{"x.npy", npy({1})}});
  ASSERT_EQ(zip.substr(30, 5), "x.npy");
  zip[30] = 'y';
  std::string path = dir.write("l.npz", zip);
  EXPECT_EQ(readError(path + ":x"),
            path + ": corrupt zip archive at byte offset 0: the local file "
                   "header names another entry");
  zip = zipFile({{"x.npy", npy({1})}});
  setLE(zip, 26, 2, 4); // Name length 4: "x.np".
  dir.write("l.npz", zip);
  EXPECT_EQ(readError(path + ":x"),
            path + ": corrupt zip archive at byte offset 0: the local file "
                   "header names another entry");
}

TEST(Npz, MissingEntries) {
  TempDir dir;
  std::string path =
      dir.write("a.npz", zipFile({{"x.npy", npy({1})}, {"n.npy", npy({2})}}));
  EXPECT_EQ(readError(path + ":q"),
            path + ": no entry 'q' (the archive holds 'x', 'n')");
  EXPECT_EQ(readError(path),
            path + ": an archive needs an entry name (" + path + ":NAME)");
  EXPECT_EQ(readError(path + ":"),
            "'" + path + ":': empty entry name after ':'");
  std::vector<ZipEntry> many;
  for (int i = 0; i < 12; ++i)
    many.push_back({"e" + std::to_string(i) + ".npy", npy({1})});
  dir.write("many.npz", zipFile(many));
  EXPECT_EQ(readError(dir.file("many.npz:zz")),
            dir.file("many.npz") +
                ": no entry 'zz' (the archive holds 'e0', 'e1', 'e2', 'e3', "
                "'e4', 'e5', 'e6', 'e7', ...)");
  dir.write("empty.npz", zipFile({}));
  EXPECT_EQ(readError(dir.file("empty.npz:x")),
            dir.file("empty.npz") + ": no entry 'x' (the archive holds no "
                                    "entries)");
}

TEST(Npz, EntryThatIsNotNpy) {
  TempDir dir;
  std::string path =
      dir.write("a.npz", zipFile({{"x.npy", "hello, world! this is text"}}));
  EXPECT_EQ(readError(path + ":x"),
            path + " entry 'x.npy': not an .npy file (no \\x93NUMPY magic at "
                   "byte 0)");
}

TEST(Npz, TruncatedNpyInsideEntry) {
  TempDir dir;
  std::string bad = npy({1, 2, 3}).substr(0, 136);
  for (bool deflate : {false, true}) {
    std::string path = dir.write("a.npz", zipFile({{"x.npy", bad, deflate}}));
    EXPECT_EQ(readError(path + ":x"),
              path + " entry 'x.npy': truncated: expected 12 bytes of array "
                     "data at byte offset 128, but the data ends after 8");
  }
}

TEST(Npz, CorruptData) {
  TempDir dir;
  std::string p = dir.file("c.npz");
  // A flipped byte in stored data: only the CRC can tell.
  std::string zip = zipFile({{"x.npy", npy({1, 2, 3})}});
  zip[30 + 5 + 128] ^= 0x40;
  dir.write("c.npz", zip);
  std::string msg = readError(p + ":x");
  EXPECT_TRUE(contains(msg, p + " entry 'x.npy': corrupt: CRC-32 is 0x"))
      << msg;
  EXPECT_TRUE(contains(msg, ", the zip directory says 0x")) << msg;

  // A reserved deflate block type.
  zip = zipFile({{"x.npy", npy({1, 2, 3}), true}});
  zip[30 + 5] = 0x07;
  dir.write("c.npz", zip);
  EXPECT_EQ(readError(p + ":x"), p + " entry 'x.npy': corrupt compressed "
                                     "data: invalid block type");

  // The deflate stream stops early.
  std::string big = npy(std::vector<float>(1000, 1.5f));
  dir.write("c.npz", zipFile({{"x.npy", big, true, 10}}));
  EXPECT_EQ(readError(p + ":x"), p + " entry 'x.npy': truncated compressed "
                                     "data (the deflate stream ends early)");

  // A stored entry whose sizes disagree.
  dir.write("c.npz", zipFile({{"x.npy", big, false, 100}}));
  EXPECT_TRUE(contains(readError(p + ":x"),
                       "stored entry with different compressed size"));

  // The directory understates the size: the data runs past it.
  zip = zipFile({{"x.npy", npy({1, 2, 3}), true}});
  size_t cd = centralOffset(zip);
  setLE(zip, cd + 24, 4, 134);
  dir.write("c.npz", zip);
  EXPECT_EQ(readError(p + ":x"),
            p + " entry 'x.npy': corrupt: the data holds 140 bytes, the zip "
                "directory says 134");
}

TEST(Npz, CorruptDirectories) {
  TempDir dir;
  std::string p = dir.file("c.npz");
  std::string good = zipFile({{"x.npy", npy({1, 2, 3})}});
  size_t cd = centralOffset(good);

  dir.write("c.npz", good.substr(0, good.size() - 10));
  EXPECT_EQ(readError(p + ":x"), p + ": not a zip archive, or truncated (no "
                                     "end-of-central-directory record)");
  dir.write("c.npz", std::string("PK\x03\x04", 4));
  EXPECT_EQ(readError(p + ":x"),
            p + ": truncated zip archive: 4 bytes, too short for an "
                "end-of-central-directory record");
  dir.write("c.npz", "not a zip at all, just text");
  EXPECT_EQ(readError(p + ":x"),
            p + ": not an .npz file (no zip signature at byte 0)");

  std::string zip = good;
  setLE(zip, zip.size() - 22 + 16, 4, 1000000);
  dir.write("c.npz", zip);
  EXPECT_EQ(readError(p + ":x"),
            p + ": corrupt zip archive at byte offset " +
                std::to_string(good.size() - 22) +
                ": central directory lies outside the file");

  zip = good;
  setLE(zip, cd, 4, 0x12345678);
  dir.write("c.npz", zip);
  EXPECT_EQ(readError(p + ":x"), p + ": corrupt zip archive at byte offset " +
                                     std::to_string(cd) +
                                     ": bad central directory record");

  zip = good;
  setLE(zip, cd + 28, 2, 500); // Name length beyond the directory.
  dir.write("c.npz", zip);
  EXPECT_EQ(readError(p + ":x"), p + ": corrupt zip archive at byte offset " +
                                     std::to_string(cd) +
                                     ": central directory record overruns");

  zip = good;
  setLE(zip, cd + 42, 4, 7); // Local header offset points at garbage.
  dir.write("c.npz", zip);
  EXPECT_EQ(readError(p + ":x"), p + ": corrupt zip archive at byte offset 7: "
                                     "bad local file header");

  zip = good;
  setLE(zip, cd + 42, 4, good.size() - 5);
  dir.write("c.npz", zip);
  EXPECT_EQ(readError(p + ":x"),
            p +
                ": truncated zip archive: expected 30 bytes of local file "
                "header at byte offset " +
                std::to_string(good.size() - 5) +
                ", but the file ends after 5");

  zip = good;
  setLE(zip, cd + 20, 4, 100000); // Compressed size past the end.
  setLE(zip, cd + 10, 2, 8);
  dir.write("c.npz", zip);
  EXPECT_EQ(readError(p + ":x"),
            p +
                " entry 'x.npy': truncated: expected 100000 bytes of entry "
                "data at byte offset 35, but the file ends at " +
                std::to_string(good.size()));

  zip = good;
  setLE(zip, cd + 10, 2, 12);
  dir.write("c.npz", zip);
  EXPECT_EQ(readError(p + ":x"), p + " entry 'x.npy': unsupported compression "
                                     "method 12 (supported: stored, deflate)");

  zip = good;
  setLE(zip, cd + 8, 2, 1);
  dir.write("c.npz", zip);
  EXPECT_EQ(readError(p + ":x"),
            p + " entry 'x.npy': encrypted entries are not supported");

  // zip64: a locator that is not there.
  std::string z64 = zipFile({{"x.npy", npy({1})}}, true);
  setLE(z64, z64.size() - 22 - 20, 4, 0);
  dir.write("c.npz", z64);
  EXPECT_EQ(readError(p + ":x"), p + ": corrupt zip archive at byte offset " +
                                     std::to_string(z64.size() - 22 - 20) +
                                     ": no zip64 end-of-directory locator");
}

TEST(Npz, MismatchNamesTheEntry) {
  TempDir dir;
  std::string path = dir.write("a.npz", zipFile({{"x.npy", npy({1, 2, 3})}}));
  std::vector<unsigned char> dst;
  EXPECT_EQ(loadError(path + ":x", tensorType(MLXRT_DTYPE_FLOAT32, {4}), dst),
            "expected float32 [4], got float32 [3] in " + path +
                " entry 'x.npy'");
}

} // namespace
