"""cunp.fft (NumPy's numpy.fft)."""
