"""The frozen rules versions of Fate of Akalon: Tribes."""
