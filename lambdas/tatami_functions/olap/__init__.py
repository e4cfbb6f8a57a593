"""OLAP export (seed 004): DynamoDB tables exported to S3 for Athena in AWS and DuckDB locally."""
