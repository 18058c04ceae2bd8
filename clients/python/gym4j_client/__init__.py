"""gym4j-client: rollouts and rewards from a gym4j deployment, for RL trainers."""

from .client import Gym4j, Instance, Retries, response_from_text
from .failures import DiscoveryError, Gym4jError, RolloutFailure, VerificationFailed
from .rows import expand
from .serve import DeploymentError, LocalDeployment

__all__ = ["Gym4j", "Instance", "Retries", "response_from_text", "DiscoveryError", "Gym4jError", "RolloutFailure",
           "VerificationFailed", "expand", "DeploymentError", "LocalDeployment"]
__version__ = "0.1.0"
