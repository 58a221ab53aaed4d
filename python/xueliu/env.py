"""Environments for learning agents (docs/encoding.md §3): a PettingZoo AEC env and a ParallelEnv
for all four seats, a Gymnasium env for one seat with built-in opponents in the others
(registered as ``xueliu/<Preset>-v0``), and a Gymnasium ``VectorEnv`` over the Rust
:class:`xueliu.VecEnv`.

All play one hand per episode and speak the encoding of docs/encoding.md: actions are ids
(``Action.from_id``; an exchange is three picks, one tile per id), observations are dicts
``{"observation": uint8[OBS_SHAPE], "action_mask": int8[ACTION_COUNT]}``, and rewards are the
points each step moves. Needs the ``rl`` extra: ``pip install xueliu[rl]``. For many hands at
once in Rust, use :class:`xueliu.VecEnv`.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np

from . import (
    ACTION_COUNT,
    OBS_SHAPE,
    Action,
    ArgumentTypeError,
    Bot,
    BotError,
    Game,
    IllegalActionError,
    VecEnv,
    action_id_name,
)
from ._gym import env_ids, register_envs
from .players import Player

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
    from pettingzoo import AECEnv, ParallelEnv
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("xueliu.env needs pettingzoo and gymnasium: pip install 'xueliu[rl]'") from e

__all__ = [
    "XueliuAEC",
    "XueliuParallel",
    "SingleSeatEnv",
    "VectorEnv",
    "aec_env",
    "parallel_env",
    "env_ids",
    "register_envs",
    "OPPONENTS",
]

SEATS = 4
# One agent's observation: ``{"observation": planes, "action_mask": mask}``.
Observation = dict[str, np.ndarray]
PICKS = range(27)  # ids 0-26: one tile toward an exchange
#: Built-in opponent policies by name; any other name is a Rust bot's (``xueliu.Bot(name)``),
#: and objects with ``.choose(game, seat)`` also serve.
OPPONENTS = ("random", "default")


def _spaces() -> tuple[spaces.Dict, spaces.Discrete]:
    observation = spaces.Dict(
        {
            "observation": spaces.Box(0, 255, shape=OBS_SHAPE, dtype=np.uint8),
            "action_mask": spaces.Box(0, 1, shape=(ACTION_COUNT,), dtype=np.int8),
        }
    )
    return observation, spaces.Discrete(ACTION_COUNT)


def _one_player_per_seat(opponents: list[Any], learner: int) -> list[Any]:
    """Each seat's own player: one :class:`~xueliu.players.Player` given for several seats (a
    ProcessBot follows one seat's view, with a process of its own) is cloned for the others."""
    out, seen = list(opponents), set()
    for s, p in enumerate(out):
        if s != learner and isinstance(p, Player):
            if id(p) in seen:
                out[s] = p.clone()
            seen.add(id(p))
    return out


def _is_policy(p: Any) -> bool:
    """An opponent: a built-in policy's or Rust bot's name, a bot (``.choose(game, seat)``), or
    a :class:`~xueliu.players.Player` such as a :class:`~xueliu.ProcessBot`."""
    if isinstance(p, Player):
        return True
    if not isinstance(p, str):
        return callable(getattr(p, "choose", None))
    if p in OPPONENTS:
        return True
    try:
        Bot(p)
    except BotError as e:
        raise BotError(f"{e}; or a policy: {', '.join(OPPONENTS)}") from None
    return True


