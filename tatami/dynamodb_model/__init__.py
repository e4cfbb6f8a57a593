"""An in-memory model of DynamoDB that the Z-index engine runs on unchanged, billed by DynamoDB's rules.

DynamoDB Local writes a few hundred items a second, so it cannot hold the 10^7 or 10^8 items whose
cost a team sizing a table wants to know. This model can: base rows are NumPy columns (a few bytes
an attribute), each GSI a sorted array of row numbers; a Query is a binary search and a walk of one
index range; only the items a page returns become dicts. It speaks the low-level client's language
(:class:`ModelDynamoDB`: the calls ``zindex.dynamodb`` makes), so the engine's planner, optimizer,
executor and maintainer run on it without a change or a branch.

Bottom up: ``tokens``, ``expressions``, ``updates`` (DynamoDB's expression language, parsed) ->
``columns``, ``numbers``, ``texts`` (an attribute of every base row) -> ``conditions`` (expressions
evaluated over rows or one item) -> ``indexes`` (a GSI in key order) -> ``table`` (base rows, the
overlay of items written since, sizes; ``loading``: columns from items; ``hashing``: DynamoDB Local's
key order) -> ``streams`` and ``pages`` (what one Query or Scan page reads and costs) -> ``writes``
(write units) -> ``requests``, ``keyconditions``, ``schema`` (a call's parameters) -> ``client``.
``semantics`` names the three billing details where DynamoDB Local and the documentation differ; the
model does either, and matches DynamoDB Local box for box
(``tests/integration/zindex/test_model_against_dynamodb_local.py``).
"""

from tatami.dynamodb_model.client import ModelDynamoDB
from tatami.dynamodb_model.schema import Meter
from tatami.dynamodb_model.semantics import DOCUMENTED, DYNAMODB_LOCAL, Semantics

__all__ = ["DOCUMENTED", "DYNAMODB_LOCAL", "Meter", "ModelDynamoDB", "Semantics"]
