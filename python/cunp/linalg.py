"""cunp.linalg (NumPy's numpy.linalg)."""
