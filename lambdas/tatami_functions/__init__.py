"""The Lambda functions' code: one subpackage per service and `common`, which they all share.

Each function's asset is `lambdas/` filtered to this package's `common` and its service, so Lambda
imports `tatami_functions.<service>` exactly as the CLI and the tests do.
"""
