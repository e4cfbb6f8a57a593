"""The orders repository names the same keys and indexes as the table declaration the stack is built from."""

from tatami_functions.common.tables import IndexSchema, TableSchema
from tatami_functions.orders import repository as orders
from tatami_functions.orders.table import ORDERS


def _index_keys(index: IndexSchema, table: TableSchema) -> tuple[str, ...]:
    return (*index.key_names, *table.key_names)


def test_orders_indexes() -> None:
    by_name = {index.name: index for index in ORDERS.indexes}
    assert (
        set(by_name) == set(orders.INDEX_KEYS) == {"CustomerOrders", "CustomerStatusOrders", "StatusOrders"}
    )
    for name, key_names in orders.INDEX_KEYS.items():
        assert key_names == _index_keys(by_name[name], ORDERS)


def test_create_table_requests_declare_every_key_once() -> None:
    request = ORDERS.create_table_request("Orders")
    names = [d["AttributeName"] for d in request["AttributeDefinitions"]]
    assert names == sorted({"OrderId", "CustomerId", "OrderDate", "StatusDate", "StatusShard"})
    assert "StreamSpecification" not in request  # nothing reads the orders' changes
