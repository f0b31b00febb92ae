"""The kernel: compiled code (engines, scoring, random streams) and choosing or refusing builds."""