class _Hand:
    """One hand played by ids: the game plus each seat's exchange picks so far, which the
    engine's ``Game.act_id`` takes and gives back (the third pick plays the exchange)."""

    def __init__(self, rules: Any, seed: int) -> None:
        self.game = Game(rules, seed=seed)
        self.picks: list[list[int]] = [[] for _ in range(SEATS)]

    def seat_to_act(self) -> Optional[int]:
        """The first seat in seat order that must decide (docs/encoding.md §3)."""
        seats = self.game.to_act()
        return seats[0] if seats else None

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        picked = self.picks[seat]
        return {
            "observation": self.game.observe(seat, picked=picked),
            "action_mask": self.game.action_mask(seat, picked=picked).astype(np.int8),
        }

    def mask(self, seat: int) -> np.ndarray:
        return self.game.action_mask(seat, picked=self.picks[seat])

    def take(self, seat: int, action_id: int) -> list[int]:
        """Plays `action_id` for `seat` (it must be in the mask); returns the points it moved."""
        before = self.game.scores
        self.picks[seat] = self.game.act_id(seat, action_id, picked=self.picks[seat])
        return [a - b for a, b in zip(self.game.scores, before)]

    def play(self, seat: int, action: Action) -> list[int]:
        """Plays a whole action (an opponent's); returns the points it moved."""
        before = self.game.scores
        self.game.act(seat, action)
        return [a - b for a, b in zip(self.game.scores, before)]

    def render(self) -> str:
        g = self.game
        lines = [f"{g!r}"]
        for seat in range(SEATS):
            hand = "".join(str(t) for t in g.hand(seat))
            melds = " ".join(str(m) for m in g.melds(seat))
            river = "".join(str(t) for t in g.discards(seat))
            lines.append(f"  seat {seat}: {hand} [{melds}] void={g.void(seat)} discards={river}")
        return "\n".join(lines)


