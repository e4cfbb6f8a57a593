"""The businesses repository names the same index keys as the table declaration the stack is built from."""

from tatami_functions.businesses import repository as businesses
from tatami_functions.businesses.table import BUSINESS_LOCATION, BUSINESSES


def test_business_index() -> None:
    assert BUSINESSES.indexes == (BUSINESS_LOCATION,)
    assert businesses.INDEX_KEYS == ("BusinessType", "Location", "BusinessId")
    assert BUSINESS_LOCATION.projection == "INCLUDE"
