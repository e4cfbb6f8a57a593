"""Routes of the campaigns service (seed 004): profiles, and candidates meeting every condition."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from tatami_functions.campaigns import service
from tatami_functions.campaigns.conditions import conditions
from tatami_functions.campaigns.schemas import Month, ProfileIn
from tatami_functions.common.api import create_resolver
from tatami_functions.common.paging import DEFAULT_LIMIT, Limit, NextToken
from tatami_functions.common.prefectures import Prefecture

app = create_resolver("campaigns")

UserId = Annotated[str, Path(min_length=1, max_length=128)]


@app.put("/campaigns/users/<user_id>", summary="Set a user's campaign profile")
def put_profile(user_id: UserId, body: Annotated[ProfileIn, Body()]) -> dict[str, Any]:
    return service.put_profile(user_id, body)


@app.get("/campaigns/users/<user_id>", summary="A user's campaign profile")
def get_profile(user_id: UserId) -> dict[str, Any]:
    return service.profile(user_id)


@app.get("/campaigns/candidates", summary="Users meeting every given condition (selective GSIs)")
def get_candidates(
    prefecture: Annotated[Prefecture | None, Query(description="shipping prefecture, e.g. 千葉県")] = None,
    birth_month: Annotated[Month | None, Query(description="1-12")] = None,
    order_month: Annotated[Month | None, Query(description="month of the last order, 1-12")] = None,
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    asked = conditions(prefecture=prefecture, birth_month=birth_month, order_month=order_month)
    if not asked:
        raise BadRequestError("prefecture: give at least one of prefecture, birth_month, order_month")
    return service.candidates(asked, limit, next_)
