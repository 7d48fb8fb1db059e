"""Auditing verifiers: how far a release's verdicts can be trusted."""
