"""causal-conv1d's CUDA kernels on fixed inputs: the forward pass (with and without bias and SiLU, channel-first
and channel-last), its gradients, and the single-step update, each as float32 lists rounded to 5 decimals, and
the largest distance to the package's own pure-PyTorch reference (causal_conv1d_ref). Needs a GPU."""

import json

import torch

from causal_conv1d.causal_conv1d_interface import (
    causal_conv1d_fn,
    causal_conv1d_ref,
    causal_conv1d_update,
    causal_conv1d_update_ref,
)


def rounded(t):
    return [round(float(v), 5) for v in t.detach().float().cpu().flatten().tolist()]


torch.manual_seed(0)
dev = "cuda"
batch, dim, seqlen, width = 2, 64, 128, 4
x = torch.randn(batch, dim, seqlen, device=dev, dtype=torch.float32)
weight = torch.randn(dim, width, device=dev, dtype=torch.float32)
bias = torch.randn(dim, device=dev, dtype=torch.float32)
out = {}
for name, b, act in (("plain", None, None), ("bias_silu", bias, "silu")):
    for layout in ("channel_first", "channel_last"):
        xi = x if layout == "channel_first" else x.transpose(1, 2).contiguous().transpose(1, 2)
        xi = xi.detach().requires_grad_(True)
        y = causal_conv1d_fn(xi, weight, b, activation=act)
        y_ref = causal_conv1d_ref(xi.detach(), weight, b, activation=act)
        y.sum().backward()
        out[f"{name}.{layout}"] = {
            "y_head": rounded(y[0, :4, :8]),
            "y_sum": round(float(y.sum()), 3),
            "grad_x_head": rounded(xi.grad[0, :4, :8]),
            "max_diff_to_ref": float((y - y_ref).abs().max()) < 1e-4,
        }
state = torch.randn(batch, dim, width, device=dev, dtype=torch.float32)
step = torch.randn(batch, dim, device=dev, dtype=torch.float32)
s1, s2 = state.clone(), state.clone()
u = causal_conv1d_update(step, s1, weight, bias, activation="silu")
u_ref = causal_conv1d_update_ref(step, s2, weight, bias, activation="silu")
out["update"] = {"y_head": rounded(u[0, :8]), "matches_ref": float((u - u_ref).abs().max()) < 1e-4}
print(json.dumps(out, sort_keys=True))
