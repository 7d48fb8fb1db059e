"""DeepImpute's MultiNet on a fixed count matrix, with fixed weights: what a port must reproduce across
TensorFlow 1.15/Keras 2.3 and TensorFlow 2.21/Keras 3. The gene selection and the target/predictor split
(NumPy's legacy RandomState, pandas), the network built by MultiNet.build (its layer shapes), the forward pass
and the weighted-MSE loss of that network with weights drawn from a fixed RandomState (not the framework's
initialisers, which differ between versions), the loss a training step on a fixed batch reports, and
MultiNet.predict's imputed matrix after MultiNet.save and its reload. Prints one JSON object."""

import contextlib
import json
import sys
import tempfile

import numpy as np
import pandas as pd

from deepimpute.multinet import MultiNet, get_distance_matrix


def counts(n_cells=80, n_genes=40, seed=7):
    rs = np.random.RandomState(seed)
    means = rs.gamma(2.0, 4.0, size=n_genes)
    x = rs.negative_binomial(2, 2.0 / (2.0 + means), size=(n_cells, n_genes)).astype(float)
    x[x.max(axis=1) < 10] += 10.0
    return pd.DataFrame(x, index=["c%d" % i for i in range(n_cells)], columns=["g%d" % j for j in range(n_genes)])


def r(a, n=6):
    return [round(float(v), n) for v in np.asarray(a, dtype=np.float64).ravel()]




def main(out):
    mn = MultiNet(learning_rate=1e-3, sub_outputdim=8, ncores=1, seed=3, verbose=0, output_prefix=tempfile.mkdtemp(),
                  architecture=[{"type": "dense", "neurons": 12, "activation": "relu"}])
    np.random.seed(3)
    metric = (raw.var() / (1 + raw.mean())).sort_values(ascending=False)
    genes = mn.filter_genes(metric, 0.5, NN_lim=16)
    mn.setTargets(raw.reindex(columns=genes), mode="random")
    mn.setPredictors(get_distance_matrix(raw), ntop=3)
    out["genes"] = [str(g) for g in genes]
    out["targets"] = [[str(g) for g in t] for t in mn.targets]
    out["predictors"] = [[str(g) for g in p] for p in mn.predictors]

    model = mn.build([len(p) for p in mn.predictors])
    rs = np.random.RandomState(11)
    weights = [rs.uniform(-0.3, 0.3, size=w.shape).astype(np.float32) for w in model.get_weights()]
    model.set_weights(weights)
    out["shapes"] = [list(w.shape) for w in model.get_weights()]

    norm = np.log1p(raw).astype(np.float32)
    X = [norm.loc[:, p].values for p in mn.predictors]
    Y = [norm.loc[:, t].values for t in mn.targets]
    pred = model.predict(X, batch_size=len(raw), verbose=0)
    pred = pred if isinstance(pred, list) else [pred]
    out["forward_head"] = [r(p[:3]) for p in pred]
    out["forward_sum"] = [round(float(np.sum(p)), 4) for p in pred]
    loss = model.evaluate(X, Y, batch_size=len(raw), verbose=0)
    out["loss"] = r(loss if isinstance(loss, list) else [loss])
    step = model.train_on_batch(X, Y)  # the loss it reports is before its update: the same as evaluate's
    out["train_step_loss"] = r(step if isinstance(step, list) else [step])

    model.set_weights(weights)
    mn.save(model)
    imputed = mn.predict(raw)
    out["imputed_shape"] = list(imputed.shape)
    out["imputed_col_sums"] = r(imputed.sum(axis=0).values, 3)
    out["imputed_head"] = r(imputed.values[:2, :10], 4)


out = {}
raw = counts()
with contextlib.redirect_stdout(sys.stderr):  # MultiNet prints its progress: stdout is the JSON object alone
    main(out)
json.dump(out, sys.stdout, sort_keys=True)
