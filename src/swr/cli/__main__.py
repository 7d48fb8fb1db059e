"""`python -m swr.cli ...`: the same command as `swr` (the workspace's ./feedback calls it so)."""

from swr.cli.main import main

main()
