"""The HMAC key that makes pagination tokens tamper-proof (lambdas/tatami_functions/common/tokens.py)."""

from __future__ import annotations

from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

from infra.constructs.service_function import add_environment
from infra.nag import acknowledge
from tatami_functions.common.tokens import PageTokenSettings


class PageTokenKey(Construct):
    """A generated secret; `grant(function)` lets a function sign and verify `next` tokens."""

    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
        self.secret = secretsmanager.Secret(
            self,
            "Secret",
            description="HMAC key of tatami's pagination tokens",
            generate_secret_string=secretsmanager.SecretStringGenerator(
                password_length=64, exclude_punctuation=True
            ),
        )
        acknowledge(
            self.secret,
            "AwsSolutions-SMG4",
            "Rotating the key invalidates every outstanding page token; rotate it by hand at a quiet time "
            "(tokens are short-lived cursors).",
        )

    def grant(self, function: lambda_.Function) -> None:
        """The key's value, which is all the function reads (`grant_read` adds DescribeSecret)."""
        iam.Grant.add_to_principal(
            grantee=function,
            actions=["secretsmanager:GetSecretValue"],
            resource_arns=[self.secret.secret_arn],
        )
        add_environment(function, PageTokenSettings.environment(secret_arn=self.secret.secret_arn))
