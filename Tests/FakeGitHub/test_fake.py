#!/usr/bin/env python3
"""Self-test of the fake GitHub: python3 Tests/FakeGitHub/test_fake.py

Runs in a few seconds; unittest's last line is OK or FAILED (the CI reader looks for it)."""

import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fakeclient  # noqa: E402
import selftest_flows  # noqa: E402
import selftest_installations  # noqa: E402
import selftest_process  # noqa: E402
import selftest_scoped  # noqa: E402
import selftest_web  # noqa: E402


def load_tests(loader, tests, pattern):
    suite = unittest.TestSuite()
    for module in (selftest_web, selftest_flows, selftest_process, selftest_scoped, selftest_installations):
        suite.addTests(loader.loadTestsFromModule(module))
    return suite


if __name__ == "__main__":
    try:
        unittest.main(verbosity=1)
    finally:
        fakeclient.stop_shared()
