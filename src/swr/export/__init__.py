"""Exports of what swr made: verified trajectories as an SFT corpus, a release as Harbor tasks."""