class _HandEnv:
    """What the two PettingZoo envs share: four seat agents over one hand in memory, dealt from
    the env's own seed sequence and rendered as text."""

    metadata: dict[str, Any]

    def _set_up(self, rules: Any, seed: Optional[int], render_mode: Optional[str]) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}; choose from {self.metadata['render_modes']}")
        self.rules = rules
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{i}" for i in range(SEATS)]
        observation, action = _spaces()
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: action for a in self.possible_agents}
        self._seeds = np.random.default_rng(seed)
        self.hand = _Hand(rules, int(self._seeds.integers(2**63)))

    def _deal(self, seed: Optional[int]) -> None:
        """A new hand: of `seed` if given (which also restarts the env's seed sequence), else of
        the next seed drawn from it."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.hand = _Hand(self.rules, int(self._seeds.integers(2**63)))

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space: the ``observation`` planes and the ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space: ``Discrete(ACTION_COUNT)``, the fixed action ids."""
        return self.action_spaces[agent]

    def render(self) -> Optional[str]:
        """The hand as text: printed in ``"human"`` mode, else returned."""
        text = self.hand.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the hand lives in memory."""


class XueliuAEC(_HandEnv, AECEnv):
    """All four seats of one hand as a PettingZoo AEC env (agents ``seat_0`` … ``seat_3``).

    Simultaneous decisions (exchange, void, responses to a discard or a kong) are asked one seat
    at a time, lowest seat first; each is stored hidden until the last is in, so the order
    changes nothing. An exchange is three steps of the same agent, one tile each. After every
    step each agent's reward is the points that step moved to or from it. The hand ends all
    agents at once. An id outside the mask raises :class:`xueliu.IllegalActionError`.
    """

    metadata = {"name": "xueliu_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, rules: Any = None, seed: Optional[int] = None, render_mode: Optional[str] = None) -> None:
        super().__init__()
        self._set_up(rules, seed, render_mode)

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        """Deals a new hand: of `seed` if given, else of the next seed drawn from the env's."""
        self._deal(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        first = self.hand.seat_to_act()
        assert first is not None  # a new hand always has a seat to decide
        self.agent_selection = self.possible_agents[first]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees now: ``{"observation": planes, "action_mask": mask}``."""
        return self.hand.observe(self.possible_agents.index(agent))

    def step(self, action: Optional[int]) -> None:
        """Takes ``action`` (an id) for the selected agent; rewards are the points it moved."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        if action is None:
            raise ArgumentTypeError(f"{agent} must decide now: step it with an action id, not None")
        moved = self.hand.take(seat, action)
        self.rewards = {a: float(moved[self.possible_agents.index(a)]) for a in self.agents}
        next_seat = self.hand.seat_to_act()
        if next_seat is None:
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[next_seat]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


def aec_env(rules: Any = None, seed: Optional[int] = None, render_mode: Optional[str] = None) -> XueliuAEC:
    """The PettingZoo AEC env of one hand under `rules` (a preset name, a dict or a Rules)."""
    return XueliuAEC(rules=rules, seed=seed, render_mode=render_mode)


class SingleSeatEnv(gymnasium.Env):
    """One seat of a hand as a Gymnasium env; built-in opponents play the other three.

    ``opponents`` is one policy for all three or one per seat (the learner's entry is
    ignored): ``"random"`` plays a uniformly random legal action drawn from the env's seeded
    generator, ``"default"`` the engine's timeout action (``Game.default_action``), any other
    bot name (``"greedy"``) the Rust bot ``xueliu.Bot(name, seed=(h + seat) % 2**64)`` built
    anew for each hand of seed ``h``, and any object with ``.choose(game, seat) -> Action`` (a
    bot such as ``xueliu.Bot``) decides itself; it is handed the live game and must not change
    it. The reward is the points the learner's step and the opponents' replies moved to or from
    it; the episode ends with the hand. Observations are dicts as in the AEC env; ``action_masks()`` returns the
    mask as bools (sb3-contrib's convention). An id outside the mask plays the learner's
    ``default_action`` instead (or, during an exchange already begun, its lowest legal pick) and
    sets ``info["illegal_action"]``; with ``illegal="raise"`` it raises
    :class:`xueliu.IllegalActionError`.
    """

    # render_fps: how often "human" mode may print, for Gymnasium's checker (text, no frames).
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        rules: Any = None,
        seat: int = 0,
        opponents: Union[str, Any, Sequence[Any]] = "random",
        seed: Optional[int] = None,
        illegal: str = "default",
        render_mode: Optional[str] = None,
    ) -> None:
        if seat not in range(SEATS):
            raise ValueError(f"seat {seat} does not exist; seats are 0-3")
        one = isinstance(opponents, (str, Player)) or hasattr(opponents, "choose")
        names = [opponents] * SEATS if one else list(opponents)
        if len(names) != SEATS or not all(_is_policy(n) for i, n in enumerate(names) if i != seat):
            raise ValueError(
                f"opponents {opponents!r}: give one of {OPPONENTS}, a bot name, an object with"
                " .choose(game, seat) -> Action or a ProcessBot, for all seats or one per seat"
            )
        names = _one_player_per_seat(names, seat)
        if illegal not in ("default", "raise"):
            raise ValueError(f"illegal={illegal!r}; choose 'default' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}; choose from {self.metadata['render_modes']}")
        self.rules = rules
        self.seat = seat
        self.opponents = names
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces()
        self._first_seed = seed
        self.hand: Optional[_Hand] = None
        self._ended = False  # the players were told that the hand in ``hand`` is over
        self._bots: list[Any] = names

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deals a new hand (of ``seed``, if given) and plays the opponents up to the learner's
        first decision; returns its observation and an empty info dict."""
        if seed is None and self.hand is None:
            seed = self._first_seed
        super().reset(seed=seed)
        while True:
            hand_seed = int(self.np_random.integers(2**63))
            self._end_players()
            self.hand = _Hand(self.rules, hand_seed)
            self._bots = [
                Bot(p, seed=(hand_seed + s) % 2**64)
                if s != self.seat and isinstance(p, str) and p not in OPPONENTS
                else p
                for s, p in enumerate(self.opponents)
            ]
            self._ended = False
            for s, p in self._players():
                p.begin(self.hand.game, s)
            self._advance(self.hand)
            # Three opponents can finish a hand before the learner ever decides; deal again.
            if not self.hand.game.is_over:
                return self.hand.observe(self.seat), {}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Takes the learner's ``action`` (an id), then the opponents' moves up to its next
        decision: (observation, points moved to the learner, hand over, False, info)."""
        if self.hand is None:
            raise RuntimeError("call reset() before step()")
        info: dict[str, Any] = {}
        action = int(action)
        mask = self.hand.mask(self.seat)
        if not (0 <= action < ACTION_COUNT and mask[action]):
            if self.illegal == "raise":
                self.hand.take(self.seat, action)  # raises, naming the legal ids
            info["illegal_action"] = True
            action = self._fallback(self.hand, mask)
        reward = self.hand.take(self.seat, action)[self.seat] + self._advance(self.hand)
        if self.hand.game.is_over:
            self._end_players()
        if self.render_mode == "human":
            self.render()
        return self.hand.observe(self.seat), float(reward), self.hand.game.is_over, False, info

    def action_masks(self) -> np.ndarray:
        """The learner's mask as bools."""
        if self.hand is None:
            raise RuntimeError("call reset() first")
        return self.hand.mask(self.seat)

    def _fallback(self, hand: _Hand, mask: np.ndarray) -> int:
        """The first id of the learner's default action, or its lowest legal pick mid-exchange."""
        if hand.picks[self.seat]:
            return int(np.flatnonzero(mask[: len(PICKS)])[0])
        return hand.game.default_action(self.seat).ids[0]

    def _advance(self, hand: _Hand) -> int:
        """Opponents decide until the learner must or the hand ends; returns the learner's
        points moved meanwhile."""
        moved = 0
        while (seat := hand.seat_to_act()) is not None and seat != self.seat:
            moved += hand.play(seat, self._opponent_action(hand.game, seat))[self.seat]
        return moved

    def _opponent_action(self, game: Game, seat: int) -> Action:
        policy = self._bots[seat]
        if isinstance(policy, Player):
            return policy.decide(game, seat)
        if not isinstance(policy, str):
            chosen: Action = policy.choose(game, seat)
            return chosen
        if policy == "default":
            return game.default_action(seat)
        legal = game.legal_actions(seat)
        return legal[int(self.np_random.integers(len(legal)))]

    def render(self) -> Optional[str]:
        """The hand as text: printed in ``"human"`` mode, else returned."""
        text = self.hand.render() if self.hand is not None else "(no hand yet)"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _players(self) -> list[tuple[int, Player]]:
        """The opponents that follow a hand from its start to its end (a ProcessBot's process)."""
        return [(s, p) for s, p in enumerate(self.opponents) if s != self.seat and isinstance(p, Player)]

    def _end_players(self) -> None:
        """Tells each player that the hand it followed is over (once, even if cut short)."""
        if self.hand is not None and not self._ended:
            for s, p in self._players():
                p.end(self.hand.game, s)
            self._ended = True

    def close(self) -> None:
        """Ends the hand for the players and stops their processes (a ProcessBot's); the hand
        itself lives in memory."""
        self._end_players()
        for _, p in self._players():
            p.close()


