"""DeepImpute's MultiNet on a small synthetic count matrix (written for swr's revival task: the sdist ships no
tests). Version-neutral on purpose: the same file runs natively (TensorFlow 1.15, Keras 2.3) and in the target
(TensorFlow 2.21, Keras 3), so it checks behaviour, not one framework's API."""

import numpy as np
import pandas as pd
import pytest
import tensorflow as tf

from deepimpute.multinet import MultiNet, get_distance_matrix, wMSE


def counts(n_cells=120, n_genes=48, seed=0):
    rs = np.random.RandomState(seed)
    means = rs.gamma(2.0, 4.0, size=n_genes)
    x = rs.negative_binomial(2, 2.0 / (2.0 + means), size=(n_cells, n_genes)).astype(float)
    x[x.max(axis=1) < 10] += 10.0  # inspect_data refuses a matrix that looks log-transformed
    return pd.DataFrame(x, index=["c%d" % i for i in range(n_cells)], columns=["g%d" % j for j in range(n_genes)])


def value(t):
    return t.numpy() if hasattr(t, "numpy") else tf.compat.v1.Session().run(t)


def net(tmp_path, **kw):
    args = dict(max_epochs=3, sub_outputdim=16, ncores=1, seed=0, verbose=0, output_prefix=str(tmp_path))
    args.update(kw)
    return MultiNet(**args)


def test_distance_matrix_is_an_absolute_correlation():
    raw = counts()
    d = get_distance_matrix(raw)
    assert d.shape == (raw.shape[1], raw.shape[1])
    assert np.allclose(d.values, d.values.T)
    assert np.allclose(np.diag(d.values), 1.0)
    assert (d.values >= 0).all() and (d.values <= 1 + 1e-12).all()
    top = get_distance_matrix(raw, n_pred=10)
    assert top.shape == (10, 10)


def test_weighted_mse_matches_its_formula():
    y = np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 0.5]], dtype=np.float32)
    p = np.array([[0.5, 1.5, 1.0], [2.0, 1.0, 0.5]], dtype=np.float32)
    got = value(wMSE(tf.constant(y), tf.constant(p)))
    assert got == pytest.approx(float(np.mean(y * (y - p) ** 2)), rel=1e-6)
    binary = value(wMSE(tf.constant(y), tf.constant(p), binary=True))
    assert binary == pytest.approx(float(np.mean((y > 0) * (y - p) ** 2)), rel=1e-6)


def test_targets_and_predictors_partition_the_genes(tmp_path):
    raw = counts()
    mn = net(tmp_path)
    np.random.seed(0)
    metric = (raw.var() / (1 + raw.mean())).sort_values(ascending=False)
    genes = mn.filter_genes(metric, 0.5, NN_lim=32)
    assert len(genes) % 16 == 0
    mn.setTargets(raw.reindex(columns=genes), mode="progressive")
    assert mn.targets.shape == (len(genes) // 16, 16)
    mn.setPredictors(get_distance_matrix(raw), ntop=3)
    for targets, predictors in zip(mn.targets, mn.predictors):
        assert not set(targets) & set(predictors)
        assert 0 < len(predictors) <= 3 * 16


def test_fit_then_predict_restores_the_observed_counts(tmp_path):
    raw = counts()
    mn = net(tmp_path).fit(raw, NN_lim=32)
    assert 1 <= mn.trained_epochs <= 3
    assert np.isfinite(mn.test_metrics["MSE"]) and -1 <= mn.test_metrics["correlation"] <= 1
    imputed = mn.predict(raw)
    assert imputed.shape == raw.shape
    assert list(imputed.index) == list(raw.index) and list(imputed.columns) == list(raw.columns)
    values = imputed.values
    assert np.isfinite(values).all() and (values >= 0).all()
    observed = raw.values > 0
    assert np.array_equal(values[observed], raw.values[observed])
    only = mn.predict(raw, imputed_only=True)
    assert set(only.columns) <= set(raw.columns) and len(only.columns) == len(set(mn.targets.flatten()))


def test_a_saved_model_loads_with_its_weights(tmp_path):
    mn = net(tmp_path, architecture=[{"type": "dense", "neurons": 8, "activation": "relu"}])
    model = mn.build([5, 7])
    mn.save(model)
    back = mn.load()
    for a, b in zip(model.get_weights(), back.get_weights()):
        assert np.array_equal(a, b)
    x = [np.ones((3, 5), dtype=np.float32), np.full((3, 7), 0.5, dtype=np.float32)]
    for a, b in zip(model.predict(x), back.predict(x)):
        assert np.allclose(a, b)
