//===- CliTest.cpp - The command line of compiled executables --*- C++ -*-===//
//
// Runs mlxrt_cli_run on small fake programs, as the executables that mlxc
// builds would, and checks exit codes, messages and files.
//
//===----------------------------------------------------------------------===//

#include "TestEnv.h"
#include "TestUtil.h"

#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace mlxrt_test;

namespace {
int AddCalls = 0;

void addEntry(void **args) {
  ++AddCalls;
  const float *a = static_cast<const float *>(args[0]);
  const float *b = static_cast<const float *>(args[1]);
  float *out = static_cast<float *>(args[2]);
  for (int i = 0; i < 4; ++i)
    out[i] = a[i] + b[i];
}

const char AddSignature[] = "entry add\n"
                            "input a float32 4\n"
                            "input b float32 4\n"
                            "output out0 float32 4\n";
} // namespace

// The model a real executable gets from mlxc, for mlxrt_main.
extern "C" {
extern const mlxrt_model_abi mlxc_program_model;
const mlxrt_model_abi mlxc_program_model = {
    MLXRT_ABI_VERSION, 0, "program", AddSignature, addEntry, nullptr};

// Huge allocations in the out-of-memory tests must fail, not abort, under
// AddressSanitizer.
const char *__asan_default_options() { return "allocator_may_return_null=1"; }
}

