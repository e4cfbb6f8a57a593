"""The local cloud: the synthesized CDK template served on DynamoDB Local and moto, on loopback.

Layers: `assembly` reads cdk.out into plain specs; `intrinsics` resolves CloudFormation functions
to local names; `engines` runs DynamoDB Local and moto; `provision` creates tables, queues and
buckets; `functions` runs each Lambda function in its own worker processes; `api_gateway` serves the
REST API; `streams` runs the DynamoDB stream event-source mappings; `cloud` puts them together.
"""
