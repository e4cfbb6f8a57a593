"""tatami_functions.businesses: a listing's location is whole or absent; drill-down conditions
by level."""

import pytest
from pydantic import ValidationError

from tatami_functions.businesses.locations import location_levels
from tatami_functions.businesses.repository import location_condition
from tatami_functions.businesses.schemas import Business


def test_a_location_is_whole_or_absent() -> None:
    seattle = Business(
        BusinessType="FitnessCenter",
        BusinessName="Business1",
        Country="USA",
        State="Washington",
        City="Seattle",
    )
    assert seattle.location() == "USA:Washington:Seattle"
    assert Business(BusinessType="CoffeeShop", BusinessName="Online").location() is None
    with pytest.raises(ValidationError, match="City is required"):
        Business(BusinessType="CoffeeShop", BusinessName="B", Country="USA", State="Washington")


def test_levels_cannot_hold_the_separator() -> None:
    with pytest.raises(ValidationError, match="City"):
        Business(BusinessType="CoffeeShop", BusinessName="B", Country="USA", State="WA", City="a:b")


@pytest.mark.parametrize("bad", ["", "USA::Seattle", "a:b:c:d", ":"])
def test_bad_locations_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="Country"):
        location_levels(bad)


def test_each_level_is_a_whole_level_prefix_and_a_city_is_an_equality() -> None:
    assert location_condition(()) == ("", {})
    assert location_condition(("USA",))[1] == {":location": {"S": "USA:"}}
    assert location_condition(("USA", "Washington"))[1] == {":location": {"S": "USA:Washington:"}}
    assert location_condition(("USA", "Washington", "Seattle")) == (
        "#location = :location",
        {":location": {"S": "USA:Washington:Seattle"}},
    )
