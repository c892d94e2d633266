"""The frozen rules versions of Battlefields of Olympus."""
