"""The repositories name the same keys and indexes as the table declarations the stack is built from."""

from tatami_functions.businesses import repository as businesses
from tatami_functions.businesses.table import BUSINESS_LOCATION, BUSINESSES
from tatami_functions.common.tables import IndexSchema, TableSchema
from tatami_functions.forum import repository as forum
from tatami_functions.forum.table import FORUMS, REPLIES, THREADS
from tatami_functions.orders import repository as orders
from tatami_functions.orders.table import ORDERS


def _index_keys(index: IndexSchema, table: TableSchema) -> tuple[str, ...]:
    return (*index.key_names, *table.key_names)


def test_forum_keys() -> None:
    assert forum.FORUM_KEY == ("Name",)
    assert forum.THREAD_KEY == ("ForumName", "Subject") == THREADS.key_names
    assert forum.REPLY_KEY == ("Id", "ReplyDateTime") == REPLIES.key_names
    assert FORUMS.indexes == THREADS.indexes == REPLIES.indexes == ()  # the seed draws no GSI


def test_orders_indexes() -> None:
    by_name = {index.name: index for index in ORDERS.indexes}
    assert (
        set(by_name) == set(orders.INDEX_KEYS) == {"CustomerOrders", "CustomerStatusOrders", "StatusOrders"}
    )
    for name, key_names in orders.INDEX_KEYS.items():
        assert key_names == _index_keys(by_name[name], ORDERS)


def test_business_index() -> None:
    assert BUSINESSES.indexes == (BUSINESS_LOCATION,)
    assert businesses.INDEX_KEYS == ("BusinessType", "Location", "BusinessId")
    assert BUSINESS_LOCATION.projection == "INCLUDE"


def test_create_table_requests_declare_every_key_once() -> None:
    request = ORDERS.create_table_request("Orders")
    names = [d["AttributeName"] for d in request["AttributeDefinitions"]]
    assert names == sorted({"OrderId", "CustomerId", "OrderDate", "StatusDate", "StatusShard"})
    assert "StreamSpecification" not in request  # nothing reads the orders' changes
