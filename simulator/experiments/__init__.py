"""Experiments: runs on threads, comparisons, tournaments, tuning, guides, warming builds."""
