"""Code every service's functions share: API conventions and observability."""
