"""The local cloud: the synthesized CDK template served on DynamoDB Local and moto, on loopback.

`cloud.LocalCloud` puts the parts together and is the entry point; `state`, `lifecycle` and
`control` keep one local cloud per checkout, clear a crashed run and fire rules from the CLI;
`logbook` is its log. The parts, one subpackage each: `template` reads cdk.out; `engines` runs the
AWS services the functions call (DynamoDB Local, moto) and what the local cloud adds to them;
`functions` runs each Lambda function in sandboxed worker processes; `iam` enforces the template's
policies in those workers; `gateway` serves the REST API; `events` delivers stream batches and
scheduled events; `cloudwatch` keeps metrics and alarms. Nothing is imported here: a worker imports
a few of these modules before its sandbox closes, and must not load the rest.
"""
