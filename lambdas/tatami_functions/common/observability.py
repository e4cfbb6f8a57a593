"""One Logger, Tracer and Metrics per function (Powertools reads service name and namespace from the env)."""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics, Tracer

logger = Logger()
tracer = Tracer()
metrics = Metrics()
