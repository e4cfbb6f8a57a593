"""The model applied to this application: seed 003's measured loads, the IP loader's plan, and the
traffic the local cloud recorded (`tatami local insights`).
"""
