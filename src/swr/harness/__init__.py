"""The agent harness: workspaces, agents, budgets, records, the store, executors, results."""
