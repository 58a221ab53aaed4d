"""Gymnasium ids for the single-seat env of each preset, ``xueliu/<Preset>-v0``
(``xueliu/Chengdu-v0``, ``xueliu/ChengduXueliu-v0``, …). Kept apart from ``xueliu.env`` and free
of top-level Gymnasium imports, so that Gymnasium's plugin loader (the ``gymnasium.envs`` entry
point, Gymnasium 0.26–0.29) can call :func:`register_envs` while Gymnasium itself is importing,
and so that ``import xueliu`` can arrange it for Gymnasium 1.x (:func:`register_with_gymnasium`)
without importing Gymnasium."""

from __future__ import annotations

import sys
from typing import Any, Optional, Sequence

from ._xueliu import Rules

NAMESPACE = "xueliu"


def env_ids() -> dict[str, str]:
    """Each preset's Gymnasium id: ``{"xueliu/Chengdu-v0": "chengdu", …}``."""
    return {f"{NAMESPACE}/{_camel(p)}-v0": p for p in Rules.presets()}


def _camel(preset: str) -> str:
    return "".join(part.capitalize() for part in preset.split("_"))


def register_envs() -> None:
    """Registers ``xueliu/<Preset>-v0`` for every preset (once; ``xueliu.env`` calls it on import):
    ``gymnasium.make("xueliu/Chengdu-v0", opponents="greedy")`` is ``SingleSeatEnv("chengdu", …)``."""
    from gymnasium.envs.registration import namespace, register, registry

    with namespace(NAMESPACE):  # the plugin loader's own namespace; ids name none themselves
        for env_id, preset in env_ids().items():
            if env_id not in registry:
                register(id=env_id.split("/", 1)[1], entry_point="xueliu.env:SingleSeatEnv", kwargs={"rules": preset})


def register_with_gymnasium() -> None:
    """Makes ``gymnasium.make("xueliu/Chengdu-v0")`` work after ``import xueliu`` on Gymnasium
    1.x too, which loads no entry points: registers the ids now if Gymnasium is loaded, else
    right after Gymnasium is imported (:class:`_AfterGymnasium`). ``import xueliu`` calls it; it
    imports nothing itself."""
    if "gymnasium.envs.registration" in sys.modules:
        register_envs()
    elif "gymnasium" not in sys.modules:  # (while Gymnasium imports, its entry point registers)
        if not any(isinstance(finder, _AfterGymnasium) for finder in sys.meta_path):
            sys.meta_path.insert(0, _AfterGymnasium())


class _AfterGymnasium:
    """An import hook that, on the first ``import gymnasium``, steps aside, lets the usual finders
    find Gymnasium, and has its loader call :func:`register_envs` once Gymnasium has run."""

    def find_spec(self, name: str, path: Optional[Sequence[str]], target: Any = None) -> Any:
        if name != "gymnasium":
            return None
        import importlib.util

        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            run = spec.loader.exec_module

            def run_then_register(module: Any) -> None:
                run(module)
                register_envs()

            spec.loader.exec_module = run_then_register  # type: ignore[method-assign]
        return spec
