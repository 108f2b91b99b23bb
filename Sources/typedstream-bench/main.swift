print("typedstream-bench: not yet implemented")
