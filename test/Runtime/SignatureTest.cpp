//===- SignatureTest.cpp - Parsing mlxc_program_signature ------*- C++ -*-===//

#include "TestUtil.h"

using namespace mlxrt_test;

namespace {

/// Parses `text`; returns the message of a failure, else "".
std::string parseError(const char *text) {
  mlxrt_signature sig;
  mlxrt_error err;
  mlxrt_status st = mlxrt_signature_parse(text, &sig, &err);
  // A failed parse leaves nothing to free, but freeing must be harmless.
  if (st != MLXRT_OK) {
    EXPECT_EQ(sig.entry, nullptr);
    EXPECT_EQ(sig.num_inputs, 0u);
  }
  mlxrt_signature_free(&sig);
  return st == MLXRT_OK ? "" : err.message;
}

TEST(Signature, ParsesTheDocumentedExample) {
  const char *text = "entry mlp\n"
                     "input x float32 8,64\n"
                     "input w1 float32 256,64\n"
                     "output out0 float32 8,10\n";
  mlxrt_signature sig;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_signature_parse(text, &sig, &err), MLXRT_OK) << err.message;
  EXPECT_STREQ(sig.entry, "mlp");
  ASSERT_EQ(sig.num_inputs, 2u);
  ASSERT_EQ(sig.num_outputs, 1u);
  EXPECT_STREQ(sig.inputs[0].name, "x");
  EXPECT_EQ(sig.inputs[0].type.dtype, MLXRT_DTYPE_FLOAT32);
  EXPECT_EQ(sig.inputs[0].type.rank, 2);
  EXPECT_EQ(sig.inputs[0].type.dims[0], 8);
  EXPECT_EQ(sig.inputs[0].type.dims[1], 64);
  EXPECT_EQ(sig.inputs[0].type.nbytes, 8u * 64 * 4);
  EXPECT_STREQ(sig.inputs[1].name, "w1");
  EXPECT_EQ(sig.inputs[1].type.dims[0], 256);
  EXPECT_STREQ(sig.outputs[0].name, "out0");
  EXPECT_EQ(sig.outputs[0].type.dims[1], 10);
  mlxrt_signature_free(&sig);
  EXPECT_EQ(sig.inputs, nullptr);
  mlxrt_signature_free(&sig); // Twice is harmless.
}

TEST(Signature, ScalarsEveryDtypeAndLooseWhitespace) {
  const char *text = "\n  entry   f \r\n"
                     "input\ts bool scalar\n"
                     "input a bfloat16 1,2,3,4,5,6,7,8\n"
                     "input e int8 0\n"
                     "\n"
                     "output o float16 2";
  mlxrt_signature sig;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_signature_parse(text, &sig, &err), MLXRT_OK) << err.message;
  EXPECT_STREQ(sig.entry, "f");
  ASSERT_EQ(sig.num_inputs, 3u);
  EXPECT_EQ(sig.inputs[0].type.rank, 0);
  EXPECT_EQ(sig.inputs[0].type.nbytes, 1u);
  EXPECT_EQ(sig.inputs[1].type.rank, 8);
  EXPECT_EQ(sig.inputs[1].type.nbytes, 40320u * 2);
  EXPECT_EQ(sig.inputs[2].type.nbytes, 0u);
  ASSERT_EQ(sig.num_outputs, 1u);
  EXPECT_EQ(sig.outputs[0].type.dtype, MLXRT_DTYPE_FLOAT16);
  mlxrt_signature_free(&sig);
}

TEST(Signature, NoInputs) {
  mlxrt_signature sig;
  ASSERT_EQ(
      mlxrt_signature_parse("entry c\noutput y int32 scalar\n", &sig, nullptr),
      MLXRT_OK);
  EXPECT_EQ(sig.num_inputs, 0u);
  EXPECT_EQ(sig.inputs, nullptr);
  mlxrt_signature_free(&sig);
}

