"""Lambda functions run locally: a pool of worker processes per function (`pool`), each one
execution environment (`worker`) with the environment variables Lambda would set (`environment`)
and an import path holding only what Lambda's would (`sandbox`).
"""
