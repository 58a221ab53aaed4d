"""Gymnasium ids for the single-seat env of each preset, ``xueliu/<Preset>-v0``
(``xueliu/Chengdu-v0``, ``xueliu/ChengduXueliu-v0``, …). Kept apart from ``xueliu.env`` and free
of top-level Gymnasium imports, so that Gymnasium's plugin loader (the ``gymnasium.envs`` entry
point, Gymnasium 0.26–0.29) can call :func:`register_envs` while Gymnasium itself is importing."""

from __future__ import annotations

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
