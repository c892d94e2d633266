"""The frozen rules versions of Fellowships of Fate."""