TEST(Signature, CudaInPlacePairsAnOutputWithItsInput) {
  const char *text = "entry decode\n"
                     "input offset int32 scalar\n"
                     "input cache bfloat16 1,4,16,8\n"
                     "output out0 bfloat16 1,8\n"
                     "output new_cache bfloat16 1,4,16,8\n"
                     "cuda-in-place new_cache cache\n";
  mlxrt_signature sig;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_signature_parse(text, &sig, &err), MLXRT_OK) << err.message;
  EXPECT_EQ(sig.outputs[0].cuda_in_place_of, -1);
  EXPECT_EQ(sig.outputs[1].cuda_in_place_of, 1);
  EXPECT_EQ(sig.outputs[1].cpu_in_place_of, -1);
  mlxrt_signature_free(&sig);
  // The CPU variant's pairs, on their own.
  std::string both = std::string(text) + "cpu-in-place new_cache cache\n";
  ASSERT_EQ(mlxrt_signature_parse(both.c_str(), &sig, &err), MLXRT_OK)
      << err.message;
  EXPECT_EQ(sig.outputs[1].cpu_in_place_of, 1);
  EXPECT_EQ(sig.outputs[1].cuda_in_place_of, 1);
  EXPECT_EQ(sig.outputs[0].cpu_in_place_of, -1);
  mlxrt_signature_free(&sig);

  const char *head = "entry f\ninput a float32 4\ninput b float32 2\n"
                     "output x float32 4\noutput y float32 4\n";
  EXPECT_EQ(parseError((std::string(head) + "cuda-in-place x\n").c_str()),
            "malformed program signature: line 6: expected 'cuda-in-place "
            "<output> <input>'");
  EXPECT_EQ(parseError((std::string(head) + "cuda-in-place x c\n").c_str()),
            "malformed program signature: line 6: cuda-in-place: no output "
            "'x' or no input 'c'");
  EXPECT_EQ(parseError((std::string(head) + "cuda-in-place x b\n").c_str()),
            "malformed program signature: line 6: cuda-in-place: output 'x' "
            "and input 'b' differ in type");
  EXPECT_EQ(
      parseError((std::string(head) + "cuda-in-place x a\ncuda-in-place y a\n")
                     .c_str()),
      "malformed program signature: line 7: cuda-in-place: output 'y' "
      "and input 'a' are already paired");
}

TEST(Signature, Malformed) {
  EXPECT_EQ(parseError(""), "malformed program signature: no 'entry' record");
  EXPECT_EQ(parseError(nullptr), "malformed program signature: no text");
  EXPECT_EQ(parseError("input x float32 4\n"),
            "malformed program signature: no 'entry' record");
  EXPECT_EQ(parseError("entry\n"),
            "malformed program signature: line 1: expected 'entry "
            "<function-name>'");
  EXPECT_EQ(parseError("entry f\nentry g\n"),
            "malformed program signature: line 2: second 'entry' record");
  EXPECT_EQ(parseError("entry f\nparam x float32 4\n"),
            "malformed program signature: line 2: unknown record 'param' "
            "(expected entry, input, output, cpu-in-place or "
            "cuda-in-place)");
  EXPECT_EQ(parseError("entry f\ninput x float32\n"),
            "malformed program signature: line 2: expected 'input <name> "
            "<dtype> <dims>'");
  EXPECT_EQ(parseError("entry f\noutput x float32 4 extra\n"),
            "malformed program signature: line 2: expected 'output <name> "
            "<dtype> <dims>'");
  EXPECT_EQ(parseError("entry f\ninput x a b c d e f\n"),
            "malformed program signature: line 2: too many fields");
  EXPECT_EQ(parseError("entry f\ninput x float 4\n"),
            "malformed program signature: line 2: unknown dtype 'float'");
  EXPECT_EQ(parseError("entry f\ninput x averyveryverylongdtypename 4\n"),
            "malformed program signature: line 2: unknown dtype "
            "'averyveryverylongdtypename'");
  EXPECT_EQ(parseError("entry f\ninput x float32 4,x\n"),
            "malformed program signature: line 2: bad dims '4,x': expected "
            "sizes like 8,64 or 'scalar'");
  EXPECT_EQ(parseError("entry f\ninput x float32 4,\n"),
            "malformed program signature: line 2: bad dims '4,': expected "
            "sizes like 8,64 or 'scalar'");
  EXPECT_EQ(parseError("entry f\ninput x float32 -4\n"),
            "malformed program signature: line 2: bad dims '-4': expected "
            "sizes like 8,64 or 'scalar'");
  EXPECT_EQ(parseError("entry f\ninput x float32 4;5\n"),
            "malformed program signature: line 2: bad dims '4;5': expected "
            "sizes like 8,64 or 'scalar'");
  EXPECT_EQ(parseError("entry f\ninput x float32 99999999999999999999\n"),
            "malformed program signature: line 2: bad dims "
            "'99999999999999999999': size too large");
  EXPECT_EQ(parseError("entry f\ninput x float32 1,1,1,1,1,1,1,1,1\n"),
            "malformed program signature: line 2: bad dims "
            "'1,1,1,1,1,1,1,1,1': more than 8 dimensions");
  EXPECT_EQ(parseError("entry f\ninput x float32 4611686018427387904,4\n"),
            "malformed program signature: line 2: tensor of float32 is too "
            "large (byte count overflows)");
  EXPECT_EQ(parseError("entry f\ninput x float32 4\noutput x float32 4\n"),
            "malformed program signature: line 3: duplicate name 'x'");
}

TEST(Signature, FailureAfterSomeRecordsFreesThem) {
  // Run under ASan/LSan, this proves the partial signature is released.
  EXPECT_NE(parseError("entry f\ninput a float32 4\ninput b float32 4\n"
                       "output c float32 4\nbogus\n"),
            "");
}

} // namespace
