raise ImportError("this package is forbidden in this task and is not installed in its sandbox")
