"""Makes the fp32-weight variant of the Kokoro int8 model for the benchmark's comparison (issue 14:
"the fp32 vs int8 model, pick the faster").

    python dequantize.py <int8 model.onnx> <out model.onnx>

Every ConvInteger / MatMulInteger with constant int8 weights becomes a float Conv / MatMul on
weights (w - w_zero_point) stored as float32; its input (still quantized by DynamicQuantizeLinear) is
cast to float minus its zero point, and the result rounded back to int32, so the rest of the graph
(the int32 bias add, the scale multiply) is untouched and the sound is the same to rounding. Needs
the `onnx` package (installed by `scripts/install-deps.sh bench` only).
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main(src, dst):
    m = onnx.load(src)
    g = m.graph
    inits = {i.name: i for i in g.initializer}
    nodes, made, new_inits, n_done = [], set(), [], 0
    for n in g.node:
        if n.op_type not in ("ConvInteger", "MatMulInteger") or n.input[1] not in inits:
            nodes.append(n)
            continue
        xq, wq = n.input[0], n.input[1]
        xzp = n.input[2] if len(n.input) > 2 else ""
        wzp = n.input[3] if len(n.input) > 3 else ""
        wname = f"{wq}_f32_{wzp}"
        if wname not in made:
            w = numpy_helper.to_array(inits[wq]).astype(np.float32)
            if wzp:
                z = numpy_helper.to_array(inits[wzp]).astype(np.float32)
                if n.op_type == "ConvInteger" and z.ndim == 1:  # per output channel
                    z = z.reshape(-1, *([1] * (w.ndim - 1)))
                w = w - z
            made.add(wname)
            new_inits.append(numpy_helper.from_array(w, wname))
        out = n.output[0]
        x = f"{out}_xf"
        nodes.append(helper.make_node("Cast", [xq], [x], to=TensorProto.FLOAT))
        if xzp:
            nodes.append(helper.make_node("Cast", [xzp], [f"{out}_zf"], to=TensorProto.FLOAT))
            nodes.append(helper.make_node("Sub", [x, f"{out}_zf"], [f"{out}_xc"]))
            x = f"{out}_xc"
        op = "Conv" if n.op_type == "ConvInteger" else "MatMul"
        f = helper.make_node(op, [x, wname], [f"{out}_yf"], name=f"{n.name}_f32")
        if op == "Conv":
            f.attribute.extend(n.attribute)
        nodes.append(f)
        nodes.append(helper.make_node("Round", [f"{out}_yf"], [f"{out}_yr"]))
        nodes.append(helper.make_node("Cast", [f"{out}_yr"], [out], to=TensorProto.INT32))
        n_done += 1
    del g.node[:]
    g.node.extend(nodes)
    g.initializer.extend(new_inits)
    used = {i for nd in g.node for i in nd.input}
    keep = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    onnx.save(m, dst)
    print(f"tts: {n_done} integer ops made float", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:3])
