"""Engine reconstruction tasks (ReviveBench): an engine.toml, a written spec, three worked examples,
hidden cases and a hidden verifier of three kinds (tolerance, proof, invariant)."""
