"""The CLI side of the OLAP export: reading exports with DuckDB locally, Athena in AWS, printing results."""
