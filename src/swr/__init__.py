"""swr: software-in-the-loop reconstruction — verified tasks for coding agents from real scientific software."""

__version__ = "0.1.0"
