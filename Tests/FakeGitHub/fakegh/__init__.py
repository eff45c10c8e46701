"""An independent fake of GitHub's OAuth and REST behaviour, for ghlogin's end-to-end tests.

Python 3 standard library only. See fake_github.py for the entry point and README.md for the
control protocol.
"""