namespace {

const mlxrt_model_abi Add = {MLXRT_ABI_VERSION, 0,        "add",
                             AddSignature,      addEntry, nullptr};
/// The same with a "CUDA variant"; it must not run unless a GPU is there.
const mlxrt_model_abi AddCuda = {MLXRT_ABI_VERSION, 0,        "add",
                                 AddSignature,      addEntry, addEntry};

const char NoCudaCode[] = "this program was compiled without CUDA code; "
                          "recompile with mlxc --target=cuda";

bool cudaPresent() { return envCudaAvailable(nullptr, 0) != 0; }

/// Doubles a bfloat16 input into several outputs of other dtypes.
void manyEntry(void **args) {
  const uint16_t *x = static_cast<const uint16_t *>(args[0]);
  float *s = static_cast<float *>(args[1]);
  uint16_t *h = static_cast<uint16_t *>(args[2]);
  uint8_t *flag = static_cast<uint8_t *>(args[3]);
  int64_t *n = static_cast<int64_t *>(args[4]);
  double *c = static_cast<double *>(args[5]);
  for (int i = 0; i < 3; ++i) {
    float v = mlxrt_bfloat16_to_float(x[i]);
    s[i] = 2 * v;
    h[i] = mlxrt_float_to_bfloat16(2 * v);
    flag[i] = v > 0;
  }
  for (int i = 0; i < 10; ++i)
    n[i] = -i;
  *c = 0.5;
}

const mlxrt_model_abi Many = {MLXRT_ABI_VERSION,
                              0,
                              "many",
                              "entry many\n"
                              "input x bfloat16 3\n"
                              "output s float32 3\n"
                              "output h bfloat16 3\n"
                              "output flag bool 3\n"
                              "output n int64 10\n"
                              "output c float64 scalar\n",
                              manyEntry,
                              nullptr};

void noEntry(void **) { ADD_FAILURE() << "must not run"; }

struct CliResult {
  int rc;
  std::string out, err;
};

std::string slurp(FILE *f) {
  std::string s;
  rewind(f);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
    s.append(buf, n);
  fclose(f);
  return s;
}

CliResult runCli(const mlxrt_model_abi &program,
                 std::vector<std::string> args) {
  args.insert(args.begin(), "./model");
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(&a[0]);
  argv.push_back(nullptr);
  FILE *out = tmpfile(), *err = tmpfile();
  CliResult r;
  r.rc = mlxrt_cli_run(&program, static_cast<int>(args.size()), argv.data(),
                       out, err);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

class Cli : public ::testing::Test {
protected:
  void SetUp() override {
    AddCalls = 0;
    A = Dir.write("a.npy", npyFile(npyDict("<f4", "(4,)"),
                                   bytesOf(std::vector<float>{0, 1, 2, 3})));
    B = Dir.write("b.npy", npyFile(npyDict("<f4", "(4,)"),
                                   bytesOf(std::vector<float>{1, 2, 3, 4})));
  }
  std::vector<float> readOutput(const std::string &path) {
    ReadTensor r(path);
    EXPECT_EQ(r.status, MLXRT_OK) << r.message;
    return r.t.dtype == MLXRT_DTYPE_FLOAT32 ? r.values<float>()
                                            : std::vector<float>();
  }
  TempDir Dir;
  std::string A, B;
};

TEST_F(Cli, RunsAndWritesOutputs) {
  std::string out = Dir.file("out.npy");
  CliResult r = runCli(
      Add, {"--input", A, "--input", B, "--output", out, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(readOutput(out), (std::vector<float>{1, 3, 5, 7}));
  EXPECT_EQ(AddCalls, 1);
  EXPECT_EQ(Dir.list(),
            (std::vector<std::string>{"a.npy", "b.npy", "out.npy"}));
}

TEST_F(Cli, PrintsOutputsWithoutOutputFiles) {
  CliResult r =
      runCli(Add, {"--input=" + A, "--input=" + B, "--device", "cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "out0: float32 [4] = [1, 3, 5, 7]\n");
}

TEST_F(Cli, DefaultDeviceFallsBackToTheCpuWithANote) {
  // A program without CUDA code runs on the CPU, anywhere, without a word.
  CliResult r = runCli(Add, {"--input", A, "--input", B});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "out0: float32 [4] = [1, 3, 5, 7]\n");
  EXPECT_EQ(AddCalls, 1);
  // With CUDA code, only where no GPU is present.
  if (cudaPresent())
    return;
  char reason[512];
  envCudaAvailable(reason, sizeof(reason));
  r = runCli(AddCuda, {"--input", A, "--input", B});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, std::string("note: no CUDA device (") + reason +
                       "); running on the CPU\n");
  EXPECT_EQ(r.out, "out0: float32 [4] = [1, 3, 5, 7]\n");
}

TEST_F(Cli, ExplicitCudaFails) {
  // Without CUDA code: before the driver is even looked for.
  for (const char *dev : {"--device=cuda", "--device=cuda:1"}) {
    CliResult r = runCli(Add, {"--input", A, "--input", B, dev});
    EXPECT_EQ(r.rc, 1);
    EXPECT_EQ(r.err,
              std::string("error: no CUDA device: ") + NoCudaCode + "\n");
  }
  CliResult r = runCli(Add, {"--input", A, "--input", B, "--device=tpu"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err,
            "error: unknown device 'tpu' (expected cpu, cuda or cuda:N)\n");
  r = runCli(Add, {"--input", A, "--input", B, "--device=cuda:x"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(AddCalls, 0);
  // With CUDA code but no GPU: the reason.
  char reason[512];
  if (envCudaAvailable(reason, sizeof(reason)))
    return;
  for (const char *dev : {"--device=cuda", "--device=cuda:1"}) {
    r = runCli(AddCuda, {"--input", A, "--input", B, dev});
    EXPECT_EQ(r.rc, 1);
    EXPECT_EQ(r.err, std::string("error: no CUDA device: ") + reason + "\n");
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(AddCalls, 0);
}

TEST_F(Cli, InputsByName) {
  // Named inputs bind by name; the rest fill the remaining inputs in order.
  CliResult r =
      runCli(Add, {"--input", "b=" + A, "--input", B, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "out0: float32 [4] = [1, 3, 5, 7]\n");
  std::string big =
      Dir.write("c.npy", npyFile(npyDict("<f4", "(4,)"),
                                 bytesOf(std::vector<float>{10, 20, 30, 40})));
  r = runCli(Add, {"--input", B, "--input", "a=" + big, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "out0: float32 [4] = [11, 22, 33, 44]\n");
}

TEST_F(Cli, InputsFromArchives) {
  std::vector<float> a = {1, 1, 1, 1}, b = {2, 2, 2, 2};
  std::string npz = Dir.write(
      "ab.npz",
      zipFile({{"a.npy", npyFile(npyDict("<f4", "(4,)"), bytesOf(a)), true},
               {"b.npy", npyFile(npyDict("<f4", "(4,)"), bytesOf(b))}}));
  std::string st = Dir.write(
      "m.safetensors",
      safetensorsFile(
          R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
          R"("other":{"dtype":"F32","shape":[4],"data_offsets":[16,32]}})",
          bytesOf(a) + bytesOf(b)));
  // Positional: the entry is the name of the input it binds to.
  CliResult r = runCli(Add, {"--input", npz, "--input", npz, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "out0: float32 [4] = [3, 3, 3, 3]\n");
  // By name, with and without an explicit entry.
  r = runCli(Add, {"--input", "b=" + st + ":other", "--input", "a=" + st,
                   "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "out0: float32 [4] = [3, 3, 3, 3]\n");
  r = runCli(Add, {"--input", npz + ":b", "--input", st, "--device=cpu"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "error: input 'b': " + st +
                       ": no tensor 'b' (the file holds 'a', 'other')\n");
}

TEST_F(Cli, WrongNumberOfInputs) {
  CliResult r = runCli(Add, {"--input", A});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: expected 2 inputs, got 1 (missing: 'b')\n");
  r = runCli(Add, {"--input", A, "--input", B, "--input", A});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: expected 2 inputs, got 3\n");
  r = runCli(Add, {});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: expected 2 inputs, got 0 (missing: 'a', 'b')\n");
  r = runCli(Add, {"--input", "a=" + A, "--input", "a=" + B});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: input 'a' given twice\n");
  r = runCli(Add, {"--input", "c=" + A, "--input", B});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: no input named 'c' (inputs: 'a', 'b')\n");
  EXPECT_EQ(AddCalls, 0);
}

TEST_F(Cli, PathsWithEqualsSigns) {
  // A '/' before the '=' makes it a path, not NAME=FILE.
  std::string odd =
      Dir.write("x=y.npy", npyFile(npyDict("<f4", "(4,)"),
                                   bytesOf(std::vector<float>(4, 1))));
  CliResult r = runCli(Add, {"--input", odd, "--input", B, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "out0: float32 [4] = [2, 3, 4, 5]\n");
}

TEST_F(Cli, UsageErrors) {
  struct {
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      {{"--bogus"}, "error: unknown option '--bogus' (see --help)\n"},
      {{"--inputs", "x"}, "error: unknown option '--inputs' (see --help)\n"},
      {{"-i"}, "error: unknown option '-i' (see --help)\n"},
      {{"a.npy"},
       "error: unexpected argument 'a.npy' (give input files with --input; "
       "see --help)\n"},
      {{"--input"}, "error: option '--input' needs a value\n"},
      {{"--output"}, "error: option '--output' needs a value\n"},
      {{"--repeat"}, "error: option '--repeat' needs a value\n"},
      {{"--device"}, "error: option '--device' needs a value\n"},
      {{"--input="}, "error: --input: empty file name\n"},
      {{"--input", "a="}, "error: --input a=: empty file name\n"},
      {{"--output="}, "error: --output: empty file name\n"},
      {{"--repeat", "0"},
       "error: --repeat needs an integer from 1 to 10000000, got '0'\n"},
      {{"--repeat=-3"},
       "error: --repeat needs an integer from 1 to 10000000, got '-3'\n"},
      {{"--repeat", "5x"},
       "error: --repeat needs an integer from 1 to 10000000, got '5x'\n"},
      {{"--repeat", "10000001"},
       "error: --repeat needs an integer from 1 to 10000000, got "
       "'10000001'\n"},
      {{"--repeat", "99999999999999999999"},
       "error: --repeat needs an integer from 1 to 10000000, got "
       "'99999999999999999999'\n"},
      {{"--output", "o.npy", "--output", "o.npy"},
       "error: output file 'o.npy' given twice\n"},
      {{"--output", "o.npy", "--output", "./o.npy"},
       "error: output files 'o.npy' and './o.npy' are the same file\n"},
  };
  for (auto &c : cases) {
    SCOPED_TRACE(c.args[0]);
    CliResult r = runCli(Add, c.args);
    EXPECT_EQ(r.rc, 2);
    EXPECT_EQ(r.err, c.err);
    EXPECT_EQ(r.out, "");
  }
  CliResult r = runCli(Add, {"--input", A, "--input", B, "--output", "x.npy",
                             "--output", "y.npy"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: 2 --output files given, but the program has 1 "
                   "output\n");
  EXPECT_EQ(AddCalls, 0);
}

TEST_F(Cli, Help) {
  CliResult r = runCli(Add, {"--input", "whatever", "--help"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.rfind("usage: ./model [--input [NAME=]FILE]... [--output "
                        "FILE]...\n",
                        0),
            0u)
      << r.out;
  EXPECT_TRUE(contains(r.out, "Runs 'add', compiled by mlxc.\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "inputs:\n"
                              "  a     float32 [4]\n"
                              "  b     float32 [4]\n"
                              "outputs:\n"
                              "  out0  float32 [4]\n"))
      << r.out;
  for (const char *text :
       {"--input NAME=FILE", "FILE.npz[:ENTRY]", "FILE.safetensors[:TENSOR]",
        "--output FILE", "--device=DEVICE", "cpu, cuda or cuda:N", "--repeat N",
        "bfloat16 input also accepts float32 data", "descr '<V2'",
        "mx.load reads them as bfloat16", "ml_dtypes.bfloat16"})
    EXPECT_TRUE(contains(r.out, text)) << text;
  EXPECT_TRUE(contains(r.out, std::string("devices:\n  cpu\n  (no cuda: ") +
                                  NoCudaCode + ")\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "MLXRT_NO_UNIFIED=1")) << r.out;
  // With CUDA code: the GPUs present, or why there are none.
  r = runCli(AddCuda, {"--help"});
  EXPECT_EQ(r.rc, 0);
  char reason[512];
  if (envCudaAvailable(reason, sizeof(reason)))
    EXPECT_TRUE(contains(r.out, "devices:\n  cpu\n  cuda:0   ")) << r.out;
  else
    EXPECT_TRUE(contains(r.out, std::string("devices:\n  cpu\n  cuda    (not "
                                            "available here: ") +
                                    reason + ")\n"))
        << r.out;
  EXPECT_EQ(runCli(Add, {"-h"}).rc, 0);
  // Scalars and other dtypes in the listing.
  r = runCli(Many, {"--help"});
  EXPECT_TRUE(contains(r.out, "  x     bfloat16 [3]\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  c     float64 scalar\n")) << r.out;
}

TEST_F(Cli, Version) {
  CliResult r = runCli(Add, {"--version"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, std::string("mlxrt ") + MLXRT_EXPECTED_VERSION +
                       "\nprogram 'add', compiled by mlxc (CPU code only)\n");
  EXPECT_STREQ(mlxrt_version(), MLXRT_EXPECTED_VERSION);
  EXPECT_STRNE(mlxrt_version(), "unknown");
  // Nothing runs, whatever else is given.
  r = runCli(AddCuda, {"--input", A, "--version", "--output", "o.npy"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(r.out, std::string("mlxrt ") + MLXRT_EXPECTED_VERSION +
                       "\nprogram 'add', compiled by mlxc (CPU and CUDA "
                       "code)\n");
  EXPECT_EQ(AddCalls, 0);
  // A broken signature does not hide the runtime's version.
  mlxrt_model_abi bad = {
      MLXRT_ABI_VERSION, 0,      "f", "entry f\ninput x float32 4,\n",
      noEntry,           nullptr};
  r = runCli(bad, {"--version"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(r.out, std::string("mlxrt ") + MLXRT_EXPECTED_VERSION + "\n");
  // Usage errors still are.
  r = runCli(Add, {"--version", "--bogus"});
  EXPECT_EQ(r.rc, 2);
}

TEST_F(Cli, HelpStatesWhatTheExecutableNeeds) {
  CliResult r = runCli(Add, {"--help"});
  EXPECT_EQ(r.rc, 0);
  for (const char *text :
       {"[--help] [--version]",
        "--version            show the runtime's "
        "version",
        "x86-64 CPU with AVX2", "x86-64-v3", "glibc 2.34 or newer", "libz.so.1",
        "Fortran-order .npy", "Devices and FIFOs"})
    EXPECT_TRUE(contains(r.out, text)) << text << "\n" << r.out;
  // The GPU's needs only where the program has CUDA code.
  EXPECT_FALSE(contains(r.out, "libcuda.so.1")) << r.out;
  r = runCli(AddCuda, {"--help"});
  for (const char *text : {"NVIDIA driver (libcuda.so.1", "libcublasLt.so.13",
                           "matrix products", "MLXRT_LIBCUBLASLT"})
    EXPECT_TRUE(contains(r.out, text)) << text << "\n" << r.out;
}

TEST_F(Cli, InputErrorsNameTheInput) {
  std::string bad = Dir.write(
      "bad.npy", npyFile(npyDict("<f4", "(3,)"), std::string(12, '\0')));
  CliResult r = runCli(Add, {"--input", A, "--input", bad, "--device=cpu"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err,
            "error: input 'b': expected float32 [4], got float32 [3] in " +
                bad + "\n");
  std::string missing = Dir.file("missing.npy");
  r = runCli(Add, {"--input", missing, "--input", B, "--device=cpu"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "error: input 'a': cannot open '" + missing +
                       "': No such file or directory\n");
  std::string cut = Dir.write("cut.npy", readFile(A).substr(0, 134));
  r = runCli(Add, {"--input", cut, "--input", B, "--device=cpu"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "error: input 'a': " + cut +
                       ": truncated: expected 16 bytes of array data at byte "
                       "offset 128, but the data ends after 6\n");
  EXPECT_EQ(AddCalls, 0);
}

TEST_F(Cli, NoOutputLeftAfterAnError) {
  // An output that cannot be created stops the run before it starts, and the
  // other output's temporary file is removed.
  std::string out = Dir.file("out.npy");
  CliResult r = runCli(Many, {"--input", A, "--device=cpu"});
  ASSERT_EQ(r.rc, 1); // float32 [4] is not bfloat16 [3].
  std::string x =
      Dir.write("x.npy", npyFile(npyDict("<f4", "(3,)"),
                                 bytesOf(std::vector<float>{1, -2, 3})));
  std::string nowhere = Dir.file("no/such/dir/h.npy");
  r = runCli(Many, {"--input", x, "--output", out, "--output", nowhere,
                    "--device=cpu"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err,
            "error: output 'h': cannot create a temporary file beside '" +
                nowhere + "': No such file or directory\n");
  EXPECT_EQ(Dir.list(), (std::vector<std::string>{"a.npy", "b.npy", "x.npy"}));

  // A directory is refused before the run, too.
  ASSERT_EQ(mkdir(Dir.file("d").c_str(), 0755), 0);
  for (std::string d : {Dir.file("d"), Dir.file("d") + "/", out + "/"}) {
    r = runCli(Add,
               {"--input", A, "--input", B, "--output", d, "--device=cpu"});
    EXPECT_EQ(r.rc, 1);
    EXPECT_EQ(r.err, "error: output 'out0': cannot write '" + d + "': " +
                         (d == out + "/" ? "a file name cannot end in '/'"
                                         : "Is a directory") +
                         "\n");
  }
  EXPECT_EQ(AddCalls, 0);
  rmdir(Dir.file("d").c_str());
}

TEST_F(Cli, AFailedOutputLeavesEveryOldOutputUntouched) {
  // s and h are written to temporaries, then /dev/full fails (as a full disk
  // would): neither replaces its old file, and no temporary is left.
  if (access("/dev/full", W_OK) != 0)
    GTEST_SKIP() << "no /dev/full";
  std::string x =
      Dir.write("x.npy", npyFile(npyDict("<f4", "(3,)"),
                                 bytesOf(std::vector<float>{1, -2, 3})));
  std::string s = Dir.write("s.npy", "old s"), h = Dir.write("h.npy", "old h");
  CliResult r = runCli(Many, {"--input", x, "--output", s, "--output", h,
                              "--output", "/dev/full", "--device=cpu"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "error: output 'flag': cannot write '/dev/full': No space "
                   "left on device\n");
  EXPECT_EQ(readFile(s), "old s");
  EXPECT_EQ(readFile(h), "old h");
  EXPECT_EQ(Dir.list(), (std::vector<std::string>{"a.npy", "b.npy", "h.npy",
                                                  "s.npy", "x.npy"}));
  // The device is still a device.
  struct stat info;
  ASSERT_EQ(stat("/dev/full", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
}

TEST_F(Cli, TemporariesNeverOpenWhatIsPlantedAtTheirName) {
  // A symbolic link where the first temporary name would be, to someone
  // else's file: it is neither followed nor removed.
  std::string victim = Dir.write("victim", "precious");
  std::string out = Dir.file("out.npy");
  std::string planted = out + ".tmp." + std::to_string(getpid());
  ASSERT_EQ(symlink(victim.c_str(), planted.c_str()), 0);
  CliResult r = runCli(
      Add, {"--input", A, "--input", B, "--output", out, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(readFile(victim), "precious");
  EXPECT_EQ(readOutput(out), (std::vector<float>{1, 3, 5, 7}));
  struct stat info;
  ASSERT_EQ(lstat(planted.c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode));
  EXPECT_EQ(Dir.list(),
            (std::vector<std::string>{"a.npy", "b.npy", "out.npy",
                                      "out.npy.tmp." + std::to_string(getpid()),
                                      "victim"}));
}

TEST_F(Cli, OutputModeHonorsTheUmask) {
  std::string out = Dir.file("out.npy");
  for (mode_t mask : {mode_t(022), mode_t(077), mode_t(0)}) {
    SCOPED_TRACE(mask);
    mode_t old = umask(mask);
    CliResult r = runCli(
        Add, {"--input", A, "--input", B, "--output", out, "--device=cpu"});
    umask(old);
    EXPECT_EQ(r.rc, 0) << r.err;
    struct stat info;
    ASSERT_EQ(stat(out.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0666 & ~mask);
  }
}

TEST_F(Cli, OutputsToDevicesAndFifos) {
  // Written in place: no temporary beside /dev/null, which stays a device.
  CliResult r = runCli(Add, {"--input", A, "--input", B, "--output",
                             "/dev/null", "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
  struct stat info;
  ASSERT_EQ(stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
  // A FIFO gets the .npy as a stream, and stays a FIFO.
  std::string fifo = Dir.file("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = readFile(fifo); });
  r = runCli(Add,
             {"--input", A, "--input", B, "--output", fifo, "--device=cpu"});
  reader.join();
  EXPECT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(lstat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  std::string copy = Dir.write("copy.npy", got);
  EXPECT_EQ(readOutput(copy), (std::vector<float>{1, 3, 5, 7}));
  EXPECT_EQ(Dir.list(),
            (std::vector<std::string>{"a.npy", "b.npy", "copy.npy", "fifo"}));
}

TEST_F(Cli, OutputsThroughSymbolicLinks) {
  // The link's target is replaced, beside it; the link stays a link.
  ASSERT_EQ(mkdir(Dir.file("real").c_str(), 0755), 0);
  std::string target = Dir.file("real") + "/t.npy";
  { std::ofstream(target) << "old"; }
  std::string link = Dir.file("link.npy");
  ASSERT_EQ(symlink("real/t.npy", link.c_str()), 0);
  CliResult r = runCli(
      Add, {"--input", A, "--input", B, "--output", link, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  struct stat info;
  ASSERT_EQ(lstat(link.c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode));
  EXPECT_EQ(readOutput(target), (std::vector<float>{1, 3, 5, 7}));
  EXPECT_EQ(Dir.list(),
            (std::vector<std::string>{"a.npy", "b.npy", "link.npy", "real"}));
  // Nothing else in the target's directory.
  EXPECT_EQ(unlink(target.c_str()), 0);
  EXPECT_EQ(rmdir(Dir.file("real").c_str()), 0);
  // A link to nothing is refused, and nothing is created.
  r = runCli(Add,
             {"--input", A, "--input", B, "--output", link, "--device=cpu"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "error: output 'out0': cannot write '" + link +
                       "': a symbolic link to a file that does not exist\n");
  EXPECT_EQ(AddCalls, 1);
  EXPECT_EQ(Dir.list(),
            (std::vector<std::string>{"a.npy", "b.npy", "link.npy"}));
  // A link to a device is written through, in place.
  unlink(link.c_str());
  ASSERT_EQ(symlink("/dev/null", link.c_str()), 0);
  r = runCli(Add,
             {"--input", A, "--input", B, "--output", link, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(lstat(link.c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode));
}

TEST_F(Cli, DuplicateOutputsAreUsageErrors) {
  std::string x =
      Dir.write("x.npy", npyFile(npyDict("<f4", "(3,)"),
                                 bytesOf(std::vector<float>{1, -2, 3})));
  std::string a = Dir.file("a.npy"), out = Dir.file("o.npy");
  std::string dotted = Dir.path() + "/./o.npy";
  std::string hard = Dir.file("hard.npy");
  ASSERT_EQ(link(a.c_str(), hard.c_str()), 0);
  std::string soft = Dir.file("soft.npy");
  ASSERT_EQ(symlink("a.npy", soft.c_str()), 0);
  ASSERT_EQ(mkdir(Dir.file("sub").c_str(), 0755), 0);
  std::string up = Dir.file("sub") + "/../o.npy";
  struct {
    std::string first, second;
  } cases[] = {
      {out, dotted}, // Neither exists: the same name in the same directory.
      {out, up},
      {a, hard}, // Existing: the same inode.
      {soft, a},
  };
  for (auto &c : cases) {
    SCOPED_TRACE(c.second);
    CliResult r =
        runCli(Many, {"--input", x, "--output", c.first, "--output",
                      Dir.file("h.npy"), "--output", c.second, "--device=cpu"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_EQ(r.err, "error: output files '" + c.first + "' and '" + c.second +
                         "' are the same file\n");
  }
  CliResult r = runCli(
      Many, {"--input", x, "--output", out, "--output", out, "--device=cpu"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.err, "error: output file '" + out + "' given twice\n");
  // Nothing was written.
  EXPECT_EQ(Dir.list(), (std::vector<std::string>{"a.npy", "b.npy", "hard.npy",
                                                  "soft.npy", "sub", "x.npy"}));
  // /dev/null takes as many outputs as are not wanted.
  r = runCli(Many, {"--input", x, "--output", "/dev/null", "--output",
                    "/dev/null", "--output", out, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  ReadTensor flag(out);
  EXPECT_EQ(flag.values<uint8_t>(), (std::vector<uint8_t>{1, 0, 1}));
  unlink(out.c_str());
  rmdir(Dir.file("sub").c_str());
}

TEST_F(Cli, InputsThatAreNotRegularFiles) {
  // A FIFO without a writer would block an open: refused without waiting.
  std::string fifo = Dir.file("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  CliResult r = runCli(Add, {"--input", fifo, "--input", B, "--device=cpu"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "error: input 'a': cannot read '" + fifo +
                       "': it is a FIFO or pipe, not a regular file (the "
                       "formats need a file's size and random access)\n");
  r = runCli(Add, {"--input", A, "--input", "/dev/zero", "--device=cpu"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "error: input 'b': cannot read '/dev/zero': it is a "
                   "character device, not a regular file (the formats need a "
                   "file's size and random access)\n");
  r = runCli(Add, {"--input", A, "--input", Dir.path(), "--device=cpu"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "error: input 'b': cannot read '" + Dir.path() +
                       "': Is a directory\n");
  // A link to a regular file is a regular file.
  std::string link = Dir.file("link.npy");
  ASSERT_EQ(symlink(A.c_str(), link.c_str()), 0);
  r = runCli(Add, {"--input", link, "--input", B, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(AddCalls, 1);
}

TEST_F(Cli, OutputsOfEveryKind) {
  std::string x = Dir.write(
      "x.npy", npyFile(npyDict("<f4", "(3,)"),
                       bytesOf(std::vector<float>{1.5f, -2, 1.00390625f})));
  // Printed: bfloat16 input converted from float32, rounded to even.
  CliResult r = runCli(Many, {"--input", x, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "s: float32 [3] = [3, -4, 2]\n"
                   "h: bfloat16 [3] = [3, -4, 2]\n"
                   "flag: bool [3] = [True, False, True]\n"
                   "n: int64 [10] = [0, -1, -2, -3, -4, -5, -6, -7, ...] "
                   "(10 values)\n"
                   "c: float64 scalar = 0.5\n");
  // Written: the first two outputs only; bfloat16 as mx.save writes it.
  std::string s = Dir.file("s.npy"), h = Dir.file("h.npy");
  r = runCli(Many,
             {"--input", x, "--output", s, "--output", h, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(readOutput(s), (std::vector<float>{3, -4, 2}));
  EXPECT_TRUE(contains(readFile(h), "{'descr': '<V2', "));
  ReadTensor hr(h);
  ASSERT_EQ(hr.status, MLXRT_OK) << hr.message;
  EXPECT_EQ(hr.t.dtype, MLXRT_DTYPE_BFLOAT16);
  EXPECT_EQ(hr.values<uint16_t>(),
            (std::vector<uint16_t>{0x4040, 0xc080, 0x4000}));
  // And read back as the bfloat16 input.
  r = runCli(Many, {"--input", h, "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "h: bfloat16 [3] = [6, -8, 4]\n")) << r.out;
  EXPECT_EQ(Dir.list(), (std::vector<std::string>{"a.npy", "b.npy", "h.npy",
                                                  "s.npy", "x.npy"}));
}

TEST_F(Cli, Repeat) {
  CliResult r = runCli(Add, {"--input", A, "--input", B, "--repeat", "5",
                             "--output", Dir.file("o.npy"), "--device=cpu"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(AddCalls, 6); // One warm-up run.
  EXPECT_EQ(r.out.rfind("median ", 0), 0u) << r.out;
  EXPECT_TRUE(contains(r.out, " ms over 5 runs\n")) << r.out;
  r = runCli(Add, {"--input", A, "--input", B, "--repeat=1", "--device=cpu"});
  EXPECT_TRUE(contains(r.out, "out0: float32 [4] = [1, 3, 5, 7]\nmedian "))
      << r.out;
  EXPECT_TRUE(contains(r.out, " ms over 1 run\n")) << r.out;
}

TEST_F(Cli, OutOfMemory) {
  mlxrt_model_abi big = {MLXRT_ABI_VERSION,
                         0,
                         "big",
                         "entry big\noutput huge float32 1125899906842624\n",
                         noEntry,
                         nullptr};
  CliResult r = runCli(big, {"--device=cpu"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "error: output 'huge': out of memory: cannot allocate "
                   "4503599627370496 bytes (4294967296.0 MiB)\n");
}

TEST_F(Cli, MalformedSignature) {
  mlxrt_model_abi bad = {
      MLXRT_ABI_VERSION, 0,      "f", "entry f\ninput x float32 4,\n",
      noEntry,           nullptr};
  CliResult r = runCli(bad, {"--help"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "error: internal error: malformed program signature: line "
                   "2: bad dims '4,': expected sizes like 8,64 or 'scalar'\n");
}

TEST_F(Cli, MainUsesTheLinkedProgram) {
  std::string out = Dir.file("main.npy");
  std::vector<std::string> args = {"./model", "--input",  A,   "--input",
                                   B,         "--output", out, "--device=cpu"};
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(&a[0]);
  argv.push_back(nullptr);
  EXPECT_EQ(mlxrt_main(static_cast<int>(args.size()), argv.data()), 0);
  EXPECT_EQ(readOutput(out), (std::vector<float>{1, 3, 5, 7}));
}

} // namespace
