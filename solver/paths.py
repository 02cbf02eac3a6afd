"""The repository's folders: the rules and variants (``models/``), the certificates
(``proofs/``) and the generated reports (``reports/``)."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
MODELS_DIR = REPO_ROOT / "models"
PROOFS_DIR = REPO_ROOT / "proofs"
REPORTS_DIR = REPO_ROOT / "reports"
