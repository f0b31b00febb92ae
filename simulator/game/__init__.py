"""The game: rule options and presets, cards, and the integer codes shared with the kernel."""
