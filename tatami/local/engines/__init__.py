"""The AWS services the functions call through the SDK: DynamoDB Local and moto server as child
processes (`processes`) watched for deaths (`watchdog`), filled from the template (`provision`), and
what the local cloud adds where those engines fall short of AWS: a reliable TTL sweeper (`ttl`),
DynamoDB's export API (`exports`), injected faults (`faults`) and the recorded DynamoDB traffic
(`traffic`). The last three are botocore hooks a worker installs before its sandbox closes, so
they import the standard library only.
"""
