"""The campaigns service (seed 004): the campaign users table, its API function and routes."""

from __future__ import annotations

from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_indexes, grant_table
from tatami_functions import stack_outputs
from tatami_functions.campaigns.settings import CampaignsSettings
from tatami_functions.campaigns.table import CAMPAIGN_USERS


class CampaignsService(Construct):
    """The campaign users table (`.table`, as "Default") and the function serving the campaign routes.
    The stack gives it the id "CampaignUsers", the table's deployed one, so the table keeps its
    logical ID.

    For example (not run as a doctest)::

        CampaignsService(workshop, "CampaignUsers", shared=shared)
    """

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.table = shared.data_table(
            self, "Default", CAMPAIGN_USERS, output=stack_outputs.OUTPUT_CAMPAIGN_USERS_TABLE
        )
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service="campaigns",
            environment=CampaignsSettings.environment(table=self.table.table_name),
            description="Campaign targeting of seed 004: selective GSIs intersected (REST routes)",
        )
        grant_table(self.function, self.table, "GetItem", "PutItem")
        grant_indexes(self.function, self.table, [i.name for i in CAMPAIGN_USERS.indexes], "Query")
