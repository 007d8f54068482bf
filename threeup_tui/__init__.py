"""threeup: the card game 3UP 3DOWN in the terminal."""

__version__ = "0.1.0"
