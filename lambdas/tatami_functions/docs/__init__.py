"""Publishes one OpenAPI document for every route of the API."""
