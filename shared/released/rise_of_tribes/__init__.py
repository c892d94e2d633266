"""The frozen rules versions of Rise of Tribes."""
