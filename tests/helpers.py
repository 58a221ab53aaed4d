"""What several test folders share: the repository's root (for the pages and scripts tests read)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
