"""Collecting doctests must not register the example rule set: the other tests list the
registered rule sets when they are collected, and the example is not among the shipped."""

collect_ignore = ["plugin.py"]
