"""The workflow kind (SWR): a wrapped program's reference runs, judged field by field."""
