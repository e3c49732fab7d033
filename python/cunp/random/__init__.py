"""cunp.random: NumPy's Generator and legacy APIs, the same stream on CPU and GPU."""
