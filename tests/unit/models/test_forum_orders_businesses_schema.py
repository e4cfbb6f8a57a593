"""The repositories name the same keys and indexes as the key schemas the stack is built from."""

from infra.constructs import forum_orders_businesses_schema as schema
from tatami_functions.businesses import repository as businesses
from tatami_functions.forum import repository as forum
from tatami_functions.orders import keys as orders


def _index_keys(index: schema.IndexSchema, table: schema.TableSchema) -> tuple[str, ...]:
    return (index.partition_key, index.sort_key or "", table.partition_key)


def test_forum_keys() -> None:
    assert (schema.FORUMS.partition_key,) == forum.FORUM_KEY
    assert (schema.THREADS.partition_key, schema.THREADS.sort_key) == forum.THREAD_KEY
    assert (schema.REPLIES.partition_key, schema.REPLIES.sort_key) == forum.REPLY_KEY


def test_orders_indexes() -> None:
    by_name = {index.name: index for index in schema.ORDERS.indexes}
    assert set(by_name) == set(orders.INDEX_KEYS)
    for name, key_names in orders.INDEX_KEYS.items():
        assert key_names == _index_keys(by_name[name], schema.ORDERS)


def test_business_index() -> None:
    (index,) = schema.BUSINESSES.indexes
    assert index.name == businesses.LOCATION_INDEX
    assert _index_keys(index, schema.BUSINESSES) == businesses.INDEX_KEYS


def test_create_table_requests_declare_every_key_once() -> None:
    request = schema.ORDERS.create_table_request("Orders")
    names = [d["AttributeName"] for d in request["AttributeDefinitions"]]
    assert names == sorted({"OrderId", "CustomerId", "OrderDate", "StatusDate", "StatusShard"})
    assert "StreamSpecification" not in request  # nothing reads the orders' changes
