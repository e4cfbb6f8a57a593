"""How a pattern makes its functions when no app hands it anything: its layers and its stream mappings.

A pattern brings its own layers (the zorder/zindex layer and the Powertools layer, `SharedLayers`), made
once per stack and shared by every pattern in it, unless the app passes the ones it already has. Its
stream consumers invoke the function itself, unless the app asks for safe deployments: then they invoke
the function's `live` alias, which CodeDeploy shifts and rolls back on the service's Critical alarm
(`infra.constructs.deployments`), an alarm only tatami's monitoring stack creates.
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import Stack
from constructs import Construct

from infra.constructs.service_function import SharedLayers

__all__ = ["PatternFunctions", "stack_layers"]

LAYERS_ID = "TatamiPatternLayers"  # the stack's own layers, when no pattern of it was given any


def stack_layers(scope: Construct) -> SharedLayers:
    """The layers every pattern of `scope`'s stack shares, made by the first pattern that asks."""
    stack = Stack.of(scope)
    found = stack.node.try_find_child(LAYERS_ID)
    return found if isinstance(found, SharedLayers) else SharedLayers(stack, LAYERS_ID)


@dataclass(frozen=True)
class PatternFunctions:
    """How a pattern's functions are made.

    ``layers``: the layers they run with (default: the stack's own, `stack_layers`). ``service``: the
    Powertools service name of their logs and metrics, and the service whose alarms watch them.
    ``safe_deployments``: invoke them through a `live` alias shifted by CodeDeploy (tatami's own stack,
    whose monitoring stack makes the Critical alarm that rolls a deployment back); off by default, as
    in an app without that alarm a deployment group would stop every deployment.

    >>> PatternFunctions(service="listings").service
    'listings'
    """

    layers: SharedLayers | None = None
    service: str | None = None
    safe_deployments: bool = False

    def layers_in(self, scope: Construct) -> SharedLayers:
        return self.layers or stack_layers(scope)

    def service_or(self, default: str) -> str:
        return self.service or default
