"""What results are shown as: figures, the guide's pages and the readable layout score."""
