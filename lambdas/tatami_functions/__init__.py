"""The Lambda functions' code: one package per service, flat, named for what it serves, and `common`.

Every service package has the same files with the same roles (tests/unit/layout/test_service_shape.py
holds them to it), and `infra/services/<service>.py` builds its tables, functions and routes:

- `__init__.py`: what the service serves and which seed it comes from;
- `handler.py`: the Lambda entry points and nothing else;
- `api.py` (a service behind the REST API): the routes only: parameters in, the logic called, the
  answer shaped; paging through `common.paging`;
- `schemas.py` (a service behind the REST API): request and response bodies and parameter types;
- `service.py`: the logic, in the domain's words: what a route or a record asks of the repository;
- `repository.py`: the only module that talks to AWS: `<Name>Repository` (`common.repository`) and
  `repository()`, the function's one instance; every SDK error leaves it as the service's own error;
- `table.py`: the service's tables declared once (`common.tables.TableSchema`: keys, GSIs, TTL,
  stream), read by the repository and by the construct;
- `exceptions.py`: the service's errors (not found: 404, conflict: 409, unavailable: 503);
- `settings.py`: the environment variables the function reads (`common.settings`);
- other modules are named for a domain idea (`keys.py`, `sharding.py`, `addresses.py`) and never
  talk to AWS.

Each function's asset is `lambdas/` filtered to what its handler imports, so Lambda imports
`tatami_functions.<service>` exactly as the CLI and the tests do. `stack_outputs` (the deployed
stack's public contract, read by the CLI and written by the CDK app) ships in no function.
"""
