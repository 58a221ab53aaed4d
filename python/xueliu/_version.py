"""The installed package's version, as its metadata records it (the Rust workspace's version)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("xueliu")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"
