"""Playing as a person can: a player that never sees a face-down card.

``observation`` (what a player knows, built move by move from what each move
revealed; tables sampled uniformly from it), ``player`` (hindsight optimisation over
sampled tables with the exact solver), ``run`` (the referee that holds the deal, a
whole game, a hint). Each game says what a player sees in its ``info`` module
(:class:`solver.game.Information`; docs/rules.md, "Playing without peeking").
"""

from .observation import Observation, ObservationError, first_observation
from .player import Decision, Player, Settings
from .run import GameRecord, Referee, no_peek_hint, observe_played, play_game

__all__ = ["Decision", "GameRecord", "Observation", "ObservationError", "Player", "Referee", "Settings",
           "first_observation", "no_peek_hint", "observe_played", "play_game"]
