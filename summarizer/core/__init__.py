"""The kernel: errors, settings, token counting, JSON and input reading, scrubbing, dates, printable text.

Every other layer may import from here; nothing here imports from the rest of the package, so these
modules stay cheap to load and free of side effects at import time.
"""
