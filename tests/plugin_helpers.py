"""Third-party plugins as pip would leave them, for tests that start cardcore beside them."""

from __future__ import annotations

from pathlib import Path


def fake_distribution(root: Path, name: str, source: str, dist: str | None = None,
                      group: str = "cardcore", attribute: str | None = None) -> Path:
    """A module ``{name}_module`` holding ``source`` and its dist-info in ``root``, with an
    entry point ``name`` in ``group`` (the module, or its ``attribute``): ``root`` on
    PYTHONPATH installs it."""
    dist = dist or f"{name}-plugin"
    info = root / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    target = f"{name}_module:{attribute}" if attribute else f"{name}_module"
    (info / "entry_points.txt").write_text(f"[{group}]\n{name} = {target}\n")
    (root / f"{name}_module.py").write_text(source)
    return root
