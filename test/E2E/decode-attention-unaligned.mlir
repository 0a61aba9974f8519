// RUN: %check %s
// A decode step's attention over 37 cached keys: rows of 37 elements are
// not 16-byte multiples, so on CUDA the scores and the probabilities live in
// buffers with padded rows (cuBLASLt's fast kernels need aligned leading
// dimensions) that the softmax reads and writes through strided views.
// Grouped-query (4 query heads over 2 key heads) through mx.fast, and the
// decomposed form a CPU export holds, in f32 and bf16.
// REF: attn = mx.fast.scaled_dot_product_attention(q, k, v, scale=0.25)
// REF: attn16 = mx.fast.scaled_dot_product_attention(qb, kb, vb, scale=0.25)
// REF: out = mx.matmul(mx.softmax(mx.matmul(qb, kb.transpose(0, 1, 3, 2)) * 0.25, axis=-1, precise=True), vb)
func.func @decode_attention_unaligned(
    %q: tensor<1x4x1x16xf32> {mlx.name = "q"},
    %k: tensor<1x2x37x16xf32> {mlx.name = "k"},
    %v: tensor<1x2x37x16xf32> {mlx.name = "v"},
    %qb: tensor<1x2x1x16xbf16> {mlx.name = "qb"},
    %kb: tensor<1x2x37x16xbf16> {mlx.name = "kb"},
    %vb: tensor<1x2x37x16xbf16> {mlx.name = "vb"})
    -> (tensor<1x4x1x16xf32> {mlx.name = "attn"},
        tensor<1x2x1x16xbf16> {mlx.name = "attn16"},
        tensor<1x2x1x16xbf16> {mlx.name = "out"}) {
  %attn = mlx.scaled_dot_product_attention %q, %k, %v {scale = 0.25 : f32} : tensor<1x4x1x16xf32>, tensor<1x2x37x16xf32>, tensor<1x2x37x16xf32>
  %attn16 = mlx.scaled_dot_product_attention %qb, %kb, %vb {scale = 0.25 : f32} : tensor<1x2x1x16xbf16>, tensor<1x2x37x16xbf16>, tensor<1x2x37x16xbf16>
  %kt = mlx.transpose %kb {axes = array<i64: 0, 1, 3, 2>} : tensor<1x2x37x16xbf16>
  %s = mlx.matmul %qb, %kt : tensor<1x2x1x16xbf16>, tensor<1x2x16x37xbf16>
  %c = mlx.constant dense<0.25> : tensor<bf16>
  %scaled = mlx.multiply %s, %c : tensor<1x2x1x37xbf16>, tensor<bf16>
  %probs = mlx.softmax %scaled {axes = array<i64: -1>, precise = true} : tensor<1x2x1x37xbf16>
  %out = mlx.matmul %probs, %vb : tensor<1x2x1x37xbf16>, tensor<1x2x37x16xbf16>
  return %attn, %attn16, %out : tensor<1x4x1x16xf32>, tensor<1x2x1x16xbf16>, tensor<1x2x1x16xbf16>
}