class XueliuParallel(_HandEnv, ParallelEnv):
    """All four seats of one hand as a PettingZoo ParallelEnv (agents ``seat_0`` … ``seat_3``):
    each step takes one action id from every seat deciding now, together — the exchange picks
    (three steps, one tile each), the void declarations, the responses to a discard or a kong —
    or from the one seat on turn. A seat with nothing to decide has an all-zero mask and its
    action, if any, is ignored. Each agent's reward is the points the step moved to or from it;
    the hand ends all agents at once. A missing or illegal id for a deciding seat raises
    :class:`xueliu.IllegalActionError` and, the ids being checked first, changes nothing.
    """

    metadata = {"name": "xueliu_parallel_v0", "render_modes": ["ansi", "human"]}

    def __init__(self, rules: Any = None, seed: Optional[int] = None, render_mode: Optional[str] = None) -> None:
        self._set_up(rules, seed, render_mode)
        self.agents: list[str] = []

    def reset(
        self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Deals a new hand (of ``seed``, if given, else the next seed drawn from the env's):
        every agent's observation and an empty info each."""
        self._deal(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def deciding(self) -> list[str]:
        """The agents that must give an action id in the next step."""
        return [self.possible_agents[s] for s in self.hand.game.to_act()]

    def step(
        self, actions: dict[str, int]
    ) -> tuple[dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """Takes the deciding agents' ids in seat order: (observations, rewards, terminations,
        truncations, infos), each keyed by agent."""
        if not self.agents:
            raise RuntimeError("the hand is over; call reset()")
        seats = self.hand.game.to_act()
        ids: dict[int, int] = {}
        for seat in seats:
            agent = self.possible_agents[seat]
            given = actions.get(agent)
            mask = self.hand.mask(seat)
            if given is None or not (0 <= int(given) < ACTION_COUNT and mask[int(given)]):
                legal = ", ".join(f"{i} ({action_id_name(int(i))})" for i in np.flatnonzero(mask))
                raise IllegalActionError(
                    f"{agent} must decide now with a legal action id, got {given!r}; legal ids: {legal}"
                )
            ids[seat] = int(given)
        moved = [0] * SEATS
        for seat in seats:
            moved = [m + d for m, d in zip(moved, self.hand.take(seat, ids[seat]))]
        over = self.hand.game.is_over
        agents = self.agents
        observations = self._observations()
        rewards = {a: float(moved[i]) for i, a in enumerate(agents)}
        terminations = {a: over for a in agents}
        truncations = {a: False for a in agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, Observation]:
        return {a: self.hand.observe(i) for i, a in enumerate(self.possible_agents)}


def parallel_env(rules: Any = None, seed: Optional[int] = None, render_mode: Optional[str] = None) -> XueliuParallel:
    """The PettingZoo ParallelEnv of one hand under `rules` (a preset name, a dict or a Rules)."""
    return XueliuParallel(rules=rules, seed=seed, render_mode=render_mode)


class VectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` hands as a Gymnasium ``VectorEnv``, stepped together in Rust
    (:class:`xueliu.VecEnv`, docs/encoding.md §4): the learner holds seat 0 of every hand and
    ``opponents`` (``"random"``, ``"default"`` or a bot name such as ``"greedy"``, for seats 1–3,
    or a list of four with ``None`` first) play the other seats inside the same step.

    Observations are ``{"observation": uint8[n, 71, 27], "action_mask": int8[n, 114]}`` (the
    single-seat env's, batched); ``action_masks()`` gives the mask as bools (sb3-contrib's
    convention). Actions are ``int[n]`` ids, each legal for its hand (else
    :class:`xueliu.IllegalActionError`, and no hand moves). The reward is the points the step
    (the learner's decision and the opponents' replies) moved to or from seat 0.
    ``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``: a hand that ends is dealt
    again within the same step, so its row already shows the next hand's first decision.
    Hands end only by termination, never truncation, so nothing past the end is needed for
    bootstrapping, and ``infos`` stay empty (no ``final_obs``). ``copy=False`` returns the Rust
    env's own arrays, overwritten by the next step.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        rules: Any = None,
        opponents: Union[str, Sequence[Any]] = "random",
        seed: Optional[int] = None,
        *,
        threads: Optional[int] = None,
        copy: bool = True,
    ) -> None:
        names = [None, opponents, opponents, opponents] if isinstance(opponents, str) else list(opponents)
        if len(names) != SEATS or names[0] is not None or any(n is None for n in names[1:]):
            raise ValueError(
                f"opponents={opponents!r}: one policy for seats 1-3, or four entries with None "
                "(the learner) first and a policy in seats 1-3"
            )
        self.rules = rules
        self.vec = VecEnv(num_envs, rules, seed, names, threads=threads)
        self.num_envs = num_envs
        self.copy = copy
        self.render_mode = None
        self.single_observation_space, self.single_action_space = _spaces()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seed = seed
        self._mask: Optional[np.ndarray] = None

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deals every hand again (from ``seed``, if given, else the constructor's on the first
        reset and fresh hands later) up to seat 0's first decision: (observations, infos)."""
        if seed is None and self._mask is None:
            seed = self._seed
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
        obs, mask, _ = self.vec.reset(seed)
        return self._observation(obs, mask), {}

    def step(self, actions: Any) -> tuple[Observation, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Takes each hand's id for seat 0, then the opponents' replies up to its next decision:
        (observations, rewards ``float64[n]``, terminated ``bool[n]``, truncated, infos)."""
        if self._mask is None:
            raise RuntimeError("call reset() before step()")
        obs, mask, rewards, terminated, _ = self.vec.step(np.asarray(actions, dtype=np.int32))
        reward = rewards[:, 0].copy()
        terminated = terminated.copy() if self.copy else terminated
        return self._observation(obs, mask), reward, terminated, np.zeros(self.num_envs, dtype=bool), {}

    def action_masks(self) -> np.ndarray:
        """Each hand's mask for seat 0 as bools, ``bool[n, 114]``."""
        if self._mask is None:
            raise RuntimeError("call reset() first")
        return self._mask.copy() if self.copy else self._mask

    def _observation(self, obs: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        self._mask = mask
        if self.copy:
            obs, mask = obs.copy(), mask.copy()
        return {"observation": obs, "action_mask": mask.view(np.int8)}

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release beyond the Rust env, which goes with this object."""


register_envs()
