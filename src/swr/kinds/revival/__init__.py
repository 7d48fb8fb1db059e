"""Revival tasks (ReviveBench's software revival): a real project that no longer runs, graded by its own
hidden tests and by probes against outputs recorded from the intact original (docs/revival.md)."""
