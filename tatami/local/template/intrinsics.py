"""Resolve CloudFormation intrinsic functions against the local cloud's physical resources.

Only what CDK emits for environments, integrations and outputs is supported: Ref, Fn::GetAtt,
Fn::Join, Fn::Sub, Fn::Select, Fn::Split, Fn::ImportValue (against the app's own exports),
Fn::GetStackOutput (CDK's weak cross-stack references, against the app's own stacks' outputs).
Anything else raises `UnresolvableError` naming the function, never a silent placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

LOCAL_REGION = "us-east-1"
LOCAL_ACCOUNT = "000000000000"
_SUB_VARIABLE = re.compile(r"\$\{([^}!][^}]*)\}")


class UnresolvableError(ValueError):
    """A template value the local cloud cannot turn into a local value."""


@dataclass
class Resolver:
    """Maps logical ids to local physical values; `resolve(value)` walks any template value."""

    stack_name: str
    refs: dict[str, str] = field(default_factory=dict)
    attributes: dict[tuple[str, str], str] = field(default_factory=dict)
    exports: dict[str, str] = field(default_factory=dict)
    stack_outputs: dict[tuple[str, str], str] = field(default_factory=dict)  # (stack, output) -> value

    def pseudo(self) -> dict[str, str]:
        return {
            "AWS::Region": LOCAL_REGION,
            "AWS::AccountId": LOCAL_ACCOUNT,
            "AWS::Partition": "aws",
            "AWS::URLSuffix": "amazonaws.com",
            "AWS::StackName": self.stack_name,
            "AWS::StackId": f"arn:aws:cloudformation:{LOCAL_REGION}:{LOCAL_ACCOUNT}:stack/{self.stack_name}",
            "AWS::NoValue": "",
        }

    def ref(self, name: str) -> str:
        value = self.pseudo().get(name) or self.refs.get(name)
        if value is None:
            raise UnresolvableError(f"Ref {name}: no local resource or pseudo parameter of that name")
        return value

    def get_att(self, logical_id: str, attribute: str) -> str:
        try:
            return self.attributes[(logical_id, attribute)]
        except KeyError:
            raise UnresolvableError(f"Fn::GetAtt {logical_id}.{attribute}: not provided locally") from None

    def resolve(self, value: Any) -> Any:
        """Resolve `value` recursively.

        >>> Resolver("S", refs={"T": "S-T"}).resolve({"Fn::Join": ["/", [{"Ref": "T"}, "x"]]})
        'S-T/x'
        """
        if isinstance(value, list):
            return [self.resolve(item) for item in value]
        if not isinstance(value, Mapping):
            return value
        if len(value) == 1:
            ((key, argument),) = value.items()
            function = _FUNCTIONS.get(key)
            if function is not None:
                return function(self, argument)
            if key.startswith("Fn::"):
                raise UnresolvableError(f"{key} is not supported by the local cloud")
        return {key: self.resolve(item) for key, item in value.items()}


def _ref(resolver: Resolver, name: str) -> str:
    return resolver.ref(name)


def _get_att(resolver: Resolver, argument: Any) -> str:
    logical_id, attribute = argument.split(".", 1) if isinstance(argument, str) else argument
    return resolver.get_att(logical_id, resolver.resolve(attribute))


def _join(resolver: Resolver, argument: list[Any]) -> str:
    delimiter, parts = argument
    return str(delimiter).join(str(part) for part in resolver.resolve(parts))


def _select(resolver: Resolver, argument: list[Any]) -> Any:
    index, items = argument
    return resolver.resolve(items)[int(resolver.resolve(index))]


def _split(resolver: Resolver, argument: list[Any]) -> list[str]:
    delimiter, text = argument
    return str(resolver.resolve(text)).split(delimiter)


def _sub(resolver: Resolver, argument: Any) -> str:
    template, variables = (argument, {}) if isinstance(argument, str) else argument
    variables = {name: resolver.resolve(value) for name, value in variables.items()}

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in variables:
            return str(variables[name])
        if "." in name:
            return resolver.get_att(*name.split(".", 1))
        return resolver.ref(name)

    return _SUB_VARIABLE.sub(substitute, template).replace("${!", "${")


def _import_value(resolver: Resolver, argument: Any) -> str:
    name = resolver.resolve(argument)
    if name not in resolver.exports:
        raise UnresolvableError(f"Fn::ImportValue {name}: no stack of this app exports it")
    return resolver.exports[name]


def _get_stack_output(resolver: Resolver, argument: Any) -> str:
    stack, output = resolver.resolve(argument["StackName"]), resolver.resolve(argument["OutputName"])
    if (stack, output) not in resolver.stack_outputs:
        raise UnresolvableError(f"Fn::GetStackOutput {stack}.{output}: no stack of this app has that output")
    return resolver.stack_outputs[(stack, output)]


_FUNCTIONS: dict[str, Callable[[Resolver, Any], Any]] = {
    "Ref": _ref,
    "Fn::GetAtt": _get_att,
    "Fn::Join": _join,
    "Fn::Select": _select,
    "Fn::Split": _split,
    "Fn::Sub": _sub,
    "Fn::ImportValue": _import_value,
    "Fn::GetStackOutput": _get_stack_output,
}
