"""The frozen rules versions of Arkon."""
