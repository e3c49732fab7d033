"""Reductions, scans and statistics with NumPy's names."""
__all__ = []
